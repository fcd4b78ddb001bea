"""A tournament file's secrets and numbers are this software's own (issue 48, item 2).

A PIN hash not made by the PIN hasher at its work factor is dropped, with a note the import
page's preview shows and the command prints (the player has no PIN); one planted in the
database costs a PIN check nothing. A number longer than any a tournament file holds, NaN and
Infinity are refused with their message at every door (the import page, a preview, the
command), never a 500. Driven through the test client and ``call_command``."""

import html
import io
import json
import time
import uuid
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.tournament.test_exchange import same_people
from tests.tournament.views import test_pin_lock
from tests.tournament.views.test_exchange_pages import choices, command_refusal, importer, upload
from tests.tournament.views.test_odd_team_input import HEADER
from tournament.exchange.common import IMPORT_ACTION, dump
from tournament.exchange.export import export_text
from tournament.exchange.problems import ImportRefused
from tournament.exchange.read import read_document
from tournament.hashers import PinHasher, pin_checker
from tournament.models import AuditEntry, PendingImport, Player, Role, Team, Tournament
from tournament.services.pins import pin_matches

game = test_pin_lock.game  # a round in play, PINs on: table 1's players have PINs
# The PIN hash of issue 48's file: Django's PBKDF2 at 30,000,000 iterations (29 s a check).
DEAR = "pbkdf2_sha256$30000000$" + "a" * 22 + "$" + "A" * 43 + "="


def _same(player: Player, tournament: Tournament) -> Player:
    """The player of ``tournament`` with the team code and number of ``player``."""
    return Player.objects.get(team__tournament=tournament, team__code=player.team.code,
                              number=player.number)


@pytest.fixture
def planted(game, tournament):
    """The tournament's file with secrets, the first seat's PIN hash made the dear one (and
    its count of wrong PINs 3); the second seat keeps the PIN hasher's own."""
    document = json.loads(export_text(tournament, secrets=True))
    for t, team in enumerate(document["teams"]):
        for p, player in enumerate(team["players"]):
            if (team["code"], player["number"]) == (game.first.team.code, game.first.number):
                player.update(pin_hash=DEAR, pin_failures=3)
                where = f"teams[{t}].players[{p}].pin_hash"
    return SimpleNamespace(document=document, where=where,
                           people=same_people(document),
                           own=Player.objects.get(pk=game.second.pk).pin_hash)


def _dropped_and_kept(game, copy_, own):
    first, second = _same(game.first, copy_), _same(game.second, copy_)
    assert (first.pin_hash, first.pin_failures, first.pin_locked_until) == ("", 0, None)
    assert second.pin_hash == own and pin_checker(own).algorithm == PinHasher.algorithm
    assert pin_matches(second, "1357") and not pin_matches(first, "2468")


def _note_is_said(note: str, planted) -> None:
    assert note.startswith(f"{planted.where}: dropped: ")
    assert "has no PIN after the import" in note
    assert "pbkdf2_sha256_pin with 1,000 iterations" in note
    assert "this one is pbkdf2_sha256 with 30,000,000 iterations" in note


def test_the_import_page_drops_a_pin_hash_not_ours_with_a_note(client, game, tournament,
                                                              planted, make_user):
    client.force_login(importer(make_user, superuser=True))
    url = upload(client, dump(planted.document).encode())["Location"]
    form = {**choices(client.get(url), **planted.people), "slug": "copy"}
    checked = client.post(url, {**form, "check": "1"})
    preview = checked.context["preview"]
    assert preview.problems == []  # a note, not a problem: the import can be confirmed
    [note] = preview.notes
    _note_is_said(note, planted)
    page = html.unescape(checked.content.decode())
    assert "What the import changes of the file" in page and note in page
    assert 'name="import"' in page
    done = client.post(url, {**form, "import": "1"})
    assert done.status_code == 302
    copy_ = Tournament.objects.get(slug="copy")
    _dropped_and_kept(game, copy_, planted.own)
    # The player without a PIN is asked for none: the director sets one (the entry screen).
    table = copy_.stages.get().rounds.get().matches.get(number=game.match.number).tables.get(
        position=1)
    approving = client.post(reverse("director:hand_approve",
                                    args=[copy_.slug, table.pk, 1, 1]),
                            {"pin": "2468", "version": "1", "request_token": str(uuid.uuid4())},
                            follow=True)
    assert "has no PIN yet; the director sets it" in html.unescape(approving.content.decode())
    kept = client.post(reverse("director:hand_approve", args=[copy_.slug, table.pk, 1, 2]),
                       {"pin": "1357", "version": "1", "request_token": str(uuid.uuid4())},
                       follow=True)
    assert kept.status_code == 200
    assert table.results.get(hand=1).approvals.get(seat=2).method == "pin"


