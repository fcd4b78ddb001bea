"""Knockout qualification from an earlier stage's standings, and the event's final ranking
(RULES.md §11; issue 11, item 5).

The rules are ``scoring.placings``; this module gathers what they need:

- ``qualification(knockout)``: the official standings of the stage the knockout is seeded
  from (``Stage.qualify_from``), each group's places, the seeds they give
  (``scoring.placings.qualifiers``), the first round those seeds make, and everything that
  stops the seeding now (a round of that stage not closed, a match not signed off, the
  knockout already started). The seeding page shows it; ``services.seeding`` seeds from it.
The event's ranking from the knockout is ``selectors.event_ranking.event_ranking``.

It reads a fixed number of queries, whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import RuleError
from scoring.pairing import seeded_bracket
from scoring.placings import (
    GroupPlace,
    per_match,
    qualifiers,
    same_group_meetings,
    stage_order,
)
from tournament.models import Group, Round, Stage, Team, TeamResult
from tournament.selectors.standings import StageData, StageStandings, read_stage, tables_of
from tournament.wording import rule_message


@dataclass(frozen=True)
class StagePlace:
    """A team's place in its group (or in the table of a Swiss stage) of the stage before,
    with the values compared across groups."""

    team: Team
    group: Group | None
    place: int
    match_points: int
    small_points: int
    wins: int
    tied_with_next: bool
    matches: int = 0  # played and byes: what the values come from

    def as_group_place(self) -> GroupPlace:
        return GroupPlace(self.team.pk, self.place, self.match_points, self.small_points,
                          self.wins, self.tied_with_next, self.matches)

    @property
    def where(self) -> str:
        if self.group is not None:
            return _("%(group)s, place %(n)d") % {"group": self.group, "n": self.place}
        return _("place %(n)d") % {"n": self.place}


@dataclass(frozen=True)
class Seed:
    number: int
    place: StagePlace
    extra: bool  # one of the best-placed of the next place across groups

    @property
    def team(self) -> Team:
        return self.place.team


@dataclass
class StagePlaces:
    """The official standings of a group or Swiss stage, read once, as places."""

    stage: Stage
    data: StageData
    tables: list[StageStandings]
    groups: list[list[StagePlace]]
    problems: list[str]  # why these standings are not final yet

    @property
    def by_team(self) -> dict[int, StagePlace]:
        return {place.team.pk: place for group in self.groups for place in group}

    def order(self) -> list[int]:
        """Team ids place by place across groups (``scoring.placings.stage_order``)."""
        return stage_order([[p.as_group_place() for p in group] for group in self.groups])


def stage_places(stage: Stage) -> StagePlaces:
    """The official standings of ``stage`` (signed-off results only) and what keeps them
    from being final: a round not closed, rounds still to play, a match not signed off
    (again, after a correction)."""
    data = read_stage(stage, official_only=True)
    tables = tables_of(data, official_only=True)
    groups = [[StagePlace(line.team, table.group, index, line.match_points,
                          line.small_points, line.wins, line.tied_with_next,
                          line.totals.played + line.totals.byes)
               for index, line in enumerate(table.lines, 1)] for table in tables]
    return StagePlaces(stage=stage, data=data, tables=tables, groups=groups,
                       problems=_stage_problems(stage, data.rounds))


def _stage_problems(stage: Stage, rounds: list[Round]) -> list[str]:
    if not rounds:
        return [_("%(stage)s has no round yet.") % {"stage": stage.shown_name}]
    problems = [_("%(round)s of %(stage)s is %(status)s; every round must be closed.") % {
        "round": r.label, "stage": stage.shown_name, "status": r.get_status_display().lower()}
        for r in rounds if r.status != Round.Status.CLOSED]
    planned = _planned_rounds(stage)
    if planned and len(rounds) < planned:
        problems.append(_("%(stage)s has %(played)d of its %(planned)d rounds so far.") % {
            "stage": stage.shown_name, "played": len(rounds), "planned": planned})
    unofficial = (TeamResult.objects.filter(round__stage=stage, provisional=True, void=False,
                                            match__isnull=False)
                  .values_list("round__number", "match__number", "match__home__code",
                               "match__away__code").order_by("round__number", "match__number")
                  .distinct())
    problems += [_("Match %(match)d of round %(round)d (%(home)s – %(away)s) is not signed "
                   "off.") % {"match": match, "round": number, "home": home, "away": away}
                 for number, match, home, away in unofficial]
    return problems


def _planned_rounds(stage: Stage) -> int | None:
    """The rounds a group stage's round robin or a Swiss stage has in all."""
    if stage.kind == Stage.Kind.SWISS:
        return stage.swiss_rounds
    if stage.kind == Stage.Kind.GROUPS and isinstance(stage.schedule, dict):
        groups = stage.schedule.get("groups") or {}
        return max((len(rounds) for rounds in groups.values()), default=None)
    return None


