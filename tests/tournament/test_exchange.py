"""Export and import of a whole tournament (issue 14, item 2): a tournament played through
the services round-trips byte for byte, the imported one ranks and checks as the original,
a file without secrets carries no card of the round in play and no secret key, and broken
files are refused with the path of each problem, importing nothing."""

import copy
import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournament.views.public_event import (
    build_event,
    leaked_runs,
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


@pytest.fixture
def event(director_actor, tournament, make_team):
    return build_event(director_actor, tournament, make_team, teams=6,
                       codes=[("CHN", "中国红队"), ("ITA", "Italia"), ("FRA", "Équipe de France"),
                              ("USA", "USA"), ("JPN", "日本"), ("GER", "Deutschland")])


_FILE: dict = {}


@pytest.fixture
def document(db, request):
    """The event's file with secrets, built once for the module's broken-file tests (they
    import into a database without the original)."""
    if "text" not in _FILE:
        tournament = request.getfixturevalue("tournament")
        request.getfixturevalue("event")
        _FILE["text"] = export_text(tournament, secrets=True)
    return json.loads(_FILE["text"])


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


def _broken(document, path, value):
    """The document with the value at ``path`` (a list of keys and indexes) replaced;
    ``value`` ... deleted."""
    broken = copy.deepcopy(document)
    *parents, last = path
    node = broken
    for part in parents:
        node = node[part]
    if value is ...:
        del node[last]
    else:
        node[last] = value
    return broken


def _hand(_document, round_=0, match=0, table=0, hand=0):
    return ["rounds", round_, "matches", match, "tables", table, "hands", hand]


BROKEN = [
    ([*_hand(None), "opponent_deadwood"], 99,
     "rounds[0].matches[0].tables[0].hands[0].opponent_deadwood: must be a whole number "
     "from 0 to 98 or null, not 99"),
    ([*_hand(None, 1, 1, 1, 2), "seat1_points"], 1000,
     "rounds[1].matches[1].tables[1].hands[2].seat2_points: a hand is zero-sum"),
    ([*_hand(None), "entered_by"], "nobody",
     "rounds[0].matches[0].tables[0].hands[0].entered_by: nobody is not in people"),
    ([*_hand(None), "outcome"], "schneider",
     "rounds[0].matches[0].tables[0].hands[0].outcome: must be one of knock, undercut, gin, "
     "big_gin, draw"),
    (["rounds", 0, "matches", 0, "home"], "ZZZ",
     "rounds[0].matches[0].home: no team has the code ZZZ"),
    (["rounds", 0, "matches", 1, "away"], "@@",
     "rounds[0].matches[1].away: must be a team code of the file's teams"),
    (["rounds", 0, "matches", 0, "home_total"], 7,
     "rounds[0].matches[0].away_total: the totals are written together"),
    (["rounds", 0, "stage"], "Nowhere", "rounds[0].stage: no stage is called Nowhere"),
    (["rounds", 0, "created_at"], "2026-02-30T10:00:00.000000Z",
     "rounds[0].created_at: 2026-02-30T10:00:00.000000Z is not a real time"),
    (["rounds", 1, "matches", 0, "tables", 0, "hands", 0, "approvals", 0, "seat"], 3,
     "rounds[1].matches[0].tables[0].hands[0].approvals[0].seat: must be a whole number "
     "from 1 to 2, not 3"),
    (["teams", 1, "code"], "CHN", "teams[1]: code \"CHN\" appears twice (also teams[0])"),
    (["tournament", "hands_per_match"], ..., "tournament.hands_per_match: missing"),
    (["tournament", "colour"], "red", "tournament.colour: unknown field"),
    (["penalties", 0, "kind"], "lateness",
     "penalties[0].amount: points are deducted (1 or more) by a deduction"),
    (["deal_keys", 0, "commitment"], "0" * 64,
     "deal_keys[0].commitment: is not the SHA-256 of the key's secret"),
    (["rounds", 0, "deals", 0, "cards"], "AS " * 51 + "AS",
     "rounds[0].deals[0].cards: a card appears twice"),
    (["audit", 0, "data", "round"], ["Swiss", 9], "audit[0].data.round: the file has no round"),
]


@pytest.mark.parametrize(("path", "value", "message"), BROKEN,
                         ids=[".".join(map(str, b[0])) for b in BROKEN])
def test_a_broken_file_names_the_place_and_imports_nothing(document, path, value, message):
    if path == ["audit", 0, "data", "round"]:
        index = next(i for i, e in enumerate(document["audit"]) if "round" in e["data"])
        path = ["audit", index, "data", "round"]
        message = message.replace("audit[0]", f"audit[{index}]")
    broken = _broken(document, path, value)
    before = (Tournament.objects.count(), HandResult.objects.count(),
              AuditEntry.objects.count(), get_user_model().objects.count())
    with pytest.raises(ImportRefused) as refused:
        import_tournament(broken, slug="broken")
    assert any(m.startswith(message) for m in refused.value.messages), refused.value.messages
    assert (Tournament.objects.count(), HandResult.objects.count(),
            AuditEntry.objects.count(), get_user_model().objects.count()) == before


@pytest.mark.parametrize(("data", "message"), [
    (b"{not json", "the file is not JSON: line 1, column 2"),
    (b"[1, 2]", "format: this is not a tournament file"),
    (b'{"format": "duplicate-gin-tournament", "version": 99}',
     "version: this software reads version 1 of the tournament file, not version 99"),
    (b"\xff\xfe", "the file is not UTF-8 text"),
])
def test_what_is_not_a_tournament_file_is_refused_with_exit_status_1(db, tmp_path, data,
                                                                     message):
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path))
    assert refused.value.returncode == 1
    assert message in str(refused.value)
    assert not Tournament.objects.exists()


