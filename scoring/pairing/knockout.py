"""Knockout brackets: seeding, crossing group qualifiers, and advancing winners (§11).

A bracket is a list of matches in bracket order: the winners of matches 1 and 2 meet in
the next round, then those of 3 and 4, and so on. The better seed (or the team listed
first) is home.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from scoring.errors import RuleError, gettext_noop

T = TypeVar("T")


def bracket_order(size: int) -> list[int]:
    """Seed numbers 1..size (a power of two) by bracket slot, e.g. 1 8 5 4 3 6 7 2 for 8.

    Doubling the bracket replaces each seed s by s and its complement size + 1 - s, on
    alternate sides, so that seeds 1 and 2 can meet only in the final, 1-4 only in the
    semifinals, and in every match the seeds add up to size + 1.
    """
    if size < 2 or size & (size - 1):
        raise RuleError(
            gettext_noop("a full bracket has a power-of-two number of slots, not {size}"),
            size=size)
    order = [1]
    while len(order) < size:
        width = 2 * len(order) + 1
        order = [
            slot
            for i, seed in enumerate(order)
            for slot in ((seed, width - seed) if i % 2 == 0 else (width - seed, seed))
        ]
    return order


def bracket_size(teams: int) -> int:
    """The slots of the bracket for ``teams`` teams: the next power of two (byes fill the
    rest); 2 for a final alone."""
    if teams < 2:
        raise RuleError(gettext_noop("a knockout needs at least 2 teams, not {count}"),
                        count=teams)
    return 1 << (teams - 1).bit_length()


def bracket_rounds(teams: int) -> int:
    """Rounds from the first to the final: 1 for 2 teams, 3 for 5 to 8, 4 for 9 to 16."""
    return bracket_size(teams).bit_length() - 1


def round_slots(number: int, rounds: int) -> int:
    """The teams a bracket round is named by (2 the final, 4 the semi-finals, 8 the
    quarter-finals, 16 the round of 16, …): the slots of the bracket it starts from, byes
    included, so that a 12-team knockout opens with its round of 16."""
    if not 1 <= number <= rounds:
        raise RuleError(gettext_noop("round {number} is not one of the {rounds} rounds of "
                                     "this bracket"), number=number, rounds=rounds)
    return 1 << (rounds - number + 1)


def seeded_bracket(seeds: Sequence[T]) -> list[tuple[T, T | None]]:
    """First-round matches for teams in seed order; missing seeds make byes for the top."""
    if len(seeds) < 2:
        raise RuleError(
            gettext_noop("a knockout needs at least 2 teams, not {count}"),
            count=len(seeds))
    size = 1 << (len(seeds) - 1).bit_length()
    order = bracket_order(size)
    matches: list[tuple[T, T | None]] = []
    for upper, lower in zip(order[::2], order[1::2], strict=True):
        better, worse = min(upper, lower), max(upper, lower)
        matches.append((seeds[better - 1], seeds[worse - 1] if worse <= len(seeds) else None))
    return matches


def cross_groups(standings: Sequence[Sequence[T]], qualifiers_per_group: int) -> list[tuple[T, T]]:
    """First-round matches from group standings (each group's teams in finishing order).

    Shapes, with groups A, B, … and places 1, 2, …:

    - one group: its qualifiers in a seeded bracket (1 v 4, 2 v 3);
    - group winners only: a seeded bracket of the winners in group order;
    - two groups: a seeded bracket of A1, B1, A2, B2, …, which gives A1–B2, B1–A2 and,
      with four qualifiers, A1–B4, B2–A3, A2–B3, B1–A4;
    - four, eight, … groups with two qualifiers: groups paired in twos, each pair's
      winners crossed with its runners-up, the winners of A, C, … in the top half:
      A1–B2, C1–D2, B1–A2, D1–C2. Teams of one group can meet again only in the final.

    Any other shape (an odd number of groups, three or more qualifiers from four or more
    groups, a field that is not a power of two) is refused: enter the seeds by hand and
    use ``seeded_bracket``, which also gives byes.
    """
    groups = len(standings)
    per_group = qualifiers_per_group
    if groups < 1 or per_group < 1:
        raise RuleError(
            gettext_noop("a knockout from groups needs at least one group and one qualifier"))
    for letter, group in zip(_group_letters(groups), standings, strict=True):
        if len(group) < per_group:
            raise RuleError(
                gettext_noop("group {letter} has {count} teams, fewer than the {per_group} "
                             "qualifiers"),
                letter=letter, count=len(group), per_group=per_group)
    qualifiers = groups * per_group
    if qualifiers < 2 or qualifiers & (qualifiers - 1):
        raise RuleError(
            gettext_noop("{qualifiers} qualifiers do not fill a bracket (2, 4, 8, … teams); seed "
                         "them by hand for a bracket with byes"),
            qualifiers=qualifiers)
    if groups == 1:
        return _full(seeded_bracket(standings[0][:per_group]))
    if per_group == 1 or groups == 2:
        by_place = [group[place] for place in range(per_group) for group in standings]
        return _full(seeded_bracket(by_place))
    if per_group == 2:
        pairs_of_groups = list(zip(standings[::2], standings[1::2], strict=True))
        top = [(first[0], second[1]) for first, second in pairs_of_groups]
        bottom = [(second[0], first[1]) for first, second in pairs_of_groups]
        return top + bottom
    raise RuleError(
        gettext_noop("no standard crossing for {per_group} qualifiers from each of {groups} "
                     "groups; seed the qualifiers by hand"),
        per_group=per_group, groups=groups)


def next_round(results: Sequence[tuple[T, T | None]]) -> list[tuple[T, T]]:
    """The next round from the last one's (winner, loser) in bracket order.

    A first-round bye is (team, None). The winner of the upper match is home.
    """
    if len(results) < 2 or len(results) % 2:
        raise RuleError(
            gettext_noop("a knockout round needs an even number of finished matches, not {count}"),
            count=len(results))
    winners = [winner for winner, _loser in results]
    return list(zip(winners[::2], winners[1::2], strict=True))


def third_place_match(semifinal_results: Sequence[tuple[T, T | None]]) -> tuple[T, T]:
    """The two semifinal losers, the loser of the upper semifinal home."""
    if len(semifinal_results) != 2:
        raise RuleError(
            gettext_noop("a third-place match needs the 2 semifinals, not {count} matches"),
            count=len(semifinal_results))
    (_w1, upper_loser), (_w2, lower_loser) = semifinal_results
    if upper_loser is None or lower_loser is None:
        raise RuleError(gettext_noop("a third-place match needs two semifinals played, not a bye"))
    return (upper_loser, lower_loser)


def _full(matches: list[tuple[T, T | None]]) -> list[tuple[T, T]]:
    # Only called for power-of-two fields, where seeded_bracket gives no bye.
    return [(home, away) for home, away in matches if away is not None]


def _group_letters(count: int) -> list[str]:
    return [chr(ord("A") + i) if i < 26 else f"#{i + 1}" for i in range(count)]
