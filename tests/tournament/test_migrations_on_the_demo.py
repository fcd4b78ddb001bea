"""Issue 52's migrations (0020 persons, 0021 seats) back and forth on the finished demo's
database: every public page, download and API answer, and the tournament file, the same
before and after; the integrity check of the standings finds no difference."""

from __future__ import annotations

import hashlib
import io
import re

import openpyxl
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from pypdf import PdfReader

from tests.tournament.live_demo.test_cache_headers import api_addresses, public_addresses
from tournament.demo import build_demo
from tournament.exchange.common import dump
from tournament.exchange.export import export_tournament
from tournament.models import Tournament
from tournament.selectors.integrity import check_standings

BEFORE_PERSONS = [("tournament", "0019_backup_state")]


def answers(tournament) -> dict[str, str]:
    """Every public address of the demo, in both languages, and the API: each answer's
    status and a digest of its body."""
    client = Client()
    # The persons' own pages (issue 55) are the site's and keyed by person id, which 0020
    # makes anew going forward: left out, and a person's id in a link read as any id.
    addresses = [address for name, address in public_addresses(tournament).items()
                 if name not in PERSONS_PAGES]
    addresses += ["/zh-hans" + address for address in addresses]
    addresses += [a for a in api_addresses(tournament) if not a.startswith(PERSONS_API)]
    found = {}
    for address in addresses:
        response = client.get(address)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        body = PERSON_LINK.sub(b"/persons/ID/", contents(body))
        found[address] = f"{response.status_code} {hashlib.sha256(body).hexdigest()}"
    return found


PERSONS_PAGES = {"persons", "person", "master_points", "persons_export",
                 "master_points_export"}
PERSONS_API = ("/api/persons", "/api/ratings")
PERSON_LINK = re.compile(rb"/persons/\d+/")


def contents(body: bytes) -> bytes:
    """What a reader sees of an answer: a spreadsheet's cells and a PDF's text, without the
    moment they were written (both files carry it)."""
    if body.startswith(b"PK"):  # XLSX
        book = openpyxl.load_workbook(io.BytesIO(body))
        return repr([[list(row) for row in sheet.iter_rows(values_only=True)]
                     for sheet in book.worksheets]).encode()
    if body.startswith(b"%PDF"):
        return "\f".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages
                          ).encode()
    return body


def latest(executor: MigrationExecutor) -> list:
    return executor.loader.graph.leaf_nodes("tournament")


@pytest.mark.django_db(transaction=True)
def test_the_demo_answers_the_same_after_the_migrations_back_and_forth():
    build_demo(11)
    tournament = Tournament.objects.get(slug="demo")
    before = answers(tournament)
    assert answers(tournament) == before  # nothing in them changes by itself
    exported = dump(export_tournament(tournament, secrets=True))
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE_PERSONS)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest(executor))
    tournament = Tournament.objects.get(slug="demo")
    assert answers(tournament) == before
    assert dump(export_tournament(tournament, secrets=True)) == exported
    assert check_standings(tournament).ok
