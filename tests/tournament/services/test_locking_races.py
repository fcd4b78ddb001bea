"""Races forced on PostgreSQL: a hand saved at the very moment of a sign-off.

Each test runs two services in threads with their own connections. The first stops at its
checkpoint (locks held, everything it decides on read, nothing written yet:
``services.locking.checkpoint``); the second starts then, and the first goes on only once
PostgreSQL reports the second waiting for the first's locks (``pg_blocking_pids``) or the
second has finished. So the interleaving is forced, not left to timing, and a service that
does not take the lock it needs shows up as a second that finished instead of waiting.
"""

import threading
import time
import uuid

import pytest
from django.db import connection

from tournament.models import HandResult, Match, Stage
from tournament.selectors.results import match_totals
from tournament.services import ServiceError, locking
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import HandEntry, record_hand_result
from tournament.services.rounds import publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

KNOCK_4_VS_12 = HandEntry("knock", declarer_seat=1, declarer_deadwood=4, opponent_deadwood=12)
GIN_VS_30 = HandEntry("gin", declarer_seat=2, opponent_deadwood=30)
WAIT = 20  # seconds before a test gives up on a thread that should have arrived


def _backend_pid() -> int:
    connection.ensure_connection()
    return connection.connection.info.backend_pid


def interleave(monkeypatch, first, point, second):
    """Run ``first()`` until it reaches the checkpoint ``point``; then run ``second()`` until
    it waits for a lock ``first`` holds (or ends); then let ``first`` go on. Returns each
    one's outcome, ("ok", value) or ("error", exception), and how the second was found:
    "blocked" (waiting for the first's locks) or "done"."""
    reached = threading.Event()
    second_done = threading.Event()
    second_pid: list[int] = []
    found: list[str] = []
    outcomes: dict[str, tuple] = {}
    threads: dict[str, threading.Thread] = {}

    def hook(name):
        if name != point or threading.current_thread() is not threads["first"]:
            return
        if reached.is_set():
            return
        reached.set()
        mine = _backend_pid()
        deadline = time.monotonic() + WAIT
        with connection.cursor() as cursor:
            while time.monotonic() < deadline:
                if second_done.is_set():
                    found.append("done")
                    return
                if second_pid:
                    cursor.execute("SELECT %s = ANY(pg_blocking_pids(%s))",
                                   [mine, second_pid[0]])
                    if cursor.fetchone()[0]:
                        found.append("blocked")
                        return
                time.sleep(0.005)
        found.append("timeout")

    monkeypatch.setattr(locking, "on_checkpoint", hook)

    def run(name, call):
        try:
            outcomes[name] = ("ok", call())
        except Exception as error:  # the outcome to check, whatever it is
            outcomes[name] = ("error", error)
        finally:
            connection.close()
            if name == "second":
                second_done.set()

    def later():
        second_pid.append(_backend_pid())
        if not reached.wait(WAIT):
            raise RuntimeError(f"the first service never reached {point}")
        return second()

    threads["first"] = threading.Thread(target=run, args=("first", first))
    threads["second"] = threading.Thread(target=run, args=("second", later))
    for thread in threads.values():
        thread.start()
    for thread in threads.values():
        thread.join(3 * WAIT)
    assert not any(t.is_alive() for t in threads.values()), "a thread is stuck"
    return outcomes["first"], outcomes["second"], (found[0] if found else "never")


@pytest.fixture
def scorer(tournament, staff_user, actor):
    return actor(staff_user(tournament, "scorer", username="scorer-li"))


@pytest.fixture
def referee(tournament, staff_user, actor):
    return actor(staff_user(tournament, "referee", username="referee-chen"))


@pytest.fixture
def signed_match(director_actor, tournament, teams, scorer):
    """A match with every hand entered, approved and both tables signed: ready for the
    referee's sign-off."""
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    match = round_.matches.get()
    for table in match.tables.order_by("position"):
        for hand in range(1, match.hands + 1):
            result = record_hand_result(scorer, table, hand, KNOCK_4_VS_12, seen_version=0,
                                        request_token=uuid.uuid4())
            approve_hand(scorer, result, 1)
            approve_hand(scorer, result, 2)
        sign_table(scorer, table, 1)
        sign_table(scorer, table, 2)
    return match


