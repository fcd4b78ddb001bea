"""The integrity check of the standings (issue 11, item 8): the selector, ``manage.py
check_standings`` and the button on the staff standings page. A clean event played through
the services finds nothing; every kind of stored value corrupted past the services is
listed, by the command and by the page.

The event: a group of five, one hand per table (Berger rounds, bye first):
  1: T1 bye, T2–T5, T3–T4    2: T4 bye, T5–T3, T1–T2    3: T2 bye, T3–T1, T4–T5
Rounds 1 and 2 played and signed off (T1–T2 then corrected by a referee: provisional
again), round 3 in play with T3–T1 not begun (no rows yet) and T4–T5 defaulted by T5, which
withdraws T5 from the group: every row involving it is void.
"""

import io
import uuid

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import new_staff, new_tournament, seeded_teams
from tournament.models import (
    AuditEntry,
    HandResult,
    Match,
    Round,
    Stage,
    TeamResult,
    Tournament,
)
from tournament.selectors.integrity import check_standings
from tournament.services import Actor
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.penalties import record_penalty
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage, enter_teams

GIN = HandEntry("gin", 1, None, 30)  # seat 1: +55
KNOCK = HandEntry("knock", 2, 4, 12)  # seat 2: +23
UNDERCUT = HandEntry("knock", 1, 7, 5)  # seat 1 knocks and is undercut: seat 2 +27
DRAW = HandEntry("draw")


def enter(actor, match, one, two, *, seen=0, reason=""):
    first, second = match.tables.order_by("position")
    for table, entry in ((first, one), (second, two)):
        record_hand_result(actor, table, 1, entry, seen_version=seen,
                           request_token=uuid.uuid4(), reason=reason)


def play(actor, match, one, two):
    enter(actor, match, one, two)
    for result in HandResult.objects.filter(table__match=match, is_current=True):
        approve_hand(actor, result, 1)
        approve_hand(actor, result, 2)
    for table in match.tables.all():
        sign_table(actor, table, 1)
        sign_table(actor, table, 2)
    sign_off_match(actor, match)


def begin(actor, stage):
    round_ = generate_round(actor, stage)
    publish_round(actor, round_)
    return start_round(actor, round_)


def match_of(round_, home, away):
    return Match.objects.get(round=round_, home__code=home, away__code=away)


pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(module_db):
    """The event, built once for the module's tests (each runs in a savepoint)."""
    tournament = new_tournament(name="World Cup", slug="world-cup", venue="Shanghai",
                                hands_per_match=1)
    director = Actor(new_staff(tournament, "director", "director"), ip="10.0.0.7")
    referee = Actor(new_staff(tournament, "referee", "referee"), ip="10.0.0.7")
    stage = create_stage(director, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director, stage, [seeded_teams(tournament, 5)])
    one = begin(director, stage)
    play(director, match_of(one, "T2", "T5"), GIN, KNOCK)
    play(director, match_of(one, "T3", "T4"), UNDERCUT, DRAW)
    close_round(director, one)
    two = begin(director, stage)
    play(director, match_of(two, "T5", "T3"), KNOCK, GIN)
    play(director, match_of(two, "T1", "T2"), GIN, DRAW)
    close_round(director, two)
    three = begin(director, stage)
    first = match_of(two, "T1", "T2").tables.get(position=1)
    record_hand_result(referee, first, 1, DRAW, seen_version=1, request_token=uuid.uuid4(),
                       reason="it was a draw")  # provisional until signed off again
    forfeited = match_of(three, "T4", "T5")
    record_penalty(referee, team=forfeited.away, round=three, kind="default",
                   match=forfeited, reason="no show")
    return stage


@pytest.fixture
def event(built):
    return Stage.objects.get(pk=built.pk)


@pytest.fixture
def tournament(event):
    return Tournament.objects.get(pk=event.tournament_id)


@pytest.fixture
def director_actor(tournament):
    return Actor(user=User.objects.get(username="director"), ip="10.0.0.7")


def row(stage, number, code):
    return TeamResult.objects.get(round__stage=stage, round__number=number, team__code=code)


