"""Individual standings: every count worked out by hand (issue 11, item 7)."""

import random
from fractions import Fraction
from itertools import pairwise

import pytest

from scoring.errors import RuleError
from scoring.individual import PlayerHand, individual_standings, table_hands


def test_each_kind_of_hand_is_counted_for_the_right_player():
    hands = [
        PlayerHand("li", 45, dealer=True, outcome="gin", declared=True),
        PlayerHand("ann", -45, dealer=False, outcome="gin"),
        PlayerHand("li", -29, dealer=False, outcome="undercut", declared=True),
        PlayerHand("ann", 29, dealer=True, outcome="undercut"),
        PlayerHand("li", 23, dealer=True, outcome="knock", declared=True),
        PlayerHand("ann", -23, dealer=False, outcome="knock", false_knock=True),
        PlayerHand("li", 0, dealer=False, outcome="draw"),
        PlayerHand("ann", 0, dealer=True, outcome="draw"),
        PlayerHand("bo", 53, dealer=True, outcome="big_gin", declared=True),
    ]
    bo, li, ann = individual_standings(hands)
    assert (li.player, li.points, li.hands, li.gins, li.knocks, li.undercuts_suffered,
            li.draws) == ("li", 39, 4, 1, 1, 1, 1)
    assert (li.as_dealer.hands, li.as_dealer.points, li.as_non_dealer.points) == (2, 68, -29)
    assert li.per_hand == Fraction(39, 4)
    assert (ann.points, ann.undercuts_won, ann.false_knocks) == (-39, 1, 1)
    assert (bo.big_gins, bo.rank, li.rank, ann.rank) == (1, 1, 2, 3)


def test_a_minimum_of_hands_and_shared_ranks():
    hands = [PlayerHand(p, 10, dealer=True, outcome="knock", declared=True)
             for p in ("a", "b")] + [PlayerHand("c", 30, dealer=True, outcome="gin",
                                                declared=True)]
    assert [(line.player, line.rank) for line in individual_standings(hands)] == [
        ("c", 1), ("a", 2), ("b", 2)]
    assert individual_standings(hands, minimum_hands=2) == []


def test_impossible_hands_are_refused():
    with pytest.raises(RuleError, match="unknown outcome"):
        PlayerHand("a", 0, dealer=True, outcome="schneider")
    with pytest.raises(RuleError, match="nobody declares"):
        PlayerHand("a", 0, dealer=True, outcome="draw", declared=True)


def test_a_table_hand_goes_to_the_players_in_its_seats():
    lineups = {"home": ("a1", "a2"), "away": ("b1", "b2")}
    # Table 2, hand 2: seat 1 is away's second player, seat 2 (dealer in even hands) home's
    # second; seat 2 knocked and was undercut, seat 1 had false-knocked earlier.
    seat1, seat2 = table_hands(2, 2, (29, -29), "undercut", 2, 1, lineups, provisional=True)
    assert seat1 == PlayerHand("b2", 29, dealer=False, outcome="undercut", declared=False,
                               false_knock=True, provisional=True)
    assert seat2 == PlayerHand("a2", -29, dealer=True, outcome="undercut", declared=True,
                               provisional=True)
    first, second = table_hands(1, 3, (0, 0), "draw", None, None, lineups)
    assert (first.player, first.dealer, second.player, second.dealer) == (
        "a1", True, "b1", False)
    lines = individual_standings([seat1, seat2, first, second])
    assert {line.player: (line.undercuts_won, line.undercuts_suffered, line.provisional)
            for line in lines} == {"b2": (1, 0, True), "a2": (0, 1, True),
                                   "a1": (0, 0, False), "b1": (0, 0, False)}


def test_points_per_hand_break_ties_exactly():
    """Equal points: fewer hands rank higher when the points are positive, more hands when
    they are negative; at 0 the players share the rank. Checked against exact fractions."""
    rng = random.Random(7)
    hands = []
    for player in range(60):
        for _ in range(rng.randint(1, 4)):
            hands.append(PlayerHand(player, rng.choice([-10, -5, 0, 5, 10]), dealer=True,
                                    outcome="knock", declared=True))
    lines = individual_standings(hands)
    expected = sorted(lines, key=lambda line: (-line.points, -line.per_hand))
    assert [(line.points, line.per_hand) for line in lines] == [
        (line.points, line.per_hand) for line in expected]
    for line, following in pairwise(lines):
        same = (line.points, line.per_hand) == (following.points, following.per_hand)
        assert (line.rank == following.rank) == same
    few = [PlayerHand("a", 10, dealer=True, outcome="knock", declared=True)]
    many = [PlayerHand("b", 5, dealer=True, outcome="knock", declared=True)] * 2
    minus_few = [PlayerHand("c", -10, dealer=True, outcome="knock", declared=True)]
    minus_many = [PlayerHand("d", -5, dealer=True, outcome="knock", declared=True)] * 2
    assert [line.player for line in individual_standings(
        many + few + minus_few + minus_many)] == ["a", "b", "d", "c"]