def change_hand_one(scorer, match):
    table = match.tables.get(position=1)
    return lambda: record_hand_result(scorer, table, 1, GIN_VS_30, seen_version=1,
                                      request_token=uuid.uuid4())


def assert_totals_are_the_results(match):
    """Never a signed-off match whose totals miss a saved hand."""
    match = Match.objects.get(pk=match.pk)
    if match.signed_off_at is not None:
        assert (match.home_total, match.away_total) == match_totals(match)
    else:
        assert (match.home_total, match.away_total) == (None, None)
    return match


def test_a_hand_saved_while_the_match_is_signed_off_waits_and_is_refused(
        monkeypatch, signed_match, scorer, referee):
    signing, saving, second_was = interleave(
        monkeypatch, lambda: sign_off_match(referee, signed_match), "match.sign_off",
        change_hand_one(scorer, signed_match))

    assert second_was == "blocked"  # the save reached the match's lock and waited there
    assert signing[0] == "ok"
    assert saving[0] == "error" and isinstance(saving[1], ServiceError)
    assert "signed off; only a referee can correct it" in saving[1].message
    match = assert_totals_are_the_results(signed_match)
    assert match.signed_off_at is not None
    assert HandResult.objects.filter(table__match=match, hand=1).count() == 2  # 1 per table


def test_a_sign_off_while_a_hand_is_saved_waits_and_is_refused(
        monkeypatch, signed_match, scorer, referee):
    saving, signing, second_was = interleave(
        monkeypatch, change_hand_one(scorer, signed_match), "hand.save",
        lambda: sign_off_match(referee, signed_match))

    assert second_was == "blocked"  # the sign-off reached the match's lock and waited there
    assert saving[0] == "ok" and saving[1].version == 2
    assert signing[0] == "error" and isinstance(signing[1], ServiceError)
    assert "seat 1 has not signed" in signing[1].message  # the save cleared the signatures
    match = assert_totals_are_the_results(signed_match)
    assert match.signed_off_at is None


def test_saves_at_two_matches_do_not_wait_for_each_other(
        monkeypatch, director_actor, tournament, teams, scorer):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    one, two = (m.tables.get(position=1) for m in round_.matches.order_by("number"))

    def save(table):
        return lambda: record_hand_result(scorer, table, 1, KNOCK_4_VS_12, seen_version=0,
                                          request_token=uuid.uuid4())

    first, second, second_was = interleave(monkeypatch, save(one), "hand.save", save(two))

    assert second_was == "done"  # saved while the first save held its locks
    assert first[0] == second[0] == "ok"


def test_two_tied_matches_adding_hands_at_once_queue_on_their_round(
        monkeypatch, director_actor, tournament, teams, scorer, referee):
    from tournament.models import Deal
    from tournament.services.deals import generate_deals
    from tournament.services.extra_hands import add_extra_hands

    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)  # one deal set for the whole field
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    one, two = round_.matches.order_by("number")
    for match in (one, two):
        for table in match.tables.all():  # the same result at both tables: level
            for hand in range(1, match.hands + 1):
                record_hand_result(scorer, table, hand, KNOCK_4_VS_12, seen_version=0,
                                   request_token=uuid.uuid4())

    first, second, second_was = interleave(
        monkeypatch, lambda: add_extra_hands(referee, one), "match.extra_hands",
        lambda: add_extra_hands(referee, two))

    # The new hands' deals serve both matches: the second waited for the first to make
    # them, found them and made none, instead of making them a second time.
    assert second_was == "blocked"
    assert first[0] == second[0] == "ok", (first, second)
    assert first[1].hands == second[1].hands == 10
    hands = list(Deal.objects.filter(round=round_).values_list("hand", flat=True))
    assert sorted(hands) == list(range(1, 11))


def test_a_round_closed_at_the_moment_of_its_last_sign_off_waits_for_it(
        monkeypatch, signed_match, director_actor, referee):
    from tournament.models import Round
    from tournament.services.rounds import close_round

    signing, closing, second_was = interleave(
        monkeypatch, lambda: sign_off_match(referee, signed_match), "match.sign_off",
        lambda: close_round(director_actor, signed_match.round))

    assert second_was == "blocked"  # the close waited for the match being signed off
    assert signing[0] == "ok"
    assert closing[0] == "ok", closing  # and then found it official
    assert Round.objects.get(pk=signed_match.round_id).status == Round.Status.CLOSED
    assert_totals_are_the_results(signed_match)
