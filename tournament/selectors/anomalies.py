"""Anomalies for the referee (issue 12, RULES.md §14): results far from the datum of their
seat, cards-mode results that the box's cards make impossible, and the boxes that favoured
one seat (``result_anomalies``). Which results count: ``selectors.field_results``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring.field import datum_parts, dealer_points
from tournament.models import Round
from tournament.permissions import Perm, has_perm
from tournament.selectors.box_summaries import BoxSummary, box_summaries_of, favoured_deals
from tournament.selectors.field_results import Played, deals_per_match, played_results, two_places
from tournament.selectors.hand_records import deals_of_round
from tournament.selectors.penalties import withdrawn_teams


@dataclass(frozen=True)
class FarResult:
    played: Played
    dealer_points: int
    datum: Fraction  # of the dealer cards on the deal
    tables: int  # tables in the deal's field

    @property
    def difference(self) -> Fraction:
        return self.dealer_points - self.datum

    @property
    def difference_shown(self) -> Decimal:
        return two_places(self.difference)

    @property
    def datum_shown(self) -> Decimal:
        return two_places(self.datum)


@dataclass(frozen=True)
class Anomalies:
    far: list[FarResult]  # results far from the datum of their seat
    conflicts: list[Played]  # cards-mode results the box's cards make impossible
    unbalanced: list[BoxSummary]  # boxes that favoured one seat strongly
    threshold: int

    def __bool__(self) -> bool:
        return bool(self.far or self.conflicts or self.unbalanced)


def result_anomalies(round_: Round, *, tournament=None, conflicts: bool = True) -> Anomalies:
    """For referees and directors only (never a scorer: the field's results on a box still
    in play): every current result at least the tournament's anomaly threshold from the
    datum of its seat on the same deal, every result whose entered cards contradict the box
    (only with ``conflicts``: for whoever may see the box, ``conflicts_shown``), and the
    boxes that favoured one seat (three queries; ``tournament`` is the round's, when the
    caller has it)."""
    tournament = tournament or round_.stage.tournament
    threshold = tournament.anomaly_threshold
    played = played_results(table__round=round_, ordered=False)
    out = withdrawn_teams(round_.stage) if played else set()
    deals = deals_of_round(round_) if played else []
    per_match = deals_per_match(round_)
    fields: dict[Hashable, list[tuple[Played, int]]] = defaultdict(list)
    sums: dict[int, list[int]] = {}  # deal → [the dealer cards' points, tables]
    for p in played:
        if not p.involves(out):
            # The points for the dealer cards, worked out once a result (4,096 in a round of
            # 512 tables), as a whole number: the full result is made only for the boxes
            # that favoured a seat, for their summaries.
            points = dealer_points(p.hand, p.seat1_points)
            fields[p.key(per_match)].append((p, points))
            if p.deal_id is not None:
                total = sums.setdefault(p.deal_id, [0, 0])
                total[0] += points
                total[1] += 1
    far = []
    for results in fields.values():
        # Far when |points - total / count| >= threshold: in whole numbers, no Fraction a
        # result.
        total, count = datum_parts([points for _p, points in results])
        for p, points in results:
            if abs(points * count - total) >= threshold * count:
                far.append(FarResult(p, points, Fraction(total, count), len(results)))
    far.sort(key=lambda f: (f.played.table, f.played.hand))
    conflicts = sorted((p for p in played if p.box_conflict),
                       key=lambda p: (p.table, p.hand)) if conflicts else []
    favoured = favoured_deals(sums, tournament.box_balance_threshold)
    unbalanced = box_summaries_of(
        [deal for deal in deals if deal.pk in favoured],
        [p for p in played if p.deal_id in favoured], out, tournament.box_balance_threshold,
        favoured_only=True) if favoured else []
    return Anomalies(far=far, conflicts=conflicts, unbalanced=unbalanced, threshold=threshold)


def conflicts_shown(user, round_: Round) -> bool:
    """Whether the user may learn that an entry's cards contradict its box: a director
    (who may see the deals), or anyone who may see anomalies once the round is closed.
    Not a referee while the round is in play (issue 49): saving made-up hands and watching
    whether a flag appears would tell which cards the box holds (the last two of the stock
    under the draw rule "two cards left", found in 8 to 14 saves). docs/roles.md."""
    return (round_.status == Round.Status.CLOSED
            or has_perm(user, round_.stage.tournament, Perm.VIEW_DEALS))
