"""Individual standings of a match entered hand by hand through the services: every count of
the four players worked out by hand (issue 11, item 7)."""

import uuid
from decimal import Decimal

import pytest

from tournament.models import Stage
from tournament.selectors.individual import individual
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams

# Table 1 seats home's first player (A1) in seat 1 against away's first (B1); table 2 away's
# second (B2) in seat 1 against home's second (A2). Seat 1 holds the dealer's cards in odd
# hands, seat 2 in even hands.
TABLE_1 = [
    HandEntry("knock", 1, 4, 12),  # A1 dealer +23 (knock) / B1 -23
    HandEntry("gin", 2, None, 30),  # B1 dealer +55 (gin) / A1 -55
    HandEntry("knock", 1, 7, 7),  # undercut: A1 dealer -25 (suffered) / B1 +25 (won)
    HandEntry("knock", 1, 5, None, false_knock_seat=2, false_knock_deadwood=15),
    # B1 dealer false-knocked at 15, A1 knocks with 5: A1 +25 (knock) / B1 -25
    HandEntry("draw"),  # A1 dealer 0 / B1 0
]
TABLE_2 = [
    HandEntry("big_gin", 1, None, 18),  # B2 dealer +53 (Big Gin) / A2 -53
    HandEntry("knock", 2, 3, 20),  # A2 dealer +32 (knock) / B2 -32
    HandEntry("knock", 2, 6, 2),  # undercut: A2 -29 (suffered) / B2 dealer +29 (won)
    HandEntry("gin", 2, None, None, false_knock_seat=1, false_knock_deadwood=23),
    # B2 false-knocked at 23, A2 dealer goes gin: A2 +48 / B2 -48
    HandEntry("draw", false_knock_seat=2, false_knock_deadwood=12),  # A2 false knock, 0
]

# (points, hands, gins, Big Gins, knocks, undercuts won, undercuts suffered, false knocks,
#  draws, dealer hands, dealer points, non-dealer hands, non-dealer points)
EXPECTED = {
    "B1": (32, 5, 1, 0, 0, 1, 0, 1, 1, 2, 30, 3, 2),
    "B2": (2, 5, 0, 1, 0, 1, 0, 1, 1, 3, 82, 2, -80),
    "A2": (-2, 5, 1, 0, 1, 0, 1, 1, 1, 2, 80, 3, -82),
    "A1": (-32, 5, 0, 0, 2, 0, 1, 0, 1, 3, -2, 2, -30),
}


@pytest.fixture
def match(director_actor, tournament, make_team):
    tournament.hands_per_match = 5
    tournament.save()
    home = make_team(tournament, code="HOM", name="Home", player1="A1", player2="A2")
    away = make_team(tournament, code="AWY", name="Away", player1="B1", player2="B2")
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, [home, away])
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    match = round_.matches.get()
    assert (match.home, match.away) == (home, away)
    for position, entries in ((1, TABLE_1), (2, TABLE_2)):
        table = match.tables.get(position=position)
        for hand, entry in enumerate(entries, 1):
            result = record_hand_result(director_actor, table, hand, entry, seen_version=0,
                                        request_token=uuid.uuid4())
            approve_hand(director_actor, result, 1)
            approve_hand(director_actor, result, 2)
    return match


def counts(row):
    line = row.line
    return (line.points, line.hands, line.gins, line.big_gins, line.knocks,
            line.undercuts_won, line.undercuts_suffered, line.false_knocks, line.draws,
            line.as_dealer.hands, line.as_dealer.points, line.as_non_dealer.hands,
            line.as_non_dealer.points)


def test_every_count_of_the_four_players(tournament, match):
    standings = individual(tournament)
    assert [(row.rank, row.player.name) for row in standings.rows] == [
        (1, "B1"), (2, "B2"), (3, "A2"), (4, "A1")]
    assert {row.player.name: counts(row) for row in standings.rows} == EXPECTED
    assert [row.per_hand for row in standings.rows] == [
        Decimal("6.40"), Decimal("0.40"), Decimal("-0.40"), Decimal("-6.40")]
    assert [row.team.code for row in standings.rows] == ["AWY", "AWY", "HOM", "HOM"]
    assert all(row.line.provisional for row in standings.rows) and standings.provisional


def test_official_only_counts_signed_off_matches(director_actor, tournament, match):
    assert individual(tournament, official_only=True).rows == []
    for table in match.tables.all():
        sign_table(director_actor, table, 1)
        sign_table(director_actor, table, 2)
    sign_off_match(director_actor, match)
    official = individual(tournament, official_only=True)
    assert {row.player.name: counts(row) for row in official.rows} == EXPECTED
    assert not official.provisional
    stage = individual(tournament, stage=match.round.stage, official_only=True)
    assert [row.player.name for row in stage.rows] == ["B1", "B2", "A2", "A1"]


def test_a_correction_is_counted_as_the_current_version(director_actor, tournament, match):
    table = match.tables.get(position=1)
    record_hand_result(director_actor, table, 5, HandEntry("gin", 1, None, 10),
                       seen_version=1, request_token=uuid.uuid4())
    rows = {row.player.name: row.line for row in individual(tournament).rows}
    assert (rows["A1"].points, rows["A1"].gins, rows["A1"].draws) == (-32 + 35, 1, 0)
    assert (rows["B1"].points, rows["B1"].draws) == (32 - 35, 0)


def test_minimum_hands_and_a_forfeited_match(director_actor, tournament, match):
    assert len(individual(tournament, minimum_hands=5).rows) == 4
    short = individual(tournament, minimum_hands=6)
    assert short.rows == [] and short.players == 4
    match.forfeited_by = match.away
    match.save(update_fields=["forfeited_by"])
    assert individual(tournament).rows == []  # decided by the default, not by play


def test_queries_do_not_grow_with_the_hands(tournament, match, django_assert_num_queries):
    """The seat tallies added up per player by the database, and the players."""
    with django_assert_num_queries(2):
        individual(tournament)
