"""Seeding a knockout from the standings of an earlier stage (RULES.md §11; issue 11).

- ``set_qualification``: which earlier group or Swiss stage seeds the knockout, how many
  teams of each group qualify, and how many best-placed of the next place across groups.
- ``seed_from_standings``: enters the qualifiers as the knockout's teams, seed 1 first
  (``StageTeam.position``), from the official standings of that stage; refused while one of
  its rounds is not closed, a match of it is not signed off, or the knockout has a round.
  The audit log keeps every seed with the standings values it was chosen by.

Locks: the two stages (in their order), then the source stage's rounds and matches, so that
no round closes, no result is corrected and no penalty changes those standings while the
seeds are taken from them (docs/invariants.md).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from tournament.models import Match, Round, Stage, StageTeam
from tournament.permissions import Perm, require
from tournament.selectors.placings import qualification
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.locking import lock
from tournament.services.stages import qualification_settings, save_entries


def set_qualification(actor: Actor, stage: Stage, *, qualify_from: Stage | int | None,
                      qualifiers_per_group: int | None, extra_qualifiers: int | None = 0,
                      ) -> Stage:
    """Set (or, with ``qualify_from=None``, clear) how a knockout qualifies its teams."""
    tournament = stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        if stage.kind != Stage.Kind.KNOCKOUT:
            raise ServiceError(
                gettext("%(stage)s is not a knockout; only a knockout is seeded from the "
                        "standings of another stage") % {"stage": stage.name})
        if stage.rounds.exists():
            raise ServiceError(
                gettext("%(stage)s has started; its qualification no longer changes")
                % {"stage": stage.name})
        source, per_group, extra = qualification_settings(
            tournament, kind=stage.kind, order=stage.order, qualify_from=qualify_from,
            qualifiers_per_group=qualifiers_per_group, extra_qualifiers=extra_qualifiers)
        stage.qualify_from, stage.qualifiers_per_group = source, per_group
        stage.extra_qualifiers = extra
        stage.save(update_fields=["qualify_from", "qualifiers_per_group", "extra_qualifiers"])
        audit(actor, tournament, "stage.qualification",
              stage=stage.pk, qualify_from=source.pk if source else None,
              qualifiers_per_group=per_group, extra_qualifiers=extra,
              stage_name=stage.name, source_name=source.name if source else None)
    return stage


def seed_from_standings(actor: Actor, stage: Stage) -> list[StageTeam]:
    """Enter the knockout's teams from the official standings of its source stage, seed 1
    first; the audit log records the seeds and the standings values used."""
    tournament = stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    source_id = stage.qualify_from_id
    with transaction.atomic():
        stages = {s.pk: s for s in Stage.objects.select_for_update().filter(
            pk__in=[stage.pk, source_id] if source_id else [stage.pk]).order_by("order")}
        knockout = stages[stage.pk]
        if knockout.qualify_from_id != source_id:
            raise ServiceError(
                gettext("the qualification of %(knockout)s changed meanwhile; reload the page "
                        "and check the seeds again") % {"knockout": knockout.name})
        if source_id is not None:
            lock(rounds=Round.objects.filter(stage_id=source_id).values_list("pk", flat=True),
                 matches=Match.objects.filter(round__stage_id=source_id)
                 .values_list("pk", flat=True))
        knockout.tournament = tournament
        plan = qualification(knockout)
        if plan.problems or plan.error:
            raise ServiceError(
                gettext("%(knockout)s cannot be seeded from the standings now: %(problems)s")
                % {"knockout": knockout.name,
                   "problems": " ".join([*plan.problems, *filter(None, [plan.error])])})
        entries = save_entries(knockout, [seed.team for seed in plan.seeds])
        used = plan.standings_used()
        audit(actor, tournament, "stage.seeded", stage=knockout.pk, source=plan.source.pk,
              seeds=used, stage_name=knockout.name, source_name=plan.source.name)
    return entries
