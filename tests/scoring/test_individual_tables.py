"""``scoring.individual.table_lines``, the fast path of the individual standings (a
512-team event has 122,880 player-hands), gives exactly what ``individual_standings`` of
``table_hands`` gives, hand by hand (bench/standings.py times it)."""

from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.individual import individual_standings, rank_lines, table_hands, table_lines

LINEUPS = {1: {"home": ("a1", "a2"), "away": ("b1", "b2")},
           2: {"home": ("c1", "c2"), "away": ("a1", "a2")},  # a plays away in match 2
           3: {"home": ("b2", "b1"), "away": ("c2", "c1")}}  # b's line-up swapped
KINDS = [("draw", None), ("knock", 1), ("knock", 2), ("undercut", 1), ("undercut", 2),
         ("gin", 1), ("gin", 2), ("big_gin", 2)]

hand = st.tuples(st.sampled_from(sorted(LINEUPS)), st.sampled_from([1, 2]),
                 st.integers(1, 12), st.integers(-60, 60), st.sampled_from(KINDS),
                 st.sampled_from([None, 1, 2]), st.booleans())


@settings(max_examples=200)
@given(st.lists(hand, max_size=60), st.integers(0, 4))
def test_table_lines_are_the_lines_of_every_player_hand(hands, minimum):
    rows = [(match, position, number, points, -points, outcome, declarer, false_knock,
             provisional)
            for match, position, number, points, (outcome, declarer), false_knock,
            provisional in hands]
    slow = individual_standings(
        [player_hand for match, position, number, one, two, outcome, declarer, false_knock,
         provisional in rows
         for player_hand in table_hands(position, number, (one, two), outcome, declarer,
                                        false_knock, LINEUPS[match],
                                        provisional=provisional)],
        minimum_hands=minimum)
    fast = rank_lines(table_lines(rows, LINEUPS).values(), minimum_hands=minimum)
    assert [astuple(line) for line in fast] == [astuple(line) for line in slow]


def test_table_lines_refuse_what_a_player_hand_refuses():
    with pytest.raises(RuleError, match="unknown outcome"):
        table_lines([(1, 1, 1, 0, 0, "schneider", 1, None, False)], LINEUPS)
    with pytest.raises(RuleError, match="hands are numbered from 1"):
        table_lines([(1, 1, 0, 0, 0, "draw", None, None, False)], LINEUPS)
    with pytest.raises(RuleError, match="tables 1 and 2"):
        table_lines([(1, 3, 1, 0, 0, "draw", None, None, False)], LINEUPS)
