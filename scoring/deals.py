"""Secret, reproducible duplicate deals (RULES.md §3, §8; the construction: docs/deals.md).

A deal is a full order of the 52 cards: the dealer's 11, the non-dealer's 10, then the 31
stock cards top first. There are C(52,11)·C(41,10)·31! ≈ 2^178.5 of them, so a deal needs
far more randomness than any seeded generator carries (bridge learnt this from deals
predicted out of 32-bit seeds). Every deal is therefore derived from a 256-bit tournament
key and the deal's place with HMAC-SHA256 used as a counter-mode stream, which feeds an
unbiased Fisher–Yates shuffle with rejection sampling. Same key and place, same deal,
always; without the key, no deal says anything about another.

Before play the tournament publishes the SHA-256 of its key (the commitment); after play it
reveals the key, and anyone can re-create every deal with ``python -m scoring deals``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from scoring.cards import DECK, Card, parse_cards
from scoring.errors import Phrase, RuleError, gettext_noop
from scoring.rules import DealScope, Rules

KEY_BYTES = 32
# The parts of a deal's place, as its errors name them.
_PLACE_NAMES = {"stage": Phrase(gettext_noop("stage")), "round": Phrase(gettext_noop("round")),
                "deal_set": Phrase(gettext_noop("deal set")),
                "hand": Phrase(gettext_noop("hand"))}
DEALER_CARDS = 11
NON_DEALER_CARDS = 10
STOCK_CARDS = 52 - DEALER_CARDS - NON_DEALER_CARDS
VERSION = "duplicate-gin/deal/v1"


def new_key() -> bytes:
    """A fresh 256-bit tournament key from the operating system's CSPRNG."""
    return secrets.token_bytes(KEY_BYTES)


def commitment(key: bytes) -> str:
    """The SHA-256 of the key, in hex: published before the first deal is made."""
    return hashlib.sha256(check_key(key)).hexdigest()


def verify(key: bytes, published: str) -> bool:
    """Does a revealed key match the commitment published before play?"""
    return hmac.compare_digest(commitment(key), published.strip().lower())


def check_key(key: bytes) -> bytes:
    if not isinstance(key, bytes | bytearray) or len(key) != KEY_BYTES:
        raise RuleError(
            gettext_noop("a tournament key is {bytes} bytes (64 hex digits)"),
            bytes=KEY_BYTES)
    return bytes(key)


def parse_key(text: str) -> bytes:
    """A key written as 64 hex digits (spaces and a ``0x`` prefix are tolerated)."""
    cleaned = "".join(text.split()).lower().removeprefix("0x")
    try:
        key = bytes.fromhex(cleaned)
    except ValueError:
        raise RuleError(
            gettext_noop("a tournament key is written as 64 hex digits (0-9, a-f)")) from None
    return check_key(key)


def deal_key(key: bytes, public_value: str = "") -> bytes:
    """The key the deals are made from: the tournament key, with the public value (a lottery
    result announced just before generation) mixed in when there is one."""
    check_key(key)
    if not public_value:
        return bytes(key)
    message = f"{VERSION}|public|{public_value.strip()}".encode()
    return hmac.digest(key, message, "sha256")


@dataclass(frozen=True, slots=True, order=True)
class DealPlace:
    """Where a deal belongs. ``deal_set`` is 1 for the round's field-wide set, or the match
    number when every match has its own; ``reserve`` counts replacements of a compromised
    deal (0 = the original)."""

    stage: int
    round: int
    deal_set: int
    hand: int
    reserve: int = 0

    def __post_init__(self) -> None:
        for name in ("stage", "round", "deal_set", "hand"):
            if getattr(self, name) < 1:
                raise RuleError(
                    gettext_noop("a deal's {what} is numbered from 1"),
                    what=_PLACE_NAMES[name])
        if self.reserve < 0:
            raise RuleError(gettext_noop("a reserve deal is numbered from 1 (0 is the original)"))

    @property
    def message(self) -> bytes:
        return (f"{VERSION}|stage={self.stage}|round={self.round}|set={self.deal_set}"
                f"|hand={self.hand}|reserve={self.reserve}").encode()


@dataclass(frozen=True, slots=True)
class Deal:
    """The contents of one box: all 52 cards in dealing order."""

    order: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.order) != 52 or len(set(self.order)) != 52:
            raise RuleError(gettext_noop("a deal is an order of all 52 cards, each once"))

    @property
    def dealer(self) -> tuple[Card, ...]:
        return self.order[:DEALER_CARDS]

    @property
    def non_dealer(self) -> tuple[Card, ...]:
        return self.order[DEALER_CARDS:DEALER_CARDS + NON_DEALER_CARDS]

    @property
    def stock(self) -> tuple[Card, ...]:
        """Top card first."""
        return self.order[DEALER_CARDS + NON_DEALER_CARDS:]

    @property
    def text(self) -> str:
        """The 52 cards in canonical notation, one string (how deals are stored)."""
        return " ".join(map(str, self.order))


def _stream(key: bytes, message: bytes) -> Iterator[int]:
    """Bytes of HMAC-SHA256(key, message | counter) for counter 0, 1, 2, …"""
    counter = 0
    while True:
        yield from hmac.digest(key, message + b"|" + counter.to_bytes(8, "big"), "sha256")
        counter += 1


