"""Play one box between two bots, by the rules, and record every step (RULES.md §3–7).

The box layout is in ``scoring.box``. The play:

- the dealer opens with eleven cards: he discards one, or declares Big Gin at once;
- then the non-dealer, and so on in turn: take the top stock card or the top discard,
  then discard (never the card just taken from the discard pile), or declare;
- a declaration is a knock or gin (the discard goes face down, ten cards are shown) or Big
  Gin (no discard, eleven cards shown). A knock above the knock limit is a false knock:
  the referee records the deadwood, the discard goes on the pile as usual and the hand goes
  on, but that player may not declare again;
- the draw rule: with ``stock_exhausted`` the last stock card may be drawn, and once it is
  discarded without a declaration the hand is dead; with ``two_cards_left`` the hand is
  dead as soon as a discard leaves only two cards in the stock.

The result is scored from the final hands by ``showdown.settle_mask``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scoring.bots import Strategy, TableView, strategy
from scoring.box import Box
from scoring.cards import DECK, Card, cards_of, mask_of
from scoring.errors import RuleError
from scoring.hand import FalseKnock, HandScore, Outcome, Party, score_hand
from scoring.melds import min_deadwood_of_mask
from scoring.rules import DEFAULT_RULES, DrawRule, Rules
from scoring.showdown import Showdown, settle_mask

MAX_TURNS = 500  # far beyond any real hand; stops a strategy that never lets it end


class Seat(enum.StrEnum):
    DEALER = "dealer"
    NON_DEALER = "non_dealer"

    @property
    def other(self) -> Seat:
        return Seat.NON_DEALER if self is Seat.DEALER else Seat.DEALER


class Source(enum.StrEnum):
    STOCK = "stock"
    DISCARD = "discard"


class Declaration(enum.StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    FALSE_KNOCK = "false_knock"


@dataclass(frozen=True, slots=True)
class Turn:
    player: Seat
    source: Source | None  # None: the dealer's opening, which draws nothing
    drawn: Card | None
    discarded: Card | None  # None: Big Gin; a knock's or gin's discard is face down
    declaration: Declaration | None = None
    deadwood: int | None = None  # of the ten cards kept, when declaring

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player.value,
            "source": None if self.source is None else self.source.value,
            "drawn": _text(self.drawn),
            "discarded": _text(self.discarded),
            "declaration": None if self.declaration is None else self.declaration.value,
            "deadwood": self.deadwood,
        }


@dataclass(frozen=True, slots=True)
class FalseKnockRecord:
    player: Seat
    deadwood: int
    turn: int  # 0-based index into the record's turns


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything that happened in one box, enough to replay and check it."""

    box: Box
    dealer_strategy: str
    non_dealer_strategy: str
    rules: Rules
    turns: tuple[Turn, ...]
    declarer: Seat | None  # None for a draw
    final_hands: dict[Seat, tuple[Card, ...]]  # the declarer's shown cards: 10, or 11 for Big Gin
    discard_pile: tuple[Card, ...]  # bottom first
    stock_left: tuple[Card, ...]  # top first
    false_knock: FalseKnockRecord | None
    showdown: Showdown | None  # None for a draw
    score: HandScore

    @property
    def outcome(self) -> Outcome:
        return self.score.outcome

    def points(self, seat: Seat | str) -> int:
        """The hand score of the player in a seat (zero-sum)."""
        if self.declarer is None:
            return 0
        party = Party.DECLARER if Seat(seat) is self.declarer else Party.OPPONENT
        return self.score.points(party)

    def to_dict(self) -> dict[str, Any]:
        return {
            "box": self.box.to_list(),
            "dealer_strategy": self.dealer_strategy,
            "non_dealer_strategy": self.non_dealer_strategy,
            "knock_limit": self.rules.knock_limit,
            "draw_rule": self.rules.draw_rule.value,
            "turns": [turn.to_dict() for turn in self.turns],
            "outcome": self.outcome.value,
            "declarer": None if self.declarer is None else self.declarer.value,
            "final_hands": {seat.value: [str(c) for c in cards]
                            for seat, cards in self.final_hands.items()},
            "discard_pile": [str(card) for card in self.discard_pile],
            "stock_left": [str(card) for card in self.stock_left],
            "false_knock": None if self.false_knock is None else {
                "player": self.false_knock.player.value,
                "deadwood": self.false_knock.deadwood,
                "turn": self.false_knock.turn,
            },
            "showdown": None if self.showdown is None else self.showdown.to_dict(),
            "score": self.score.to_dict(),
            "points": {seat.value: self.points(seat) for seat in Seat},
        }


def _text(card: Card | None) -> str | None:
    return None if card is None else str(card)


