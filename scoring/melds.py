"""Melds, minimum deadwood and the best arrangement of a hand (RULES.md §2).

How the search works, and why it is exact: a rank can hold at most one set (two would need
six cards), so an arrangement is fixed by (a) which cards of each rank form that rank's
set, if any, and (b) the runs among the remaining cards. Once the sets are chosen, the
suits no longer interact: in one suit the best is to meld every maximal stretch of three
or more consecutive cards as one run, so the deadwood of a suit's leftover cards is a
table lookup (8,192 entries per table, built once at import). Only ranks held three or
four times need a choice (none, any three, all four), which is at most a few dozen
combinations even for eleven cards. Nothing is searched twice.

Ties between equally good arrangements are broken the same way every time: least
deadwood, then the most cards in melds, then the first set choice in a fixed order (no
set first). The best discard of eleven cards is the one that leaves the least deadwood;
among those, the highest-value card, then the highest rank, then suit order ♠ ♥ ♦ ♣.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from scoring.cards import (
    DECK,
    SUIT_BITS,
    SUIT_FIELD,
    Card,
    cards_of,
    mask_of,
    parse_cards,
    parse_hand,
)
from scoring.errors import Phrase, RuleError, gettext_noop

NO_DEADWOOD_YET = 1 << 30  # larger than any deadwood


class MeldKind(enum.StrEnum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run; runs list their cards from the lowest rank, sets in suit order."""

    kind: MeldKind
    cards: tuple[Card, ...]

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))


@dataclass(frozen=True)
class Arrangement:
    """A hand laid out as melds plus deadwood cards.

    The engine's own arrangements are built lazily: ``deadwood`` at once, the card values of
    ``melds`` and ``deadwood_cards`` when either is first read. Either way it is the same
    frozen value: equality, hashing, ``repr``, copying and pickling see the three fields.
    """

    # ``melds`` and ``deadwood_cards`` are properties (set below) over ``_melds`` and
    # ``_cards``; a lazy arrangement holds ``_LAZY`` there and its hand and sets in ``_source``.
    __slots__ = ("_cards", "_melds", "_source", "deadwood")

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def _values(self) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
        melds = self._melds
        if melds is _LAZY:
            melds, cards = _card_values(*self._source)
            _CARDS_SLOT.__set__(self, cards)
            _MELDS_SLOT.__set__(self, melds)  # last: a reader that sees it sees both
            return melds, cards
        return melds, self._cards

    def __getstate__(self) -> tuple[tuple[Meld, ...], tuple[Card, ...], int]:
        return self.melds, self.deadwood_cards, self.deadwood

    def __setstate__(self, state: tuple[tuple[Meld, ...], tuple[Card, ...], int]) -> None:
        _MELDS_SLOT.__set__(self, state[0])
        _CARDS_SLOT.__set__(self, state[1])
        _DEADWOOD_SLOT.__set__(self, state[2])


_LAZY: Any = object()  # in ``_melds``: the card values are not built yet
# The slots' descriptors: they fill a frozen arrangement's slots directly.
_MELDS_SLOT = Arrangement.__dict__["_melds"]
_CARDS_SLOT = Arrangement.__dict__["_cards"]
_DEADWOOD_SLOT = Arrangement.__dict__["deadwood"]
_SOURCE_SLOT = Arrangement.__dict__["_source"]


def _get_melds(arrangement: Arrangement) -> tuple[Meld, ...]:
    melds = arrangement._melds
    return arrangement._values()[0] if melds is _LAZY else melds


def _get_deadwood_cards(arrangement: Arrangement) -> tuple[Card, ...]:
    if arrangement._melds is _LAZY:
        return arrangement._values()[1]
    return arrangement._cards


# Set after the dataclass is made, so that the fields have no default; the setters are
# only reachable through ``object.__setattr__``, as the generated ``__init__`` does.
Arrangement.melds = property(_get_melds, _MELDS_SLOT.__set__)  # type: ignore[assignment]
Arrangement.deadwood_cards = property(  # type: ignore[assignment]
    _get_deadwood_cards, _CARDS_SLOT.__set__)


