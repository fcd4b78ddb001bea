"""Comparison with the field (RULES.md §12): what every table made of the same box.

The **datum** of a seat on a deal is the mean of the points scored with that seat's cards at
every table that played the deal, leaving out the single highest and the single lowest
result when at least 8 tables remain; results of withdrawn teams are left out by the caller.
A player's result **against the field** on a hand is the player's points minus the datum of
the player's seat on that deal. Everything is exact: ``Fraction`` values, worked out in
integers over each deal's number of tables (``field_lines``); pages round to 2 decimals.
These figures inform; they never change match points, small points or the team ranking.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring import seating
from scoring.errors import RuleError, gettext_noop

TRIM_FROM = 8  # tables on a deal from which the highest and lowest result are dropped
DEALER, NON_DEALER = "dealer", "non_dealer"
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "draw")


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's result on a deal, seen from the dealer's cards."""

    table: Hashable
    dealer_points: int  # the non-dealer scored the negative (hands are zero-sum)
    outcome: str
    declarer: str | None = None  # DEALER or NON_DEALER; None for a draw
    declarer_deadwood: int | None = None
    opponent_deadwood: int | None = None
    false_knock: bool = False

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise RuleError(
                gettext_noop("unknown outcome {outcome!r}"),
                outcome=self.outcome)
        if (self.declarer is None) != (self.outcome == "draw"):
            raise RuleError(gettext_noop("a draw has no declarer, and every other hand has one"))
        if self.declarer not in (None, DEALER, NON_DEALER):
            raise RuleError(
                gettext_noop("the declarer holds the dealer or the non-dealer cards, not "
                             "{declarer!r}"),
                declarer=self.declarer)

    def points(self, seat: str) -> int:
        return self.dealer_points if seat == DEALER else -self.dealer_points


def datum_parts(points: Sequence[int]) -> tuple[int, int] | None:
    """The datum as two integers, (the sum of the results kept, how many were kept), not
    reduced: the single highest and lowest result are left out from 8 results on. None when
    nobody played the deal. The other seat's datum is the opposite over the same count
    (every hand is zero-sum)."""
    count = len(points)
    if not count:
        return None
    total = sum(points)
    if count >= TRIM_FROM:
        return total - max(points) - min(points), count - 2
    return total, count


def datum(points: Sequence[int]) -> Fraction | None:
    """The mean of the results, without the single highest and lowest from 8 results on;
    None when nobody played the deal."""
    parts = datum_parts(points)
    return None if parts is None else Fraction(*parts)


@dataclass(frozen=True)
class Traveller:
    """Every table's result on one deal, best for the dealer's cards first, with the
    frequencies and the datum of each seat."""

    results: list[TableResult]
    dealer_datum: Fraction | None
    non_dealer_datum: Fraction | None
    outcomes: dict[str, int]
    false_knocks: int
    points: dict[int, int]  # points for the dealer cards → how many tables

    @property
    def tables(self) -> int:
        return len(self.results)

    @property
    def dealer_average(self) -> Fraction | None:
        """The plain mean for the dealer cards (the box's balance, untrimmed)."""
        if not self.results:
            return None
        return Fraction(sum(r.dealer_points for r in self.results), len(self.results))


def traveller(results: Iterable[TableResult]) -> Traveller:
    results = list(results)
    try:  # tables by their own order (9 before 10), else by their text
        listed = sorted(results, key=lambda r: (-r.dealer_points, r.table))
    except TypeError:
        listed = sorted(results, key=lambda r: (-r.dealer_points, str(r.table)))
    dealer = [r.dealer_points for r in listed]
    return Traveller(
        results=listed,
        dealer_datum=datum(dealer),
        non_dealer_datum=datum([-p for p in dealer]),
        outcomes={outcome: sum(r.outcome == outcome for r in listed) for outcome in OUTCOMES},
        false_knocks=sum(r.false_knock for r in listed),
        points=dict(sorted(Counter(dealer).items(), reverse=True)),
    )


def dealer_points(hand: int, seat1_points: int) -> int:
    """A table's points on a hand for the box's dealer cards, from seat 1's as stored: the
    seat that holds them is ``seating.dealer_seat(hand)`` (``table_result``'s, without the
    rest of the result)."""
    return seat1_points if seating.dealer_seat(hand) == 1 else -seat1_points


def table_result(table: Hashable, hand: int, seat1_points: int, outcome: str,
                 declarer_seat: int | None, declarer_deadwood: int | None = None,
                 opponent_deadwood: int | None = None,
                 false_knock_seat: int | None = None) -> TableResult:
    """A table's result on a hand as stored (seat 1's points, the declarer's seat) seen from
    the box's dealer cards: the seat that holds them is ``seating.dealer_seat(hand)``."""
    dealing = seating.dealer_seat(hand)
    declarer = None if declarer_seat is None else DEALER if declarer_seat == dealing \
        else NON_DEALER
    return TableResult(table, seat1_points if dealing == 1 else -seat1_points, outcome,
                       declarer, declarer_deadwood, opponent_deadwood,
                       false_knock_seat is not None)


