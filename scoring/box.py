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
from scoring.errors import RuleError, gettext_noop
from scoring.rules import DrawRule, Rules

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
            raise RuleError(
                gettext_noop("a box holds 11 dealer, 10 non-dealer and 31 stock cards, not "
                             "{dealer}, {non_dealer} and {stock}"),
                dealer=sizes[0], non_dealer=sizes[1], stock=sizes[2])
        parse_cards(self.order())  # each of the 52 cards exactly once

    @classmethod
    def from_order(cls, cards: Iterable[Card | str]) -> Box:
        """A box from its 52 cards in the layout of the module docstring."""
        order = parse_cards(cards)
        if len(order) != 52:
            raise RuleError(
                gettext_noop("a box holds all 52 cards, not {count}"),
                count=len(order))
        dealt = DEALER_CARDS + NON_DEALER_CARDS
        return cls(order[:DEALER_CARDS], order[DEALER_CARDS:dealt], order[dealt:])

    def order(self) -> tuple[Card, ...]:
        return self.dealer + self.non_dealer + self.stock

    def to_list(self) -> list[str]:
        return [str(card) for card in self.order()]


def never_in_play(box: Box, rules: Rules) -> tuple[Card, ...]:
    """Cards of the box that no play can bring into a player's hand: under the classic draw
    rule the last two stock cards are never drawn (RULES.md §4); under the FCG rule any card
    may be drawn."""
    return box.stock[-2:] if rules.draw_rule == DrawRule.TWO_CARDS_LEFT else ()


def box_conflicts(box: Box, shown: Iterable[Card | str], rules: Rules) -> list[str]:
    """What in final hands given by a table contradicts the box they played, in words for
    the referee (never for the table's scorer: it names cards of the box)."""
    cards = set(parse_cards(shown))
    return [f"{card} can never be in a player's hand: it is one of the last two stock cards "
            "of this box, which are never drawn" for card in never_in_play(box, rules)
            if card in cards]
