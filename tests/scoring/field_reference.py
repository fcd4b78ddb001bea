"""The comparison with the field as it was first written (``scoring.field`` before issue
28): every datum and every difference a ``Fraction``, added up one hand at a time. Slow
(245,760 ``Fraction`` additions for a 512-team event of 15 rounds) and obviously right:
the tests check that ``scoring.field.against_the_field``, which works on integers over a
common denominator, gives exactly what this gives.

Only the arithmetic is copied; the input types (``PlayerOnDeal``, ``TableResult``) and the
names of the seats are ``scoring.field``'s.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.errors import RuleError, gettext_noop
from scoring.field import DEALER, NON_DEALER, TRIM_FROM, PlayerOnDeal, TableResult


def datum(points: Sequence[int]) -> Fraction | None:
    """The mean of the results, without the single highest and lowest from 8 results on;
    None when nobody played the deal."""
    if not points:
        return None
    kept = sorted(points)
    if len(kept) >= TRIM_FROM:
        kept = kept[1:-1]
    return Fraction(sum(kept), len(kept))


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
