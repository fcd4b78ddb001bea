"""Master points (issue 55; the rule: scoring/master_points.py; the scales and why:
docs/ratings.md): each player who played for a team at a finished, rated event with a
category earns the points of the team's final place on that category's scale.

Awarded by the ratings' recompute (``services.ratings``), so they follow every change that
can move a place (a correction, a penalty, the event re-opened) the same way, never stale.
The category of an event and the scales are a superuser's, like the rated flag.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext

from scoring.errors import RuleError
from scoring.master_points import DEFAULT_SCALES, DEFAULT_SHARE, check_scale, master_points
from tournament.models import (
    Category,
    MasterPointAward,
    MasterPointScale,
    TableSeat,
    Tournament,
)
from tournament.selectors.event_ranking import event_ranking
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.locking import lock


def award_master_points(since: dt.date) -> int:
    """The awards of the events ending on or after ``since``, made again; how many."""
    MasterPointAward.objects.filter(tournament__ends_on__gte=since).delete()
    scales = _scales()
    awards = []
    for tournament in Tournament.objects.filter(
            rated=True, status=Tournament.Status.FINISHED, ends_on__gte=since,
            ).exclude(category="").order_by("pk"):
        scale = scales.get(tournament.category)
        if scale is None:
            continue
        ranking = event_ranking(tournament)
        places = {row.team.pk: row.place for row in ranking.rows}
        places.update({team.pk: None for team in ranking.withdrawn})
        earned = master_points(places, scale.points, scale.share_of_field)
        if not earned:
            continue
        # Who played for each team: a reserve who never sat down earns nothing.
        played = set(TableSeat.objects.filter(
            round__stage__tournament=tournament, round__closed_at__isnull=False,
            player__team_id__in=list(earned)).values_list("player__team_id",
                                                          "player__person_id"))
        awards += [MasterPointAward(person_id=person, tournament=tournament, team_id=team,
                                    place=places[team], points=earned[team])
                   for team, person in sorted(played)]
    MasterPointAward.objects.bulk_create(awards, batch_size=1000)
    return len(awards)


def _scales() -> dict[str, MasterPointScale]:
    """Each category's scale; a category without one gets the default (made by migration
    0024, and again here if a database was emptied without its migrations)."""
    scales = {scale.category: scale for scale in MasterPointScale.objects.all()}
    for category, points in DEFAULT_SCALES.items():
        if category not in scales:
            scales[category], _made = MasterPointScale.objects.get_or_create(
                category=category, defaults={"points": list(points),
                                             "share_of_field": DEFAULT_SHARE})
    return scales


def _superuser(actor: Actor, what: str) -> None:
    user = actor.user
    if user is None or not user.is_authenticated or not user.is_superuser:
        raise PermissionDenied(what)


def set_category(actor: Actor, tournament: Tournament, category: str) -> Tournament:
    """A rated event's master points category ("" for none): a superuser's decision."""
    _superuser(actor, gettext("only a superuser sets an event's category"))
    if category not in ("", *Category.values):
        raise ServiceError(gettext("%(category)s is not a category") % {"category": category})
    with transaction.atomic():
        tournament = lock(tournaments=[tournament]).one("tournaments")
        if tournament.category != category:
            tournament.category = category
            tournament.save(update_fields=["category"])
            audit(actor, tournament, "tournament.category", category=category)
    return tournament


def edit_scale(actor: Actor, scale: MasterPointScale, points, share: int) -> MasterPointScale:
    """A category's scale changed (a superuser): every award is made again."""
    _superuser(actor, gettext("only a superuser changes the master point scales"))
    try:
        values = check_scale(points, share)
    except RuleError as refusal:
        raise ServiceError(str(refusal), field_errors={"points": [str(refusal)]}) from None
    with transaction.atomic():
        scale = MasterPointScale.objects.select_for_update().get(pk=scale.pk)
        scale.points = [int(v) if v == v.to_integral_value() else float(v) for v in values]
        scale.share_of_field = share
        scale.save(update_fields=["points", "share_of_field"])
        audit(actor, None, "ratings.scale", category=scale.category, points=scale.points,
              share=share)
    return scale
