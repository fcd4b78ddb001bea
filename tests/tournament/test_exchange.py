"""Export and import of a whole tournament (issue 14, item 2): a tournament played through
the services round-trips byte for byte, the imported one ranks and checks as the original,
a file without secrets carries no card of the round in play and no secret key. Broken files:
test_exchange_refusals.py."""

import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournament.views.public_event import (
    leaked_runs,
    one_event_per_module,
    public_runs,
    secret_runs,
)
from tournament.exchange.common import IMPORT_ACTION, dump
from tournament.exchange.export import export_text, export_tournament
from tournament.exchange.import_ import import_tournament
from tournament.exchange.problems import ImportRefused
from tournament.exchange.read import read_document
from tournament.exchange.schema import SCHEMA
from tournament.models import AuditEntry, DealKey, HandResult, Stage, Tournament
from tournament.selectors.integrity import check_standings
from tournament.selectors.standings import stage_standings

ROOT = Path(__file__).resolve().parents[2]


CODES = [("CHN", "中国红队"), ("ITA", "Italia"), ("FRA", "Équipe de France"), ("USA", "USA"),
         ("JPN", "日本"), ("GER", "Deutschland")]
built_event, event, tournament = one_event_per_module(teams=6, codes=CODES)


def standings_of(tournament):
    out = []
    for stage in Stage.objects.filter(tournament=tournament).order_by("order"):
        table = stage_standings(stage)
        out.append([(line.rank, line.team.code, line.match_points, line.small_points,
                     line.wins, line.gins, line.byes, line.provisional, line.separated_by)
                    for line in table.lines])
    return out


def same_people(document: dict) -> dict[str, str]:
    """A copy in the same database: each person of the file mapped to their own account
    (a file never takes an account over by its name alone)."""
    return {p["username"]: p["username"] for p in document["people"]}


def test_round_trip_is_byte_identical(event, tournament):
    first = export_text(tournament, secrets=True)
    document = read_document(first.encode())
    copy_ = import_tournament(document, slug="copy", map_users=same_people(document))
    second = export_text(copy_, secrets=True)
    assert second.replace('"slug": "copy"', '"slug": "world-cup"') == first
    assert first.endswith("}\n") and "中国红队" in first
    assert standings_of(copy_) == standings_of(tournament)
    report = check_standings(copy_)
    assert report.ok, report.differences
    assert report.hands == check_standings(tournament).hands > 0
    imported = AuditEntry.objects.get(tournament=copy_, action=IMPORT_ACTION)
    assert imported.actor is None and "imported" in imported.summary
    # The times are the original ones, to the microsecond.
    original = HandResult.objects.filter(table__round__stage__tournament=tournament)
    again = HandResult.objects.filter(table__round__stage__tournament=copy_)
    assert sorted(original.values_list("entered_at", flat=True)) == \
        sorted(again.values_list("entered_at", flat=True))


def test_the_file_matches_its_json_schema_and_names_no_database_id(event, tournament):
    import jsonschema  # in the test extra: the schema is checked everywhere, CI included
    document = export_tournament(tournament, secrets=True)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    times = re.findall(r'"(\d{4}-\d\d-\d\dT[^"]+)"', dump(document))
    assert times and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", t)
                         for t in times)
    audit_data = [entry["data"] for entry in document["audit"]]
    rounds = [data["round"] for data in audit_data if "round" in data]
    assert rounds and all(isinstance(r, list) and r[0] == "Swiss" for r in rounds)


def test_the_schema_in_the_docs_is_the_one_the_import_uses():
    text = (ROOT / "docs" / "formats.md").read_text()
    block = text.split("<!-- tournament-schema -->", 1)[1].split("```json", 1)[1]
    assert json.loads(block.split("```", 1)[0]) == SCHEMA


def test_without_secrets_no_card_of_the_open_round_and_no_secret_key(event, tournament):
    text = export_text(tournament)
    secret = DealKey.objects.get(tournament=tournament, revealed_at=None)
    assert secret.key_hex not in text
    assert secret.commitment in text
    shown = public_runs(event.closed)  # the closed rounds' deals are in it, in full
    assert shown and not leaked_runs(text.replace('"', " "), secret_runs(event.open), shown)
    document = json.loads(text)
    open_round = document["rounds"][-1]
    assert open_round["status"] == "in_play" and open_round["deals"] is None
    assert document["rounds"][0]["deals"]  # the closed rounds' deals are public
    assert all(p["pin_hash"] is None for t in document["teams"] for p in t["players"])
    # With secrets, the same check finds the open round's cards.
    assert leaked_runs(export_text(tournament, secrets=True).replace('"', " "),
                       secret_runs(event.open), shown)
    # Such a file cannot start the event again: the key is missing.
    with pytest.raises(ImportRefused) as refused:
        import_tournament(document, slug="public-copy")
    assert any(m.startswith("deal_keys[0].secret: left out") for m in refused.value.messages)
    assert not Tournament.objects.filter(slug="public-copy").exists()


def test_commands_round_trip_with_a_new_slug(event, tournament, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_tournament", "world-cup", "--include-secrets", "-o", str(path),
                 stderr=io.StringIO())
    out = io.StringIO()
    people = same_people(json.loads(path.read_text()))
    call_command("import_tournament", str(path), "--slug", "world-cup-2",
                 *(f"--map-user={name}={name}" for name in people), stdout=out)
    assert "world-cup-2" in out.getvalue()
    again = tmp_path / "again.json"
    call_command("export_tournament", "world-cup-2", "--include-secrets", "-o", str(again),
                 stderr=io.StringIO())
    assert again.read_text().replace("world-cup-2", "world-cup") == path.read_text()
    # The slug is taken now: refused, with a message, exit status 1.
    with pytest.raises(CommandError) as taken:
        call_command("import_tournament", str(path))
    assert taken.value.returncode == 1
    assert "tournament.slug: a tournament with the short name world-cup already exists" \
        in str(taken.value)
    with pytest.raises(CommandError) as missing:
        call_command("export_tournament", "nowhere")
    assert missing.value.returncode == 1


def test_unknown_people_become_inactive_accounts(event, tournament):
    document = export_tournament(tournament, secrets=True)
    names = "|".join(re.escape(p["username"]) for p in document["people"])
    fields = "username|user|actor|entered_by|recorded_by|signed_off_by|undone_by"
    text = re.sub(rf'"({fields})": "({names})"', r'"\1": "\2-elsewhere"', dump(document))
    copy_ = import_tournament(json.loads(text), slug="elsewhere")
    users = get_user_model().objects.filter(username__endswith="-elsewhere")
    assert users.exists() and not any(u.is_active or u.has_usable_password() for u in users)
    assert copy_.staff.filter(user__in=users).exists()