# Qualification ----------------------------------------------------------------------------

@dataclass
class Qualification:
    """What seeding a knockout from the standings of its source stage would do now."""

    stage: Stage
    source: Stage | None
    places: StagePlaces | None
    seeds: list[Seed] = field(default_factory=list)
    bracket: list[tuple[Seed, Seed | None]] = field(default_factory=list)
    same_group: list[tuple[Seed, Seed]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # why it cannot be seeded now
    error: str | None = None  # the standings cannot give the seeds asked for
    started: bool = False  # the knockout has a round: its teams no longer change

    @property
    def can_seed(self) -> bool:
        return not self.problems and self.error is None and bool(self.seeds)

    @property
    def seeded(self) -> dict[int, Seed]:
        return {seed.team.pk: seed for seed in self.seeds}

    @property
    def per_match(self) -> dict[str, int]:
        """When the groups' teams did not all play as many matches (so that teams of one
        place are compared per match: ``scoring.placings``), the matches of each group's
        teams, by group name; else nothing."""
        if self.places is None:
            return {}
        places = [place for group in self.places.groups for place in group]
        if not per_match([place.as_group_place() for place in places]):
            return {}
        found: dict[str, set[int]] = {}
        for place in places:
            found.setdefault(place.group.name if place.group else "", set()).add(
                place.matches)
        return {name: max(counts) for name, counts in found.items()}

    @property
    def per_match_words(self) -> str:
        """``per_match`` in words: "Group A: 5 matches, Group B: 4 matches"."""
        return ", ".join(
            ngettext("%(group)s: %(n)d match", "%(group)s: %(n)d matches", n)
            % {"group": name, "n": n} for name, n in self.per_match.items())

    def standings_used(self) -> list[dict]:
        """Each seed with the standings values it was chosen by (for the audit log)."""
        return [{"seed": s.number, "team": s.team.code,
                 "group": s.place.group.name if s.place.group else "",
                 "place": s.place.place, "match_points": s.place.match_points,
                 "small_points": s.place.small_points, "wins": s.place.wins,
                 "matches": s.place.matches, "extra": s.extra} for s in self.seeds]


def qualification(stage: Stage) -> Qualification:
    """The seeds the standings of ``stage.qualify_from`` give the knockout ``stage``, and
    what stops seeding it now (a fixed number of queries)."""
    if stage.kind != Stage.Kind.KNOCKOUT:
        return Qualification(stage, None, None, problems=[
            _("Only a knockout is seeded from the standings of another stage.")])
    started = stage.rounds.exists()
    source = stage.qualify_from
    if source is None or not stage.qualifiers_per_group:
        return Qualification(stage, None, None, started=started, problems=[
            _("Choose the stage whose standings seed this knockout, and how many teams of "
              "each group qualify.")])
    source.tournament = stage.tournament
    places = stage_places(source)
    result = Qualification(stage, source, places, problems=list(places.problems),
                           started=started)
    if started:
        result.problems.insert(0, _("%(stage)s has started: its teams no longer change.")
                               % {"stage": stage.shown_name})
    try:
        ids = qualifiers([[p.as_group_place() for p in group] for group in places.groups],
                         stage.qualifiers_per_group, stage.extra_qualifiers)
    except RuleError as error:
        result.error = rule_message(error)
        return result
    by_team = places.by_team
    regular = stage.qualifiers_per_group * len(places.groups)
    result.seeds = [Seed(number, by_team[team], number > regular)
                    for number, team in enumerate(ids, 1)]
    if len(result.seeds) < 2:
        result.error = _("A knockout needs at least two teams; these settings qualify "
                         "%(n)d.") % {"n": len(result.seeds)}
        return result
    seeds = {seed.team.pk: seed for seed in result.seeds}
    result.bracket = [(seeds[home], None if away is None else seeds[away])
                      for home, away in seeded_bracket(ids)]
    group_of = {team: seed.place.group.pk for team, seed in seeds.items()
                if seed.place.group is not None}
    result.same_group = [(seeds[a], seeds[b]) for a, b in
                         same_group_meetings(seeded_bracket(ids), group_of)]
    return result