def _lazy_arrangement(hand: int, sets: int, deadwood: int) -> Arrangement:
    """The arrangement of a card mask with these sets (the runs follow), its deadwood
    already known; its card values are built on first use."""
    arrangement = object.__new__(Arrangement)
    _DEADWOOD_SLOT.__set__(arrangement, deadwood)
    _SOURCE_SLOT.__set__(arrangement, (hand, sets))
    _MELDS_SLOT.__set__(arrangement, _LAZY)
    return arrangement


@dataclass(frozen=True, slots=True)
class ElevenCards:
    """An eleven-card hand: its own best arrangement and its best discard."""

    arrangement: Arrangement  # all eleven cards; deadwood 0 is Big Gin
    best_discard: Card
    kept: Arrangement  # the ten cards kept after the best discard

    @property
    def big_gin(self) -> bool:
        return self.arrangement.deadwood == 0

    @property
    def deadwood_after_discard(self) -> int:
        return self.kept.deadwood


# --- one suit, runs only -------------------------------------------------------------

def _stretches(field: int) -> list[int]:
    """The maximal stretches of consecutive ranks in a suit field, as sub-fields."""
    stretches = []
    while field:
        low = field & -field
        stretch = top = low
        while field & (top << 1):
            top <<= 1
            stretch |= top
        stretches.append(stretch)
        field &= ~stretch
    return stretches


def _in_runs(field: int) -> int:
    """The cards of a suit field that lie in a stretch of three or more."""
    starts = field & field >> 1 & field >> 2
    return starts | starts << 1 | starts << 2


def _build_run_tables() -> tuple[list[int], list[int], list[int]]:
    size = 1 << SUIT_BITS
    value = [0] * size
    deadwood = [0] * size
    for field in range(1, size):
        low = field & -field
        value[field] = value[field ^ low] + min(low.bit_length(), 10)
        deadwood[field] = value[field & ~_in_runs(field)]
    # With one card of the suit thrown away: the least deadwood left, and which cards do it.
    after_discard = [NO_DEADWOOD_YET] * size
    discards = [0] * size
    for field in range(1, size):
        after_discard[field], discards[field] = _discard_from(field, field, deadwood)
    return deadwood, after_discard, discards


def _discard_from(field: int, throwable: int, deadwood: Sequence[int]) -> tuple[int, int]:
    """(least deadwood left in a suit after throwing one of ``throwable``, which do it)."""
    best, discards = NO_DEADWOOD_YET, 0
    while throwable:
        low = throwable & -throwable
        throwable ^= low
        left = deadwood[field ^ low]
        if left < best:
            best, discards = left, low
        elif left == best:
            discards |= low
    return best, discards


_RUN_DEADWOOD, _RUN_DEADWOOD_AFTER_DISCARD, _RUN_BEST_DISCARDS = _build_run_tables()


# --- sets --------------------------------------------------------------------------------

def _build_set_options() -> list[list[tuple[int, ...]]]:
    """For each rank and each pattern of suits held in it, the possible sets (0 = none)."""
    options: list[list[tuple[int, ...]]] = []
    for rank_bit in range(SUIT_BITS):
        per_pattern: list[tuple[int, ...]] = []
        for pattern in range(16):
            bits = [1 << (SUIT_BITS * suit + rank_bit) for suit in range(4) if pattern >> suit & 1]
            choices = [0]
            choices += [sum(trio) for trio in itertools.combinations(bits, 3)]
            if len(bits) == 4:
                choices.append(sum(bits))
            per_pattern.append(tuple(choices))
        options.append(per_pattern)
    return options


_SET_OPTIONS = _build_set_options()


def set_choices(mask: int) -> list[int]:
    """Every way to pick the sets of a hand, each as the mask of the cards in sets."""
    spades, hearts = mask & SUIT_FIELD, mask >> SUIT_BITS & SUIT_FIELD
    diamonds, clubs = mask >> 2 * SUIT_BITS & SUIT_FIELD, mask >> 3 * SUIT_BITS
    trebled = ((spades & hearts & (diamonds | clubs)) | (diamonds & clubs & (spades | hearts)))
    if not trebled:
        return [0]
    per_rank = []
    while trebled:
        low = trebled & -trebled
        trebled ^= low
        rank_bit = low.bit_length() - 1
        pattern = ((spades >> rank_bit & 1) | (hearts >> rank_bit & 1) << 1
                   | (diamonds >> rank_bit & 1) << 2 | (clubs >> rank_bit & 1) << 3)
        per_rank.append(_SET_OPTIONS[rank_bit][pattern])
    if len(per_rank) == 1:
        return list(per_rank[0])
    return [sum(combo) for combo in itertools.product(*per_rank)]


