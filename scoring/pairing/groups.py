"""Allotting a seeded field to the groups of a group stage (RULES.md §11).

Snake order keeps the groups even: seeds 1..g go into groups A..g, seeds g+1..2g back
from the last group to A, and so on, so every group gets one team of each band of seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from scoring.errors import RuleError, gettext_noop

T = TypeVar("T")

MIN_TEAMS_PER_GROUP = 2


def snake_groups(teams_in_seed_order: Sequence[T], group_count: int) -> list[list[T]]:
    """Groups A, B, … in order; inside a group the teams in seed order (Berger numbers)."""
    if group_count < 1:
        raise RuleError(
            gettext_noop("a group stage needs at least one group, not {group_count}"),
            group_count=group_count)
    if len(teams_in_seed_order) < MIN_TEAMS_PER_GROUP * group_count:
        raise RuleError(
            gettext_noop("{teams} teams cannot fill {group_count} groups: each group needs at "
                         "least {minimum} teams"),
            teams=len(teams_in_seed_order), group_count=group_count,
            minimum=MIN_TEAMS_PER_GROUP)
    groups: list[list[T]] = [[] for _ in range(group_count)]
    for seed, team in enumerate(teams_in_seed_order):
        band, place = divmod(seed, group_count)
        # Even bands run A → last group, odd bands come back: the snake.
        groups[place if band % 2 == 0 else group_count - 1 - place].append(team)
    return groups