def command(*slugs):
    out = io.StringIO()
    try:
        call_command("check_standings", *slugs, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue()
    return 0, out.getvalue()


def test_a_clean_event_has_no_difference(event, tournament):
    rows = TeamResult.objects.filter(round__stage=event)
    # Every kind of row is there: byes, played, provisional, forfeited and void rows.
    assert set(rows.values_list("outcome", flat=True)) == {"bye", "win", "loss", "tie"}
    assert rows.filter(provisional=True).count() == 2  # T1–T2, being corrected
    assert rows.filter(forfeit=True).count() == 2 and rows.filter(void=True).count() == 6
    report = check_standings(tournament)
    assert report.ok, report.differences
    assert (report.matches, report.hands, report.rows, report.stored_rows) == (6, 8, 13, 13)
    assert command("world-cup") == (0, "world-cup: " + report.summary + "\n")
    assert check_standings(tournament, stage=event).ok


def test_the_check_reads_a_fixed_number_of_queries(event, tournament):
    with CaptureQueriesContext(connection) as queries:
        check_standings(tournament)
    assert len(queries) <= 10  # eight reads, and the transaction's own statements


CORRUPTIONS = {
    "small points": (
        lambda stage: TeamResult.objects.filter(pk=row(stage, 1, "T3").pk)
        .update(small_points=10),
        "Groups, round 1, T3: small points stored 10, recomputed -27"),
    "match points and outcome": (
        lambda stage: TeamResult.objects.filter(pk=row(stage, 2, "T1").pk)
        .update(outcome="win", match_points=3),
        "Groups, round 2, T1: outcome stored win, recomputed tie; match points stored 3, "
        "recomputed 2"),
    "a row deleted": (
        lambda stage: row(stage, 2, "T4").delete(),
        "Groups, round 2, T4: no stored row; the hands give opponent none, outcome bye, "
        "small points 0, match points 2, gins 0, forfeit no, void no, provisional no"),
    "a stray row": (
        lambda stage: TeamResult.objects.create(
            round=row(stage, 3, "T2").round, team=row(stage, 1, "T3").team,
            match=match_of(row(stage, 3, "T2").round, "T3", "T1"),
            opponent=row(stage, 2, "T1").team, outcome="win", small_points=5,
            match_points=3),
        "Groups, round 3, T3: a stored row that the hands and the draw do not give "
        "(opponent T1, outcome win, small points 5"),
    "a void flag": (
        lambda stage: TeamResult.objects.filter(pk=row(stage, 1, "T2").pk).update(void=False),
        "Groups, round 1, T2: void stored no, recomputed yes"),
    "a match total": (
        lambda stage: Match.objects.filter(round__stage=stage, round__number=1,
                                           home__code="T3").update(home_total=-7, away_total=7),
        "Groups, round 1, match 2 (T3 – T4): signed off at -7 – 7, the hands make -27 – 27"),
    "a forfeit": (
        lambda stage: Match.objects.filter(round__stage=stage, round__number=3,
                                           home__code="T3").update(forfeited_by=F("away")),
        "Groups, round 3, match 1 (T3 – T1): forfeited by T1, the active penalties say by "
        "nobody"),
    "a hand's points": (
        lambda stage: HandResult.objects.filter(
            is_current=True, table__match__round__stage=stage, table__match__round__number=2,
            table__match__home__code="T5", table__position=2).update(seat1_points=54,
                                                                     seat2_points=-54),
        "Groups, round 2, match 1 (T5 – T3) table 2 hand 1: stored points 54, -54; scored "
        "again: 55, -55"),
}


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_a_corrupted_value_is_listed_by_the_command(event, tournament, corruption):
    corrupt, expected = CORRUPTIONS[corruption]
    corrupt(event)
    report = check_standings(tournament)
    assert [str(d) for d in report.differences if str(d).startswith(expected)], \
        [str(d) for d in report.differences]
    status, output = command()
    assert status == 1
    assert f"world-cup: {len(report.differences)} difference(s)" in output
    assert f"\n  {expected}" in output


@pytest.mark.parametrize("corruption", ["a match total", "a hand's points"])
def test_a_corruption_is_listed_once_where_it_is(event, tournament, corruption):
    """Each stored value is compared with what the entered hands give, not with the other
    stored values: a changed total, or a hand's changed points, is one difference, not the
    total, the hand and both teams' rows."""
    CORRUPTIONS[corruption][0](event)
    assert [str(d) for d in check_standings(tournament).differences] == [
        CORRUPTIONS[corruption][1]]


def test_the_command_refuses_an_unknown_tournament(event):
    assert command("world-cup", "nowhere") == (2, "")


@pytest.fixture
def staff_client(client, tournament, staff_user):
    def login(role):
        client.force_login(staff_user(tournament, role, username=f"web-{role}"))
        return client
    return login


CHECK = "/manage/world-cup/standings/check/"


def test_the_page_finds_nothing_in_a_clean_event_and_the_check_is_audited(event, staff_client):
    client = staff_client("referee")
    standings = client.get(reverse("director:stage_standings", args=["world-cup", event.pk]))
    assert f'action="{CHECK}"' in standings.content.decode()
    response = client.post(CHECK)
    page = " ".join(response.content.decode().split())
    assert response.status_code == 200
    assert "No difference: the stored standings agree with the hand results." in page
    assert "6 matches, 8 hands; 13 result rows expected, 13 stored." in page
    entry = AuditEntry.objects.get(action="standings.check")
    assert entry.summary.startswith("web-referee ran the integrity check of the standings: no "
                                    "difference")
    assert entry.data["differences"] == 0


@pytest.mark.parametrize("corruption", ["small points", "a row deleted", "a stray row",
                                        "a match total"])
def test_the_page_lists_a_corrupted_value(event, staff_client, corruption):
    corrupt, expected = CORRUPTIONS[corruption]
    corrupt(event)
    response = staff_client("director").post(CHECK)
    page = " ".join(response.content.decode().split())
    assert "1 difference between the stored standings and the hand results" in page
    stage, number, where, what = _parts(expected)
    assert f"<td>{stage}</td><td>{number}</td><td>{where}</td><td>{what}" in page
    entry = AuditEntry.objects.get(action="standings.check")
    assert entry.data["differences"] == 1 and expected in entry.summary


def _parts(expected):
    """("Groups", "1", "T3", "small points …") of a difference as the command prints it."""
    stage, rest = expected.split(", round ", 1)
    number, rest = rest.split(", ", 1)
    where, what = rest.split(": ", 1)
    return stage, number, where, what


def test_only_referees_and_directors_run_the_check(event, staff_client):
    client = staff_client("scorer")
    standings = client.get(reverse("director:stage_standings", args=["world-cup", event.pk]))
    assert CHECK not in standings.content.decode()
    assert client.post(CHECK).status_code == 403
    assert client.get(CHECK).status_code in (403, 405)
    assert not AuditEntry.objects.filter(action="standings.check").exists()


def test_the_page_takes_only_a_post(event, staff_client):
    assert staff_client("director").get(CHECK).status_code == 405


def test_rows_of_a_round_not_started_are_stray(event, tournament, director_actor):
    swiss = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, swiss, list(tournament.teams.order_by("code"))[:4])
    draft = generate_round(director_actor, swiss)
    match = draft.matches.select_related("home", "away").first()
    TeamResult.objects.create(round=draft, team=match.home, match=match, opponent=match.away,
                              outcome="tie", small_points=0, match_points=2)
    assert Round.objects.get(pk=draft.pk).status == Round.Status.DRAFT
    differences = [str(d) for d in check_standings(tournament).differences]
    assert differences == [f"Swiss, round 1, {match.home.code}: a stored row that the hands "
                           f"and the draw do not give (opponent {match.away.code}, outcome "
                           "tie, small points 0, match points 2, gins 0, forfeit no, void no, "
                           "provisional yes)"]



