"""Player bots for the simulator: small, deterministic, and only as clever as needed.

A strategy sees its own hand as a card mask (``scoring.cards``) and a ``TableView`` of what
any player at the table knows. It makes two decisions per turn: whether to take the top
discard, and, holding eleven cards, what to throw and whether to declare. The simulator
checks every decision against the rules, so a strategy cannot cheat by mistake.

- ``greedy``: minimises deadwood at every step and knocks as soon as it may.
- ``gin_waiter``: plays the same cards but only knocks once the stock is short; with a long
  stock it keeps going for gin.
- ``Erring(base, error, seed)``: a weaker player for simulated seasons. With probability
  ``error`` each decision (take the discard or not, which card to throw, whether to knock)
  is a random legal one instead of the base strategy's; it never knocks above the limit.

Both take the discard only when it lowers their deadwood (after the best discard, which
may not be the card just taken); so each player's deadwood never rises and strictly
falls whenever a discard is taken, which is why two bots never swap cards forever.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from scoring.errors import RuleError
from scoring.melds import best_discard_of_mask, min_deadwood_of_mask
from scoring.rules import Rules


class TableView(NamedTuple):
    """What a player knows besides his own cards."""

    rules: Rules
    stock_left: int  # cards in the stock before this turn's draw
    opening: bool  # the dealer's opening: discard, or declare Big Gin, nothing else
    may_declare: bool  # False after one's own false knock


class Move(NamedTuple):
    """What a player does holding eleven cards."""

    discard: int | None  # card code thrown; None only to declare Big Gin
    declare: bool  # knock or gin with the ten cards kept (face-down discard)


class Strategy(Protocol):
    name: str

    def takes_discard(self, hand: int, upcard: int, view: TableView) -> bool:
        """Take the top discard (card code ``upcard``) rather than the top stock card?"""
        ...

    def move(self, hand: int, taken: int | None, view: TableView) -> Move:
        """Eleven cards in ``hand``; ``taken`` is the card just taken from the discard pile."""
        ...


def _takes_if_better(hand: int, upcard: int) -> bool:
    bit = 1 << upcard
    after, _ = best_discard_of_mask(hand | bit, keep=bit)
    return after < min_deadwood_of_mask(hand)


def _best_move(hand: int, taken: int | None, view: TableView, knocks: bool) -> Move:
    keep = 0 if taken is None else 1 << taken
    after, discard = best_discard_of_mask(hand, keep)
    if not view.may_declare:
        return Move(discard, False)
    # Eleven cards that all meld always include a meld of four or more, so they leave no
    # deadwood after the best discard either: only then is Big Gin worth checking.
    if after == 0 and min_deadwood_of_mask(hand) == 0:
        return Move(None, True)
    declare = not view.opening and (after == 0 or (knocks and after <= view.rules.knock_limit))
    return Move(discard, declare)


@dataclass(frozen=True)
class Greedy:
    name: str = "greedy"

    def takes_discard(self, hand: int, upcard: int, view: TableView) -> bool:
        return _takes_if_better(hand, upcard)

    def move(self, hand: int, taken: int | None, view: TableView) -> Move:
        return _best_move(hand, taken, view, knocks=True)


@dataclass(frozen=True)
class GinWaiter:
    """Knocks only when the stock is down to ``knocks_below`` cards or fewer."""

    knocks_below: int = 10
    name: str = "gin_waiter"

    def takes_discard(self, hand: int, upcard: int, view: TableView) -> bool:
        return _takes_if_better(hand, upcard)

    def move(self, hand: int, taken: int | None, view: TableView) -> Move:
        return _best_move(hand, taken, view, knocks=view.stock_left <= self.knocks_below)


@dataclass
class Erring:
    """``base`` with a random legal decision instead of its own, each with chance ``error``.

    Seeded, so a season replays the same; one object per player, since its generator
    moves on with every decision it makes.
    """

    base: Strategy
    error: float
    seed: int = 0
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 <= self.error <= 1:
            raise RuleError(f"error is a probability from 0 to 1, not {self.error!r}")
        self.rng = random.Random(self.seed)

    @property
    def name(self) -> str:
        return f"{self.base.name}~{self.error:g}"

    def _errs(self) -> bool:
        # Always draw, so the stream of decisions does not depend on the error rate's size.
        return self.rng.random() < self.error

    def takes_discard(self, hand: int, upcard: int, view: TableView) -> bool:
        if self._errs():
            return self.rng.random() < 0.5
        return self.base.takes_discard(hand, upcard, view)

    def move(self, hand: int, taken: int | None, view: TableView) -> Move:
        chosen = self.base.move(hand, taken, view)
        throws_at_random, knocks_at_random = self._errs(), self._errs()
        if not throws_at_random and not knocks_at_random:
            return chosen
        discard = chosen.discard
        if throws_at_random or discard is None:
            throwable = [code for code in _codes(hand) if code != taken]
            discard = throwable[self.rng.randrange(len(throwable))]
        may_knock = (view.may_declare and not view.opening
                     and min_deadwood_of_mask(hand & ~(1 << discard)) <= view.rules.knock_limit)
        if knocks_at_random:
            declare = may_knock and self.rng.random() < 0.5
        elif discard == chosen.discard:
            declare = chosen.declare
        else:
            declare = may_knock  # a thrown card it did not choose: knock if it may
        return Move(discard, declare)


def _codes(mask: int) -> list[int]:
    codes = []
    while mask:
        low = mask & -mask
        codes.append(low.bit_length() - 1)
        mask ^= low
    return codes


STRATEGIES: dict[str, Strategy] = {bot.name: bot for bot in (Greedy(), GinWaiter())}


def strategy(name: str | Strategy) -> Strategy:
    """A strategy by its name (a strategy object passes through)."""
    if not isinstance(name, str):
        return name
    try:
        return STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise RuleError(f"unknown strategy {name!r}; expected one of: {known}") from None
