"""Lay-offs against a knock (RULES.md §5).

The opponent's deadwood is the least over his own melds and his lay-offs chosen together.
Each of the declarer's melds accepts a small, known family of lay-offs: a set of three its
missing fourth card, a run a stretch of the opponent's cards going down from its low end
and one going up from its high end (a card can only be laid off once the card between it
and the run is, so a chain is always a stretch starting next to the run). The search tries
every combination of these stretches that does not use a card twice and scores the cards
left with ``melds`` — a handful of cases per knock.

Lay-offs only matter against a knock; against gin or Big Gin the caller does not ask.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.cards import DECK, DECLARERS_HAND, OPPONENTS_HAND, SUIT_BITS, Card, mask_of, parse_hand
from scoring.errors import RuleError, gettext_noop
from scoring.melds import (
    Arrangement,
    Meld,
    MeldKind,
    arrangement_of_mask,
    arrangements_of_mask,
    min_deadwood_of_mask,
)


@dataclass(frozen=True, slots=True)
class LayOff:
    """One of the opponent's cards laid off onto one of the declarer's melds."""

    card: Card
    meld: Meld


@dataclass(frozen=True, slots=True)
class OpponentShowdown:
    """How the opponent lays out against a knock: lay-offs first, then his own melds."""

    layoffs: tuple[LayOff, ...]
    arrangement: Arrangement  # the cards he kept after laying off

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood


# A lay-off option for one meld: (mask of the cards laid off, the cards in laying order).
_Option = tuple[int, tuple[Card, ...]]


def _options_for(meld: Meld, opponent: int) -> list[_Option]:
    options: list[_Option] = [(0, ())]
    if meld.kind is MeldKind.SET:
        if len(meld.cards) == 3:
            missing = next(DECK[SUIT_BITS * suit + meld.cards[0].rank - 1] for suit in range(4)
                           if all(card.suit != suit for card in meld.cards))
            if opponent & missing.bit:
                options.append((missing.bit, (missing,)))
        return options
    down = _chain(meld.cards[0], -1, opponent)
    up = _chain(meld.cards[-1], +1, opponent)
    for below, above in itertools.product(range(len(down) + 1), range(len(up) + 1)):
        if below or above:
            cards = down[:below] + up[:above]
            options.append((mask_of(cards), cards))
    return options


def _chain(end: Card, step: int, opponent: int) -> tuple[Card, ...]:
    """The opponent's cards that extend a run from one end, nearest first."""
    chain = []
    rank = end.rank + step
    while 1 <= rank <= 13:
        card = DECK[SUIT_BITS * end.suit + rank - 1]
        if not opponent & card.bit:
            break
        chain.append(card)
        rank += step
    return tuple(chain)


def lay_off_mask(melds: Sequence[Meld], opponent: int) -> OpponentShowdown:
    """The opponent's best lay-offs and arrangement, his hand given as a card mask.

    Ties go to the fewest cards laid off (the opponent shows his own melds), then to the
    first combination in meld order.
    """
    per_meld = [_options_for(meld, opponent) for meld in melds]
    best_key: tuple[int, int] | None = None
    best_choice: tuple[_Option, ...] = ()
    left_deadwood: dict[int, int] = {}
    for choice in itertools.product(*per_meld):
        laid = 0
        for mask, _ in choice:
            if laid & mask:
                break
            laid |= mask
        else:
            left = opponent ^ laid
            if left not in left_deadwood:
                left_deadwood[left] = min_deadwood_of_mask(left)
            key = (left_deadwood[left], laid.bit_count())
            if best_key is None or key < best_key:
                best_key, best_choice = key, choice
    layoffs = tuple(LayOff(card, meld) for meld, (_, cards) in zip(melds, best_choice, strict=True)
                    for card in cards)
    laid = mask_of(layoff.card for layoff in layoffs)
    return OpponentShowdown(layoffs, arrangement_of_mask(opponent ^ laid))


def lay_off(melds: Sequence[Meld], opponent_cards: Iterable[Card | str]) -> OpponentShowdown:
    """The opponent's least deadwood against a knock laid down as ``melds``.

    ``melds`` are the declarer's melds as laid down (see ``melds.meld_of`` to build them
    from cards); the declarer's deadwood cards take no lay-offs and are not needed.
    """
    opponent = parse_hand(opponent_cards, (10,), OPPONENTS_HAND)
    mask = mask_of(opponent)
    _check_melds_apart(melds, mask)
    return lay_off_mask(melds, mask)


def _check_melds_apart(melds: Sequence[Meld], opponent: int) -> None:
    seen = 0
    for meld in melds:
        if seen & meld.mask:
            raise RuleError(
                gettext_noop("{meld}: a card may be in only one meld"),
                meld=meld)
        if opponent & meld.mask:
            clash = next(card for card in meld.cards if opponent & card.bit)
            raise RuleError(
                gettext_noop("{clash} is in the declarer's meld {meld} and the opponent's hand"),
                clash=clash, meld=meld)
        seen |= meld.mask


def choose_declarer_arrangement_mask(declarer: int, opponent: int,
                                     ) -> tuple[Arrangement, OpponentShowdown]:
    """Calculator mode on card masks: see ``choose_declarer_arrangement``."""
    best: tuple[Arrangement, OpponentShowdown] | None = None
    for arrangement in arrangements_of_mask(declarer):
        answer = lay_off_mask(arrangement.melds, opponent)
        if best is None or answer.deadwood > best[1].deadwood:
            best = (arrangement, answer)
    assert best is not None  # a hand always has at least one best arrangement
    return best


def choose_declarer_arrangement(declarer_cards: Iterable[Card | str],
                                opponent_cards: Iterable[Card | str],
                                ) -> tuple[Arrangement, OpponentShowdown]:
    """The knocker's arrangement when only his ten cards are known (RULES.md §5).

    Least deadwood first; among those, the one that leaves the opponent the most deadwood
    after lay-offs; then the arrangement ``melds.arrange`` prefers.
    """
    declarer = mask_of(parse_hand(declarer_cards, (10,), DECLARERS_HAND))
    opponent = mask_of(parse_hand(opponent_cards, (10,), OPPONENTS_HAND))
    if declarer & opponent:
        clash = next(card for card in DECK if declarer & opponent & card.bit)
        raise RuleError(
            gettext_noop("{clash} is in both hands"),
            clash=clash)
    return choose_declarer_arrangement_mask(declarer, opponent)