def test_the_command_drops_a_pin_hash_not_ours_and_prints_the_note(game, tournament, planted,
                                                                  tmp_path):
    path = tmp_path / "event.json"
    path.write_text(dump(planted.document))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), "--slug", "copy",
                 *(f"--map-user={name}={name}" for name in planted.people),
                 stdout=out, stderr=err)
    assert out.getvalue() == "imported World Cup as copy\n"
    [line] = err.getvalue().splitlines()
    assert line.startswith("note: ")
    _note_is_said(line.removeprefix("note: "), planted)
    _dropped_and_kept(game, Tournament.objects.get(slug="copy"), planted.own)
    entry = AuditEntry.objects.get(tournament__slug="copy", action=IMPORT_ACTION)
    assert entry.summary.endswith("; 1 PIN hashes not in this software's form were dropped "
                                  "(those players have no PIN until the director sets one)")


def test_a_pin_hash_planted_in_the_database_costs_a_pin_check_nothing(client, tournament,
                                                                      staff_user, game,
                                                                      settings):
    """As a production server would meet it (its hashers, not the test settings' MD5)."""
    from tournament import settings as real

    settings.PASSWORD_HASHERS = real.PASSWORD_HASHERS
    Player.objects.filter(pk=game.first.pk).update(pin_hash=DEAR)
    assert pin_checker(DEAR) is None  # no hasher runs on it
    test_pin_lock.login(client, tournament, staff_user, "scorer")
    screen = reverse("director:table_entry", args=[tournament.slug, game.table.pk])
    assert client.get(screen).status_code == 200  # the entry screen, open at the table
    started = time.perf_counter()
    tap = client.post(reverse("director:hand_approve", args=[tournament.slug, game.table.pk,
                                                             1, 1]),
                      {"pin": "2468", "version": "1", "request_token": str(uuid.uuid4())})
    assert time.perf_counter() - started < 0.5  # before issue 48: 8 s here
    assert tap.status_code == 302
    assert "wrong PIN for seat 1" in html.unescape(client.get(screen).content.decode())
    assert not game.result.approvals.exists()
    assert AuditEntry.objects.filter(action="pin.failure").count() == 1


# Numbers -----------------------------------------------------------------------------------

BIG = "9" * 5000
LONGEST = 20  # -9223372036854775808: docs/formats.md
MARK = "number-goes-here"


def _with_number(document: dict, path: list, literal: str) -> bytes:
    """The file's text with ``literal`` written as the value at ``path``."""
    document = json.loads(json.dumps(document))
    node = document
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = MARK
    return dump(document).replace(f'"{MARK}"', literal).encode()


def _position(data: bytes, literal: str) -> str:
    text = data.decode()
    at = text.index(f": {literal}") + 2
    return f"line {text.count(chr(10), 0, at) + 1}, column {at - text.rfind(chr(10), 0, at)}"


PLACES = [
    ["version"],
    ["tournament", "knock_bonus"],
    ["teams", 0, "players", 0, "number"],
    ["rounds", 0, "matches", 0, "tables", 0, "hands", 0, "seat1_points"],
    ["audit", 0, "data", "amount"],
]