def _below(stream: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound) for bound ≤ 256: take the fewest low bits that can
    hold bound − 1 and reject values that are too big, so no value is favoured."""
    mask = (1 << (bound - 1).bit_length()) - 1
    while True:
        value = next(stream) & mask
        if value < bound:
            return value


def make_deal(key: bytes, place: DealPlace, *, public_value: str = "") -> Deal:
    """The deal at a place: Fisher–Yates over the deck in code order (A♠ … K♣)."""
    return shuffled(deal_key(key, public_value), place)


def shuffled(derived_key: bytes, place: DealPlace) -> Deal:
    """The shuffle itself, for callers that derived the key once for many deals."""
    stream = _stream(derived_key, place.message)
    cards = list(DECK)
    for top in range(51, 0, -1):
        other = _below(stream, top + 1)
        cards[top], cards[other] = cards[other], cards[top]
    return Deal(tuple(cards))


def deal_set_of(rules: Rules, match_number: int) -> int:
    """The deal set match ``match_number`` plays under ``rules``: its own (numbered as the
    match, when every match has its own deals) or the round's one field-wide set, 1."""
    return match_number if rules.deal_scope == DealScope.MATCH else 1


def deal_from_text(text: str) -> Deal:
    """A stored deal back from its canonical text."""
    return Deal(parse_cards(text))


@dataclass(frozen=True, slots=True, order=True)
class DealBlock:
    """Deals of one round that one command re-creates: the sets ``sets`` × the hands
    ``hands`` (both inclusive ranges, as ``(first, last)``), with one reserve number."""

    stage: int
    round: int
    reserve: int
    sets: tuple[int, int]
    hands: tuple[int, int]

    def places(self) -> Iterator[DealPlace]:
        for deal_set in range(self.sets[0], self.sets[1] + 1):
            for hand in range(self.hands[0], self.hands[1] + 1):
                yield DealPlace(self.stage, self.round, deal_set, hand, self.reserve)

    @property
    def options(self) -> list[str]:
        """The options of ``python -m scoring deals`` for this block (after ``--key``)."""
        options = ["--stage", str(self.stage), "--round", str(self.round),
                   "--hands", _span(self.hands)]
        if self.sets != (1, 1):
            options += ["--sets", _span(self.sets)]
        if self.reserve:
            options += ["--reserve", str(self.reserve)]
        return options


def _span(span: tuple[int, int]) -> str:
    """How a range is written on the command line: "8" is 1 to 8, "9-10" is 9 to 10."""
    first, last = span
    return str(last) if first == 1 else f"{first}-{last}"


def parse_span(text: str, what: str) -> tuple[int, int]:
    """A range from the command line: "8" (1 to 8) or "9-10"."""
    first, dash, last = text.strip().partition("-")
    try:
        span = (int(first), int(last)) if dash else (1, int(first))
    except ValueError:
        raise RuleError(f"{what} are written as a count (8) or a range (9-10), not {text!r}") \
            from None
    if not 1 <= span[0] <= span[1]:
        raise RuleError(f"{what} {text!r}: numbered from 1, the first not after the last")
    return span


def blocks_of(places: Iterable[DealPlace]) -> list[DealBlock]:
    """The fewest-ish blocks, in order, whose places are exactly the given ones: for each
    round and reserve number, each set's hands cut into unbroken runs, and neighbouring
    sets with the same run put together."""
    runs: dict[tuple[int, int, int, tuple[int, int]], list[int]] = {}
    by_set: dict[tuple[int, int, int, int], set[int]] = {}
    for place in places:
        by_set.setdefault((place.stage, place.round, place.reserve, place.deal_set),
                          set()).add(place.hand)
    for (stage, round_, reserve, deal_set), hands in sorted(by_set.items()):
        for run in _unbroken(sorted(hands)):
            runs.setdefault((stage, round_, reserve, run), []).append(deal_set)
    blocks = [DealBlock(stage, round_, reserve, sets, hands)
              for (stage, round_, reserve, hands), deal_sets in runs.items()
              for sets in _unbroken(deal_sets)]
    return sorted(blocks, key=lambda b: (b.stage, b.round, b.reserve, b.sets, b.hands))


def _unbroken(numbers: list[int]) -> list[tuple[int, int]]:
    """Sorted distinct numbers as runs of consecutive ones: [1, 2, 3, 7] → (1, 3), (7, 7)."""
    return [(group[0][1], group[-1][1]) for _, items in
            itertools.groupby(enumerate(numbers), key=lambda item: item[1] - item[0])
            for group in [list(items)]]


def deals_of_block(key: bytes, block: DealBlock, *, public_value: str = "",
                   ) -> Iterator[tuple[DealPlace, Deal]]:
    """Every deal of a block (for checking after the key is revealed)."""
    derived = deal_key(key, public_value)
    for place in block.places():
        yield place, shuffled(derived, place)


def deal_record(place: DealPlace, deal: Deal) -> dict:
    """A deal as one JSON-ready object, in canonical notation."""
    return {
        "stage": place.stage, "round": place.round, "set": place.deal_set,
        "hand": place.hand, "reserve": place.reserve,
        "dealer": [str(c) for c in deal.dealer],
        "non_dealer": [str(c) for c in deal.non_dealer],
        "stock": [str(c) for c in deal.stock],
    }