def favoured_seat(balance: Fraction | None, threshold: int) -> str | None:
    """The seat a box favoured when the dealer cards' average is at least ``threshold``
    points from zero (a hint for the chief referee, not a rule)."""
    if balance is None or abs(balance) < threshold:
        return None
    return DEALER if balance > 0 else NON_DEALER


# --- players against the field ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PlayerOnDeal:
    """A hand a player played: the deal (any key naming it), the seat's cards, the points."""

    player: Hashable
    deal: Hashable
    seat: str  # DEALER or NON_DEALER
    points: int


def players_on_deal(table_position: int, hand: int, seat1_points: int, deal: Hashable,
                    lineups: Mapping[str, Sequence[Hashable]]) -> tuple[PlayerOnDeal,
                                                                         PlayerOnDeal]:
    """The two players of a hand at a match's table 1 or 2, seat 1's first, each with the
    cards the seat held (``scoring.seating``: who sits where, who deals) and its points."""
    dealing = seating.dealer_seat(hand)
    return tuple(  # type: ignore[return-value]
        PlayerOnDeal(seating.player_in_seat(table_position, seat, lineups), deal,
                     DEALER if seat == dealing else NON_DEALER,
                     seat1_points if seat == 1 else -seat1_points)
        for seat in (1, 2))


@dataclass
class FieldLine:
    player: Hashable
    hands: int = 0
    against_field: Fraction = Fraction(0)
    dealer_hands: int = 0
    dealer_against_field: Fraction = Fraction(0)
    non_dealer_hands: int = 0
    non_dealer_against_field: Fraction = Fraction(0)
    rank: int = 0
    # (player, deal, seat, points) of each hand in the order given, and each deal's
    # datum_parts for the dealer cards: ``per_deal`` is worked out from them when read.
    played: list[tuple[Hashable, Hashable, str, int]] = field(default_factory=list)
    datums: Mapping[Hashable, tuple[int, int]] = field(default_factory=dict, compare=False,
                                                       repr=False)

    @property
    def per_hand(self) -> Fraction:
        return self.against_field / self.hands if self.hands else Fraction(0)

    @property
    def per_deal(self) -> list[tuple[Hashable, str, int, Fraction]]:
        """Each hand as (deal, seat, points, the points minus the seat's datum)."""
        out = []
        for _player, deal, seat, points in self.played:
            total, count = self.datums[deal]
            out.append((deal, seat, points, Fraction(
                points * count - total if seat == DEALER else points * count + total, count)))
        return out