@pytest.fixture
def document(game, tournament):
    return json.loads(export_text(tournament, secrets=True))


@pytest.mark.parametrize("path", PLACES, ids=[".".join(map(str, p)) for p in PLACES])
def test_a_5000_digit_integer_is_refused_with_its_length_at_every_door(client, document,
                                                                     make_user, tmp_path,
                                                                     path):
    data = _with_number(document, path, BIG)
    expected = (f"{_position(data, BIG)}: a number of 5,000 characters (999999999999…); a "
                f"number in a tournament file has at most {LONGEST} characters")
    assert command_refusal(data, tmp_path) == [expected]
    client.force_login(importer(make_user))
    response = upload(client, data)
    assert response.status_code == 200
    assert response.context["problems"] == [expected]
    assert expected in html.unescape(response.content.decode())
    assert not PendingImport.objects.exists()


def test_a_file_kept_before_the_bound_is_refused_by_its_preview(client, document, make_user):
    """An upload kept before numbers were bounded: its preview and its confirmation say
    the same, never a 500."""
    user = importer(make_user)
    client.force_login(user)
    data = _with_number(document, PLACES[3], BIG)
    pending = PendingImport.objects.create(user=user, file_name="old.json", size=len(data),
                                           data=data)
    url = reverse("director:import_preview", args=[pending.pk])
    for response in (client.get(url), client.post(url, {"slug": "x", "import": "1"})):
        assert response.status_code == 200
        [problem] = response.context["preview"].problems
        assert "a number of 5,000 characters" in problem
    assert not Tournament.objects.filter(slug="x").exists()


@pytest.mark.parametrize(("literal", "message"), [
    ("NaN", "NaN is not a number a tournament file holds (JSON has no NaN or Infinity)"),
    ("Infinity", "Infinity is not a number a tournament file holds"),
    ("-Infinity", "-Infinity is not a number a tournament file holds"),
    ("1e999", "the number 1e999 is too large for a number in a tournament file"),
    ("1." + "0" * 5000, "a number of 5,002 characters (1.0000000000…)"),
], ids=["NaN", "Infinity", "-Infinity", "1e999", "5000-decimals"])
def test_nan_infinity_and_long_fractions_are_refused(client, document, make_user, tmp_path,
                                                     literal, message):
    data = _with_number(document, ["audit", 0, "data", "amount"], literal)
    [said] = command_refusal(data, tmp_path)
    assert said.startswith(f"{_position(data, literal)}: {message}")
    client.force_login(importer(make_user))
    response = upload(client, data)
    assert response.status_code == 200 and response.context["problems"] == [said]


def test_numbers_up_to_the_bound_are_read():
    head = '{"format": "duplicate-gin-tournament", "version": 1, "n": '
    smallest = -(2**63)
    assert read_document(f"{head}{smallest}}}".encode())["n"] == smallest
    assert len(str(smallest)) == LONGEST
    with pytest.raises(ImportRefused, match="a number of 21 characters"):
        read_document(f"{head}{smallest}0}}".encode())


def test_a_team_file_with_a_5000_digit_seed_says_so(client, tournament, staff_user):
    client.force_login(staff_user(tournament, Role.DIRECTOR, username="chen"))
    data = (HEADER + f"CHN,China,,{BIG},张伟,,李娜,,,\n").encode()
    response = client.post(reverse("director:team_import", args=[tournament.slug]),
                           {"file": SimpleUploadedFile("teams.csv", data, "text/csv")})
    assert response.status_code == 200
    assert "line 2: seed" in html.unescape(response.content.decode())
    assert not Team.objects.exists()


def test_the_command_refuses_a_5000_digit_integer_with_exit_status_1(document, tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(_with_number(document, PLACES[1], BIG))
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), "--slug", "big")
    assert refused.value.returncode == 1
    assert "a number of 5,000 characters" in str(refused.value)
    assert not Tournament.objects.filter(slug="big").exists()
