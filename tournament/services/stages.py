"""Stages and the teams that enter them (RULES.md §11)."""

from __future__ import annotations

import string
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils.translation import gettext, gettext_lazy

from tournament.models import Group, Stage, StageTeam, Team, Tournament
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.text import clean_text

MAX_GROUPS = 26


def teams_in_seed_order(tournament: Tournament) -> list[Team]:
    """Seeded teams first by seed, then the unseeded ones by name."""
    return list(tournament.teams.order_by(F("seed").asc(nulls_last=True), "name"))


def qualification_settings(
    tournament: Tournament, *, kind: str, order: int, qualify_from: Stage | int | None,
    qualifiers_per_group: int | None, extra_qualifiers: int | None,
) -> tuple[Stage | None, int | None, int]:
    """The checked knockout-qualification settings of a stage (RULES.md §11): the earlier
    group or Swiss stage whose standings seed it, how many of each group qualify, and how
    many best-placed of the next place across groups; (None, None, 0) for none."""

    def refuse(field: str, message: str) -> ServiceError:
        return ServiceError(message, field_errors={field: [message]})

    extra = extra_qualifiers or 0
    if qualify_from is None or qualify_from == "":
        if qualifiers_per_group or extra:
            raise refuse("qualify_from", "choose the stage whose standings seed the knockout")
        return None, None, 0
    if kind != Stage.Kind.KNOCKOUT:
        raise refuse("qualify_from",
                     "only a knockout is seeded from the standings of another stage")
    source_id = qualify_from.pk if isinstance(qualify_from, Stage) else int(qualify_from)
    source = tournament.stages.filter(pk=source_id).first()
    if source is None:
        raise refuse("qualify_from", "that stage is not in this tournament")
    if source.order >= order:
        raise refuse("qualify_from", f"{source.name} comes after this stage; a knockout is "
                     "seeded from an earlier stage")
    if source.kind == Stage.Kind.KNOCKOUT:
        raise refuse("qualify_from", f"{source.name} is a knockout; a knockout is seeded "
                     "from the standings of a group or Swiss stage")
    if not qualifiers_per_group or qualifiers_per_group < 1:
        raise refuse("qualifiers_per_group",
                     "say how many teams of each group qualify (at least 1)")
    if extra < 0:
        raise refuse("extra_qualifiers", "the number of extra qualifiers cannot be negative")
    return source, qualifiers_per_group, extra


def create_stage(
    actor: Actor, tournament: Tournament, *, name: str, kind: str, other_name: str = "",
    swiss_rounds: int | None = None, third_place_match: bool = False,
    qualify_from: Stage | int | None = None, qualifiers_per_group: int | None = None,
    extra_qualifiers: int | None = 0,
) -> Stage:
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    name, other_name = _clean_names(name, other_name)
    if kind not in Stage.Kind.values:
        raise ServiceError(gettext("unknown kind of stage %(kind)r") % {"kind": kind})
    if kind == Stage.Kind.SWISS and not swiss_rounds:
        raise ServiceError(gettext("a Swiss stage needs the number of rounds it will have"))
    if kind != Stage.Kind.SWISS:
        swiss_rounds = None
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        order = (tournament.stages.aggregate(last=Max("order"))["last"] or 0) + 1
        source, per_group, extra = qualification_settings(
            tournament, kind=kind, order=order, qualify_from=qualify_from,
            qualifiers_per_group=qualifiers_per_group, extra_qualifiers=extra_qualifiers)
        try:
            with transaction.atomic():
                stage = Stage.objects.create(
                    tournament=tournament, name=name, other_name=other_name, kind=kind,
                    order=order,
                    swiss_rounds=swiss_rounds,
                    third_place_match=third_place_match and kind == Stage.Kind.KNOCKOUT,
                    qualify_from=source, qualifiers_per_group=per_group,
                    extra_qualifiers=extra,
                )
        except IntegrityError:
            raise ServiceError(gettext("there is already a stage called %(name)r")
                               % {"name": name}) from None
        audit(actor, tournament, "stage.create", stage=stage.pk, stage_name=stage.name,
              kind=stage.kind, source_name=source.name if source else None,
              per_group=per_group, extra=extra)
    return stage


def _clean_names(name: str, other_name: str) -> tuple[str, str]:
    try:
        return (
            clean_text(name, label=gettext_lazy("stage name"), max_length=60, required=True),
            clean_text(other_name, label=gettext_lazy("stage name in the other script"),
                       max_length=60, required=False))
    except ValueError as error:
        raise ServiceError(str(error)) from None