def _runs_deadwood(rest: int) -> int:
    return (_RUN_DEADWOOD[rest & SUIT_FIELD] + _RUN_DEADWOOD[rest >> SUIT_BITS & SUIT_FIELD]
            + _RUN_DEADWOOD[rest >> 2 * SUIT_BITS & SUIT_FIELD]
            + _RUN_DEADWOOD[rest >> 3 * SUIT_BITS])


# --- the searches, on card masks -------------------------------------------------------

def min_deadwood_of_mask(mask: int) -> int:
    """The least deadwood of any number of cards given as a card mask."""
    best = NO_DEADWOOD_YET
    for sets in set_choices(mask):
        deadwood = _runs_deadwood(mask ^ sets)
        if deadwood < best:
            best = deadwood
    return best


def best_discard_of_mask(mask: int, keep: int = 0) -> tuple[int, int]:
    """(least deadwood after one discard, that discard's card code) for a card mask.

    ``keep`` is a mask of cards that may not be thrown (the card just taken from the
    discard pile). The discard follows the tie-break of the module docstring.
    """
    best, throwable = NO_DEADWOOD_YET, 0
    run_deadwood = _RUN_DEADWOOD
    for sets in set_choices(mask):
        rest = mask ^ sets
        # Unrolled over the four suits: this is the simulator's innermost loop.
        spades, hearts = rest & SUIT_FIELD, rest >> SUIT_BITS & SUIT_FIELD
        diamonds, clubs = rest >> 2 * SUIT_BITS & SUIT_FIELD, rest >> 3 * SUIT_BITS
        in_spades, in_hearts = run_deadwood[spades], run_deadwood[hearts]
        in_diamonds, in_clubs = run_deadwood[diamonds], run_deadwood[clubs]
        total = in_spades + in_hearts + in_diamonds + in_clubs
        for field, left_in_suit, shift in ((spades, in_spades, 0),
                                           (hearts, in_hearts, SUIT_BITS),
                                           (diamonds, in_diamonds, 2 * SUIT_BITS),
                                           (clubs, in_clubs, 3 * SUIT_BITS)):
            if not field:
                continue
            banned = keep >> shift & field
            if banned:
                after, discards = _discard_from(field, field & ~banned, run_deadwood)
            else:
                after, discards = _RUN_DEADWOOD_AFTER_DISCARD[field], _RUN_BEST_DISCARDS[field]
            deadwood = total - left_in_suit + after
            if deadwood < best:
                best, throwable = deadwood, discards << shift
            elif deadwood == best:
                throwable |= discards << shift
    if not throwable:
        raise RuleError(gettext_noop("there is no card that may be discarded"))
    return best, _preferred_discard(throwable)


_SHIFTS = tuple(SUIT_BITS * suit for suit in range(4))


def _preferred_discard(throwable: int) -> int:
    """Of equally good discards: the highest value, then highest rank, then ♠ ♥ ♦ ♣.

    Value never falls as rank rises, so this is simply the highest rank, first suit.
    """
    if not throwable & (throwable - 1):
        return throwable.bit_length() - 1
    ranks = 0
    for shift in _SHIFTS:
        ranks |= throwable >> shift
    top = (ranks & SUIT_FIELD).bit_length() - 1
    return next(shift + top for shift in _SHIFTS if throwable >> (shift + top) & 1)


