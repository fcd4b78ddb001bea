"""PINs that cannot be guessed, through the entry screens: wrong PINs are counted and audited
although each one is refused, a player's PIN entry locks, and a referee lifts the lock from
the round's progress page."""

import datetime as dt
import re
import uuid
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from tournament.models import Approval, AuditEntry, Player, Stage, Table, TableSignature
from tournament.services import pins
from tournament.services.approvals import approve_hand, seat_player
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams
from tournament.services.teams import set_player_pin

PHONE = "Mozilla/5.0 (Linux; Android 14; table-3 phone)"


@pytest.fixture
def game(director_actor, tournament, teams):
    """A round in play with PINs on: table 1's players have PINs and hand 1 a result."""
    tournament.approvals_need_pin = True
    tournament.time_zone = "Asia/Shanghai"
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    match = round_.matches.order_by("number").first()
    table = match.tables.get(position=1)
    first, second = seat_player(table, 1), seat_player(table, 2)
    set_player_pin(director_actor, first, "2468")
    set_player_pin(director_actor, second, "1357")
    result = record_hand_result(director_actor, table, 1, HandEntry("knock", 1, 4, 12),
                                seen_version=0, request_token=uuid.uuid4())
    return SimpleNamespace(round=round_, match=match, table=table, first=first,
                           second=second, result=result)


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def login(client, tournament, staff_user, role):
    from django.contrib.auth import get_user_model

    user = (get_user_model().objects.filter(username=f"{role}-1").first()
            or staff_user(tournament, role, username=f"{role}-1"))
    client.force_login(user)


