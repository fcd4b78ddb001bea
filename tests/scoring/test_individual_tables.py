"""``scoring.individual.table_lines``, the fast path of the individual standings (a
512-team event has 122,880 player-hands), gives exactly what ``individual_standings`` of
``table_hands`` gives, hand by hand (bench/standings.py times it). It reads who sat where as
stored (``TableSeat``): here each table's seats from the line-ups by ``scoring.seating``."""

from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.individual import (
    individual_standings,
    rank_lines,
    seat_tallies,
    table_hands,
    table_lines,
    tally_lines,
)
from scoring.seating import player_in_seat

LINEUPS = {1: {"home": ("a1", "a2"), "away": ("b1", "b2")},
           2: {"home": ("c1", "c2"), "away": ("a1", "a2")},  # a plays away in match 2
           3: {"home": ("b2", "b1"), "away": ("c2", "c1")}}  # b's line-up swapped
KINDS = [("draw", None), ("knock", 1), ("knock", 2), ("undercut", 1), ("undercut", 2),
         ("gin", 1), ("gin", 2), ("big_gin", 2)]

# (match, table position) → the players in seats 1 and 2
SEATS = {(match, position): tuple(player_in_seat(position, seat, LINEUPS[match])
                                  for seat in (1, 2))
         for match in LINEUPS for position in (1, 2)}


def by_table(rows):
    """The hands as ``table_lines`` takes them: each named by its table."""
    return [((match, position), *rest) for match, position, *rest in rows]


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
    fast = rank_lines(table_lines(by_table(rows), SEATS).values(), minimum_hands=minimum)
    assert [astuple(line) for line in fast] == [astuple(line) for line in slow]


def test_table_lines_refuse_what_a_player_hand_refuses():
    with pytest.raises(RuleError, match="unknown outcome"):
        table_lines([((1, 1), 1, 0, 0, "schneider", 1, None, False)], SEATS)
    with pytest.raises(RuleError, match="hands are numbered from 1"):
        table_lines([((1, 1), 0, 0, 0, "draw", None, None, False)], SEATS)


@settings(max_examples=200)
@given(st.lists(hand, max_size=60), st.integers(0, 4),
       st.fixed_dictionaries({match: st.booleans() for match in LINEUPS}))
def test_the_lines_of_the_seats_tallies_are_the_lines_of_their_hands(hands, minimum,
                                                                     provisional):
    """Each table's hands tallied per seat (what the database keeps, issue 28), the
    tallies added up per player: the lines, ranks and figures of every hand counted one by
    one. (A match is provisional as a whole: it is signed off or not.)"""
    rows = [(match, position, number, points, -points, outcome, declarer, false_knock,
             provisional[match])
            for match, position, number, points, (outcome, declarer), false_knock, _p
            in hands]
    slow = rank_lines(table_lines(by_table(rows), SEATS).values(), minimum_hands=minimum)
    tables: dict[tuple, list] = {}
    for match, position, number, one, two, outcome, declarer, false_knock, _p in rows:
        tables.setdefault((match, position), []).append(
            (number, one, two, outcome, declarer, false_knock))
    tallies = [(player_in_seat(position, seat, LINEUPS[match]), tally, provisional[match])
               for (match, position), table in tables.items()
               for seat, tally in zip((1, 2), seat_tallies(table), strict=True)]
    fast = rank_lines(tally_lines(tallies).values(), minimum_hands=minimum)
    key = lambda line: (line.rank, line.player)  # noqa: E731 (ties keep their first order)
    assert [astuple(line) for line in sorted(fast, key=key)] == \
        [astuple(line) for line in sorted(slow, key=key)]


def test_seat_tallies_refuse_what_a_player_hand_refuses():
    with pytest.raises(RuleError, match="unknown outcome"):
        seat_tallies([(1, 0, 0, "schneider", 1, None)])
    with pytest.raises(RuleError, match="hands are numbered from 1"):
        seat_tallies([(0, 0, 0, "draw", None, None)])
    with pytest.raises(RuleError, match="nobody declares"):
        seat_tallies([(1, 0, 0, "draw", 1, None)])
