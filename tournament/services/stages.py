"""Stages and the teams that enter them (RULES.md §11)."""

from __future__ import annotations

import string
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import F, Max

from tournament.models import Group, Stage, StageTeam, Team, Tournament
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.text import clean_text

MAX_GROUPS = 26


def teams_in_seed_order(tournament: Tournament) -> list[Team]:
    """Seeded teams first by seed, then the unseeded ones by name."""
    return list(tournament.teams.order_by(F("seed").asc(nulls_last=True), "name"))


def create_stage(
    actor: Actor, tournament: Tournament, *, name: str, kind: str,
    swiss_rounds: int | None = None, third_place_match: bool = False,
) -> Stage:
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    try:
        name = clean_text(name, label="stage name", max_length=60, required=True)
    except ValueError as error:
        raise ServiceError(str(error)) from None
    if kind not in Stage.Kind.values:
        raise ServiceError(f"unknown kind of stage {kind!r}")
    if kind == Stage.Kind.SWISS and not swiss_rounds:
        raise ServiceError("a Swiss stage needs the number of rounds it will have")
    if kind != Stage.Kind.SWISS:
        swiss_rounds = None
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        order = (tournament.stages.aggregate(last=Max("order"))["last"] or 0) + 1
        try:
            with transaction.atomic():
                stage = Stage.objects.create(
                    tournament=tournament, name=name, kind=kind, order=order,
                    swiss_rounds=swiss_rounds,
                    third_place_match=third_place_match and kind == Stage.Kind.KNOCKOUT,
                )
        except IntegrityError:
            raise ServiceError(f"there is already a stage called {name!r}") from None
        audit(actor, tournament, "stage.create",
              f"{actor.name} created the stage {stage.name} ({stage.get_kind_display()})",
              stage=stage.pk)
    return stage


def _check_can_change_entries(stage: Stage) -> None:
    if stage.rounds.exists():
        raise ServiceError(
            f"{stage.name} already has rounds; undo them before changing its teams"
        )


def _forget_schedule(stage: Stage) -> None:
    """New teams, new schedule: the next draw makes it from their numbers."""
    if stage.schedule is not None:
        stage.schedule = None
        stage.save(update_fields=["schedule"])


def _resolve_teams(stage: Stage, teams: Sequence[Team | int]) -> list[Team]:
    ids = [t.pk if isinstance(t, Team) else int(t) for t in teams]
    if len(set(ids)) != len(ids):
        raise ServiceError("a team is listed twice")
    found = {t.pk: t for t in stage.tournament.teams.filter(pk__in=ids)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise ServiceError(f"team(s) {missing} are not in this tournament")
    return [found[i] for i in ids]


def enter_teams(actor: Actor, stage: Stage, teams: Sequence[Team | int]) -> list[StageTeam]:
    """Enter teams in a Swiss or knockout stage, in ranking (seed) order."""
    require(actor.user, stage.tournament, Perm.MANAGE_ROUNDS)
    if stage.kind == Stage.Kind.GROUPS:
        raise ServiceError("teams enter a group stage through the group allotment")
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        _check_can_change_entries(stage)
        ordered = _resolve_teams(stage, teams)
        if len(ordered) < 2:
            raise ServiceError("a stage needs at least two teams")
        stage.entries.all().delete()
        _forget_schedule(stage)
        entries = StageTeam.objects.bulk_create(
            StageTeam(stage=stage, team=team, position=n) for n, team in enumerate(ordered, 1)
        )
        audit(actor, stage.tournament, "stage.teams",
              f"{actor.name} entered {len(entries)} teams in {stage.name}: "
              + ", ".join(t.code for t in ordered), stage=stage.pk)
    return entries


def allot_groups(
    actor: Actor, stage: Stage, groups: Sequence[Sequence[Team | int]],
    *, names: Sequence[str] | None = None,
) -> list[Group]:
    """Put teams into the groups of a group stage; each list is one group, in the order of
    its Berger numbers."""
    require(actor.user, stage.tournament, Perm.MANAGE_ROUNDS)
    if stage.kind != Stage.Kind.GROUPS:
        raise ServiceError(f"{stage.name} is not a group stage")
    if not groups or len(groups) > MAX_GROUPS:
        raise ServiceError(f"a group stage needs 1 to {MAX_GROUPS} groups")
    names = list(names or string.ascii_uppercase[: len(groups)])
    if len(names) != len(groups) or len(set(names)) != len(names):
        raise ServiceError("every group needs its own name")
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        _check_can_change_entries(stage)
        everyone = _resolve_teams(stage, [t for group in groups for t in group])
        by_id = {t.pk: t for t in everyone}
        for name, members in zip(names, groups, strict=True):
            if len(members) < 2:
                raise ServiceError(f"group {name} needs at least two teams")
        stage.entries.all().delete()
        stage.groups.all().delete()
        _forget_schedule(stage)
        created = []
        for order, (name, members) in enumerate(zip(names, groups, strict=True), 1):
            group = Group.objects.create(stage=stage, name=name, order=order)
            StageTeam.objects.bulk_create(
                StageTeam(stage=stage, group=group, position=position,
                          team=by_id[m.pk if isinstance(m, Team) else int(m)])
                for position, m in enumerate(members, 1)
            )
            created.append(group)
        words = "; ".join(
            f"{name}: " + ", ".join(by_id[m.pk if isinstance(m, Team) else int(m)].code
                                   for m in members)
            for name, members in zip(names, groups, strict=True)
        )
        audit(actor, stage.tournament, "stage.groups",
              f"{actor.name} allotted the groups of {stage.name}: {words}", stage=stage.pk)
    return created
