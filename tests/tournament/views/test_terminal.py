"""The table terminal's server side (issue 57; the browser walks it in
test_browser_terminal.py): where /device/ opens, the engine's reading in words, a signature
answered in JSON, the players' next tables, and which travellers a device may show."""

from __future__ import annotations

import uuid
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.views.public_event import enter, start
from tournament.models import Stage, TableDevice, Tournament
from tournament.pdf.devices import qr_link
from tournament.reading import reading
from tournament.selectors.terminal import shown_travellers
from tournament.services.devices import DeviceSlip, create_table_devices
from tournament.services.draw import generate_round
from tournament.services.hands import HandEntry
from tournament.services.stages import create_stage, enter_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(director_actor, tournament, teams):
    """Round 1 of a Swiss stage of four teams, dealt and in play, two hands a match."""
    tournament.hands_per_match = 2
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    return start(director_actor, generate_round(director_actor, stage))


@pytest.fixture
def devices(director_actor, round_):
    """A logged-in client for each table's device, by table number."""
    clients = {}
    for slip in create_table_devices(director_actor, round_):
        clients[slip.table] = Client()
        assert clients[slip.table].login(username=slip.username, password=slip.password)
    return clients


def tables(round_):
    return {table.number: table for table in round_.tables.all()}


def typed(hand, **values):
    fields = {"outcome": "knock", "declarer_seat": "", "declarer_deadwood": "",
              "opponent_deadwood": "", "false_knock_seat": "", "false_knock_deadwood": "",
              "declarer_cards": "", "opponent_cards": "", "declarer_melds": "",
              "seen_version": "0", "request_token": str(uuid.uuid4()), **values}
    return {f"h{hand}-{name}": value for name, value in fields.items()}


def test_a_device_not_signed_in_gets_the_terminals_sign_in_step():
    page = Client().get("/device/")
    html = page.content.decode()
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert 'action="/accounts/login/"' in html and 'name="next" value="/device/"' in html
    assert "terminal_start.js" in html


def test_the_slips_qr_link_carries_the_account_in_its_fragment_only():
    link = qr_link("https://cup.example.org/device/", DeviceSlip(3, "cup-table-3", "a b&c", "x"))
    parts = urlsplit(link)
    assert (parts.path, parts.query) == ("/device/", "")
    assert parse_qs(parts.fragment) == {"u": ["cup-table-3"], "p": ["a b&c"]}


def test_a_device_opens_straight_on_its_table(round_, devices):
    page = devices[2].get("/device/")
    html = page.content.decode()
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert "<h1>Table 2 " in html
    assert html.count('class="hand term-hand"') == 2
    assert "entry_queue.js" in html and "terminal.js" in html


def test_an_account_that_scores_no_table_is_told_so(tournament, staff_user):
    client = Client()
    client.force_login(staff_user(tournament, "scorer", username="spare"))
    assert "This account scores no table now" in client.get("/device/").content.decode()


def test_the_engines_reading_in_words(round_, devices, tournament):
    table = tables(round_)[1]
    url = reverse("director:terminal_reading", args=[tournament.slug, table.pk, 1])
    answer = devices[1].post(url, typed(1, declarer_seat="2", declarer_deadwood="6",
                                        opponent_deadwood="13")).json()
    assert answer == {
        "reading": "Seat 2 knocks with 6, seat 1 has 13 after lay-offs: seat 2 scores 22.",
        "line": "Knock 6 vs 13: 15 + 7 = 22"}
    undercut = devices[1].post(url, typed(1, declarer_seat="1", declarer_deadwood="8",
                                          opponent_deadwood="6")).json()
    assert undercut["reading"].endswith("an undercut, seat 2 scores 27.")
    refused = devices[1].post(url, typed(1, declarer_seat="1", declarer_deadwood="12",
                                         opponent_deadwood="30")).json()
    assert set(refused) == {"error"} and refused["error"]
    # Another table's device reads nothing of this table.
    assert devices[2].post(url, typed(1, declarer_seat="2", declarer_deadwood="6",
                                      opponent_deadwood="13")).status_code == 403


def test_the_reading_words_every_outcome():
    assert reading("gin", declarer_seat=1, declarer_deadwood=0, opponent_deadwood=9,
                   seat1_points=34) == "Seat 1 goes gin, seat 2 has 9: seat 1 scores 34."
    assert reading("big_gin", declarer_seat=2, declarer_deadwood=0, opponent_deadwood=18,
                   seat1_points=-53) == ("Seat 2 has Big Gin, seat 1 has 18: seat 2 scores "
                                         "53.")
    assert reading("draw", declarer_seat=None, declarer_deadwood=None, opponent_deadwood=None,
                   seat1_points=0, false_knock_seat=2, false_knock_deadwood=23) == (
        "Seat 2 knocked falsely with 23. A draw: nobody scores.")


def test_signing_on_the_terminal_then_the_players_next_tables(
        round_, devices, tournament, director_actor):
    table = tables(round_)[1]
    sign = reverse("director:terminal_sign", args=[tournament.slug, table.pk, 1])
    early = devices[1].post(sign, {"revision": table.revision,
                                   "request_token": str(uuid.uuid4())}).json()
    assert early["ok"] is False and early["error"]
    for hand in (1, 2):
        enter(director_actor, table, hand, HandEntry("draw"))
    table.refresh_from_db()
    for seat in (1, 2):
        answer = devices[1].post(
            reverse("director:terminal_sign", args=[tournament.slug, table.pk, seat]),
            {"revision": table.revision, "request_token": str(uuid.uuid4())}).json()
        assert answer == {"ok": True}
        table.refresh_from_db()
    done = devices[1].get("/device/").content.decode()
    assert "Table 1 is signed" in done
    assert done.count("Wait for the draw of the next round.") == 2


