"""The demo's players: bots of ``scoring`` with a leaning of their own, which now and then
miscount (a false knock), and what the scorer enters for a hand they played."""

from __future__ import annotations

import random
from dataclasses import dataclass

from scoring.bots import GinWaiter, Greedy, Move, Strategy, TableView
from scoring.melds import best_discard_of_mask
from scoring.simulate import HandRecord, Seat


@dataclass(frozen=True)
class Miscounter:
    """Plays like ``base`` but, now and then, knocks with a few points too many: a false
    knock (RULES.md §7), which the simulator records and the hand goes on."""

    base: Strategy
    rng: random.Random
    rate: float
    name: str = "miscounter"

    def takes_discard(self, hand: int, upcard: int, view: TableView) -> bool:
        return self.base.takes_discard(hand, upcard, view)

    def move(self, hand: int, taken: int | None, view: TableView) -> Move:
        move = self.base.move(hand, taken, view)
        if move.declare or move.discard is None or view.opening or not view.may_declare:
            return move
        keep = 0 if taken is None else 1 << taken
        after, discard = best_discard_of_mask(hand, keep)
        limit = view.rules.knock_limit
        if limit < after <= limit + 3 and self.rng.random() < self.rate:
            return Move(discard, True)
        return move


def player_style(number: int) -> float:
    """Each player's leaning, fixed for the event: how often he knocks at once rather than
    wait for gin (by the order players are listed)."""
    return (0.8, 0.5, 0.2)[number % 3]


def play_of(leaning: float, rng: random.Random) -> Strategy:
    """How a player plays one box: knocks at once, or waits for gin until the stock is
    short (how short, from box to box); now and then he miscounts. Two tables of a match
    play the same box differently, so a knockout match tied after its boxes is soon
    decided by the extra ones, as in real play."""
    base = Greedy() if rng.random() < leaning else GinWaiter(knocks_below=rng.randint(2, 16))
    return Miscounter(base, rng, rate=0.015)


def entry_of(record: HandRecord, seat_of: dict[Seat, int]):
    """What the scorer enters for a hand the simulator played: the counts."""
    from tournament.services.hands import HandEntry

    score = record.score
    outcome = "knock" if score.outcome.value == "undercut" else score.outcome.value
    false_knock = record.false_knock
    fk_seat = seat_of[false_knock.player] if false_knock else None
    fk_deadwood = false_knock.deadwood if false_knock else None
    if record.declarer is None:
        return HandEntry("draw", None, None, None, fk_seat, fk_deadwood)
    return HandEntry(
        outcome, seat_of[record.declarer],
        score.declarer_deadwood,
        None if false_knock else score.opponent_deadwood, fk_seat, fk_deadwood)


def swap_seats(entry):
    """The same entry with the other seat as the declarer (a scorer's slip)."""
    from dataclasses import replace

    return replace(entry, declarer_seat=3 - entry.declarer_seat)
