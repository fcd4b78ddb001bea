"""Individual standings: every count worked out by hand (issue 11, item 7)."""

from fractions import Fraction

import pytest

from scoring.errors import RuleError
from scoring.individual import PlayerHand, individual_standings


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
