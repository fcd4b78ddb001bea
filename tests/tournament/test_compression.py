"""Compression (docs/deploy.md): what an anonymous reader is sent is gzipped when asked for,
whatever the public cache does; a signed-in reader's and a table device's responses never
are, nor files compressed already."""

import csv
import gzip
import io
import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.views.public_event import one_event_per_module

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}

built_event, event, tournament = one_event_per_module(teams=8, closed=1)


def unzipped(response) -> bytes:
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    return gzip.decompress(response.content)


@pytest.mark.parametrize("cache_seconds", [0, 300])
def test_public_pages_json_and_csv_are_compressed(client, tournament, event, settings,
                                                  cache_seconds):
    settings.PUBLIC_CACHE_SECONDS = cache_seconds
    cache.clear()
    slug = tournament.slug
    page = client.get(reverse("public:standings", args=[slug]), **GZIP)
    assert b"<html" in unzipped(page)
    plain = client.get(reverse("public:standings", args=[slug]))
    assert "Content-Encoding" not in plain and b"<html" in plain.content
    api = client.get(f"/api/tournaments/{slug}/individual", **GZIP)
    assert json.loads(unzipped(api))
    download = client.get(reverse("public:individual_export", args=[slug, "csv"]), **GZIP)
    rows = list(csv.reader(io.StringIO(unzipped(download).decode("utf-8-sig"))))
    assert rows[0][0] == "#" and len(rows) > 1
    cache.clear()


def test_a_small_answer_is_sent_as_it_is(client, tournament, event):
    response = client.get(f"/api/tournaments/{tournament.slug}", **GZIP)
    assert len(response.content) < 1024 and "Content-Encoding" not in response


def test_files_compressed_already_are_sent_as_they_are(client, tournament, event):
    xlsx = client.get(reverse("public:standings_export", args=[tournament.slug, "xlsx"]),
                      **GZIP)
    assert xlsx.status_code == 200 and "Content-Encoding" not in xlsx


def test_a_signed_in_reader_gets_nothing_compressed(client, tournament, event, staff_user):
    client.force_login(staff_user(tournament, "director"))
    for url in (reverse("public:standings", args=[tournament.slug]),
                reverse("director:dashboard", args=[tournament.slug])):
        response = client.get(url, **GZIP)
        assert response.status_code == 200
        assert "Content-Encoding" not in response, url


def test_a_table_device_gets_nothing_compressed(client, tournament, event):
    response = client.get(f"/api/tournaments/{tournament.slug}/standings",
                          HTTP_AUTHORIZATION="Bearer not-a-token", **GZIP)
    assert "Content-Encoding" not in response
