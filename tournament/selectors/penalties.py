"""The referees' penalties as the standings, the draw and the pages need them, and what a
penalty may be recorded against (RULES.md §10)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournament.models import Match, Penalty, Player, RoundEntry, Stage, Team
from tournament.prepared import prepared_rows


def withdrawn_teams(stage: Stage) -> set[int]:
    """Teams out of a stage: a default in one of its rounds (in a group stage that withdraws
    the team), or a team's disqualification in this stage or an earlier one. (Every save in
    a group stage asks: its SQL is built once per connection, ``tournament.prepared``.)"""
    if stage.kind == Stage.Kind.GROUPS:
        rows = prepared_rows("withdrawn-teams-groups", _withdrawn_groups,
                             [stage.tournament_id, stage.pk, stage.order])
    else:
        rows = prepared_rows("withdrawn-teams", _withdrawn_elsewhere,
                             [stage.tournament_id, stage.order])
    return {team for team, in rows}


def _withdrawn(tournament: int, defaulted: Q, stage_order: int):
    disqualified = Q(kind=Penalty.Kind.DISQUALIFICATION, player__isnull=True,
                     round__stage__order__lte=stage_order)
    return (Penalty.objects.filter(undone_at__isnull=True,
                                   round__stage__tournament_id=tournament)
            .filter(defaulted | disqualified).order_by().values_list("team_id"))


def _withdrawn_groups(tournament: int, stage: int, stage_order: int):
    return _withdrawn(tournament, Q(kind=Penalty.Kind.DEFAULT, round__stage_id=stage),
                      stage_order)


def _withdrawn_elsewhere(tournament: int, stage_order: int):
    # Outside a group stage a default loses only its match.
    return _withdrawn(tournament, Q(pk__in=[]), stage_order)


def point_penalties(stage: Stage) -> list[Penalty]:
    """Active match-point and small-point deductions of the stage's rounds (every read of
    the standings asks: built once per connection)."""
    return prepared_rows("point-penalties", _point_penalties, [stage.pk])


def _point_penalties(stage: int):
    return Penalty.objects.filter(
        undone_at__isnull=True, round__stage_id=stage,
        kind__in=[Penalty.Kind.MATCH_POINTS, Penalty.Kind.SMALL_POINTS]).select_related(
        "round").order_by("recorded_at", "pk")


def disqualified_players(team_ids) -> dict[int, Penalty]:
    """The active disqualifications of players of these teams, by player id: they can no
    longer be put in a line-up (services.rounds, services.draw)."""
    return {p.player_id: p for p in Penalty.objects.filter(
        undone_at__isnull=True, kind=Penalty.Kind.DISQUALIFICATION, player__isnull=False,
        team_id__in=list(team_ids)).select_related("round__stage", "player")}


def penalty_list(tournament, *, team=None, round_=None):
    """The tournament's penalties, undone ones included, oldest first, with what the pages
    show of each (one query)."""
    penalties = (Penalty.objects.filter(tournament=tournament)
                 .select_related("team", "player", "round__stage", "match__home",
                                 "match__away", "recorded_by", "undone_by")
                 .order_by("recorded_at", "pk"))
    if team is not None:
        penalties = penalties.filter(team=team)
    if round_ is not None:
        penalties = penalties.filter(round=round_)
    return penalties


def left_out(round_) -> tuple[list, list]:
    """Teams of a group stage's round that its schedule has in the round but that are not
    in its draw: (withdrawn teams, teams sitting out because their scheduled opponent is
    withdrawn). Sitting out is no entry in the round at all: no match, no bye, no row."""
    stage = round_.stage
    if stage.kind != Stage.Kind.GROUPS:
        return [], []
    scheduled = set()
    for rounds in (stage.schedule or {}).get("groups", {}).values():
        if round_.number <= len(rounds):
            scheduled |= {t for board in rounds[round_.number - 1] for t in board if t}
    drawn = set(RoundEntry.objects.filter(round=round_).values_list("team_id", flat=True))
    missing = scheduled - drawn
    if not missing:
        return [], []
    out = withdrawn_teams(stage)
    teams = Team.objects.filter(pk__in=missing).order_by("code")
    return [t for t in teams if t.pk in out], [t for t in teams if t.pk not in out]


@dataclass(frozen=True)
class PenaltyChoices:
    """What a penalty may be recorded against on the page of a round or of its match."""

    teams: list[Team]
    matches: list[Match]
    players: list[Player]


def penalty_choices(tournament, round_, match=None) -> PenaltyChoices:
    """The teams (the match's two, else every team entered in the round's stage, by code),
    the round's matches by number with their teams, and those teams' players by team code
    and number (three queries, two with a match)."""
    teams = ([match.home, match.away] if match is not None else
             list(tournament.teams.filter(stage_entries__stage=round_.stage).order_by("code")))
    matches = list(round_.matches.select_related("home", "away").order_by("number"))
    players = list(Player.objects.filter(team__in=teams).select_related("team")
                   .order_by("team__code", "number"))
    return PenaltyChoices(teams=teams, matches=matches, players=players)


def match_penalties(match) -> list[Penalty]:
    """The penalties recorded on one match, undone ones included (the match page)."""
    return list(penalty_list(match.round.stage.tournament).filter(match=match))
