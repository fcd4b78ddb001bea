"""The event's ranking so far (RULES.md §11; issue 20): ``event_ranking(tournament,
views)``, from the knockout's bracket (``selectors.bracket.read_bracket``) and
``scoring.placings.knockout_ranking`` (the rule lives there): the places the knockout has
decided, the teams still playing, the teams out in a round whose other matches are still
open, the teams that did not qualify; an event without a knockout ranks by its last
stage's standings.

The reader: ``views`` is the public's view of each round (``selectors.visibility.
public_views``), so that a match decides a place only once its result is official (signed
off, or decided by a default) *and* the public may see its total; nothing of a round in
play shows beyond what the live-results setting already shows. ``views=None`` is the
staff's reading: every official result.

Reads a fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring import placings
from scoring.errors import RuleError
from scoring.pairing import round_slots
from scoring.placings import FinalPlace, knockout_ranking
from tournament.models import Stage, Team, Tournament
from tournament.selectors.bracket import Bracket, read_bracket
from tournament.selectors.placings import stage_places
from tournament.selectors.public_standings import public_standings
from tournament.selectors.standings import last_stage_played
from tournament.selectors.visibility import PublicViews
from tournament.wording import placing_label, rule_message


@dataclass(frozen=True)
class RankingRow:
    place: int | None  # None: not decided yet (see ``decided_by``), or withdrawn
    team: Team
    decided_by: str  # ``scoring.placings``' code
    round: int | None  # the knockout round it went out in
    label: str  # what decided it, in the reader's language
    places: tuple[int, int] | None  # the best and worst place still open to it
    how: str = ""  # the label with the order it was placed by (the staff's page)
    before: object | None = None  # its ``StagePlace`` in the stage before, if any

    @property
    def open_places(self) -> str:
        """"5–8" while the place is open within a range, else ""."""
        if self.place is not None or self.places is None or self.places[0] == self.places[1]:
            return ""
        return f"{self.places[0]}–{self.places[1]}"


@dataclass
class EventRanking:
    tournament: Tournament
    knockout: Stage | None
    before: Stage | None
    bracket: Bracket | None = None
    rows: list[RankingRow] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # what keeps it from being final
    withdrawn: list[Team] = field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return bool(self.rows) and not self.missing and placings.is_final(
            [FinalPlace(row.place, row.team.pk, row.decided_by) for row in self.rows])

    @property
    def begun(self) -> bool:
        """The knockout has a round the reader may see: the ranking replaces its
        match-point table."""
        return self.bracket is not None and self.bracket.begun

    @property
    def podium(self) -> list[RankingRow]:
        """Places 1 to 3 (4 with a third-place match) once the final is decided, as far as
        they are decided."""
        if not self.rows or self.rows[0].place != 1:
            return []
        return [row for row in self.rows if row.place is not None and row.place <= 3]

    @property
    def champion(self) -> Team | None:
        return self.rows[0].team if self.rows and self.rows[0].place == 1 else None


def knockout_of(tournament: Tournament) -> Stage | None:
    """The knockout that ends the event: the last stage, when it is a knockout."""
    last = tournament.stages.order_by("-order").select_related("qualify_from").first()
    if last is None or last.kind != Stage.Kind.KNOCKOUT:
        return None
    last.tournament = tournament
    return last


def stage_before(knockout: Stage) -> Stage | None:
    stage = knockout.qualify_from or (
        Stage.objects.filter(tournament_id=knockout.tournament_id, order__lt=knockout.order)
        .order_by("-order").first())
    if stage is not None:
        stage.tournament = knockout.tournament
    return stage


def _label(place: FinalPlace, rounds: int) -> str:
    slots = round_slots(place.round, rounds) if place.round is not None else None
    if place.decided_by == placings.STILL_PLAYING and place.places == (3, 4):
        return _("plays the match for third place")
    return placing_label(place.decided_by, round_slots=slots)


def event_ranking(tournament: Tournament, views: PublicViews | None = None) -> EventRanking:
    """The event's ranking so far, by the reader's view (``views``; None: staff)."""
    knockout = knockout_of(tournament)
    if knockout is None:
        return _by_standings(tournament, views)
    before = stage_before(knockout)
    result = EventRanking(tournament, knockout, before)
    bracket = result.bracket = read_bracket(knockout, views)
    if views is not None and (bracket is None or not bracket.begun):
        return _by_standings(tournament, views, knockout=knockout)
    if bracket is None:
        result.missing.append(_("%(stage)s has no teams yet.") % {"stage": knockout.shown_name})
        return result
    seeds = [team.pk for team in bracket.teams]
    teams = {team.pk: team for team in bracket.teams}
    places = stage_places(before) if before is not None else None
    by_team = places.by_team if places is not None else {}
    settled = places is None or not places.problems
    if places is not None:
        result.missing += places.problems
        result.withdrawn = [team for table in places.tables for team in table.withdrawn]
        teams.update({place.team.pk: place.team for group in places.groups
                      for place in group})
        teams.update({team.pk: team for team in result.withdrawn})
    qualified = set(seeds)
    if settled:
        order = places.order() if places is not None else []
        order += [pk for pk in seeds if pk not in set(order)]
        if before is not None:
            order += _earlier_stages(knockout, before, order, teams, result)
    else:
        # The stage before is not over: its order may not be public yet, and decides
        # nothing; the knockout's teams go by seed, the others by code, their places open.
        order = [*seeds, *sorted((pk for pk in teams if pk not in qualified),
                                 key=lambda pk: teams[pk].code)]
    played, third = bracket.results()
    try:
        ranked = knockout_ranking(
            seeds, played, third_place_match=bracket.plays_third_place, third_place=third,
            before=order, not_qualified=[pk for pk in order if pk not in qualified],
            withdrawn=[team.pk for team in result.withdrawn])
    except RuleError as error:
        result.missing.append(rule_message(error))
        return result
    if views is None:
        result.missing += _knockout_missing(bracket)
    elif not placings.is_final(ranked):
        result.missing.append(_("The knockout is still being played."))
    rounds = len(bracket.rounds)
    for place in ranked:
        decided = place.place
        if not settled and place.decided_by in (placings.OUT_IN_ROUND, placings.NOT_QUALIFIED):
            decided = None
        label = _label(place, rounds)
        result.rows.append(RankingRow(
            decided, teams[place.team], place.decided_by, place.round, label,
            place.places, how=_staff_how(place, label, before), before=by_team.get(place.team)))
    return result


def _earlier_stages(knockout: Stage, before: Stage, placed: list[int], teams: dict,
                    result: EventRanking) -> list[int]:
    """The teams of the stages before ``before`` that never reached it, each stage's in its
    own order, the latest stage first (they did not qualify either); their withdrawn teams
    join the unranked."""
    order: list[int] = []
    seen = set(placed) | {team.pk for team in result.withdrawn}
    for stage in (Stage.objects.filter(tournament_id=knockout.tournament_id,
                                       order__lt=knockout.order)
                  .exclude(pk=before.pk).order_by("-order")):
        stage.tournament = knockout.tournament
        places = stage_places(stage)
        for table in places.tables:
            for team in table.withdrawn:
                if team.pk not in seen:
                    result.withdrawn.append(team)
                    teams[team.pk] = team
                    seen.add(team.pk)
        for group in places.groups:
            for place in group:
                teams.setdefault(place.team.pk, place.team)
        for pk in places.order():
            if pk not in seen:
                order.append(pk)
                seen.add(pk)
    return order


def _staff_how(place: FinalPlace, label: str, before: Stage | None) -> str:
    if place.decided_by == placings.OUT_IN_ROUND:
        return _("%(label)s; then by the standings of %(stage)s") % {
            "label": label, "stage": before.shown_name if before else _("the seeds")}
    if place.decided_by == placings.NOT_QUALIFIED:
        return _("did not qualify; by group place, then the standings")
    return label


def _knockout_missing(bracket: Bracket) -> list[str]:
    """What the staff still wait for: rounds not drawn, matches without an official
    result."""
    missing = []
    for round_ in bracket.rounds:
        if round_.round is None:  # the next round to draw; the ones after it follow
            missing.append(_("%(name)s of %(stage)s is not drawn yet.") % {
                "name": round_.name, "stage": bracket.stage.shown_name})
            break
        for match in [*round_.matches, *filter(None, [round_.third_place])]:
            if match.bye or match.winner is not None or match.match is None:
                continue
            missing.append(_("%(round)s, match %(n)d (%(home)s – %(away)s) has no official "
                             "result yet.") % {
                "round": round_.name, "n": match.match.number, "home": match.home.code,
                "away": match.away.code})
    return missing


def _by_standings(tournament: Tournament, views: PublicViews | None, *,
                  knockout: Stage | None = None) -> EventRanking:
    """An event without a knockout ranks by its last stage's standings, once that stage
    is over; until then every team is still playing, in the order of the standings the
    reader may see. So does an event whose ``knockout`` has not begun for this reader (its
    teams are not public before its first round is), from the stage played last."""
    if knockout is None:
        stage = tournament.stages.order_by("-order").first()
    else:
        stage = last_stage_played(tournament) or tournament.stages.order_by("order").first()
    result = EventRanking(tournament, knockout, stage)
    if stage is None:
        result.missing.append(_("The event has no stage yet."))
        return result
    stage.tournament = tournament
    places = stage_places(stage)
    result.missing += places.problems
    if knockout is not None:
        result.missing.insert(0, _("%(stage)s has not begun.") % {"stage": knockout.shown_name})
    result.withdrawn = [team for table in places.tables for team in table.withdrawn]
    withdrawn = {team.pk for team in result.withdrawn}
    if not places.problems and knockout is None:
        by_team = places.by_team
        teams = {pk: place.team for pk, place in by_team.items()}
        for number, pk in enumerate(places.order(), 1):
            label = placing_label(placings.BY_STANDINGS, stage=stage.shown_name)
            result.rows.append(RankingRow(number, teams[pk], placings.BY_STANDINGS, None,
                                          label, (number, number), how=label,
                                          before=by_team[pk]))
    else:
        tables = places.tables if views is None else public_standings(stage, views).tables
        label = placing_label(placings.STILL_PLAYING)
        seen = set()
        for table in tables:
            for line in table.lines:
                if line.team.pk not in withdrawn and line.team.pk not in seen:
                    seen.add(line.team.pk)
                    result.rows.append(RankingRow(None, line.team, placings.STILL_PLAYING,
                                                  None, label, None, how=label))
    label = placing_label(placings.WITHDRAWN)
    result.rows += [RankingRow(None, team, placings.WITHDRAWN, None, label, None, how=label)
                    for team in result.withdrawn]
    return result
