"""The physical boxes of a round: one per hand and table, each carrying one deal.

A box is (round, hand, table); it holds the current deal of its match's deal set for that
hand, and the dealer seat of the hand (``scoring.seating``) says who takes the 11 cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.deals import Deal as DealCards
from scoring.deals import deal_from_text, deal_set_of
from tournament.models import Deal, Round
from tournament.selectors.draw import RoundPlan, SeatPlan, TablePlan, round_plan


@dataclass(frozen=True)
class Box:
    hand: int
    table: TablePlan
    deal: Deal

    @property
    def cards(self) -> DealCards:
        return deal_from_text(self.deal.cards)

    @property
    def dealer(self) -> SeatPlan:
        return self.table.dealer(self.hand)

    @property
    def non_dealer(self) -> SeatPlan:
        return self.table.non_dealer(self.hand)


class _ParsedCards(dict):
    """Each deal's cards parsed when first asked for: the box labels and the packing list
    never ask (2,048 deals of 52 cards took a tenth of a second to parse)."""

    def __init__(self, deals: list[Deal]):
        super().__init__()
        self._texts = {deal.pk: deal.cards for deal in deals}

    def __missing__(self, pk: int) -> DealCards:
        cards = self[pk] = deal_from_text(self._texts[pk])
        return cards


@dataclass(frozen=True)
class RoundBoxes:
    plan: RoundPlan
    deals: list[Deal]  # current deals in (set, hand) order
    boxes: list[Box]  # in packing order: hand by hand, table by table
    cards: _ParsedCards  # deal pk → its 52 cards, read when first asked for
    by_deal: dict[int, list[Box]]  # deal pk → the boxes that carry it

    def cards_of(self, deal: Deal) -> DealCards:
        return self.cards[deal.pk]

    def copies(self, deal: Deal) -> int:
        return len(self.by_deal.get(deal.pk, ()))

    def boxes_of(self, deal: Deal) -> list[Box]:
        return self.by_deal.get(deal.pk, [])


def round_boxes(round_: Round, plan: RoundPlan | None = None) -> RoundBoxes:
    """Every box of the round in a fixed number of queries."""
    plan = plan or round_plan(round_)
    deals = list(round_.deals.filter(is_current=True).order_by("deal_set", "hand"))
    by_place = {(d.deal_set, d.hand): d for d in deals}
    parsed = _ParsedCards(deals)
    boxes = []
    hands = max((len(t.dealer_seats) for t in plan.tables), default=0)
    for hand in range(1, hands + 1):
        for table in plan.tables:
            if hand > len(table.dealer_seats):
                continue
            deal = by_place.get((deal_set_of(round_.rules, table.match.number), hand))
            if deal is not None:
                boxes.append(Box(hand=hand, table=table, deal=deal))
    by_deal: dict[int, list[Box]] = {}
    for box in boxes:
        by_deal.setdefault(box.deal.pk, []).append(box)
    return RoundBoxes(plan=plan, deals=deals, boxes=boxes, cards=parsed, by_deal=by_deal)