def _exact(numerators: dict[int, int]) -> Fraction:
    """The sum of numerator/denominator over ``{denominator: numerator}``: one ``Fraction``
    over the least common multiple of the denominators (few: a deal's denominator is its
    number of tables kept)."""
    if not numerators:
        return Fraction(0)
    if len(numerators) == 1:
        ((denominator, numerator),) = numerators.items()
        return Fraction(numerator, denominator)
    common = math.lcm(*numerators)
    return Fraction(sum(numerator * (common // denominator)
                        for denominator, numerator in numerators.items()), common)


@dataclass(slots=True)
class FieldSums:
    """A player's (or a seat's) hands against the field in integers: how many with each
    seat's cards and, per denominator (a deal's number of tables kept), the sum of the
    differences' numerators: (points × count − total) with the dealer cards, (points ×
    count + total) with the other's, total/count being the dealer cards' datum
    (``datum_parts``)."""

    dealer_hands: int = 0
    non_dealer_hands: int = 0
    dealer: dict[int, int] = field(default_factory=dict)
    non_dealer: dict[int, int] = field(default_factory=dict)

    def add_seat(self, seat: int, seat1_deals: bool, kept: int, hands: int,
                 seat1_points: int, datum_totals: int) -> None:
        """Add the hands a player played in ``seat`` (1 or 2) of a table, grouped: deals of
        the same number of tables kept (``kept``), all with seat 1 holding the dealer cards
        or all with seat 2 holding them; ``hands`` of them, ``seat1_points`` their points
        for seat 1 and ``datum_totals`` the sum of their deals' kept totals for the dealer
        cards. What ``field_lines`` adds up hand by hand, from sums a database can make
        (every hand is zero-sum, so seat 2's numerator is the opposite of seat 1's)."""
        numerator = seat1_points * kept + (-datum_totals if seat1_deals else datum_totals)
        if seat == 2:
            numerator = -numerator
        if (seat == 1) == seat1_deals:
            self.dealer_hands += hands
            numerators = self.dealer
        else:
            self.non_dealer_hands += hands
            numerators = self.non_dealer
        numerators[kept] = numerators.get(kept, 0) + numerator

    def add(self, other: FieldSums) -> None:
        self.dealer_hands += other.dealer_hands
        self.non_dealer_hands += other.non_dealer_hands
        for mine, theirs in ((self.dealer, other.dealer), (self.non_dealer, other.non_dealer)):
            for count, numerator in theirs.items():
                mine[count] = mine.get(count, 0) + numerator


def field_lines(hands: Iterable[tuple[Hashable, Hashable, str, int]],
                deals: Mapping[Hashable, Sequence[int]], *,
                minimum_hands: int = 0,
                more: Mapping[Hashable, FieldSums] | None = None) -> list[FieldLine]:
    """``against_the_field`` from plain values, for callers with many hands (a 512-team
    event of 15 rounds has 122,880): each hand is (player, deal, seat, points) and
    ``deals[deal]`` the points the dealer cards made at every table of the deal; ``more``
    adds each player's ``FieldSums`` of other deals, summed already (``FieldSums.add_seat``).

    Exact without a ``Fraction`` per hand: a deal's datum is total/count (``datum_parts``),
    so a hand's difference is (points × count − total)/count for the dealer cards and
    (points × count + total)/count for the other seat; each player's numerators are added
    up per denominator and each figure becomes one ``Fraction`` at the end
    (``tests/scoring/test_field_exact.py`` checks it against the ``Fraction`` code).
    ``FieldLine.per_deal`` lists the hands given one by one, not those of ``more``."""
    data = {}
    for deal, points in deals.items():
        parts = datum_parts(points)
        if parts is not None:
            data[deal] = parts
    sums: dict[Hashable, FieldSums] = {}
    played: dict[Hashable, list] = {}
    for hand in hands:
        player, deal, seat, points = hand
        if seat == DEALER:
            as_dealer = True
        elif seat == NON_DEALER:
            as_dealer = False
        else:
            raise RuleError(
                gettext_noop("a seat holds the dealer or the non-dealer cards, not {seat!r}"),
                seat=seat)
        parts = data.get(deal)
        if parts is None:
            raise RuleError(
                gettext_noop("deal {deal!r} has no table result to compare with"),
                deal=deal)
        total, count = parts
        line = sums.get(player)
        if line is None:
            line = sums[player] = FieldSums()
            played[player] = []
        if as_dealer:
            line.dealer_hands += 1
            numerators = line.dealer
            numerators[count] = numerators.get(count, 0) + points * count - total
        else:
            line.non_dealer_hands += 1
            numerators = line.non_dealer
            numerators[count] = numerators.get(count, 0) + points * count + total
        played[player].append(hand)
    for player, other in (more or {}).items():
        line = sums.get(player)
        if line is None:
            line = sums[player] = FieldSums()
        line.add(other)
    lines = []
    for player, line in sums.items():
        hands_played = line.dealer_hands + line.non_dealer_hands
        if hands_played < minimum_hands:
            continue
        dealer_total, non_dealer_total = _exact(line.dealer), _exact(line.non_dealer)
        lines.append(FieldLine(
            player, hands_played, dealer_total + non_dealer_total, line.dealer_hands,
            dealer_total, line.non_dealer_hands, non_dealer_total,
            played=played.get(player, []), datums=data))
    return _ranked(lines)


def _ranked(lines: list[FieldLine]) -> list[FieldLine]:
    """By the per-hand figure, then the total; level players share a rank."""
    keys = {id(line): (line.per_hand, line.against_field) for line in lines}
    # Sorted by each figure's float first, then by the figure itself: the same order, as
    # rounding to a float never reverses two fractions, and only figures whose floats are
    # equal are compared as fractions (1,024 players ranked in 5.6 ms instead of 12).
    ranked = sorted(lines, key=lambda line: _descending(*keys[id(line)]))
    previous: tuple[tuple[Fraction, Fraction], int] | None = None
    for position, line in enumerate(ranked, 1):
        key = keys[id(line)]
        line.rank = previous[1] if previous and previous[0] == key else position
        previous = (key, line.rank)
    return ranked


def _descending(per_hand: Fraction, total: Fraction) -> tuple:
    return -float(per_hand), -per_hand, -float(total), -total


def against_the_field(hands: Iterable[PlayerOnDeal],
                      deals: dict[Hashable, Sequence[TableResult]], *,
                      minimum_hands: int = 0) -> list[FieldLine]:
    """Each player's total and per-hand result against the field, ranked by the per-hand
    figure among players with at least ``minimum_hands`` hands (then by total; level players
    share a rank). ``deals`` gives every table's result on each deal (the player's own table
    included, withdrawn teams left out). Exact (``field_lines``)."""
    return field_lines(((hand.player, hand.deal, hand.seat, hand.points) for hand in hands),
                       {deal: [r.dealer_points for r in results]
                        for deal, results in deals.items()},
                       minimum_hands=minimum_hands)