def rename_stage(actor: Actor, stage: Stage, *, name: str, other_name: str = "") -> Stage:
    """Change a stage's name and its name in the other script (tournament.names): what the
    pages, the printouts and the downloads call it from now on."""
    require(actor.user, stage.tournament, Perm.MANAGE_ROUNDS)
    name, other_name = _clean_names(name, other_name)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        before = [stage.name, stage.other_name]
        if before == [name, other_name]:
            return stage
        stage.name, stage.other_name = name, other_name
        try:
            with transaction.atomic():
                stage.save(update_fields=["name", "other_name"])
        except IntegrityError:
            raise ServiceError(gettext("there is already a stage called %(name)r")
                               % {"name": name}) from None
        audit(actor, stage.tournament, "stage.rename", stage=stage.pk, stage_name=name,
              before=before, after=[name, other_name])
    return stage


def _check_can_change_entries(stage: Stage) -> None:
    if stage.rounds.exists():
        raise ServiceError(
            gettext("%(stage)s already has rounds; undo them before changing its teams")
            % {"stage": stage.name})


def _forget_schedule(stage: Stage) -> None:
    """New teams, new schedule: the next draw makes it from their numbers."""
    if stage.schedule is not None:
        stage.schedule = None
        stage.save(update_fields=["schedule"])


def _resolve_teams(stage: Stage, teams: Sequence[Team | int]) -> list[Team]:
    ids = [t.pk if isinstance(t, Team) else int(t) for t in teams]
    if len(set(ids)) != len(ids):
        raise ServiceError(gettext("a team is listed twice"))
    found = {t.pk: t for t in stage.tournament.teams.filter(pk__in=ids)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise ServiceError(
            gettext("team(s) %(missing)s are not in this tournament") % {"missing": missing})
    return [found[i] for i in ids]


def enter_teams(actor: Actor, stage: Stage, teams: Sequence[Team | int]) -> list[StageTeam]:
    """Enter teams in a Swiss or knockout stage, in ranking (seed) order."""
    require(actor.user, stage.tournament, Perm.MANAGE_ROUNDS)
    if stage.kind == Stage.Kind.GROUPS:
        raise ServiceError(gettext("teams enter a group stage through the group allotment"))
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        _check_can_change_entries(stage)
        ordered = _resolve_teams(stage, teams)
        entries = save_entries(stage, ordered)
        audit(actor, stage.tournament, "stage.teams", stage=stage.pk, stage_name=stage.name,
              codes=[t.code for t in ordered])
    return entries


def save_entries(stage: Stage, ordered: Sequence[Team]) -> list[StageTeam]:
    """Replace the teams of a Swiss or knockout stage (locked, without rounds: the caller
    checks) by ``ordered``, numbered 1, 2, … (the seeds)."""
    if len(ordered) < 2:
        raise ServiceError(gettext("a stage needs at least two teams"))
    stage.entries.all().delete()
    _forget_schedule(stage)
    return StageTeam.objects.bulk_create(
        StageTeam(stage=stage, team=team, position=n) for n, team in enumerate(ordered, 1)
    )


def allot_groups(
    actor: Actor, stage: Stage, groups: Sequence[Sequence[Team | int]],
    *, names: Sequence[str] | None = None,
) -> list[Group]:
    """Put teams into the groups of a group stage; each list is one group, in the order of
    its Berger numbers."""
    require(actor.user, stage.tournament, Perm.MANAGE_ROUNDS)
    if stage.kind != Stage.Kind.GROUPS:
        raise ServiceError(gettext("%(stage)s is not a group stage") % {"stage": stage.name})
    if not groups or len(groups) > MAX_GROUPS:
        raise ServiceError(
            gettext("a group stage needs 1 to %(most)s groups") % {"most": MAX_GROUPS})
    names = list(names or string.ascii_uppercase[: len(groups)])
    if len(names) != len(groups) or len(set(names)) != len(names):
        raise ServiceError(gettext("every group needs its own name"))
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        _check_can_change_entries(stage)
        everyone = _resolve_teams(stage, [t for group in groups for t in group])
        by_id = {t.pk: t for t in everyone}
        for name, members in zip(names, groups, strict=True):
            if len(members) < 2:
                raise ServiceError(
                    gettext("group %(name)s needs at least two teams") % {"name": name})
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
        allotted = [[name, [by_id[m.pk if isinstance(m, Team) else int(m)].code
                            for m in members]]
                    for name, members in zip(names, groups, strict=True)]
        audit(actor, stage.tournament, "stage.groups", stage=stage.pk, stage_name=stage.name,
              groups=allotted)
    return created
