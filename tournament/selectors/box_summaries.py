"""A round's box summaries (issue 12, RULES.md §14): each deal's summary of the field, its
balance and the seat it favoured by the tournament's box balance threshold
(``round_box_summaries``, ``unbalanced_boxes``). Which results count:
``selectors.field_results``. (The physical boxes of a round, each deal at its table, are
``selectors.boxes.round_boxes``.)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Q, Sum

from scoring.field import TableResult, Traveller, dealer_points, favoured_seat, traveller
from tournament.models import Deal, HandResult, Round
from tournament.selectors.field_results import Played, played_results, two_places
from tournament.selectors.hand_records import deals_of_round
from tournament.selectors.penalties import withdrawn_teams


@dataclass(frozen=True)
class BoxSummary:
    deal: Deal
    summary: Traveller
    provisional: bool
    favoured: str | None  # DEALER or NON_DEALER when the box favoured one seat strongly

    @property
    def balance(self) -> Decimal | None:
        """The field's mean for the dealer cards (the non-dealer cards made the negative)."""
        return two_places(self.summary.dealer_average)

    @property
    def dealer_datum(self) -> Decimal | None:
        return two_places(self.summary.dealer_datum)


def box_summaries_of(deals: list[Deal], played: list[Played], out: set[int],
           threshold: int, result_of: dict[int, TableResult] | None = None, *,
           favoured_only: bool = False) -> list[BoxSummary]:
    """``result_of``: each played result's ``TableResult`` made already (by its id);
    ``favoured_only``: only the boxes that favoured a seat (the others' travellers are not
    worked out)."""
    by_deal: dict[int, list[Played]] = defaultdict(list)
    for p in played:
        if p.deal_id is not None and not p.involves(out):
            by_deal[p.deal_id].append(p)
    boxes = []
    for deal in deals:
        results = [result_of[p.result_id] if result_of else p.result()
                   for p in by_deal.get(deal.pk, [])]
        if favoured_only and (not results or favoured_seat(Fraction(
                sum(r.dealer_points for r in results), len(results)), threshold) is None):
            continue
        summary = traveller(results)
        boxes.append(BoxSummary(deal=deal, summary=summary,
                                provisional=any(p.provisional for p in by_deal.get(deal.pk, [])),
                                favoured=favoured_seat(summary.dealer_average, threshold)))
    return boxes


def favoured_deals(sums: dict[int, list[int]], threshold: int) -> set[int]:
    """The deals whose dealer cards favoured a seat (``favoured_seat``), from each deal's
    sum of the dealer cards' points and its number of tables: ``{deal: [points, tables]}``.
    """
    return {deal_id for deal_id, (points, tables) in sums.items()
            if favoured_seat(Fraction(points, tables), threshold) is not None}


def round_box_summaries(round_: Round, *, view=None) -> list[BoxSummary]:
    """Every deal of the round (replaced ones too, each with the tables that played it) with
    the summary of the results the reader may see, and the seat it favoured by the
    tournament's box balance threshold. Three queries."""
    deals = deals_of_round(round_)
    played = played_results(view=view, table__round=round_) if deals else []
    out = withdrawn_teams(round_.stage) if played else set()
    return box_summaries_of(deals, played, out, round_.stage.tournament.box_balance_threshold)


def unbalanced_boxes(round_: Round) -> list[BoxSummary]:
    """Boxes whose dealer cards averaged at least the tournament's box balance threshold
    for or against (a hint for the chief referee, not a rule); staff only. The database adds
    up each deal's points (a row a deal and hand, not a row a table: 4,096 results in a round
    of 512 tables); only the boxes that favoured a seat are read result by result, for their
    summaries (three queries, four when a box favoured a seat)."""
    deals = deals_of_round(round_)
    if not deals:
        return []
    out = withdrawn_teams(round_.stage)
    threshold = round_.stage.tournament.box_balance_threshold
    # The results played_results reads and box_summaries_of counts: none of a forfeited
    # match, none of a match of a team withdrawn from the stage.
    rows = HandResult.objects.filter(is_current=True, table__round=round_,
                                     table__match__forfeited_by__isnull=True,
                                     deal__isnull=False)
    if out:
        rows = rows.exclude(Q(table__match__home_id__in=out) | Q(table__match__away_id__in=out))
    sums: dict[int, list[int]] = {}  # deal → [the dealer cards' points, tables]
    for deal_id, hand, points, tables in (
            rows.order_by().values("deal_id", "hand")
            .annotate(points=Sum("seat1_points"), tables=Count("id"))
            .values_list("deal_id", "hand", "points", "tables")):
        total = sums.setdefault(deal_id, [0, 0])
        total[0] += dealer_points(hand, points)  # seat 1's points, for the dealer cards
        total[1] += tables
    favoured = favoured_deals(sums, threshold)
    if not favoured:
        return []
    played = played_results(table__round=round_, deal_id__in=favoured, ordered=False)
    return box_summaries_of([deal for deal in deals if deal.pk in favoured], played, out,
                            threshold, favoured_only=True)
