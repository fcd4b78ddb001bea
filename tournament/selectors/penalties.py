"""The referees' penalties as the standings and the draw need them (RULES.md §10)."""

from __future__ import annotations

from django.db.models import Q

from tournament.models import Penalty, Stage


def withdrawn_teams(stage: Stage) -> set[int]:
    """Teams out of a stage: a default in one of its rounds (in a group stage that withdraws
    the team), or a team's disqualification in this stage or an earlier one."""
    active = Penalty.objects.filter(undone_at__isnull=True, round__stage__tournament_id=
                                    stage.tournament_id)
    defaulted = Q(kind=Penalty.Kind.DEFAULT, round__stage=stage)
    disqualified = Q(kind=Penalty.Kind.DISQUALIFICATION, player__isnull=True,
                     round__stage__order__lte=stage.order)
    if stage.kind != Stage.Kind.GROUPS:
        defaulted = Q(pk__in=[])  # outside a group stage a default loses only its match
    return set(active.filter(defaulted | disqualified).values_list("team_id", flat=True))


def point_penalties(stage: Stage) -> list[Penalty]:
    """Active match-point and small-point deductions of the stage's rounds."""
    return list(Penalty.objects.filter(
        undone_at__isnull=True, round__stage=stage,
        kind__in=[Penalty.Kind.MATCH_POINTS, Penalty.Kind.SMALL_POINTS])
        .select_related("round"))
