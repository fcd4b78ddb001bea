"""Broken tournament files (issue 14, item 2) are refused with the path of each problem,
importing nothing. They are tried on a database without the event they were exported from,
as on another machine: the file is made once and its event rolled back."""

import copy
import io
import itertools
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from tests.conftest import new_staff, new_team, new_tournament
from tests.tournament.test_exchange import CODES, same_people
from tests.tournament.views.public_event import build_event
from tournament.exchange.common import dump
from tournament.exchange.export import export_text
from tournament.exchange.import_ import import_tournament
from tournament.exchange.problems import ImportRefused
from tournament.exchange.read import read_document
from tournament.models import AuditEntry, HandResult, Tournament
from tournament.services import Actor

_FILE: dict = {}


@pytest.fixture
def document(db):
    """The event's file with secrets, made once per process, its event rolled back."""
    if "text" not in _FILE:
        with transaction.atomic():
            tournament = new_tournament(name="World Cup", slug="world-cup", venue="Shanghai")
            director = Actor(new_staff(tournament, "director", "director"), ip="10.0.0.7")
            numbers = itertools.count(1)
            build_event(director, tournament,
                        lambda tournament, **fields: new_team(tournament, next(numbers),
                                                              **fields),
                        teams=6, codes=CODES)
            _FILE["text"] = export_text(tournament, secrets=True)
            transaction.set_rollback(True)
    return json.loads(_FILE["text"])


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
     "version: this software reads versions 1, 2, 3 and 4 of the tournament file, not version 99"),
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
