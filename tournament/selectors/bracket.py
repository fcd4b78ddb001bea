"""The knockout as a bracket, and the event's ranking from it (RULES.md §11; issue 20).

- ``read_bracket(stage, views)``: every round of a knockout from the first to the final,
  each match (or bye) in bracket order with its teams, its state and score as the reader
  may see them, and its winner once decided: the rounds not drawn yet show the winners
  that will meet there as soon as they are known.
- ``event_ranking(tournament, views)``: the event's ranking so far (``scoring.placings.
  knockout_ranking``; the rule lives there): the places the knockout has decided, the teams
  still playing, the teams out in a round whose other matches are still open, the teams
  that did not qualify; an event without a knockout ranks by its last stage's standings.

The reader: ``views`` is the public's view of each round (``selectors.visibility.
public_views``), so that a match decides a place only once its result is official (signed
off, or decided by a default) *and* the public may see its total; nothing of a round in
play shows beyond what the live-results setting already shows. ``views=None`` is the
staff's reading: every official result.

Both read a fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring import placings
from scoring.errors import RuleError
from scoring.match import knockout_winner
from scoring.pairing import bracket_rounds, round_slots, seeded_bracket
from scoring.placings import FinalPlace, KnockoutMatch, knockout_ranking
from scoring.seating import Side
from tournament.models import Match, Round, Stage, Team, Tournament
from tournament.selectors.placings import stage_places
from tournament.selectors.public import MatchLine, match_lines, public_standings
from tournament.selectors.standings import last_stage_played
from tournament.selectors.visibility import PublicViews, ResultView
from tournament.wording import (
    knockout_result,
    knockout_round_name,
    placing_label,
    rule_message,
    third_place_name,
)

# How a knockout match was decided.
TOTAL = "total"
EXTRA_HANDS = "extra_hands"
DEFAULT = "default"


@dataclass(frozen=True)
class BracketMatch:
    """A match of the bracket, or a bye, or a meeting still to be drawn (then a team is
    None until the match that sends it here is decided)."""

    home: Team | None
    away: Team | None
    bye: bool = False
    line: MatchLine | None = None  # the match once drawn: its state and score as shown
    winner: Team | None = None  # once decided, as the reader may see it
    how: str | None = None  # TOTAL, EXTRA_HANDS or DEFAULT
    margin: int | None = None  # the winner's total (zero-sum: the loser has minus it)
    third_place: bool = False

    @property
    def match(self) -> Match | None:
        return self.line.match if self.line is not None else None

    @property
    def loser(self) -> Team | None:
        if self.winner is None or self.bye:
            return None
        return self.away if self.winner == self.home else self.home

    @property
    def winner_side(self) -> str:
        if self.winner is None:
            return ""
        return Side.HOME.value if self.winner == self.home else Side.AWAY.value

    @property
    def extra_hands(self) -> int:
        return self.match.extra_hands if self.match is not None else 0

    @property
    def sides(self) -> list[tuple[str, Team | None, int | None]]:
        """("home", team, total), ("away", team, total): the totals where the reader may
        see them."""
        line = self.line
        shown = line is not None and line.has_score
        return [(Side.HOME.value, self.home, line.home_total if shown else None),
                (Side.AWAY.value, self.away, line.away_total if shown else None)]

    @property
    def decided_text(self) -> str:
        """"CHN-R won by 11", "… after 2 extra hands", "… won by default"; "… went through"
        where the scores are not public."""
        if self.winner is None:
            return ""
        if self.how == DEFAULT:
            return knockout_result(self.winner.code, None, default=True)
        if self.line is None or not self.line.has_score:
            return _("%(team)s went through") % {"team": self.winner.code}
        return knockout_result(self.winner.code, self.margin, extra_hands=self.extra_hands)

    def result(self) -> KnockoutMatch | None:
        if self.bye:
            return KnockoutMatch(self.home.pk, None)
        if self.winner is None:
            return None
        return KnockoutMatch(self.winner.pk, self.loser.pk)


@dataclass(frozen=True)
class BracketRound:
    number: int
    slots: int  # the teams it is named by: 2 the final, 4 the semi-finals, …
    round: Round | None  # None: not drawn yet (or, for the public, a draft)
    matches: list[BracketMatch]
    third_place: BracketMatch | None = None

    @property
    def name(self) -> str:
        return knockout_round_name(self.slots)

    @property
    def third_place_name(self) -> str:
        return third_place_name()

    @property
    def byes(self) -> bool:
        return any(match.bye for match in self.matches)


@dataclass
class Bracket:
    stage: Stage
    teams: list[Team]  # by seed
    rounds: list[BracketRound]
    plays_third_place: bool

    @property
    def begun(self) -> bool:
        """A round of the knockout is drawn (and, for the public, published)."""
        return any(r.round is not None for r in self.rounds)

    @property
    def final(self) -> BracketMatch:
        return self.rounds[-1].matches[0]

    @property
    def champion(self) -> Team | None:
        return self.final.winner

    def results(self) -> tuple[list[list[KnockoutMatch]], KnockoutMatch | None]:
        """The decided matches of each round (byes included) and the decided third-place
        match, for ``scoring.placings.knockout_ranking``."""
        played = [[r for r in (m.result() for m in round_.matches) if r is not None]
                  for round_ in self.rounds]
        third = self.rounds[-1].third_place
        return played, third.result() if third is not None else None


def _everything(rounds) -> PublicViews:
    return PublicViews({round_.pk: ResultView(everything=True) for round_ in rounds})


def _decide(home: Team | None, away: Team | None, line: MatchLine | None, counts: bool,
            **extra) -> BracketMatch:
    if line is None:
        return BracketMatch(home, away, **extra)
    match = line.match
    home, away = match.home, match.away
    if not counts:
        return BracketMatch(home, away, line=line, **extra)
    if match.forfeited_by_id is not None:
        winner = away if match.forfeited_by_id == match.home_id else home
        return BracketMatch(home, away, line=line, winner=winner, how=DEFAULT, **extra)
    if match.signed_off_at is None or match.home_total is None:
        return BracketMatch(home, away, line=line, **extra)
    try:
        side = knockout_winner(match.home_total, match.away_total)
    except RuleError:  # tied: it goes on with extra hands
        return BracketMatch(home, away, line=line, **extra)
    winner = home if side is Side.HOME else away
    return BracketMatch(home, away, line=line, winner=winner,
                        how=EXTRA_HANDS if match.extra_hands else TOTAL,
                        margin=abs(match.home_total), **extra)


def read_bracket(stage: Stage, views: PublicViews | None = None) -> Bracket | None:
    """The knockout ``stage`` as a bracket (five queries), or None before it has two
    teams. ``views``: the public's view of its rounds; None for staff."""
    entries = list(stage.entries.select_related("team").order_by("position"))
    if len(entries) < 2:
        return None
    teams = {entry.team_id: entry.team for entry in entries}
    seeds = [entry.team_id for entry in entries]
    count = bracket_rounds(len(seeds))
    stored = stage.schedule.get("bracket") if isinstance(stage.schedule, dict) else None
    boards = ([tuple(board) for board in stored] if stored
              else seeded_bracket(seeds))
    rounds = {r.number: r for r in stage.rounds.order_by("number")
              if views is None or r.status != Round.Status.DRAFT}
    staff = views is None
    if staff:
        views = _everything(rounds.values())
    lines: dict[int, list[MatchLine]] = {}
    matches = Match.objects.filter(round__in=list(rounds.values()))
    for line in match_lines(matches, views, switch=not staff):
        lines.setdefault(line.match.round_id, []).append(line)

    def counts(line: MatchLine) -> bool:
        return views.shows_match(line.match.round_id, line.match.pk)

    plays_third = stage.third_place_match and len(seeds) >= 4
    bracket: list[BracketRound] = []
    previous: list[BracketMatch] = []
    for number in range(1, count + 1):
        round_ = rounds.get(number)
        drawn = sorted(lines.get(round_.pk, []) if round_ else [],
                       key=lambda line: line.match.number)
        if number == 1:
            pairs = [(teams.get(home), teams.get(away) if away is not None else None)
                     for home, away in boards]
            main, after = drawn, []
        else:
            pairs = [(upper.winner, lower.winner)
                     for upper, lower in zip(previous[::2], previous[1::2], strict=True)]
            main, after = drawn[:len(pairs)], drawn[len(pairs):]
        by_teams = {frozenset((line.match.home_id, line.match.away_id)): line
                    for line in main}
        current = []
        for index, (home, away) in enumerate(pairs):
            if number == 1 and away is None:
                current.append(BracketMatch(home, None, bye=True, winner=home))
                continue
            line = (by_teams.get(frozenset((home.pk, away.pk)))
                    if home is not None and away is not None else None)
            if line is None and number > 1 and len(main) == len(pairs):
                line = main[index]  # drawn: its teams, whoever the reader saw win before
            current.append(_decide(home, away, line, line is not None and counts(line)))
        third = None
        if number == count and plays_third:
            semis = previous
            line = after[0] if after else None
            losers = [m.loser for m in semis]
            third = _decide(losers[0] if len(losers) > 0 else None,
                            losers[1] if len(losers) > 1 else None, line,
                            line is not None and counts(line), third_place=True)
        bracket.append(BracketRound(number, round_slots(number, count), round_, current, third))
        previous = current
    return Bracket(stage=stage, teams=[teams[pk] for pk in seeds], rounds=bracket,
                   plays_third_place=plays_third)


# The event's ranking -------------------------------------------------------------------------

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
        result.missing.append(_("%(stage)s has no teams yet.") % {"stage": knockout.name})
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
            "label": label, "stage": before.name if before else _("the seeds")}
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
                "name": round_.name, "stage": bracket.stage.name})
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
        result.missing.insert(0, _("%(stage)s has not begun.") % {"stage": knockout.name})
    result.withdrawn = [team for table in places.tables for team in table.withdrawn]
    withdrawn = {team.pk for team in result.withdrawn}
    if not places.problems and knockout is None:
        by_team = places.by_team
        teams = {pk: place.team for pk, place in by_team.items()}
        for number, pk in enumerate(places.order(), 1):
            label = placing_label(placings.BY_STANDINGS, stage=stage.name)
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