def test_a_traveller_only_once_the_field_has_played_the_box_and_the_setting_allows(
        round_, tournament, director_actor, devices):
    account = TableDevice.objects.get(tournament=tournament, number=1).user
    for setting in Tournament.LiveResults.values:
        tournament.live_results = setting
        tournament.save()
        assert shown_travellers(account, tables(round_)[1], [1]) == {}  # nobody played it
    table = tables(round_)
    for number in (1, 2, 3):
        enter(director_actor, table[number], 1, HandEntry("gin", 1, None, 10))
    for setting in (Tournament.LiveResults.FINISHED_BOXES, Tournament.LiveResults.LIVE):
        tournament.live_results = setting
        tournament.save()
        assert shown_travellers(account, tables(round_)[1], [1]) == {}  # table 4 to play
    enter(director_actor, table[4], 1, HandEntry("gin", 2, None, 20))
    shown = shown_travellers(account, tables(round_)[1], [1])
    assert [len(box.rows) for box in shown.values()] == [4]
    tournament.live_results = Tournament.LiveResults.CLOSED
    tournament.save()
    assert shown_travellers(account, tables(round_)[1], [1]) == {}


def test_before_play_starts_the_device_says_why_and_looks_again(director_actor, tournament,
                                                                teams):
    from tournament.services.rounds import publish_round

    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = publish_round(director_actor, generate_round(director_actor, stage),
                           override_reason="test")
    slip = create_table_devices(director_actor, round_)[0]
    device = Client()
    assert device.login(username=slip.username, password=slip.password)
    html = device.get("/device/").content.decode()
    assert 'class="message message-warning" role="status"' in html
    assert ">Look again</a>" in html
    assert 'id="step-who" hidden' in html  # no step offered


def test_the_terminals_pages_are_valid_html(round_, devices, tournament, director_actor,
                                            tmp_path, staff_user):
    from tests.nu import nu_errors

    pages = {"start": Client().get("/device/"), "terminal": devices[1].get("/device/")}
    spare = Client()
    spare.force_login(staff_user(tournament, "scorer", username="spare"))
    pages["none"] = spare.get("/device/")
    table = tables(round_)[2]
    for hand in (1, 2):
        enter(director_actor, table, hand, HandEntry("draw"))
    for seat in (1, 2):
        table.refresh_from_db()
        devices[2].post(reverse("director:terminal_sign", args=[tournament.slug, table.pk, seat]),
                        {"revision": table.revision, "request_token": str(uuid.uuid4())})
    pages["done"] = devices[2].get("/device/")
    assert "is signed" in pages["done"].content.decode()
    files = []
    for name, page in pages.items():
        files.append(tmp_path / f"{name}.html")
        files[-1].write_bytes(page.content)
    assert nu_errors(files) == []


def test_the_slips_qr_code_decodes_to_the_terminal_signed_in(round_, tournament, staff_user,
                                                              tmp_path):
    import shutil
    import subprocess

    from tests.conftest import require_part

    require_part(shutil.which("pdftoppm") is not None, "pdftoppm (poppler-utils)")
    require_part(shutil.which("zbarimg") is not None, "zbarimg (zbar-tools)")
    director = Client()
    director.force_login(staff_user(tournament, "director", username="boss"))
    slips = director.post(reverse("director:round_devices", args=[tournament.slug, round_.pk]))
    (tmp_path / "slips.pdf").write_bytes(slips.content)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1",
                    str(tmp_path / "slips.pdf"), str(tmp_path / "page")], check=True)
    page = next(tmp_path.glob("page*.png"))
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(page)], capture_output=True,
                             text=True, check=True).stdout.split()
    links = [urlsplit(link) for link in decoded]
    assert {(link.netloc, link.path, link.query) for link in links} == {
        ("testserver", "/device/", "")}
    accounts = sorted(parse_qs(link.fragment)["u"][0] for link in links)
    assert accounts == [f"{tournament.slug}-table-{n}" for n in (1, 2, 3, 4)]  # a slip each
    account = parse_qs(links[0].fragment)
    device = Client()
    assert device.login(username=account["u"][0], password=account["p"][0])
    number = account["u"][0].rsplit("-", 1)[1]
    assert f"<h1>Table {number} " in device.get(links[0].path).content.decode()


def test_a_device_logged_in_by_hand_lands_on_its_terminal(round_, director_actor, client,
                                                          tournament, staff_user):
    slip = create_table_devices(director_actor, round_)[0]
    response = client.post(reverse("login"), {"username": slip.username,
                                              "password": slip.password})
    assert response.status_code == 302 and response["Location"] == reverse("terminal")
    # Anyone else: "Your tournaments", as before; a page asked for is still honoured.
    other = Client()
    user = staff_user(tournament, "scorer", username="by-hand")
    user.set_password("a-Long-pass-123")
    user.save()
    answer = other.post(reverse("login"), {"username": "by-hand",
                                           "password": "a-Long-pass-123"})
    assert answer["Location"] == reverse("director:home")
    asked = Client().post(reverse("login") + "?next=/manage/", {
        "username": slip.username, "password": slip.password})
    assert asked["Location"] == "/manage/"