class _Table:
    """The mutable state of one hand in play; only ``play_box`` sees it."""

    def __init__(self, box: Box, bots: dict[Seat, Strategy], rules: Rules) -> None:
        self.rules = rules
        self.bots = bots
        self.hands = {Seat.DEALER: mask_of(box.dealer), Seat.NON_DEALER: mask_of(box.non_dealer)}
        self.stock = [card.code for card in box.stock]
        self.next_stock = 0
        self.pile: list[int] = []
        self.turns: list[Turn] = []
        self.false_knock: FalseKnockRecord | None = None
        self.dead_at = 2 if rules.draw_rule is DrawRule.TWO_CARDS_LEFT else 0

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.next_stock

    def may_declare(self, seat: Seat) -> bool:
        return self.false_knock is None or self.false_knock.player is not seat

    def play(self, seat: Seat, opening: bool) -> Declaration | None:
        """One turn; returns the declaration that ended the hand, if any."""
        bot, hand = self.bots[seat], self.hands[seat]
        view = TableView(self.rules, self.stock_left, opening, self.may_declare(seat))
        source = drawn = None
        if not opening:
            if self.pile and bot.takes_discard(hand, self.pile[-1], view):
                source, drawn = Source.DISCARD, self.pile.pop()
            else:
                source, drawn = Source.STOCK, self.stock[self.next_stock]
                self.next_stock += 1
            hand |= 1 << drawn
        move = bot.move(hand, drawn if source is Source.DISCARD else None, view)
        drawn_card = None if drawn is None else DECK[drawn]
        if move.discard is None:
            return self._big_gin(seat, hand, source, drawn_card)
        if not hand >> move.discard & 1:
            raise RuleError(f"{seat} cannot discard {DECK[move.discard]}: not in his hand")
        if source is Source.DISCARD and move.discard == drawn:
            raise RuleError(f"{seat} cannot discard {DECK[drawn]}: just taken from the pile")
        hand ^= 1 << move.discard
        self.hands[seat] = hand
        declaration = deadwood = None
        if move.declare:
            if opening:
                raise RuleError("the dealer opens with a discard or Big Gin, nothing else")
            if not view.may_declare:
                raise RuleError(f"{seat} may not declare again after a false knock")
            deadwood = min_deadwood_of_mask(hand)
            if deadwood > self.rules.knock_limit:
                declaration = Declaration.FALSE_KNOCK
                self.false_knock = FalseKnockRecord(seat, deadwood, len(self.turns))
            else:
                declaration = Declaration.GIN if deadwood == 0 else Declaration.KNOCK
        self.turns.append(Turn(seat, source, drawn_card, DECK[move.discard], declaration,
                               deadwood))
        if declaration in (Declaration.KNOCK, Declaration.GIN):
            return declaration
        self.pile.append(move.discard)
        return None

    def _big_gin(self, seat: Seat, hand: int, source: Source | None,
                 drawn: Card | None) -> Declaration:
        if not self.may_declare(seat):
            raise RuleError(f"{seat} may not declare after a false knock")
        if min_deadwood_of_mask(hand) != 0:
            raise RuleError(f"{seat} declared Big Gin without eleven melded cards")
        self.hands[seat] = hand
        self.turns.append(Turn(seat, source, drawn, None, Declaration.BIG_GIN, 0))
        return Declaration.BIG_GIN

    @property
    def hand_is_dead(self) -> bool:
        return self.stock_left <= self.dead_at


def play_box(box: Box | Iterable[Card | str], dealer: str | Strategy = "greedy",
             non_dealer: str | Strategy = "greedy", rules: Rules = DEFAULT_RULES) -> HandRecord:
    """Play a box between two strategies (names from ``bots.STRATEGIES`` or objects)."""
    if not isinstance(box, Box):
        box = Box.from_order(box)
    bots = {Seat.DEALER: strategy(dealer), Seat.NON_DEALER: strategy(non_dealer)}
    table = _Table(box, bots, rules)
    seat, declarer = Seat.DEALER, None
    for number in range(MAX_TURNS):
        if table.play(seat, opening=number == 0) is not None:
            declarer = seat
            break
        if table.hand_is_dead:
            break
        seat = seat.other
    else:
        raise RuleError(f"the hand did not end within {MAX_TURNS} turns")
    return _record(box, bots, table, declarer)


def _record(box: Box, bots: dict[Seat, Strategy], table: _Table,
            declarer: Seat | None) -> HandRecord:
    rules, false_knock = table.rules, table.false_knock
    fixed = None
    if false_knock is not None:
        # The false knocker may not declare, so if anyone did it was the other player.
        fixed = FalseKnock(Party.OPPONENT, false_knock.deadwood)
    if declarer is None:
        showdown, score = None, score_hand(Outcome.DRAW, rules=rules, false_knock=fixed)
    else:
        showdown = settle_mask(table.hands[declarer], table.hands[declarer.other],
                               rules=rules, false_knock=fixed)
        score = showdown.score
    return HandRecord(
        box=box,
        dealer_strategy=bots[Seat.DEALER].name,
        non_dealer_strategy=bots[Seat.NON_DEALER].name,
        rules=rules,
        turns=tuple(table.turns),
        declarer=declarer,
        final_hands={seat: cards_of(table.hands[seat]) for seat in Seat},
        discard_pile=tuple(DECK[code] for code in table.pile),
        stock_left=tuple(DECK[code] for code in table.stock[table.next_stock:]),
        false_knock=false_knock,
        showdown=showdown,
        score=score,
    )
