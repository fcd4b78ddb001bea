"""From group standings to a knockout bracket, and from the knockout to the final places of
the event (RULES.md §11; issue 11, item 5).

Across groups, teams of the same group place are compared by match points, then small
points, then match wins; teams level on all three keep the order of their groups (group A
before group B), which the director sees on the seeding page.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from scoring.errors import RuleError

TeamId = Hashable


@dataclass(frozen=True, slots=True)
class GroupPlace:
    """A team's place in its group's standings, with the values compared across groups."""

    team: TeamId
    place: int
    match_points: int
    small_points: int
    wins: int = 0


def _across_groups(places: Sequence[tuple[int, GroupPlace]]) -> list[GroupPlace]:
    """Teams of one place from every group, best first (``(group order, place)`` pairs)."""
    ordered = sorted(places, key=lambda item: (-item[1].match_points, -item[1].small_points,
                                               -item[1].wins, item[0]))
    return [place for _group, place in ordered]


def qualifiers(groups: Sequence[Sequence[GroupPlace]], per_group: int, extra: int = 0,
               ) -> list[TeamId]:
    """The seeds of the knockout, seed 1 first: the top ``per_group`` of each group place by
    place (all group winners, then all runners-up, …), then the ``extra`` best of the next
    place across groups."""
    if per_group < 1:
        raise RuleError("at least one team of each group qualifies")
    if extra < 0:
        raise RuleError("the number of extra qualifiers cannot be negative")
    by_place: dict[int, list[tuple[int, GroupPlace]]] = {}
    for number, group in enumerate(groups):
        for entry in group:
            by_place.setdefault(entry.place, []).append((number, entry))
    seeds: list[TeamId] = []
    for place in range(1, per_group + 1):
        teams = by_place.get(place, [])
        if len(teams) < len(groups):
            raise RuleError(f"every group needs a team in place {place} to qualify "
                            f"{per_group} per group")
        seeds.extend(entry.team for entry in _across_groups(teams))
    if extra:
        next_place = _across_groups(by_place.get(per_group + 1, []))
        if len(next_place) < extra:
            raise RuleError(f"only {len(next_place)} teams are in place {per_group + 1} of "
                            f"their groups; {extra} extra qualifiers were asked for")
        seeds.extend(entry.team for entry in next_place[:extra])
    return seeds


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    winner: TeamId
    loser: TeamId | None  # None: the winner had a bye


def final_places(knockout_rounds: Sequence[Sequence[KnockoutMatch]], *,
                 third_place: KnockoutMatch | None, before: Sequence[TeamId],
                 not_qualified: Sequence[TeamId] = ()) -> list[tuple[int, TeamId]]:
    """The event's final ranking: the final decides places 1 and 2, a third-place match 3
    and 4; teams out in the same knockout round are ordered by ``before`` (their standings in
    the stage before); then the teams that did not qualify, in the order given (by group
    place, then group standings values: ``qualifiers``'s order continued)."""
    if not knockout_rounds or len(knockout_rounds[-1]) != 1:
        raise RuleError("the knockout has no final yet")
    order = {team: index for index, team in enumerate(before)}

    def by_before(teams: Sequence[TeamId]) -> list[TeamId]:
        missing = [team for team in teams if team not in order]
        if missing:
            raise RuleError(f"{missing[0]!r} is not in the standings of the stage before")
        return sorted(teams, key=order.__getitem__)

    final = knockout_rounds[-1][0]
    ranking: list[TeamId] = [final.winner]
    if final.loser is not None:
        ranking.append(final.loser)
    semifinal_losers = ([m.loser for m in knockout_rounds[-2] if m.loser is not None]
                        if len(knockout_rounds) > 1 else [])
    if third_place is not None:
        if {third_place.winner, third_place.loser} != set(semifinal_losers):
            raise RuleError("the third-place match is not between the semi-final losers")
        ranking += [third_place.winner, third_place.loser]
    else:
        ranking += by_before(semifinal_losers)
    for round_ in reversed(knockout_rounds[:-2]):
        ranking += by_before([m.loser for m in round_ if m.loser is not None])
    if len(set(ranking)) != len(ranking):
        raise RuleError("a team is out of the knockout twice")
    ranking += [team for team in not_qualified if team not in set(ranking)]
    return list(enumerate(ranking, 1))