def meld_masks_of_mask(mask: int) -> tuple[int, tuple[int, ...]]:
    """(least deadwood, the preferred arrangement's melds as card masks): the same
    arrangement as ``arrangement_of_mask``, without building card values (the fast path
    for bots and comparisons with engines that answer in integers)."""
    spades, hearts = mask & SUIT_FIELD, mask >> SUIT_BITS & SUIT_FIELD
    diamonds, clubs = mask >> 2 * SUIT_BITS & SUIT_FIELD, mask >> 3 * SUIT_BITS
    set_melds: tuple[int, ...] = ()
    # Most hands hold no rank three times: then there is no set to choose.
    if (spades & hearts & (diamonds | clubs)) | (diamonds & clubs & (spades | hearts)):
        sets = _preferred_sets(mask)
        rest = mask ^ sets
        columns = []
        while sets:  # one set per rank: the cards of that rank in ``sets``
            low = sets & -sets
            column = _RANK_COLUMN[(low.bit_length() - 1) % SUIT_BITS] & sets
            columns.append(column)
            sets ^= column
        set_melds = tuple(columns)
        spades, hearts = rest & SUIT_FIELD, rest >> SUIT_BITS & SUIT_FIELD
        diamonds, clubs = rest >> 2 * SUIT_BITS & SUIT_FIELD, rest >> 3 * SUIT_BITS
    # Per suit, the runs already shifted into place and the deadwood left: table lookups.
    runs, run_deadwood = _RUNS_IN_SUIT, _RUN_DEADWOOD
    deadwood = (run_deadwood[spades] + run_deadwood[hearts] + run_deadwood[diamonds]
                + run_deadwood[clubs])
    return deadwood, (set_melds + runs[0][spades] + runs[1][hearts] + runs[2][diamonds]
                      + runs[3][clubs])


def _preferred_sets(mask: int) -> int:
    """The set choice of the preferred arrangement (the tie-break of the module docstring:
    least deadwood, then most cards melded, then the first choice), in one pass.

    One table scores a suit field as ``64 × deadwood − cards in runs``: fewer than 64 cards
    are ever melded, so comparing the sums compares deadwood first, then cards melded."""
    score = _RUN_SCORE
    best, chosen = NO_DEADWOOD_YET, 0
    for sets in set_choices(mask):
        rest = mask ^ sets
        total = (score[rest & SUIT_FIELD] + score[rest >> SUIT_BITS & SUIT_FIELD]
                 + score[rest >> 2 * SUIT_BITS & SUIT_FIELD] + score[rest >> 3 * SUIT_BITS]
                 - sets.bit_count())
        if total < best:  # strictly: the first of equals stays
            best, chosen = total, sets
    return chosen


def _runs_in_suit() -> tuple[list[tuple[int, ...]], ...]:
    """For each suit and each suit field: its runs (maximal stretches of three or more)
    as card masks."""
    runs_of_field = [tuple(_stretches(_in_runs(field))) for field in range(1 << SUIT_BITS)]
    return tuple([tuple(run << shift for run in runs) if runs else () for runs in runs_of_field]
                 for shift in _SHIFTS)


_RUNS_IN_SUIT = _runs_in_suit()
_IN_RUNS = [_in_runs(field) for field in range(1 << SUIT_BITS)]
_RUN_CARD_COUNT = [in_runs.bit_count() for in_runs in _IN_RUNS]
_RUN_SCORE = [64 * deadwood - melded
              for deadwood, melded in zip(_RUN_DEADWOOD, _RUN_CARD_COUNT, strict=True)]
_RANK_COLUMN = tuple(sum(1 << (shift + rank_bit) for shift in range(0, 52, SUIT_BITS))
                     for rank_bit in range(SUIT_BITS))


def arrangements_of_mask(mask: int) -> list[Arrangement]:
    """Every least-deadwood arrangement (one per choice of sets), best-preferred first."""
    return [_lazy_arrangement(mask, sets, _runs_deadwood(mask ^ sets))
            for sets in _best_set_choices(mask)]


def arrangement_of_mask(mask: int) -> Arrangement:
    """The preferred least-deadwood arrangement of a card mask.

    Only the deadwood is worked out here; the melds and deadwood cards (card values) are
    built when first read (see ``Arrangement``)."""
    spades, hearts = mask & SUIT_FIELD, mask >> SUIT_BITS & SUIT_FIELD
    diamonds, clubs = mask >> 2 * SUIT_BITS & SUIT_FIELD, mask >> 3 * SUIT_BITS
    if (spades & hearts & (diamonds | clubs)) | (diamonds & clubs & (spades | hearts)):
        sets = _preferred_sets(mask)
        return _lazy_arrangement(mask, sets, _runs_deadwood(mask ^ sets))
    run_deadwood = _RUN_DEADWOOD
    return _lazy_arrangement(mask, 0, run_deadwood[spades] + run_deadwood[hearts]
                             + run_deadwood[diamonds] + run_deadwood[clubs])