def approve(client, tournament, game, pin, seat=1):
    """The seat's approval of hand 1 as the entry screen sends it; the page it goes back to."""
    response = client.post(url("hand_approve", tournament.slug, game.table.pk, 1, seat),
                           {"pin": pin, "version": "1", "request_token": str(uuid.uuid4())},
                           HTTP_USER_AGENT=PHONE, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def venue_hhmm(tournament, moment):
    return timezone.localtime(moment, ZoneInfo(tournament.time_zone)).strftime("%H:%M")


@pytest.mark.django_db(transaction=True)
def test_five_wrong_pins_lock_the_player_and_each_is_recorded(client, tournament, staff_user,
                                                              game):
    login(client, tournament, staff_user, "scorer")
    for n in range(1, 6):
        page = approve(client, tournament, game, "0000")
        assert "wrong PIN for seat 1" in page
        assert AuditEntry.objects.filter(action="pin.failure").count() == n
    assert "PIN entry for Player" in page and "is locked until" in page

    page = approve(client, tournament, game, "2468")  # the right PIN, too late

    assert not Approval.objects.exists()
    player = Player.objects.get(pk=game.first.pk)
    assert player.pin_failures == 5
    expected = timezone.now() + dt.timedelta(minutes=tournament.pin_lockout_minutes)
    assert abs(player.pin_locked_until - expected) < dt.timedelta(seconds=30)
    message = (f"PIN entry for {player.name} is locked until "
               f"{venue_hhmm(tournament, player.pin_locked_until)} (venue time); a referee "
               "can lift it")
    assert message in page
    failures = list(AuditEntry.objects.filter(action="pin.failure").order_by("id"))
    assert [f.data["failures"] for f in failures] == [1, 2, 3, 4, 5]
    for failure in failures:
        assert failure.data["table"] == game.table.pk and failure.data["seat"] == 1
        assert failure.data["device"] == PHONE and failure.created_at is not None
        assert failure.actor_name == "scorer-1" and failure.ip_address == "127.0.0.1"
        assert (f"wrong PIN for seat 1 at table {game.table.number} ({player.name}"
                in failure.summary and PHONE in failure.summary)
    assert AuditEntry.objects.filter(action="pin.locked", data__player=player.pk).count() == 1


def test_the_other_player_and_the_right_pin_before_the_limit_are_unaffected(
        client, tournament, staff_user, game):
    login(client, tournament, staff_user, "scorer")
    for _ in range(4):
        approve(client, tournament, game, "1357")  # the opponent's PIN is wrong for seat 1
    assert Player.objects.get(pk=game.first.pk).pin_failures == 4
    page = approve(client, tournament, game, "2468")
    assert "locked" not in page
    assert Approval.objects.get(seat=1).method == "pin"
    assert Player.objects.get(pk=game.first.pk).pin_failures == 0  # the right PIN resets
    approve(client, tournament, game, "1357", seat=2)
    assert Approval.objects.filter(seat=2).exists()


def test_a_referee_lifts_the_lock_from_the_progress_page(client, tournament, staff_user, game):
    login(client, tournament, staff_user, "scorer")
    for _ in range(5):
        approve(client, tournament, game, "9999")
    login(client, tournament, staff_user, "referee")
    progress = client.get(url("round_progress", tournament.slug, game.round.pk)).content.decode()
    player = Player.objects.get(pk=game.first.pk)
    until = venue_hhmm(tournament, player.pin_locked_until)
    assert f"{player.name} ({player.team.code}): PIN entry locked until {until}" in progress
    assert f"table {game.table.number}, seat 1" in progress
    action = url("pin_unlock", tournament.slug, player.pk)
    assert f'action="{action}"' in progress and "Lift the lock" in progress

    response = client.post(action, {"round": str(game.round.pk)})

    assert response["Location"] == url("round_progress", tournament.slug, game.round.pk)
    player.refresh_from_db()
    assert (player.pin_failures, player.pin_locked_until) == (0, None)
    lifted = AuditEntry.objects.get(action="pin.unlock")
    assert lifted.actor_name == "referee-1" and player.name in lifted.summary
    progress = client.get(url("round_progress", tournament.slug, game.round.pk)).content.decode()
    assert "Lift the lock" not in progress
    login(client, tournament, staff_user, "scorer")
    approve(client, tournament, game, "2468")
    assert Approval.objects.get(seat=1).method == "pin"


def test_a_scorer_sees_the_lock_but_cannot_lift_it(client, tournament, staff_user, game):
    login(client, tournament, staff_user, "scorer")
    for _ in range(5):
        approve(client, tournament, game, "1111")
    progress = client.get(url("round_progress", tournament.slug, game.round.pk)).content.decode()
    assert "PIN entry locked until" in progress and "Lift the lock" not in progress

    response = client.post(url("pin_unlock", tournament.slug, game.first.pk),
                           {"round": str(game.round.pk)})

    assert response.status_code == 403
    assert pins.is_locked(Player.objects.get(pk=game.first.pk))
    assert not AuditEntry.objects.filter(action="pin.unlock").exists()


def test_the_lock_ends_after_the_tournaments_minutes(client, tournament, staff_user, game,
                                                     monkeypatch):
    tournament.pin_attempts, tournament.pin_lockout_minutes = 3, 10
    tournament.save()
    login(client, tournament, staff_user, "scorer")
    for _ in range(3):
        approve(client, tournament, game, "1111")
    locked_at = timezone.now()
    monkeypatch.setattr(pins.timezone, "now", lambda: locked_at + dt.timedelta(minutes=9))
    assert "is locked until" in approve(client, tournament, game, "2468")
    assert not Approval.objects.exists()

    monkeypatch.setattr(pins.timezone, "now", lambda: locked_at + dt.timedelta(minutes=11))
    page = approve(client, tournament, game, "1111")  # a new count starts after the lock
    assert "after 2 more wrong PINs" in page
    assert Player.objects.get(pk=game.first.pk).pin_failures == 1
    approve(client, tournament, game, "2468")

    assert Approval.objects.get(seat=1).method == "pin"
    player = Player.objects.get(pk=game.first.pk)
    assert (player.pin_failures, player.pin_locked_until) == (0, None)


def test_a_forgotten_pin_is_asked_for_not_counted(client, tournament, staff_user, game):
    login(client, tournament, staff_user, "scorer")
    page = approve(client, tournament, game, "")
    assert f"type the PIN of {game.first.name} (seat 1)" in page
    assert Player.objects.get(pk=game.first.pk).pin_failures == 0
    assert not AuditEntry.objects.filter(action="pin.failure").exists()


def test_signing_the_table_is_locked_and_recorded_too(client, director_actor, tournament,
                                                      staff_user, game):
    for hand in range(1, game.match.hands + 1):
        result = game.result if hand == 1 else record_hand_result(
            director_actor, game.table, hand, HandEntry("draw"), seen_version=0,
            request_token=uuid.uuid4())
        approve_hand(director_actor, result, 1, pin="2468")
        approve_hand(director_actor, result, 2, pin="1357")
    login(client, tournament, staff_user, "scorer")
    sign_url = url("table_sign", tournament.slug, game.table.pk, 2)
    revision = str(Table.objects.get(pk=game.table.pk).revision)
    for _ in range(5):
        client.post(sign_url, {"pin": "2468", "revision": revision,
                               "request_token": str(uuid.uuid4())}, HTTP_USER_AGENT=PHONE)
    page = client.post(sign_url, {"pin": "1357", "revision": revision,
                                  "request_token": str(uuid.uuid4())},
                       follow=True).content.decode()

    assert not TableSignature.objects.exists()
    assert f"PIN entry for {game.second.name} is locked until" in page
    failures = AuditEntry.objects.filter(action="pin.failure")
    assert failures.count() == 5
    assert {(f.data["table"], f.data["seat"], f.data["device"]) for f in failures} == {
        (game.table.pk, 2, PHONE)}


def test_progress_page_lists_locks_and_failures_in_pinned_queries(
        client, tournament, staff_user, game, django_assert_max_num_queries):
    other_match = game.round.matches.order_by("number").last()
    other_table = other_match.tables.get(position=2)
    locked_elsewhere = seat_player(other_table, 1)
    locked_elsewhere.pin_failures = 5
    locked_elsewhere.pin_locked_until = timezone.now() + dt.timedelta(minutes=5)
    locked_elsewhere.save()
    ended = seat_player(other_table, 2)  # a lock that is over is not shown
    ended.pin_failures = 5
    ended.pin_locked_until = timezone.now() - dt.timedelta(minutes=1)
    ended.save()
    login(client, tournament, staff_user, "referee")
    for _ in range(2):
        client.post(url("hand_approve", tournament.slug, game.table.pk, 1, 1),
                    {"pin": "1", "version": "1", "request_token": str(uuid.uuid4())})

    # 18: the referee's anomalies read the results, the withdrawn teams and the deals;
    # and the full page (not its polled rows) lists which account scores which table (3).
    with django_assert_max_num_queries(21):
        page = client.get(url("round_progress", tournament.slug, game.round.pk))

    text = page.content.decode()
    assert text.count("Lift the lock") == 1
    assert f"{locked_elsewhere.name} ({locked_elsewhere.team.code}): PIN entry locked" in text
    assert f"table {other_table.number}, seat 1" in text
    assert re.search(rf"{game.first.name} \({game.first.team.code}\)\s*<span class=\"muted\">"
                     rf"table {game.table.number}, seat 1 · 2 wrong PINs in a row", text)
    assert ended.name not in text
    with django_assert_max_num_queries(18):
        assert client.get(url("round_progress", tournament.slug, game.round.pk),
                          HTTP_HX_REQUEST="true").status_code == 200
