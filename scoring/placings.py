"""From group standings to a knockout bracket, and from the knockout to the final places of
the event (RULES.md §11; issue 11, item 5).

Across groups, teams of the same group place are compared by match points, then small
points, then match wins; teams level on all three keep the order of their groups (group A
before group B), which the director sees on the seeding page. The same order, continued
place by place to the last team of the largest group, is the order of the whole stage
(``stage_order``): it ranks the teams out in the same knockout round and the teams that did
not qualify.

A tie that the standings leave unresolved (teams sharing a place: the tiebreak order has no
drawing of lots) is refused when it would decide who qualifies; the director then seeds by
hand.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from scoring.errors import RuleError, gettext_noop

TeamId = Hashable


@dataclass(frozen=True, slots=True)
class GroupPlace:
    """A team's place in its group's standings, with the values compared across groups.
    ``tied_with_next``: the standings could not separate it from the team one place below
    (they share a rank)."""

    team: TeamId
    place: int
    match_points: int
    small_points: int
    wins: int = 0
    tied_with_next: bool = False


def _across_groups(places: Sequence[tuple[int, GroupPlace]]) -> list[GroupPlace]:
    """Teams of one place from every group, best first (``(group order, place)`` pairs)."""
    ordered = sorted(places, key=lambda item: (-item[1].match_points, -item[1].small_points,
                                               -item[1].wins, item[0]))
    return [place for _group, place in ordered]


def _by_place(groups: Sequence[Sequence[GroupPlace]]
              ) -> dict[int, list[tuple[int, GroupPlace]]]:
    by_place: dict[int, list[tuple[int, GroupPlace]]] = {}
    for number, group in enumerate(groups):
        for entry in group:
            by_place.setdefault(entry.place, []).append((number, entry))
    return by_place


def stage_order(groups: Sequence[Sequence[GroupPlace]]) -> list[TeamId]:
    """Every team of the stage, place by place across groups: all group winners (best
    first, as ``qualifiers`` orders them), then all the second-placed teams, and so on."""
    by_place = _by_place(groups)
    return [entry.team for place in sorted(by_place)
            for entry in _across_groups(by_place[place])]


def qualifiers(groups: Sequence[Sequence[GroupPlace]], per_group: int, extra: int = 0,
               ) -> list[TeamId]:
    """The seeds of the knockout, seed 1 first: the top ``per_group`` of each group place by
    place (all group winners, then all runners-up, …), then the ``extra`` best of the next
    place across groups. Refused when a tie the standings left unresolved decides who
    qualifies."""
    if per_group < 1:
        raise RuleError(gettext_noop("at least one team of each group qualifies"))
    if extra < 0:
        raise RuleError(gettext_noop("the number of extra qualifiers cannot be negative"))
    by_place = _by_place(groups)
    seeds: list[TeamId] = []
    for place in range(1, per_group + 1):
        teams = by_place.get(place, [])
        if len(teams) < len(groups):
            raise RuleError(
                gettext_noop("every group needs a team in place {place} to qualify {per_group} "
                             "per group"),
                place=place, per_group=per_group)
        seeds.extend(entry.team for entry in _across_groups(teams))
    if extra:
        next_place = _across_groups(by_place.get(per_group + 1, []))
        if len(next_place) < extra:
            raise RuleError(
                gettext_noop("only {count} teams are in place {next_place} of their groups; "
                             "{extra} extra qualifiers were asked for"),
                count=len(next_place), next_place=per_group + 1, extra=extra)
        seeds.extend(entry.team for entry in next_place[:extra])
    _check_ties(groups, set(seeds))
    return seeds


def _check_ties(groups: Sequence[Sequence[GroupPlace]], qualified: set[TeamId]) -> None:
    for group in groups:
        ordered = sorted(group, key=lambda entry: entry.place)
        for upper, lower in pairwise(ordered):
            if upper.tied_with_next and (upper.team in qualified) != (lower.team in qualified):
                raise RuleError(
                    gettext_noop("{upper} and {lower} share a place in their group (the tiebreak "
                                 "order left them tied) and only {upper} would qualify; add the "
                                 "drawing of lots to the tiebreak order, or enter the seeds by "
                                 "hand"),
                    upper=upper.team, lower=lower.team)


def not_qualified(groups: Sequence[Sequence[GroupPlace]], seeds: Sequence[TeamId],
                  ) -> list[TeamId]:
    """The teams of the stage that are not among ``seeds``, by group place, then their
    group standings values (``stage_order``)."""
    chosen = set(seeds)
    return [team for team in stage_order(groups) if team not in chosen]


def same_group_meetings(bracket: Sequence[tuple[TeamId, TeamId | None]],
                        group_of: Mapping[TeamId, object]) -> list[tuple[TeamId, TeamId]]:
    """First-round matches of a bracket between two teams of the same group (they met in
    the group already): shown to the director, who may swap teams of round 1 by hand."""
    return [(home, away) for home, away in bracket
            if away is not None and home in group_of and away in group_of
            and group_of[home] == group_of[away]]


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    winner: TeamId
    loser: TeamId | None  # None: the winner had a bye


# How a final place was decided (``FinalPlace.decided_by``).
WON_FINAL = "final_won"
LOST_FINAL = "final_lost"
WON_THIRD_PLACE = "third_place_won"
LOST_THIRD_PLACE = "third_place_lost"
OUT_IN_ROUND = "out_in_round"  # out in knockout round ``FinalPlace.round`` (1 = the first)
NOT_QUALIFIED = "not_qualified"


@dataclass(frozen=True, slots=True)
class FinalPlace:
    """A team's final place and what decided it: the final, the third-place match, the
    knockout round it went out in (then ``round`` is that round's number, 1 the first), or
    not qualifying (then its order in the stage before)."""

    place: int
    team: TeamId
    decided_by: str
    round: int | None = None


def final_ranking(knockout_rounds: Sequence[Sequence[KnockoutMatch]], *,
                  third_place: KnockoutMatch | None, before: Sequence[TeamId],
                  not_qualified: Sequence[TeamId] = ()) -> list[FinalPlace]:
    """The event's final ranking: the final decides places 1 and 2, a third-place match 3
    and 4; teams out in the same knockout round are ordered by ``before`` (their standings in
    the stage before: ``stage_order``); then the teams that did not qualify, in the order
    given (by group place, then group standings values: ``not_qualified``)."""
    if not knockout_rounds or len(knockout_rounds[-1]) != 1:
        raise RuleError(gettext_noop("the knockout has no final yet"))
    order = {team: index for index, team in enumerate(before)}

    def by_before(teams: Sequence[TeamId]) -> list[TeamId]:
        missing = [team for team in teams if team not in order]
        if missing:
            raise RuleError(
                gettext_noop("{team!r} is not in the standings of the stage before"),
                team=missing[0])
        return sorted(teams, key=order.__getitem__)

    last = len(knockout_rounds)
    final = knockout_rounds[-1][0]
    ranking: list[tuple[TeamId, str, int | None]] = [(final.winner, WON_FINAL, last)]
    if final.loser is not None:
        ranking.append((final.loser, LOST_FINAL, last))
    semifinal_losers = ([m.loser for m in knockout_rounds[-2] if m.loser is not None]
                        if last > 1 else [])
    if third_place is not None:
        if {third_place.winner, third_place.loser} != set(semifinal_losers):
            raise RuleError(
                gettext_noop("the third-place match is not between the semi-final losers"))
        ranking += [(third_place.winner, WON_THIRD_PLACE, last),
                    (third_place.loser, LOST_THIRD_PLACE, last)]
    else:
        ranking += [(team, OUT_IN_ROUND, last - 1) for team in by_before(semifinal_losers)]
    for number in range(last - 2, 0, -1):
        losers = [m.loser for m in knockout_rounds[number - 1] if m.loser is not None]
        ranking += [(team, OUT_IN_ROUND, number) for team in by_before(losers)]
    teams = [team for team, _how, _round in ranking]
    if len(set(teams)) != len(teams):
        raise RuleError(gettext_noop("a team is out of the knockout twice"))
    placed = set(teams)
    ranking += [(team, NOT_QUALIFIED, None) for team in not_qualified if team not in placed]
    return [FinalPlace(place, team, how, round_)
            for place, (team, how, round_) in enumerate(ranking, 1)]


def final_places(knockout_rounds: Sequence[Sequence[KnockoutMatch]], *,
                 third_place: KnockoutMatch | None, before: Sequence[TeamId],
                 not_qualified: Sequence[TeamId] = ()) -> list[tuple[int, TeamId]]:
    """``final_ranking`` as (place, team) pairs."""
    return [(row.place, row.team) for row in final_ranking(
        knockout_rounds, third_place=third_place, before=before, not_qualified=not_qualified)]
