"""Scoring a hand from the cards both players hold at the end (RULES.md §4–6).

The declarer shows ten cards (a knock or gin, after his face-down discard) or eleven (Big
Gin); the opponent shows his ten. The engine works out both deadwoods, the lay-offs and
the score. The declarer's melds may be given as he laid them down; otherwise the engine
lays them down for him (calculator mode, ``layoffs.choose_declarer_arrangement``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import (
    DECLARERS_HAND,
    OPPONENTS_HAND,
    Card,
    cards_of,
    mask_of,
    parse_hand,
    value_of,
)
from scoring.errors import RuleError, gettext_noop
from scoring.hand import FalseKnock, HandScore, Outcome, score_hand
from scoring.layoffs import (
    OpponentShowdown,
    choose_declarer_arrangement_mask,
    lay_off_mask,
)
from scoring.melds import Arrangement, Meld, arrangement_of_mask, meld_of, min_deadwood_of_mask
from scoring.rules import DEFAULT_RULES, Rules


@dataclass(frozen=True, slots=True)
class Showdown:
    declaration: Outcome  # knock, gin or big_gin; the score says whether a knock was undercut
    declarer: Arrangement
    opponent: OpponentShowdown
    score: HandScore

    def to_dict(self) -> dict[str, Any]:
        return {
            "declaration": self.declaration.value,
            "declarer": arrangement_dict(self.declarer),
            "opponent": arrangement_dict(self.opponent.arrangement),
            "layoffs": [{"card": str(layoff.card), "meld": [str(c) for c in layoff.meld.cards]}
                        for layoff in self.opponent.layoffs],
            "score": self.score.to_dict(),
        }


def arrangement_dict(arrangement: Arrangement) -> dict[str, Any]:
    return {
        "deadwood": arrangement.deadwood,
        "melds": [[str(card) for card in meld.cards] for meld in arrangement.melds],
        "deadwood_cards": [str(card) for card in arrangement.deadwood_cards],
    }


def settle(declarer_cards: Iterable[Card | str], opponent_cards: Iterable[Card | str], *,
           declarer_melds: Sequence[Iterable[Card | str]] | None = None,
           rules: Rules = DEFAULT_RULES, false_knock: FalseKnock | None = None) -> Showdown:
    """Deadwoods, lay-offs, outcome and points from the final hands.

    ``declarer_cards``: the ten cards kept (knock or gin) or all eleven (Big Gin).
    ``declarer_melds``: the melds he laid down, if known; they must be a best arrangement
    (RULES.md §2: the deadwood count is always the least).
    A knock above the knock limit is refused: it is a false knock, not a showdown.
    ``false_knock``: the opponent's earlier false knock; his deadwood is then the recorded
    one, with no lay-offs.
    """
    try:
        declarer_hand = parse_hand(declarer_cards, (10, 11), DECLARERS_HAND)
    except RuleError as error:
        raise error.about("declarer_cards") from None
    try:
        opponent_hand = parse_hand(opponent_cards, (10,), OPPONENTS_HAND)
    except RuleError as error:
        raise error.about("opponent_cards") from None
    declarer, opponent = mask_of(declarer_hand), mask_of(opponent_hand)
    if declarer & opponent:
        clash = next(card for card in declarer_hand if opponent & card.bit)
        raise RuleError(
            gettext_noop("{clash} is in both hands"),
            clash=clash).about("opponent_cards")
    try:
        melds = None if declarer_melds is None else _laid_down(declarer_melds, declarer)
    except RuleError as error:
        raise error.about("declarer_melds") from None
    try:
        return settle_mask(declarer, opponent, melds=melds, rules=rules,
                           false_knock=false_knock)
    except RuleError as error:  # unless it names its input (the melds laid down): the cards
        raise error.about("declarer_cards") from None


def settle_mask(declarer: int, opponent: int, *, melds: Sequence[Meld] | None = None,
                rules: Rules = DEFAULT_RULES, false_knock: FalseKnock | None = None,
                ) -> Showdown:
    """``settle`` on card masks, the hands already checked (used by the simulator)."""
    least = min_deadwood_of_mask(declarer)
    if declarer.bit_count() == 11:
        if least:
            raise RuleError(
                gettext_noop("eleven cards are shown only for Big Gin, and these leave {least} "
                             "deadwood; discard one first"),
                least=least)
        declaration = Outcome.BIG_GIN
    elif least == 0:
        declaration = Outcome.GIN
    elif least <= rules.knock_limit:
        declaration = Outcome.KNOCK
    else:
        raise RuleError(
            gettext_noop("the declarer's deadwood {least} is above the knock limit {limit}: that "
                         "is a false knock, not a showdown"),
            least=least, limit=rules.knock_limit)

    # No lay-offs against gin or Big Gin, nor after the opponent's false knock: his
    # deadwood is the one the referee recorded then.
    lays_off = declaration is Outcome.KNOCK and false_knock is None
    if melds is None and lays_off:
        arrangement, answer = choose_declarer_arrangement_mask(declarer, opponent)
    else:
        if melds is None:
            arrangement = arrangement_of_mask(declarer)
        else:
            arrangement = _arrangement_from(melds, declarer, least)
        if lays_off:
            answer = lay_off_mask(arrangement.melds, opponent)
        else:
            answer = OpponentShowdown((), arrangement_of_mask(opponent))
    opponent_deadwood = None if false_knock is not None else answer.deadwood
    score = score_hand(declaration, arrangement.deadwood, opponent_deadwood, rules=rules,
                       false_knock=false_knock)
    return Showdown(declaration, arrangement, answer, score)


def _laid_down(groups: Sequence[Iterable[Card | str]], declarer: int) -> tuple[Meld, ...]:
    melds = tuple(meld_of(group) for group in groups)
    seen = 0
    for meld in melds:
        if seen & meld.mask:
            raise RuleError(
                gettext_noop("{meld}: a card may be in only one meld"),
                meld=meld)
        stray = next((card for card in meld.cards if not declarer & card.bit), None)
        if stray is not None:
            raise RuleError(
                gettext_noop("{stray} is laid down in {meld} but not in the declarer's hand"),
                stray=stray, meld=meld)
        seen |= meld.mask
    return melds


def _arrangement_from(melds: Sequence[Meld], declarer: int, least: int) -> Arrangement:
    leftover = declarer & ~mask_of(card for meld in melds for card in meld.cards)
    deadwood = value_of(leftover)
    if deadwood != least:
        raise RuleError(
            gettext_noop("the melds laid down leave {deadwood} deadwood, but the hand's deadwood "
                         "is {least}: lay down a best arrangement"),
            deadwood=deadwood, least=least).about("declarer_melds")
    return Arrangement(tuple(melds), tuple(sorted(cards_of(leftover))), deadwood)
