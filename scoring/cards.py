"""Cards and their text notation (RULES.md §1).

A card is one of 52 immutable values. Internally the engine works on *card masks*: card
``c`` is bit ``c.code`` of an int, where ``code = 13 * suit + (rank - 1)``, so each suit
is a 13-bit field with the ace in its lowest bit. Runs are then runs of set bits and a hand
is a single int, cheap to copy, compare and use as a dictionary key.

Notation: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` accepted for the ten), suit
``S H D C`` (``♠ ♥ ♦ ♣`` accepted), any case. The canonical form is ``TD``; the display
form for people is ``10♦``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from scoring.errors import Phrase, RuleError, gettext_noop

RANKS = range(1, 14)
RANK_LETTERS = "A23456789TJQK"
SUIT_BITS = 13
SUIT_FIELD = (1 << SUIT_BITS) - 1


class Suit(enum.IntEnum):
    """The four suits in their fixed order (spades first), which is also the bit order."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]


_SUIT_BY_TEXT = {text: suit for suit in Suit for text in (suit.letter, suit.symbol)}
_RANK_BY_TEXT = {letter: rank for rank, letter in zip(RANKS, RANK_LETTERS, strict=True)}
_RANK_BY_TEXT["10"] = 10
# Symbols often arrive from phones with an emoji variation selector attached (♠️).
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b"))


class Card(NamedTuple):
    """One card: ``rank`` 1 (ace) to 13 (king) and a suit.

    Cards sort by rank, then suit: the order in which deadwood cards are shown.
    """

    rank: int
    suit: Suit

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, number cards their face value, J Q K 10."""
        return min(self.rank, 10)

    @property
    def code(self) -> int:
        """0 to 51: the card's bit in a card mask."""
        return SUIT_BITS * self.suit + self.rank - 1

    @property
    def bit(self) -> int:
        return 1 << self.code

    @property
    def display(self) -> str:
        """For people: ``10♦``, ``A♠``."""
        rank = "10" if self.rank == 10 else RANK_LETTERS[self.rank - 1]
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card({self})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)
"""The 52 cards in code order: A♠ … K♠, A♥ … K♥, A♦ … K♦, A♣ … K♣."""

VALUE_BY_CODE: tuple[int, ...] = tuple(card.value for card in DECK)
_BIT_OF: dict[Card, int] = {card: 1 << code for code, card in enumerate(DECK)}
# Every exact spelling of every card, so that the usual token costs one dictionary lookup.
_BY_TOKEN: dict[str, Card] = {
    rank + suit: card
    for card in DECK
    for rank_text in (RANK_LETTERS[card.rank - 1], "10" if card.rank == 10 else "")
    if rank_text
    for rank in {rank_text, rank_text.lower()}
    for suit in {card.suit.letter, card.suit.letter.lower(), card.suit.symbol}
}


def parse_card(token: str | Card) -> Card:
    """One card from its notation; a ``Card`` passes through unchanged."""
    card = _BY_TOKEN.get(token) if isinstance(token, str) else None
    if card is not None:
        return card
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise RuleError(
            gettext_noop("{token!r}: a card is written as text such as 'TD' or '10♦'"),
            token=token)
    text = token.translate(_INVISIBLE).strip().upper()
    if len(text) < 2:
        raise RuleError(
            gettext_noop("{token!r}: a card needs a rank and a suit, such as 'TD'"),
            token=token)
    rank_text, suit_text = text[:-1], text[-1]
    suit = _SUIT_BY_TEXT.get(suit_text)
    if suit is None:
        raise RuleError(
            gettext_noop("{token!r}: unknown suit {suit_text!r} (use S H D C or ♠ ♥ ♦ ♣)"),
            token=token, suit_text=suit_text)
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None:
        raise RuleError(
            gettext_noop("{token!r}: unknown rank {rank_text!r} (use A 2-9 T or 10, J Q K)"),
            token=token, rank_text=rank_text)
    return DECK[SUIT_BITS * suit + rank - 1]


def parse_cards(tokens: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from a list of tokens or one string (separated by spaces or commas).

    Cards come from one deck, so a card given twice is an error naming it.
    """
    if isinstance(tokens, str):
        tokens = [t for t in re.split(r"[\s,;]+", tokens) if t]
    cards = tuple(parse_card(token) for token in tokens)
    if len(cards) != mask_of(cards).bit_count():
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise RuleError(
                    gettext_noop("{card} appears twice; a deck has each card once"),
                    card=card)
            seen.add(card)
    return cards


# Whose cards a count is wrong in, as parse_hand's errors name them.
DECLARERS_HAND = Phrase(gettext_noop("the declarer's hand"))
OPPONENTS_HAND = Phrase(gettext_noop("the opponent's hand"))


def parse_hand(tokens: str | Iterable[str | Card], sizes: Iterable[int],
               whose: str = Phrase(gettext_noop("hand")),
               ) -> tuple[Card, ...]:
    """Cards of one player's hand, which must hold one of ``sizes`` cards."""
    cards = parse_cards(tokens)
    sizes = tuple(sizes)
    if len(cards) not in sizes:
        wanted = " or ".join(map(str, sizes))
        raise RuleError(
            gettext_noop("{whose} has {count} cards; it must have {wanted}"),
            whose=whose, count=len(cards), wanted=wanted)
    return cards


def format_cards(cards: Iterable[Card], *, display: bool = False) -> str:
    """Cards as one line of text, canonical (``TD 3S``) or for people (``10♦ 3♠``)."""
    return " ".join(card.display if display else str(card) for card in cards)


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= _BIT_OF[card]
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in code order (suit by suit, ace first)."""
    return tuple(iter_cards(mask))


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield DECK[low.bit_length() - 1]
        mask ^= low


def value_of(mask: int) -> int:
    """The deadwood value of the cards of a mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += VALUE_BY_CODE[low.bit_length() - 1]
        mask ^= low
    return total