def _best_set_choices(mask: int) -> list[int]:
    choices = set_choices(mask)
    if len(choices) == 1:
        return choices
    scored = [(_runs_deadwood(mask ^ sets), order, sets) for order, sets in enumerate(choices)]
    least = min(deadwood for deadwood, _, _ in scored)
    tied = sorted((-_melded_count(mask, sets), order, sets)
                  for deadwood, order, sets in scored if deadwood == least)
    return [sets for _, _, sets in tied]


def _melded_count(mask: int, sets: int) -> int:
    rest, counts = mask ^ sets, _RUN_CARD_COUNT
    return (sets.bit_count() + counts[rest & SUIT_FIELD] + counts[rest >> SUIT_BITS & SUIT_FIELD]
            + counts[rest >> 2 * SUIT_BITS & SUIT_FIELD] + counts[rest >> 3 * SUIT_BITS])


# --- card values of an arrangement, from tables filled on first use ---------------------
# Melds are shown from the lowest rank up, a set before a run of the same rank, then by
# suit: each carries the order key 8 × rank + 4 × (run) + suit. Deadwood cards are shown by
# rank, then suit: their mask is turned "rank-major" (bit 4 × rank + suit), whose bits in
# order are the cards in that order, and read two ranks (8 bits) at a time.

def _card_values(hand: int, sets: int) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """The melds and deadwood cards, in the order shown, of a hand of which ``sets`` are the
    cards in sets (the rest go into runs where they can)."""
    placed: list[tuple[int, Meld]] = []
    if sets:
        columns = sets
        while columns:  # one set per rank: the cards of that rank in ``sets``
            low = columns & -columns
            column = _RANK_COLUMN[(low.bit_length() - 1) % SUIT_BITS] & columns
            placed.append(_set_entry(column))
            columns ^= column
        hand ^= sets
    spades, hearts = hand & SUIT_FIELD, hand >> SUIT_BITS & SUIT_FIELD
    diamonds, clubs = hand >> 2 * SUIT_BITS & SUIT_FIELD, hand >> 3 * SUIT_BITS
    in_runs, entries = _IN_RUNS, _RUN_ENTRIES
    if in_runs[spades]:
        placed += entries[0][spades] or _run_entries(0, spades)
    if in_runs[hearts]:
        placed += entries[1][hearts] or _run_entries(1, hearts)
    if in_runs[diamonds]:
        placed += entries[2][diamonds] or _run_entries(2, diamonds)
    if in_runs[clubs]:
        placed += entries[3][clubs] or _run_entries(3, clubs)
    if len(placed) > 1:
        placed.sort(key=itemgetter(0))
    by_rank = _DEADWOOD_BY_RANK
    deadwood = (by_rank[spades] | by_rank[hearts] << 1 | by_rank[diamonds] << 2
                | by_rank[clubs] << 3)
    two, four, six, eight, ten, queen, king = _CARDS_BY_RANK
    return tuple([meld for _, meld in placed]), (
        two[deadwood & 0xFF] + four[deadwood >> 8 & 0xFF] + six[deadwood >> 16 & 0xFF]
        + eight[deadwood >> 24 & 0xFF] + ten[deadwood >> 32 & 0xFF]
        + queen[deadwood >> 40 & 0xFF] + king[deadwood >> 48])


def _run_entries(suit: int, field: int) -> tuple[tuple[int, Meld], ...]:
    """The runs of one suit's field, each with its order key (first use of the field)."""
    shift = SUIT_BITS * suit
    entries = _RUN_ENTRIES[suit][field] = tuple(
        (8 * ((run & -run).bit_length() - 1) + 4 + suit, _meld(MeldKind.RUN, run << shift))
        for run in _stretches(_IN_RUNS[field]))
    return entries


@functools.cache
def _set_entry(column: int) -> tuple[int, Meld]:
    """A set (the cards of one rank) with its order key."""
    suit, rank_bit = divmod((column & -column).bit_length() - 1, SUIT_BITS)  # its first card
    return 8 * rank_bit + suit, _meld(MeldKind.SET, column)