def test_points_that_the_rules_do_not_give_are_refused(document):
    where, hand = next((["rounds", r, "matches", m, "tables", t, "hands", h], hand)
                       for r, round_ in enumerate(document["rounds"])
                       for m, match in enumerate(round_["matches"])
                       for t, table in enumerate(match["tables"])
                       for h, hand in enumerate(table["hands"]) if hand["seat1_points"])
    hand["seat1_points"], hand["seat2_points"] = hand["seat2_points"], hand["seat1_points"]
    with pytest.raises(ImportRefused) as refused:
        # (Mapped: the module may have built the file in this very database.)
        import_tournament(document, slug="broken", map_users=same_people(document))
    path = "rounds[{}].matches[{}].tables[{}].hands[{}]".format(*where[1::2])
    assert refused.value.messages == [
        f"{path}: the round's rules score this entry as {hand['outcome']} "
        f"{hand['seat2_points']:+d}/{hand['seat1_points']:+d}, the file says "
        f"{hand['outcome']} {hand['seat1_points']:+d}/{hand['seat2_points']:+d}"]
    assert not Tournament.objects.filter(slug="broken").exists()


# No side doors (issue 22): the pages' rules for every text, no account taken over by its
# name, limits on size and nesting ------------------------------------------------------------

def _first(document, *keys):
    """The path of the first value under ``keys`` (a list of keys and indexes, "*" for any
    index) that exists in the document."""
    def walk(node, rest, path):
        if not rest:
            return path
        key, *tail = rest
        if key == "*":
            for index, item in enumerate(node):
                found = walk(item, tail, [*path, index])
                if found is not None:
                    return found
            return None
        if isinstance(node, dict) and key in node and node[key] is not None:
            return walk(node[key], tail, [*path, key])
        return None

    return walk(document, list(keys), [])


TEXT_FIELDS = [
    ("tournament", "name"), ("tournament", "venue"), ("teams", "*", "name"),
    ("teams", "*", "country"), ("teams", "*", "players", "*", "name"),
    ("teams", "*", "players", "*", "federation_id"), ("stages", "*", "name"),
    ("people", "*", "first_name"), ("penalties", "*", "reason"),
    ("rounds", "*", "matches", "*", "tables", "*", "hands", "*", "explanation"),
    ("rounds", "*", "matches", "*", "tables", "*", "hands", "*", "device"),
    ("rounds", "*", "publish_override_reason"), ("audit", "*", "summary"),
    ("audit", "*", "actor_name"),
]


@pytest.mark.parametrize("bad", ["\x00", "\x07", "\x1b[31m"], ids=["NUL", "bell", "escape"])
@pytest.mark.parametrize("keys", TEXT_FIELDS, ids=[".".join(k) for k in TEXT_FIELDS])
def test_a_control_character_in_any_text_is_refused(document, keys, bad):
    path = _first(document, *keys)
    assert path is not None, keys
    node = document
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = "Good name" + bad
    users = get_user_model().objects.count()
    with pytest.raises(ImportRefused) as refused:
        import_tournament(document, slug="broken", map_users=same_people(document))
    where = re.sub(r"\.(\d+)", r"[\1]", ".".join(map(str, path)))
    assert any(m.startswith(f"{where}: contains") for m in refused.value.messages), \
        refused.value.messages
    assert not Tournament.objects.filter(slug="broken").exists()
    assert get_user_model().objects.count() == users


@pytest.mark.parametrize("keys", [("tournament", "name"), ("teams", "*", "name"),
                                  ("penalties", "*", "reason")])
def test_what_people_type_has_no_line_break_or_invisible_character(document, keys):
    path = _first(document, *keys)
    for bad in ("two\nlines", "\u202egniR", "zero\u200bwidth"):
        node = document
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = bad
        with pytest.raises(ImportRefused):
            import_tournament(document, slug="broken", map_users=same_people(document))


PERSON_FIELDS = "username|user|actor|entered_by|recorded_by|signed_off_by|undone_by"