def test_a_seats_tally_that_its_hands_do_not_make_is_listed(event, tournament):
    """The seats' tallies the individual standings add up are checked against the hands."""
    from django.db.models import F

    from tournament.models import SeatTally

    tally = SeatTally.objects.filter(table__round__stage=event, table__round__number=2,
                                     table__match__home__code="T5", table__position=2,
                                     seat=1).get()
    SeatTally.objects.filter(pk=tally.pk).update(points=F("points") - 7,
                                                 dealer_points=F("dealer_points") + 2)
    assert [str(d) for d in check_standings(tournament).differences] == [
        f"Groups, round 2, match 1 (T5 – T3) table 2 seat 1: tally: points stored "
        f"{tally.points - 7}, the hands make {tally.points}; dealer points stored "
        f"{tally.dealer_points + 2}, the hands make {tally.dealer_points}"]
    SeatTally.objects.filter(pk=tally.pk).delete()
    assert [str(d) for d in check_standings(tournament).differences] == [
        "Groups, round 2, match 1 (T5 – T3) table 2 seat 1: no stored tally of its hands"]


def test_a_seat_whose_player_is_not_the_line_ups_is_listed(event, tournament):
    """Who a seat's hands count for (``TableSeat``) is checked against the line-ups (the
    database refuses a wrong player; a seat taken off leaves its hands to nobody)."""
    from tournament.models import TableSeat

    TableSeat.objects.filter(table__round__stage=event, table__round__number=2,
                             table__match__home__code="T5", table__position=2,
                             seat=1).delete()
    assert [str(d) for d in check_standings(tournament).differences] == [
        "Groups, round 2, match 1 (T5 – T3) table 2 seat 1: its hands count for nobody, "
        "the line-ups seat Player 3b there"]
