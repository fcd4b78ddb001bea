"""Who sits where and who deals: the duplicate seating of a team match (RULES.md §8).

Team A (home) meets team B (away) at two tables. Table 1 seats A's first player in seat 1
against B's first player in seat 2; table 2 seats B's second player in seat 1 against A's
second player in seat 2. Seat 1 deals the odd hands and seat 2 the even ones at both
tables, so in every hand the box's dealer cards go to A at one table and to B at the other:
the two teams play the same cards from opposite sides, which is what makes it duplicate.

Every page, printout and entry screen asks this module, or the seats written from it
(``TableSeat``, ``tournament/services/seats.py``); nothing else decides a seat.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import NamedTuple, TypeVar

from scoring.errors import RuleError, gettext_noop

TABLES_PER_MATCH = 2

P = TypeVar("P")


class Side(enum.StrEnum):
    HOME = "home"  # team A: listed first in the draw
    AWAY = "away"  # team B

    @property
    def other(self) -> Side:
        return Side.AWAY if self is Side.HOME else Side.HOME


class SeatHolder(NamedTuple):
    side: Side
    slot: int  # 1 = the team's first player of the round's line-up, 2 = its second


# (table position, seat) → who sits there.
_SEATING = {
    (1, 1): SeatHolder(Side.HOME, 1),
    (1, 2): SeatHolder(Side.AWAY, 1),
    (2, 1): SeatHolder(Side.AWAY, 2),
    (2, 2): SeatHolder(Side.HOME, 2),
}


def _check_table(table_position: int) -> None:
    if table_position not in (1, 2):
        raise RuleError(
            gettext_noop("a match has tables 1 and 2, not {table_position}"),
            table_position=table_position)


def _check_hand(hand: int) -> None:
    if hand < 1:
        raise RuleError(
            gettext_noop("hands are numbered from 1, not {hand}"),
            hand=hand)


def seat_holder(table_position: int, seat: int) -> SeatHolder:
    """The side and line-up slot of the player in a seat of the match's table 1 or 2."""
    _check_table(table_position)
    if seat not in (1, 2):
        raise RuleError(
            gettext_noop("a table has seats 1 and 2, not {seat}"),
            seat=seat)
    return _SEATING[table_position, seat]


def seats() -> list[tuple[int, int, SeatHolder]]:
    """Every seat of a match, (table position, seat, who sits there), table 1 first: for
    the database's check that the stored seats follow the line-ups (migration 0021)."""
    return [(position, seat, seat_holder(position, seat))
            for position in range(1, TABLES_PER_MATCH + 1) for seat in (1, 2)]


def seat_of(table_position: int, side: Side) -> int:
    """The seat a team's player takes at the match's table 1 or 2."""
    _check_table(table_position)
    side = Side(side)
    return next(seat for (table, seat), holder in _SEATING.items()
                if table == table_position and holder.side is side)


def place_of(side: Side, slot: int) -> tuple[int, int]:
    """(table position, seat) of a team's first (slot 1) or second (slot 2) player: the
    inverse of ``seat_holder``."""
    holder = SeatHolder(Side(side), slot)
    for (table, seat), there in _SEATING.items():
        if there == holder:
            return table, seat
    raise RuleError(
        gettext_noop("a line-up has players 1 and 2, not {slot}"),
        slot=slot)


def player_in_seat(table_position: int, seat: int, lineups: Mapping[Side, Sequence[P]]) -> P:
    """The player in a seat, from each side's line-up: ``lineups[side]`` is (its first
    player, its second player), keyed by ``Side`` or its value ("home", "away")."""
    side, slot = seat_holder(table_position, seat)
    return lineups[side][slot - 1]  # a Side is its value: "home" finds it too


def table_number(match_number: int, table_position: int) -> int:
    """The round's number of the match's table 1 or 2: match *m* plays at tables 2m − 1
    and 2m (RULES.md §16)."""
    _check_table(table_position)
    if match_number < 1:
        raise RuleError(
            gettext_noop("matches are numbered from 1, not {match_number}"),
            match_number=match_number)
    return TABLES_PER_MATCH * (match_number - 1) + table_position


def dealer_seat(hand: int) -> int:
    """The seat that takes the box's 11 dealer cards in a hand (the same at both tables)."""
    _check_hand(hand)
    return 1 if hand % 2 else 2


def dealer(table_position: int, hand: int) -> SeatHolder:
    """Who deals a hand at the match's table 1 or 2."""
    return seat_holder(table_position, dealer_seat(hand))


def non_dealer(table_position: int, hand: int) -> SeatHolder:
    return seat_holder(table_position, 3 - dealer_seat(hand))
