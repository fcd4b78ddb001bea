"""Comparison with the field (RULES.md §12): what every table made of the same box.

The **datum** of a seat on a deal is the mean of the points scored with that seat's cards at
every table that played the deal, leaving out the single highest and the single lowest
result when at least 8 tables remain; results of withdrawn teams are left out by the caller.
A player's result **against the field** on a hand is the player's points minus the datum of
the player's seat on that deal. Everything is exact (``Fraction``); pages round to 2
decimals. These figures inform; they never change match points, small points or the team
ranking.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.errors import RuleError, gettext_noop
from scoring.seating import dealer_seat, player_in_seat

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


def datum(points: Sequence[int]) -> Fraction | None:
    """The mean of the results, without the single highest and lowest from 8 results on;
    None when nobody played the deal."""
    if not points:
        return None
    kept = sorted(points)
    if len(kept) >= TRIM_FROM:
        kept = kept[1:-1]
    return Fraction(sum(kept), len(kept))


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


def table_result(table: Hashable, hand: int, seat1_points: int, outcome: str,
                 declarer_seat: int | None, declarer_deadwood: int | None = None,
                 opponent_deadwood: int | None = None,
                 false_knock_seat: int | None = None) -> TableResult:
    """A table's result on a hand as stored (seat 1's points, the declarer's seat) seen from
    the box's dealer cards: the seat that holds them is ``seating.dealer_seat(hand)``."""
    dealing = dealer_seat(hand)
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
    dealing = dealer_seat(hand)
    return tuple(  # type: ignore[return-value]
        PlayerOnDeal(player_in_seat(table_position, seat, lineups), deal,
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
    per_deal: list[tuple[Hashable, str, int, Fraction]] = field(default_factory=list)

    @property
    def per_hand(self) -> Fraction:
        return self.against_field / self.hands if self.hands else Fraction(0)


def against_the_field(hands: Iterable[PlayerOnDeal],
                      deals: dict[Hashable, Sequence[TableResult]], *,
                      minimum_hands: int = 0) -> list[FieldLine]:
    """Each player's total and per-hand result against the field, ranked by the per-hand
    figure among players with at least ``minimum_hands`` hands (then by total; level players
    share a rank). ``deals`` gives every table's result on each deal (the player's own table
    included, withdrawn teams left out)."""
    data = {}
    for deal, results in deals.items():
        dealer = [r.dealer_points for r in results]
        data[deal] = {DEALER: datum(dealer), NON_DEALER: datum([-p for p in dealer])}
    lines: dict[Hashable, FieldLine] = {}
    for hand in hands:
        if hand.seat not in (DEALER, NON_DEALER):
            raise RuleError(
                gettext_noop("a seat holds the dealer or the non-dealer cards, not {seat!r}"),
                seat=hand.seat)
        seat_datum = data.get(hand.deal, {}).get(hand.seat)
        if seat_datum is None:
            raise RuleError(
                gettext_noop("deal {deal!r} has no table result to compare with"),
                deal=hand.deal)
        difference = hand.points - seat_datum
        line = lines.setdefault(hand.player, FieldLine(hand.player))
        line.hands += 1
        line.against_field += difference
        line.per_deal.append((hand.deal, hand.seat, hand.points, difference))
        if hand.seat == DEALER:
            line.dealer_hands += 1
            line.dealer_against_field += difference
        else:
            line.non_dealer_hands += 1
            line.non_dealer_against_field += difference
    ranked = sorted((line for line in lines.values() if line.hands >= minimum_hands),
                    key=lambda line: (-line.per_hand, -line.against_field))
    previous: tuple[tuple[Fraction, Fraction], int] | None = None
    for position, line in enumerate(ranked, 1):
        key = (line.per_hand, line.against_field)
        line.rank = previous[1] if previous and previous[0] == key else position
        previous = (key, line.rank)
    return ranked
