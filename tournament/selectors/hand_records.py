"""The deals of a round as the hand records and the director's deals page list them, and
what the public hand records of a closed round show beside each deal: every table's result
on it, from the dealer's and the non-dealer's side (``views.public.event``)."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Deal, HandResult, Round
from tournament.selectors.draw import RoundPlan, SeatPlan
from tournament.wording import hand_line


def deals_of_round(round_: Round, *, with_keys: bool = False) -> list[Deal]:
    """Every deal of the round, replaced ones too, by deal set, hand and reserve (one
    query); ``with_keys``: each with the deal key it was made from."""
    deals = round_.deals.select_related("key") if with_keys else round_.deals
    return list(deals.order_by("deal_set", "hand", "reserve"))


@dataclass(frozen=True)
class DealResult:
    """One table's result on a deal, from the dealer's and the non-dealer's side."""

    table: int
    dealer: SeatPlan
    non_dealer: SeatPlan
    dealer_points: int
    non_dealer_points: int
    explanation: str


def played_hands(round_: Round, plan: RoundPlan, deals: list[Deal] | None = None
                 ) -> dict[int | None, list[DealResult]]:
    """Deal pk → each table's result on it, by hand and table; ``deals``: only these (one
    box's page). Each result counts on the deal it was played on (a reserve deal replaces
    one only for the tables that had not played it yet). For a closed round only: the
    caller has checked it is."""
    tables = {t.number: t for t in plan.tables}
    results = HandResult.objects.filter(table__round=round_, is_current=True) \
        .select_related("table")
    if deals is not None:
        results = results.filter(deal__in=deals)
    played: dict[int | None, list[DealResult]] = {}
    for result in sorted(results, key=lambda r: (r.hand, r.table.number)):
        table = tables[result.table.number]
        dealer, non_dealer = table.dealer(result.hand), table.non_dealer(result.hand)
        played.setdefault(result.deal_id, []).append(DealResult(
            table=table.number, dealer=dealer, non_dealer=non_dealer,
            dealer_points=result.points(dealer.seat),
            non_dealer_points=result.points(non_dealer.seat),
            explanation=hand_line(result, round_)))
    return played
