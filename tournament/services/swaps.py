"""Swapping two teams of a draft round by hand, with every consequence spelt out first: what
breaks it (errors) and what needs the director's consent (warnings). A swap rewrites the
stage's stored schedule (``services.schedules``), so it carries into the later rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from scoring.pairing import SwapConflict, swap_conflicts
from tournament.audit_wording import phrase, round_name, say
from tournament.models import (
    Group,
    Match,
    Round,
    RoundEntry,
    Stage,
    StageTeam,
    Table,
    Team,
)
from tournament.permissions import Perm, require
from tournament.selectors.stage import team_records
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.draw import default_lineups
from tournament.services.schedules import apply_swap, as_boards, stage_schedule
from tournament.services.seats import write_seats


@dataclass(frozen=True)
class SwapCheck:
    """What a swap would do: errors forbid it, warnings need the director's consent."""

    errors: tuple[str, ...] = ()
    # Phrases (``audit_wording.phrase``): the swap's audit entry keeps them, so that they
    # read in each reader's language; ``warnings`` are their words in the active one.
    warning_phrases: tuple[dict, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(say(warning) for warning in self.warning_phrases)


@dataclass
class _Place:
    """Where a team is in a draft round: a match and side, or a bye."""

    entry: RoundEntry
    match: Match | None

    @property
    def opponent(self) -> Team | None:
        if self.match is None:
            return None
        return self.match.away if self.entry.side == RoundEntry.Side.HOME else self.match.home


def _places(round_: Round) -> dict[int, _Place]:
    entries = round_.entries.select_related("team", "match__home", "match__away")
    return {e.team_id: _Place(entry=e, match=e.match) for e in entries}


def _stage_entry(stage: Stage, team: Team) -> StageTeam | None:
    return stage.entries.filter(team=team).select_related("group").first()


def check_swap(round_: Round, team_a: Team, team_b: Team) -> SwapCheck:
    """Everything a swap of two teams would break, without changing anything."""
    errors: list[str] = []
    warnings: list[dict] = []
    stage = round_.stage
    if round_.status != Round.Status.DRAFT:
        errors.append(
            gettext("%(round)s is %(status)s; only a draft can be changed (undo it and draw "
                    "again)") % {"round": round_, "status": round_.get_status_display().lower()})
    if team_a.pk == team_b.pk:
        errors.append(gettext("choose two different teams"))
        return SwapCheck(tuple(errors), tuple(warnings))
    places = _places(round_)
    a, b = places.get(team_a.pk), places.get(team_b.pk)
    for team, place in ((team_a, a), (team_b, b)):
        if place is None:
            errors.append(
                gettext("%(team)s is not in %(round)s") % {"team": team.code, "round": round_})
    if errors:
        return SwapCheck(tuple(errors), tuple(warnings))
    if a.match is not None and a.match == b.match:
        warnings.append(phrase(
            gettext_noop("%(team_a)s and %(team_b)s change sides: the other team deals first "
                         "at table 1"), team_a=team_a.code, team_b=team_b.code))
        return SwapCheck(tuple(errors), tuple(warnings))

    new_opponents = {team_a: b.opponent, team_b: a.opponent}
    if stage.kind != Stage.Kind.GROUPS:
        # A group stage checks its whole round robin instead, rematches included.
        met = _met_before(round_)
        for team, opponent in new_opponents.items():
            if opponent is not None and frozenset((team.pk, opponent.pk)) in met:
                errors.append(
                    gettext("%(team)s has already met %(opponent)s in %(stage)s")
                    % {"team": team.code, "opponent": opponent.code, "stage": stage.name})
    if stage.kind == Stage.Kind.GROUPS:
        groups = {t: _stage_entry(stage, t).group for t in (team_a, team_b)}
        if groups[team_a] != groups[team_b]:
            errors.append(
                gettext("%(team_a)s is in %(group_a)s and %(team_b)s in %(group_b)s; a group stage "
                        "pairs teams of one group only")
                % {"team_a": team_a.code, "group_a": groups[team_a], "team_b": team_b.code,
                   "group_b": groups[team_b]})
        else:
            errors.extend(_round_robin_errors(round_, groups[team_a], team_a, team_b))
    elif stage.kind == Stage.Kind.KNOCKOUT:
        if round_.number > 1:
            errors.append(
                gettext("winners advance in a knockout: only the first round's seeded bracket "
                        "can be changed by hand"))
        else:
            warnings.append(phrase(
                gettext_noop("the seeded bracket changes: seeds no longer meet as planned")))
    else:
        records = team_records(stage)
        for team, opponent in new_opponents.items():
            if opponent is not None and team.pk < opponent.pk:
                mine, theirs = records[team.pk].match_points, records[opponent.pk].match_points
                if mine != theirs:
                    warnings.append(phrase(
                        gettext_noop("%(team)s (%(mine)s match points) would meet "
                                     "%(opponent)s (%(theirs)s)"),
                        team=team.code, mine=mine, opponent=opponent.code, theirs=theirs))
        for team, place in ((team_a, b), (team_b, a)):
            if place.match is None and records[team.pk].byes:
                warnings.append(phrase(gettext_noop("%(team)s would have a second bye"),
                                       team=team.code))
    return SwapCheck(tuple(errors), tuple(warnings))


def _round_robin_errors(round_: Round, group: Group, team_a: Team, team_b: Team) -> list[str]:
    """Why exchanging two teams of a group in this round and every later one would make a
    pair of the group meet twice or never (nothing when they change sides in a match)."""
    stage = round_.stage
    try:
        schedule = stage_schedule(stage, store=False)
    except ServiceError as error:
        return [error.message]
    rounds = [as_boards(boards) for boards in schedule["groups"].get(str(group.pk), [])]
    number = round_.number
    if number > len(rounds):
        return [f"{group} of {stage.name} has finished its round robin"]
    if {(team_a.pk, team_b.pk), (team_b.pk, team_a.pk)} & set(rounds[number - 1]):
        return []
    members = list(stage.entries.filter(group=group).values_list("team_id", flat=True))
    earlier = {"round__stage": stage, "round__number__lt": number}
    played: list[tuple[int, int | None]] = list(
        Match.objects.filter(home__in=members, **earlier).values_list("home_id", "away_id"))
    played += [(team, None) for team in RoundEntry.objects.filter(
        team__in=members, side=RoundEntry.Side.BYE, **earlier).values_list("team_id", flat=True)]
    # The engine is asked in the teams' codes: it names the conflicts in their order (round,
    # then code), the order a director reads them in, whatever ids the database gave.
    remaining = rounds[number - 1:]
    teams = {team for boards in [played, *remaining] for board in boards for team in board
             if team is not None} | {team_a.pk, team_b.pk}
    codes = dict(Team.objects.filter(pk__in=teams).values_list("pk", "code"))

    def named(boards):
        return [(codes[home], None if away is None else codes[away]) for home, away in boards]

    conflicts = swap_conflicts(named(played), [named(boards) for boards in remaining],
                               codes[team_a.pk], codes[team_b.pk], first_round=number)
    return [_conflict_message(conflict) for conflict in conflicts]


def _conflict_message(conflict: SwapConflict[str]) -> str:
    met, unmet, other = conflict.met, conflict.unmet, conflict.other
    if other is None:
        return (f"{met} has had its bye and {unmet} has not: after the swap {met} would "
                f"have a second bye in round {conflict.again_in} and {unmet} none")
    return (f"{other} has met {met} already and {unmet} has not: after the swap {other} "
            f"would meet {met} again in round {conflict.again_in} and {unmet} never")


def _met_before(round_: Round) -> set[frozenset[int]]:
    pairs = Match.objects.filter(round__stage=round_.stage, round__number__lt=round_.number)
    return {frozenset(p) for p in pairs.values_list("home_id", "away_id")}


def swap_teams(actor: Actor, round_: Round, team_a: Team, team_b: Team,
               *, accept_warnings: bool = False) -> SwapCheck:
    """Exchange two teams' places in a draft round; each keeps its own line-up."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        # The stage first, as when a round is drawn: the swap rewrites its schedule.
        Stage.objects.select_for_update().filter(pk=round_.stage_id).first()
        round_ = Round.objects.select_for_update().select_related("stage__tournament").get(
            pk=round_.pk)
        check = check_swap(round_, team_a, team_b)
        if check.errors:
            raise ServiceError("; ".join(check.errors))
        if check.warnings and not accept_warnings:
            raise ServiceError(gettext("the swap needs your consent: %(warnings)s")
                               % {"warnings": "; ".join(check.warnings)})
        places = _places(round_)
        a, b = places[team_a.pk], places[team_b.pk]
        _rebuild(round_, a, b, team_a, team_b)
        follows = _swap_in_stored_schedule(round_, team_a, team_b)
        audit(actor, tournament, "round.swap", round=round_.pk, teams=[team_a.pk, team_b.pk],
              team_codes=[team_a.code, team_b.code], round_name=round_name(round_),
              follows=follows, warnings=list(check.warning_phrases))
    return check


def _swap_in_stored_schedule(round_: Round, team_a: Team, team_b: Team) -> dict | None:
    """Rewrite the stage's schedule the way the round was changed: a group's remaining
    rounds or the knockout bracket; say what follows (a phrase, or None for nothing).
    Needs the stage's row lock."""
    stage = round_.stage
    schedule = stage_schedule(stage, store=False)
    if schedule is None:
        return None  # a Swiss stage pairs each round from the standings
    swap: dict = {"round": round_.number, "teams": [team_a.pk, team_b.pk]}
    if stage.kind == Stage.Kind.GROUPS:
        group = _stage_entry(stage, team_a).group
        swap["group"] = str(group.pk)
    swapped = apply_swap(schedule, swap)
    swapped["swaps"] = [*schedule.get("swaps", []), swap]
    stage.schedule = swapped
    stage.save(update_fields=["schedule"])
    if stage.kind == Stage.Kind.KNOCKOUT:
        return phrase(gettext_noop("the bracket follows"))
    later = slice(round_.number, None)
    if swapped["groups"][swap["group"]][later] == schedule["groups"][swap["group"]][later]:
        return None  # two opponents changed sides: nothing later moves
    return phrase(gettext_noop("the later rounds of %(group)s follow"), group=str(group))


def _rebuild(round_: Round, a: _Place, b: _Place, team_a: Team, team_b: Team) -> None:
    """Re-create the matches the two teams are in, with the teams exchanged.

    Deleting and re-creating (a draft has no results) keeps every uniqueness constraint
    satisfied at each step, which updating the rows in place would not.
    """
    # A team coming off a bye brings its default line-up.
    lineups = {p.entry.team_id: (p.entry.first_player_id, p.entry.second_player_id)
               for p in (a, b) if p.match is not None}
    lineups.update(default_lineups([p.entry.team for p in (a, b) if p.match is None]))
    swap = {team_a.pk: team_b, team_b.pk: team_a}
    matches = {p.match.pk: p.match for p in (a, b) if p.match is not None}
    saved, made = [], []
    for match in matches.values():
        home = swap.get(match.home_id, match.home)
        away = swap.get(match.away_id, match.away)
        keep = {e.team_id: (e.first_player_id, e.second_player_id)
                for e in match.entries.all()}
        keep.update(lineups)
        saved.append((match.number, match.group_id, home, away,
                       list(match.tables.values_list("position", "number")), keep))
    byes = [swap[p.entry.team_id] for p in (a, b) if p.match is None]
    RoundEntry.objects.filter(round=round_, team__in=[team_a, team_b]).delete()
    Match.objects.filter(pk__in=matches).delete()
    for number, group_id, home, away, tables, keep in saved:
        match = Match.objects.create(round=round_, number=number, group_id=group_id,
                                     home=home, away=away)
        made.append(match.pk)
        Table.objects.bulk_create(Table(round=round_, match=match, position=pos, number=num)
                                  for pos, num in tables)
        RoundEntry.objects.filter(round=round_, team__in=[home, away]).delete()
        RoundEntry.objects.bulk_create(
            RoundEntry(round=round_, team=team, match=match, side=side,
                       first_player_id=keep[team.pk][0], second_player_id=keep[team.pk][1])
            for team, side in ((home, RoundEntry.Side.HOME), (away, RoundEntry.Side.AWAY))
        )
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round_, team=team, side=RoundEntry.Side.BYE) for team in byes
    )
    write_seats(matches=made)