def renamed(document, old: str, new: str) -> dict:
    """The document with the person ``old`` called ``new`` wherever a person is named."""
    return json.loads(re.sub(rf'"({PERSON_FIELDS})": "{re.escape(old)}"', rf'"\1": "{new}"',
                             dump(document)))


def test_a_name_of_this_database_is_refused_until_it_is_mapped(document, make_user):
    make_user("root")
    person = document["people"][0]["username"]
    document = renamed(document, person, "ROOT")
    others = {p["username"]: p["username"] + "-x" for p in document["people"][1:]}
    users = get_user_model().objects.count()
    with pytest.raises(ImportRefused) as refused:
        import_tournament(document, slug="copy", map_users=others)
    assert "people[0].username: ROOT is a user name of this database (root); a file never " \
           "takes over an account by its name: map it with --map-user ROOT=ACCOUNT" in \
        refused.value.messages[0]
    assert get_user_model().objects.count() == users
    assert not Tournament.objects.filter(slug="copy").exists()
    # Mapped explicitly to the existing account: its roles come with the file.
    copy_ = import_tournament(document, slug="copy", map_users={**others, "ROOT": "root"})
    roles = {s.user.username: s.role for s in copy_.staff.select_related("user")}
    staff = {s["user"]: s["role"] for s in document["staff"]}
    if "ROOT" in staff:
        assert roles["root"] == staff["ROOT"]
    assert not get_user_model().objects.filter(username="ROOT").exists()
    assert all(not get_user_model().objects.get(username=name).is_active
               for name in others.values())


def test_a_mapped_name_can_be_a_new_account(document):
    person = document["people"][0]["username"]
    mapping = {p["username"]: p["username"] + "-new" for p in document["people"]}
    copy_ = import_tournament(document, slug="copy", map_users=mapping)
    user = get_user_model().objects.get(username=f"{person}-new")
    assert not user.is_active and not user.has_usable_password()
    assert copy_.staff.exists()
    with pytest.raises(ImportRefused) as refused:
        import_tournament(document, slug="copy-2", map_users={"nobody": "x"})
    assert any(m.startswith("--map-user nobody: no person of the file")
               for m in refused.value.messages)


def test_two_people_whose_names_differ_only_in_case_are_refused(document):
    first = document["people"][0]["username"]
    document["people"].append({"username": first.upper(), "first_name": "", "last_name": ""})
    with pytest.raises(ImportRefused) as refused:
        import_tournament(document, slug="copy", map_users={})
    assert any("appears twice" in m and "whatever its case" in m
               for m in refused.value.messages), refused.value.messages


def test_the_command_maps_users_and_refuses_with_exit_status_1(document, tmp_path, make_user):
    make_user(document["people"][0]["username"])
    path = tmp_path / "event.json"
    path.write_text(dump(document))
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), "--slug", "copy")
    assert refused.value.returncode == 1 and "--map-user" in str(refused.value)
    with pytest.raises(CommandError) as badly:
        call_command("import_tournament", str(path), "--map-user", "nonsense")
    assert badly.value.returncode == 1 and "NAME_IN_FILE=ACCOUNT" in str(badly.value)
    out = io.StringIO()
    call_command("import_tournament", str(path), "--slug", "copy",
                 *(f"--map-user={p['username']}={p['username']}" for p in document["people"]),
                 stdout=out)
    assert "imported" in out.getvalue()


@pytest.mark.parametrize("depth", [100_000, 65])
def test_a_file_nested_too_deep_is_refused(db, tmp_path, depth):
    document = {"format": "duplicate-gin-tournament", "version": 1,
                "audit": [{"data": {}}]}
    text = json.dumps(document).replace('{"data": {}}',
                                        '{"data": ' + "[" * depth + "]" * depth + "}")
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path))
    assert refused.value.returncode == 1
    assert "nests more than 64 levels" in str(refused.value)
    assert not Tournament.objects.exists()


def test_a_file_over_the_size_limit_is_refused(db, tmp_path, settings):
    settings.IMPORT_MAX_BYTES = 1000
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"format": "duplicate-gin-tournament", "padding": "x" * 2000}))
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path))
    assert refused.value.returncode == 1
    assert "at most 1,000 are read (setting IMPORT_MAX_BYTES)" in str(refused.value)
    with pytest.raises(ImportRefused):
        read_document(path.read_bytes())


@pytest.mark.parametrize(("path", "value", "message"), [
    (["teams"], "CHN", "teams: must be"),
    (["tournament", "name"], 7, "tournament.name: must be"),
    (["people"], {"username": "x"}, "people: must be"),
    (["secrets"], "yes", "secrets: must be"),
])
def test_wrong_types_are_refused_with_exit_status_1(document, tmp_path, path, value, message):
    path_ = tmp_path / "bad.json"
    path_.write_text(dump(_broken(document, path, value)))
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path_), "--slug", "bad")
    assert refused.value.returncode == 1 and message in str(refused.value)
    assert not Tournament.objects.filter(slug="bad").exists()