@functools.cache
def _meld(kind: MeldKind, mask: int) -> Meld:
    """One value per meld: a hand is built from the same few hundred sets and runs."""
    return Meld(kind, cards_of(mask))


def _by_rank_tables() -> tuple[list[int], tuple[list[tuple[Card, ...]], ...]]:
    """The deadwood cards of each suit field rank-major (bit 4 × rank); and the cards of
    each pattern of 8 rank-major bits (two ranks) in the order shown, for the seven pairs
    of ranks A-2, 3-4, … J-Q and the kings alone."""
    spread = [0] * (1 << SUIT_BITS)
    for field in range(1, 1 << SUIT_BITS):
        low = field & -field
        spread[field] = spread[field ^ low] | 1 << 4 * (low.bit_length() - 1)
    deadwood_by_rank = [spread[field & ~in_runs] for field, in_runs in enumerate(_IN_RUNS)]
    in_rank_order = [DECK[SUIT_BITS * suit + rank_bit]
                     for rank_bit in range(SUIT_BITS) for suit in range(4)]
    tables = []
    for base in range(0, 52, 8):
        table: list[tuple[Card, ...]] = [()] * (1 << min(8, 52 - base))
        for bits in range(1, len(table)):
            top = bits.bit_length() - 1
            table[bits] = table[bits ^ 1 << top] + (in_rank_order[base + top],)
        tables.append(table)
    return deadwood_by_rank, tuple(tables)


_DEADWOOD_BY_RANK, _CARDS_BY_RANK = _by_rank_tables()
_RUN_ENTRIES: tuple[list[tuple[tuple[int, Meld], ...] | None], ...] = tuple(
    [None] * (1 << SUIT_BITS) for _ in range(4))


# --- the public functions, on cards ----------------------------------------------------

def deadwood(cards: Iterable[Card | str]) -> int:
    """The least deadwood of a 10- or 11-card hand (for 11, of all eleven cards)."""
    return min_deadwood_of_mask(mask_of(parse_hand(cards, (10, 11))))


def arrange(cards: Iterable[Card | str]) -> Arrangement:
    """One best arrangement of a 10- or 11-card hand (see the tie-break above)."""
    return arrangement_of_mask(mask_of(parse_hand(cards, (10, 11))))


def best_arrangements(cards: Iterable[Card | str]) -> list[Arrangement]:
    """Every least-deadwood arrangement of a 10- or 11-card hand, preferred first.

    Arrangements that differ only in how one long run is cut into two are not listed
    twice: the cut changes nothing a player can lay off.
    """
    return arrangements_of_mask(mask_of(parse_hand(cards, (10, 11))))


def analyze_eleven(cards: Iterable[Card | str]) -> ElevenCards:
    """Big Gin or not, and the best discard of an eleven-card hand (exact)."""
    mask = mask_of(parse_hand(cards, (11,)))
    _, discard = best_discard_of_mask(mask)
    return ElevenCards(arrangement_of_mask(mask), DECK[discard],
                       arrangement_of_mask(mask ^ (1 << discard)))


def meld_of(cards: Iterable[Card | str]) -> Meld:
    """The meld formed by exactly these cards, or a RuleError saying why they are none."""
    group = sorted(parse_cards(cards), key=lambda card: (card.suit, card.rank))
    shown = " ".join(map(str, group))
    if len(group) < 3:
        raise RuleError(
            gettext_noop("{cards}: a meld needs at least 3 cards"),
            cards=shown or Phrase(gettext_noop("no cards")))
    if len({card.rank for card in group}) == 1:  # one deck: never more than four
        return Meld(MeldKind.SET, tuple(group))
    if len({card.suit for card in group}) == 1:
        ranks = [card.rank for card in group]
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return Meld(MeldKind.RUN, tuple(group))
        raise RuleError(
            gettext_noop("{shown}: a run needs consecutive ranks, and the ace is only low"),
            shown=shown)
    raise RuleError(
        gettext_noop("{shown}: not a set (one rank) nor a run (one suit)"),
        shown=shown)


def is_meld(cards: Sequence[Card]) -> bool:
    try:
        meld_of(cards)
    except RuleError:
        return False
    return True
