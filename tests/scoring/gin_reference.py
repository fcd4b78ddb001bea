"""Slow, obviously correct Gin Rummy rules to test the engine against.

Nothing clever: list every meld a hand holds, try every collection of melds that do not
share a card, and for lay-offs try every order of laying cards off one at a time.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from scoring.cards import Card

Meld = frozenset[Card]


def every_meld(cards: Iterable[Card]) -> list[Meld]:
    cards = set(cards)
    melds: list[Meld] = []
    for rank in range(1, 14):
        same = [c for c in cards if c.rank == rank]
        for size in (3, 4):
            melds += [frozenset(group) for group in itertools.combinations(same, size)]
    for suit in {c.suit for c in cards}:
        ranks = {c.rank for c in cards if c.suit == suit}
        for low in range(1, 12):
            for high in range(low + 2, 14):
                if all(rank in ranks for rank in range(low, high + 1)):
                    melds.append(frozenset(Card(rank, suit) for rank in range(low, high + 1)))
    return melds


def meld_packings(cards: Iterable[Card]) -> list[list[Meld]]:
    """Every collection of pairwise disjoint melds (the empty one included)."""
    melds = every_meld(cards)
    packings: list[list[Meld]] = []

    def extend(start: int, chosen: list[Meld], used: frozenset[Card]) -> None:
        packings.append(list(chosen))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                extend(i + 1, [*chosen, melds[i]], used | melds[i])

    extend(0, [], frozenset())
    return packings


def value(cards: Iterable[Card]) -> int:
    return sum(min(card.rank, 10) for card in cards)


def min_deadwood(cards: Sequence[Card]) -> int:
    return min(value(set(cards) - set().union(*packing)) for packing in meld_packings(cards))


def best_arrangements(cards: Sequence[Card]) -> list[list[Meld]]:
    """Every packing with the least deadwood."""
    packings = meld_packings(cards)
    least = min(value(set(cards) - set().union(*p)) for p in packings)
    return [p for p in packings if value(set(cards) - set().union(*p)) == least]


def least_after_discard(cards: Sequence[Card]) -> int:
    return min(min_deadwood([c for c in cards if c != thrown]) for thrown in cards)


def _lays_onto(card: Card, meld: Meld) -> bool:
    if len({c.rank for c in meld}) == 1:
        return len(meld) == 3 and card.rank == next(iter(meld)).rank
    suit = next(iter(meld)).suit
    ranks = [c.rank for c in meld]
    return card.suit == suit and card.rank in (min(ranks) - 1, max(ranks) + 1)


def deadwood_after_layoffs(declarer_melds: Sequence[Iterable[Card]],
                           opponent: Sequence[Card]) -> int:
    """Every sequence of single lay-offs, then the opponent's best melds of what is left."""
    start = (tuple(frozenset(m) for m in declarer_melds), frozenset(opponent))
    seen = {start}
    frontier = [start]
    best = min_deadwood(list(opponent))
    while frontier:
        melds, hand = frontier.pop()
        for card in hand:
            for i, meld in enumerate(melds):
                if _lays_onto(card, meld):
                    state = ((*melds[:i], meld | {card}, *melds[i + 1:]), hand - {card})
                    if state not in seen:
                        seen.add(state)
                        frontier.append(state)
                        best = min(best, min_deadwood(list(state[1])))
    return best
