"""Knockout qualification from an earlier stage's standings, and the event's final ranking
(RULES.md §11; issue 11, item 5).

The rules are ``scoring.placings``; this module gathers what they need:

- ``qualification(knockout)``: the official standings of the stage the knockout is seeded
  from (``Stage.qualify_from``), each group's places, the seeds they give
  (``scoring.placings.qualifiers``), the first round those seeds make, and everything that
  stops the seeding now (a round of that stage not closed, a match not signed off, the
  knockout already started). The seeding page shows it; ``services.seeding`` seeds from it.
- ``final_places(tournament)``: the places the last knockout decides (the final, the
  third-place match if played, then the rounds each team went out in, ordered by the stage
  before), then the teams of the stage before that did not qualify; or what is still
  missing before the ranking is final.

Both read a fixed number of queries, whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.errors import RuleError
from scoring.match import knockout_winner
from scoring.pairing import seeded_bracket
from scoring.placings import (
    LOST_FINAL,
    LOST_THIRD_PLACE,
    NOT_QUALIFIED,
    OUT_IN_ROUND,
    WON_FINAL,
    WON_THIRD_PLACE,
    GroupPlace,
    KnockoutMatch,
    qualifiers,
    same_group_meetings,
    stage_order,
)
from scoring.placings import final_ranking as rank_places
from scoring.seating import Side
from tournament.models import Group, Match, Round, RoundEntry, Stage, Team, TeamResult, Tournament
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

    def as_group_place(self) -> GroupPlace:
        return GroupPlace(self.team.pk, self.place, self.match_points, self.small_points,
                          self.wins, self.tied_with_next)

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
                          line.small_points, line.wins, line.tied_with_next)
               for index, line in enumerate(table.lines, 1)] for table in tables]
    return StagePlaces(stage=stage, data=data, tables=tables, groups=groups,
                       problems=_stage_problems(stage, data.rounds))


def _stage_problems(stage: Stage, rounds: list[Round]) -> list[str]:
    if not rounds:
        return [_("%(stage)s has no round yet.") % {"stage": stage.name}]
    problems = [_("%(round)s of %(stage)s is %(status)s; every round must be closed.") % {
        "round": r.label, "stage": stage.name, "status": r.get_status_display().lower()}
        for r in rounds if r.status != Round.Status.CLOSED]
    planned = _planned_rounds(stage)
    if planned and len(rounds) < planned:
        problems.append(_("%(stage)s has %(played)d of its %(planned)d rounds so far.") % {
            "stage": stage.name, "played": len(rounds), "planned": planned})
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

    def standings_used(self) -> list[dict]:
        """Each seed with the standings values it was chosen by (for the audit log)."""
        return [{"seed": s.number, "team": s.team.code,
                 "group": s.place.group.name if s.place.group else "",
                 "place": s.place.place, "match_points": s.place.match_points,
                 "small_points": s.place.small_points, "wins": s.place.wins,
                 "extra": s.extra} for s in self.seeds]


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
                               % {"stage": stage.name})
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


# The final ranking ------------------------------------------------------------------------

@dataclass(frozen=True)
class FinalRow:
    place: int
    team: Team
    how: str  # what decided the place, in words
    before: StagePlace | None  # the team's place in the stage before, when it had one


@dataclass
class FinalRanking:
    tournament: Tournament
    knockout: Stage | None
    before: Stage | None
    rows: list[FinalRow] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # what keeps the ranking from being final
    withdrawn: list[Team] = field(default_factory=list)  # out of the stage before: unranked

    @property
    def is_final(self) -> bool:
        return not self.missing and bool(self.rows)


def round_name(number: int, rounds: int) -> str:
    """"the final", "the semi-finals", "the quarter-finals", "the round of 16", "round 1"."""
    from_end = rounds - number
    if from_end == 0:
        return _("the final")
    if from_end == 1:
        return _("the semi-finals")
    if from_end == 2:
        return _("the quarter-finals")
    if from_end >= 3:
        return _("the round of %(n)d") % {"n": 2 ** (from_end + 1)}
    return _("round %(n)d") % {"n": number}


def _knockout_of(tournament: Tournament) -> Stage | None:
    """The knockout that ends the event: the last stage, when it is a knockout."""
    last = tournament.stages.order_by("-order").select_related("qualify_from").first()
    return last if last is not None and last.kind == Stage.Kind.KNOCKOUT else None


def _stage_before(knockout: Stage) -> Stage | None:
    if knockout.qualify_from is not None:
        return knockout.qualify_from
    return (Stage.objects.filter(tournament_id=knockout.tournament_id,
                                 order__lt=knockout.order)
            .order_by("-order").first())


def _decided(match: Match) -> tuple[int, int] | None:
    """(winner id, loser id) of an official knockout match, or None."""
    if match.forfeited_by_id is not None:
        other = match.away_id if match.forfeited_by_id == match.home_id else match.home_id
        return other, match.forfeited_by_id
    if match.signed_off_at is None or match.home_total is None:
        return None
    try:
        side = knockout_winner(match.home_total, match.away_total)
    except RuleError:
        return None
    return ((match.home_id, match.away_id) if side is Side.HOME
            else (match.away_id, match.home_id))


def _knockout_rounds(knockout: Stage, seeds: list[int], missing: list[str]):
    """The knockout's rounds as ``KnockoutMatch`` lists and the third-place match, from the
    official results (three queries); what is not official yet goes to ``missing``."""
    rounds = list(knockout.rounds.order_by("number"))
    matches: dict[int, list[Match]] = {}
    for match in (Match.objects.filter(round__stage=knockout).select_related("home", "away")
                  .order_by("number")):
        matches.setdefault(match.round_id, []).append(match)
    byes: dict[int, list[int]] = {}
    for round_id, team in RoundEntry.objects.filter(
            round__stage=knockout, side=RoundEntry.Side.BYE).values_list("round_id", "team_id"):
        byes.setdefault(round_id, []).append(team)
    size = 1 << (len(seeds) - 1).bit_length() if len(seeds) > 1 else 2
    planned = size.bit_length() - 1  # rounds to the final
    if len(rounds) < planned:
        following = len(rounds) + 1
        missing.append(_("Round %(n)d (%(name)s) of %(stage)s is not drawn yet.") % {
            "n": following, "name": round_name(following, planned), "stage": knockout.name})
    slots = size // 2
    played: list[list[KnockoutMatch]] = []
    third_place = None
    for round_ in rounds[:planned]:
        ordered = matches.get(round_.pk, [])
        main, after = ordered[:slots], ordered[slots:]
        decided = []
        for match in ordered:
            result = _decided(match)
            if result is None:
                missing.append(_("%(round)s, match %(n)d (%(home)s – %(away)s) has no "
                                 "official result yet.") % {
                    "round": round_.label, "n": match.number, "home": match.home.code,
                    "away": match.away.code})
            decided.append(result)
        results = [KnockoutMatch(*result) for result in decided[:len(main)] if result]
        results += [KnockoutMatch(team, None) for team in byes.get(round_.pk, [])]
        played.append(results)
        if after and round_.number == planned and decided[len(main)] is not None:
            third_place = KnockoutMatch(*decided[len(main)])
        slots //= 2
    return played, third_place


def final_places(tournament: Tournament) -> FinalRanking:
    """The final ranking of the event, once every knockout match is official; before that,
    ``missing`` says what is still to come (a fixed number of queries)."""
    knockout = _knockout_of(tournament)
    if knockout is None:
        return FinalRanking(tournament, None, None, missing=[
            _("The event has no knockout as its last stage: the final ranking comes from "
              "a knockout's results.")])
    before = _stage_before(knockout)
    result = FinalRanking(tournament, knockout, before)
    entries = list(knockout.entries.select_related("team").order_by("position"))
    teams = {entry.team_id: entry.team for entry in entries}
    seeds = [entry.team_id for entry in entries]
    if len(seeds) < 2:
        result.missing.append(_("%(stage)s has no teams yet.") % {"stage": knockout.name})
        return result
    played, third_place = _knockout_rounds(knockout, seeds, result.missing)
    if before is not None:
        before.tournament = tournament
    places = stage_places(before) if before is not None else None
    order: list[int] = []
    if places is not None:
        result.missing += places.problems
        result.withdrawn = [team for table in places.tables for team in table.withdrawn]
        order = places.order()
        teams.update({place.team.pk: place.team for group in places.groups
                      for place in group})
    # Knockout teams the stage before does not rank (seeded by hand) follow by seed.
    order += [team for team in seeds if team not in set(order)]
    if result.missing:
        return result
    qualified = set(seeds)
    try:
        ranked = rank_places(played, third_place=third_place, before=order,
                             not_qualified=[t for t in order if t not in qualified])
    except RuleError as error:
        result.missing.append(rule_message(error))
        return result
    rounds = len(played)
    by_team = places.by_team if places is not None else {}
    for row in ranked:
        result.rows.append(FinalRow(row.place, teams[row.team],
                                    _how(row.decided_by, row.round, rounds, before),
                                    by_team.get(row.team)))
    return result


def _how(decided_by: str, number: int | None, rounds: int, before: Stage | None) -> str:
    if decided_by == WON_FINAL:
        return _("won the final")
    if decided_by == LOST_FINAL:
        return _("lost the final")
    if decided_by == WON_THIRD_PLACE:
        return _("won the third-place match")
    if decided_by == LOST_THIRD_PLACE:
        return _("lost the third-place match")
    if decided_by == OUT_IN_ROUND:
        return _("out in %(round)s; then by the standings of %(stage)s") % {
            "round": round_name(number, rounds),
            "stage": before.name if before else _("the seeds")}
    if decided_by == NOT_QUALIFIED:
        return _("did not qualify; by group place, then the standings")
    return decided_by
