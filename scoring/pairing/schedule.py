"""Stored schedules and the swaps that keep them whole (RULES.md §11).

A group stage's schedule is its round robin with teams in place of Berger numbers: one
list of boards (home, away) per round, (team, None) for the bye. A knockout's schedule is
its first-round bracket in bracket order. A director may swap two teams of a drawn round;
in a round robin that exchanges the two teams in the round and in every later round,
which keeps "every pair meets exactly once, every team has at most one bye" true only
when, for every other team C (and the bye), C has met both of them or neither before the
round: then exchanging the two is a bijection of the pairs still to be played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.errors import RuleError, gettext_noop
from scoring.pairing.berger import berger_rounds

T = TypeVar("T")

Board = tuple[T, T | None]


def round_robin(teams: Sequence[T]) -> list[list[tuple[T, T | None]]]:
    """The Berger table for teams given in the order of their Berger numbers."""
    return [
        [(teams[home - 1], None if away is None else teams[away - 1]) for home, away in boards]
        for boards in berger_rounds(len(teams))
    ]


@dataclass(frozen=True)
class SwapConflict(Generic[T]):
    """A swap that would break the round robin: ``other`` has met ``met`` already (for
    ``other`` None: ``met`` has had its bye) and not ``unmet``; after the swap it would
    meet ``met`` again in round ``again_in`` and ``unmet`` never."""

    other: T | None
    met: T
    unmet: T
    again_in: int


def swap_conflicts(
    played: Iterable[tuple[T, T | None]],
    remaining: Sequence[Sequence[tuple[T, T | None]]],
    a: T,
    b: T,
    *,
    first_round: int = 1,
) -> list[SwapConflict[T]]:
    """Why exchanging ``a`` and ``b`` in the ``remaining`` rounds (the first of them is
    round ``first_round``) would make a pair meet twice or never, given the boards
    ``played`` before; no conflict means the round robin stays whole."""
    if a == b:
        raise RuleError(gettext_noop("a swap needs two different teams"))
    met: dict[T, set[T | None]] = {a: set(), b: set()}
    for home, away in played:
        for team, opponent in ((home, away), (away, home)):
            if team in met:
                met[team].add(opponent)
    # Where each other participant meets a and b in the remaining rounds.
    meets: dict[tuple[T | None, T], int] = {}
    for number, boards in enumerate(remaining, first_round):
        for home, away in boards:
            for team, opponent in ((home, away), (away, home)):
                if team in (a, b) and opponent not in (a, b):
                    meets.setdefault((opponent, team), number)
    conflicts = []
    for other in (met[a] ^ met[b]) - {a, b}:
        seen, unseen = (a, b) if other in met[a] else (b, a)
        # After the exchange ``other`` meets ``seen`` where it was to meet ``unseen``.
        again_in = meets.get((other, unseen))
        if again_in is not None:
            conflicts.append(SwapConflict(other, seen, unseen, again_in))
    # The earliest trouble first, the bye last in a round, in a stable order.
    return sorted(conflicts, key=lambda c: (c.again_in, c.other is None, str(c.other)))


def swap_in_schedule(
    rounds: Sequence[Sequence[tuple[T, T | None]]], number: int, a: T, b: T
) -> list[list[tuple[T, T | None]]]:
    """The whole schedule after swapping ``a`` and ``b`` in round ``number`` (from 1).

    Two teams that meet in that round change sides there and nothing else changes.
    Otherwise they exchange places in that round and every later one, which is refused
    (RuleError) when it would break the round robin (see ``swap_conflicts``); the rounds
    before are kept as they were played.
    """
    if not 1 <= number <= len(rounds):
        raise RuleError(
            gettext_noop("the schedule has no round {number}"),
            number=number)
    if a == b:
        raise RuleError(gettext_noop("a swap needs two different teams"))
    boards = rounds[number - 1]
    if (a, b) in boards or (b, a) in boards:
        flipped = [(away, home) if {home, away} == {a, b} else (home, away)
                   for home, away in boards]
        return [list(r) for r in rounds[: number - 1]] + [flipped] + [
            list(r) for r in rounds[number:]]
    played = [board for r in rounds[: number - 1] for board in r]
    if swap_conflicts(played, rounds[number - 1:], a, b, first_round=number):
        raise RuleError(
            gettext_noop("swapping {a} and {b} in round {number} would make a pair meet twice "
                         "and another never"),
            a=a, b=b, number=number)
    return [list(r) for r in rounds[: number - 1]] + [
        _exchanged(r, a, b) for r in rounds[number - 1:]]


def swap_in_bracket(bracket: Sequence[tuple[T, T | None]], a: T, b: T
                    ) -> list[tuple[T, T | None]]:
    """A first-round bracket with ``a`` and ``b`` in each other's slot (a bye included);
    two teams that meet change sides."""
    teams = [team for board in bracket for team in board if team is not None]
    for team in (a, b):
        if team not in teams:
            raise RuleError(
                gettext_noop("{team} is not in the bracket"),
                team=team)
    if a == b:
        raise RuleError(gettext_noop("a swap needs two different teams"))
    return _exchanged(bracket, a, b)


def _exchanged(boards: Sequence[tuple[T, T | None]], a: T, b: T) -> list[tuple[T, T | None]]:
    other = {a: b, b: a}
    return [(other.get(home, home), other.get(away, away) if away is not None else None)
            for home, away in boards]
