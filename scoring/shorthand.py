"""A hand's result as a director types it from a paper scorecard (issue 24).

Seats are the table's seats 1 and 2; deadwoods are counted as on the card (the opponent's
after lay-offs). Letters in either case, parts separated by spaces:

- ``K1 4 15``: seat 1 knocked with 4 against 15 (an undercut is the engine's business:
  ``K1 9 5`` is an undercut by seat 2's 5 against 9);
- ``G2 30``: seat 2 went gin, the opponent holds 30;
- ``B1 22``: seat 1 went Big Gin against 22;
- ``D``: a draw;
- a false knock first, then what came of the hand: ``F1 14 K2 3 14``, ``F2 12 D``.

``parse`` only reads the text; whether the counts make a legal hand is ``scoring.hand``'s
rule (a knock with more deadwood than the limit, a gin with deadwood, and so on), so a slip
of the pen reads here and is refused, with its reason, by the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.errors import RuleError, gettext_noop

_DECLARED = {"K": "knock", "G": "gin", "B": "big_gin"}
_LETTER = {outcome: letter for letter, outcome in _DECLARED.items()}
# A letter with its seat, or a number: "K1", "k 1", "14". Anything else is named in the error.
_TOKEN = re.compile(r"([A-Za-z])\s*([0-9]*)|([0-9]+)|(\S+)")


@dataclass(frozen=True)
class Shorthand:
    """The figures of one hand, as the scorecard gives them."""

    outcome: str  # "knock", "gin", "big_gin" or "draw"
    declarer_seat: int | None = None
    declarer_deadwood: int | None = None
    opponent_deadwood: int | None = None
    false_knock_seat: int | None = None
    false_knock_deadwood: int | None = None

    @property
    def text(self) -> str:
        """The shortest way to type it: ``parse(s.text) == s``."""
        parts = []
        if self.false_knock_seat is not None:
            parts.append(f"F{self.false_knock_seat} {self.false_knock_deadwood}")
        if self.outcome == "draw":
            parts.append("D")
        elif self.outcome == "knock":
            parts.append(f"K{self.declarer_seat} {self.declarer_deadwood} "
                         f"{self.opponent_deadwood}")
        else:
            parts.append(f"{_LETTER[self.outcome]}{self.declarer_seat} "
                         f"{self.opponent_deadwood}")
        return " ".join(parts)


def _tokens(text: str) -> list[tuple[str, int | None] | int]:
    """("K", 1) for a letter and its seat (None: no seat written), a number as an int."""
    tokens: list[tuple[str, int | None] | int] = []
    for letter, seat, number, other in _TOKEN.findall(text):
        if other:
            raise RuleError(gettext_noop("“{part}” is not part of a result: write for "
                                         "example K1 4 15, G2 30, B1 22 or D"), part=other)
        if number:
            tokens.append(int(number))
            continue
        letter = letter.upper()
        if letter not in "KGBDF":
            raise RuleError(gettext_noop("“{letter}” is not a result: K knock, G gin, B Big "
                                         "Gin, D draw, F a false knock"), letter=letter)
        if letter == "D":
            tokens.append(("D", None))
            if seat:
                tokens.append(int(seat))  # "D 5" reads as a stray number below
            continue
        if not seat:
            tokens.append((letter, None))
            continue
        # "K14" is seat 1 and deadwood 4 written together: the seat is one digit.
        tokens.append((letter, int(seat[0])))
        if len(seat) > 1:
            tokens.append(int(seat[1:]))
    return tokens


def _seat(letter: str, seat: int | None) -> int:
    if seat is None:
        raise RuleError(gettext_noop("write the seat after {letter}: {letter}1 or {letter}2"),
                        letter=letter)
    if seat not in (1, 2):
        raise RuleError(gettext_noop("a table has seats 1 and 2, not {seat}"), seat=seat)
    return seat


def _numbers(tokens: list, start: int, count: int, what: str) -> list[int]:
    numbers = tokens[start:start + count]
    if len(numbers) < count or not all(isinstance(n, int) for n in numbers):
        raise RuleError(what)
    return numbers


def parse(text: str) -> Shorthand:
    """The hand a line of shorthand describes; ``RuleError`` naming what does not read."""
    tokens = _tokens(text.strip())
    if not tokens:
        raise RuleError(gettext_noop("type the result: for example K1 4 15, G2 30, B1 22 or D"))
    at = 0
    false_seat = false_deadwood = None
    first = tokens[0]
    if isinstance(first, tuple) and first[0] == "F":
        false_seat = _seat("F", first[1])
        (false_deadwood,) = _numbers(tokens, 1, 1, gettext_noop(
            "after F and the seat, write the false knocker's deadwood: F1 14"))
        at = 2
    if at >= len(tokens):
        raise RuleError(gettext_noop("after the false knock, write how the hand ended: "
                                     "K1 4 15, G2 30, B1 22 or D"))
    head = tokens[at]
    if not isinstance(head, tuple):
        raise RuleError(gettext_noop("start with the result's letter: K knock, G gin, B Big "
                                     "Gin, D draw (F first for a false knock)"))
    letter, seat = head
    if letter == "F":
        raise RuleError(gettext_noop("one false knock per hand, written first"))
    if letter == "D":
        shorthand, used = Shorthand("draw"), 1
    elif letter == "K":
        declarer_seat = _seat("K", seat)
        declarer, opponent = _numbers(tokens, at + 1, 2, gettext_noop(
            "a knock needs both deadwoods: K1 4 15 (the knocker's, then the opponent's)"))
        shorthand = Shorthand("knock", declarer_seat, declarer, opponent)
        used = 3
    else:
        declarer_seat = _seat(letter, seat)
        (opponent,) = _numbers(tokens, at + 1, 1, gettext_noop(
            "a gin needs the opponent's deadwood: G2 30, B1 22"))
        shorthand = Shorthand(_DECLARED[letter], declarer_seat, None, opponent)
        used = 2
    rest = tokens[at + used:]
    if rest:
        extra = rest[0]
        if isinstance(extra, tuple) and extra[0] == "F":
            raise RuleError(gettext_noop("one false knock per hand, written first"))
        part = extra if isinstance(extra, int) else extra[0] + str(extra[1] or "")
        raise RuleError(gettext_noop("“{part}” is one part too many: {example}"),
                        part=part, example=shorthand.text)
    if false_seat is not None:
        shorthand = Shorthand(shorthand.outcome, shorthand.declarer_seat,
                              shorthand.declarer_deadwood, shorthand.opponent_deadwood,
                              false_seat, false_deadwood)
    return shorthand
