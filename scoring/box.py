"""A box: one pre-dealt hand of duplicate Gin (RULES.md §3).

The 52 cards of a box in their fixed order, the layout used everywhere a box is written
as one list (the simulator, the command line, deal files):

====================  ===========================================================
positions (from 1)    cards
====================  ===========================================================
1–11                  the dealer's eleven cards
12–21                 the non-dealer's ten cards
22–52                 the stock, 31 cards, top card first (position 22 is drawn first)
====================  ===========================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.cards import Card, parse_cards
from scoring.errors import RuleError

DEALER_CARDS = 11
NON_DEALER_CARDS = 10
STOCK_CARDS = 31


@dataclass(frozen=True, slots=True)
class Box:
    dealer: tuple[Card, ...]
    non_dealer: tuple[Card, ...]
    stock: tuple[Card, ...]  # top card first

    def __post_init__(self) -> None:
        sizes = (len(self.dealer), len(self.non_dealer), len(self.stock))
        if sizes != (DEALER_CARDS, NON_DEALER_CARDS, STOCK_CARDS):
            raise RuleError(f"a box holds 11 dealer, 10 non-dealer and 31 stock cards, "
                            f"not {sizes[0]}, {sizes[1]} and {sizes[2]}")
        parse_cards(self.order())  # each of the 52 cards exactly once

    @classmethod
    def from_order(cls, cards: Iterable[Card | str]) -> Box:
        """A box from its 52 cards in the layout of the module docstring."""
        order = parse_cards(cards)
        if len(order) != 52:
            raise RuleError(f"a box holds all 52 cards, not {len(order)}")
        dealt = DEALER_CARDS + NON_DEALER_CARDS
        return cls(order[:DEALER_CARDS], order[DEALER_CARDS:dealt], order[dealt:])

    def order(self) -> tuple[Card, ...]:
        return self.dealer + self.non_dealer + self.stock

    def to_list(self) -> list[str]:
        return [str(card) for card in self.order()]
