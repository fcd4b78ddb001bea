"""From group standings to a knockout bracket, and from the knockout to the final places of
the event (RULES.md §11; issue 11, item 5).

Across groups, teams of the same group place are compared by match points, then small
points, then match wins; teams level on all three keep the order of their groups (group A
before group B), which the director sees on the seeding page. When the teams compared did
not play the same number of matches (a smaller group, a team that withdrew and took its
results with it), they are compared per match instead, as federations do: average match
points, then average small points, then wins per match (``per_match``; exact fractions).
The same order, continued place by place to the last team of the largest group, is the
order of the whole stage (``stage_order``): it ranks the teams out in the same knockout
round and the teams that did not qualify.

A tie that the standings leave unresolved (teams sharing a place: the tiebreak order has no
drawing of lots) is refused when it would decide who qualifies; the director then seeds by
hand.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
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
    matches: int = 0  # the matches its values come from, byes included


def per_match(places: Sequence[GroupPlace]) -> bool:
    """Whether these teams are compared per match: they did not all play as many."""
    return len({place.matches for place in places}) > 1


def _across_groups(places: Sequence[tuple[int, GroupPlace]]) -> list[GroupPlace]:
    """Teams of one place from every group, best first (``(group order, place)`` pairs):
    by their totals, or per match when they played different numbers of matches."""
    if per_match([place for _group, place in places]):
        def values(place: GroupPlace) -> tuple:
            matches = place.matches or 1  # (no match: every value is 0 anyway)
            return (Fraction(place.match_points, matches),
                    Fraction(place.small_points, matches), Fraction(place.wins, matches))
    else:
        def values(place: GroupPlace) -> tuple:
            return place.match_points, place.small_points, place.wins
    ordered = sorted(places, key=lambda item: (*(-value for value in values(item[1])),
                                               item[0]))
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
STILL_PLAYING = "still_playing"  # in the knockout still (or in the third-place match)
WITHDRAWN = "withdrawn"  # withdrawn from the stage before after a default: not ranked
BY_STANDINGS = "standings"  # an event without a knockout: its last stage's standings

DECIDED_BY = (WON_FINAL, LOST_FINAL, WON_THIRD_PLACE, LOST_THIRD_PLACE, OUT_IN_ROUND,
              NOT_QUALIFIED, STILL_PLAYING, WITHDRAWN, BY_STANDINGS)


@dataclass(frozen=True, slots=True)
class FinalPlace:
    """A team's final place and what decided it: the final, the third-place match, the
    knockout round it went out in (then ``round`` is that round's number, 1 the first), or
    not qualifying (then its order in the stage before).

    ``place`` is None while it is not decided yet: the team is still playing, or went out
    in a round whose other matches are still to be decided (its place among that round's
    losers depends on who they are), or is withdrawn (never ranked). ``places`` is the
    best and the worst place still open to it (both ``place`` once decided; None for a
    withdrawn team)."""

    place: int | None
    team: TeamId
    decided_by: str
    round: int | None = None
    places: tuple[int, int] | None = None

    @property
    def decided(self) -> bool:
        return self.place is not None


def knockout_ranking(teams: Sequence[TeamId],
                     knockout_rounds: Sequence[Sequence[KnockoutMatch]], *,
                     third_place_match: bool, third_place: KnockoutMatch | None,
                     before: Sequence[TeamId], not_qualified: Sequence[TeamId] = (),
                     withdrawn: Sequence[TeamId] = ()) -> list[FinalPlace]:
    """The event's ranking so far from its last knockout (RULES.md §11), every team once:

    - ``teams``: the knockout's teams; ``knockout_rounds[r - 1]``: the matches of round
      *r* decided so far (a bye of round 1 as a match without a loser); ``third_place``:
      the third-place match once decided; ``third_place_match``: whether the stage plays
      one (it is played when both semi-finals are, so never with 3 teams).
    - The final decides places 1 and 2, a third-place match 3 and 4. The teams out in one
      round share the places below those still in (out in the quarter-finals: 5 to 8;
      in the first round of a 12-team knockout: 9 to 12) and are ordered among themselves
      by ``before`` (their order in the stage before: ``stage_order``), once every match
      of that round is decided; until then their place is open.
    - The teams that did not qualify follow in the order given (by group place, then
      group standings values: ``not_qualified``), then the ``withdrawn`` teams, unranked.

    Rows come best first: decided places in order, a team still open at the best place
    open to it (the teams still playing first)."""
    count = len(teams)
    if count < 2:
        raise RuleError(gettext_noop("a knockout needs at least 2 teams, not {count}"),
                        count=count)
    rounds = (count - 1).bit_length()  # to the final
    if len(knockout_rounds) > rounds:
        raise RuleError(gettext_noop("a knockout of {count} teams has {rounds} rounds, not "
                                     "{played}"), count=count, rounds=rounds,
                        played=len(knockout_rounds))
    in_knockout = set(teams)
    order = {team: index for index, team in enumerate(before)}
    missing = [team for team in teams if team not in order]
    if missing:
        raise RuleError(gettext_noop("{team!r} is not in the standings of the stage before"),
                        team=missing[0])
    plays_third = third_place_match and count >= 4

    def teams_in(number: int) -> int:
        """The teams that play round ``number`` (byes of round 1 included)."""
        return count if number == 1 else 1 << (rounds - number + 1)

    losers: dict[TeamId, int] = {}  # team → the round it went out in
    for number, matches in enumerate(knockout_rounds, 1):
        for match in matches:
            for team in (match.winner, match.loser):
                if team is not None and team not in in_knockout:
                    raise RuleError(gettext_noop("{team!r} is not in the knockout"), team=team)
            if match.winner in losers:
                raise RuleError(gettext_noop("{team!r} won a match after going out"),
                                team=match.winner)
            if match.loser is None:
                continue
            if match.loser in losers:
                raise RuleError(gettext_noop("a team is out of the knockout twice"))
            losers[match.loser] = number
    if third_place is not None:
        if not plays_third:
            raise RuleError(gettext_noop("this knockout plays no third-place match"))
        semifinal_losers = {team for team, number in losers.items() if number == rounds - 1}
        if {third_place.winner, third_place.loser} != semifinal_losers:
            raise RuleError(
                gettext_noop("the third-place match is not between the semi-final losers"))

    rows: list[FinalPlace] = []
    for number in range(1, rounds + 1):
        out = sorted((team for team, lost in losers.items() if lost == number),
                     key=order.__getitem__)
        if number == rounds:  # the final
            for team in out:
                winner = next(m.winner for m in knockout_rounds[number - 1]
                              if m.loser == team)
                rows += [FinalPlace(1, winner, WON_FINAL, number, (1, 1)),
                         FinalPlace(2, team, LOST_FINAL, number, (2, 2))]
            continue
        if number == rounds - 1 and plays_third:
            if third_place is not None:
                rows += [FinalPlace(3, third_place.winner, WON_THIRD_PLACE, rounds, (3, 3)),
                         FinalPlace(4, third_place.loser, LOST_THIRD_PLACE, rounds, (4, 4))]
            else:
                rows += [FinalPlace(None, team, STILL_PLAYING, None, (3, 4)) for team in out]
            continue
        best, worst = teams_in(number + 1) + 1, teams_in(number)
        if len(out) == worst - best + 1:
            rows += [FinalPlace(place, team, OUT_IN_ROUND, number, (place, place))
                     for place, team in enumerate(out, best)]
        else:
            rows += [FinalPlace(None, team, OUT_IN_ROUND, number, (best, worst))
                     for team in out]
    champion = {row.team for row in rows if row.decided_by == WON_FINAL}
    alive = [team for team in teams if team not in losers and team not in champion]
    for team in sorted(alive, key=order.__getitem__):
        won = sum(1 for matches in knockout_rounds for m in matches if m.winner == team)
        rows.append(FinalPlace(None, team, STILL_PLAYING, None, (1, teams_in(won + 1)
                                                                   if won + 1 <= rounds
                                                                   else 1)))
    rows.sort(key=lambda row: (row.places[0], order[row.team]))
    placed = set(in_knockout)
    for place, team in enumerate((t for t in not_qualified if t not in placed), count + 1):
        rows.append(FinalPlace(place, team, NOT_QUALIFIED, None, (place, place)))
        placed.add(team)
    rows += [FinalPlace(None, team, WITHDRAWN) for team in withdrawn if team not in placed]
    return rows


def is_final(ranking: Sequence[FinalPlace]) -> bool:
    """Every team of the ranking has its place (the withdrawn are never ranked)."""
    return all(row.decided or row.decided_by == WITHDRAWN for row in ranking)


def final_ranking(knockout_rounds: Sequence[Sequence[KnockoutMatch]], *,
                  third_place: KnockoutMatch | None, before: Sequence[TeamId],
                  not_qualified: Sequence[TeamId] = ()) -> list[FinalPlace]:
    """The event's final ranking once the knockout is over (``knockout_ranking`` of a
    finished knockout, its teams read off the matches): refused while a place is open."""
    if not knockout_rounds or len(knockout_rounds[-1]) != 1:
        raise RuleError(gettext_noop("the knockout has no final yet"))
    teams = list(dict.fromkeys(team for matches in knockout_rounds for match in matches
                               for team in (match.winner, match.loser) if team is not None))
    if third_place is not None:
        semifinal_losers = ([m.loser for m in knockout_rounds[-2] if m.loser is not None]
                            if len(knockout_rounds) > 1 else [])
        if {third_place.winner, third_place.loser} != set(semifinal_losers):
            raise RuleError(
                gettext_noop("the third-place match is not between the semi-final losers"))
    ranking = knockout_ranking(teams, knockout_rounds, third_place_match=third_place is not None,
                               third_place=third_place, before=before,
                               not_qualified=not_qualified)
    if not is_final(ranking):
        raise RuleError(gettext_noop("the knockout has no final yet"))
    return ranking


def final_places(knockout_rounds: Sequence[Sequence[KnockoutMatch]], *,
                 third_place: KnockoutMatch | None, before: Sequence[TeamId],
                 not_qualified: Sequence[TeamId] = ()) -> list[tuple[int, TeamId]]:
    """``final_ranking`` as (place, team) pairs."""
    return [(row.place, row.team) for row in final_ranking(
        knockout_rounds, third_place=third_place, before=before, not_qualified=not_qualified)]
