"""Creating and configuring tournaments."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.demo_accounts import is_demo, retire_accounts
from tournament.models import DeviceToken, Player, Role, Round, StaffRole, Tournament
from tournament.permissions import Perm, can_create_tournament, forget_cached_roles, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.deals import make_key
from tournament.services.persons import drop_if_alone
from tournament.services.text import clean_text

# Fields a director edits on the settings page; everything else has its own service.
EDITABLE_FIELDS = (
    "name", "other_name", "slug", "starts_on", "ends_on", "venue", "federation", "time_zone",
    "status",
    "approvals_need_pin", "pin_attempts", "pin_lockout_minutes", "round_minutes",
    *Tournament.RULE_FIELDS, "tiebreak_order", *Tournament.PUBLIC_FIELDS,
)


def _clean_names(values: dict) -> dict:
    """The name and the name in the other script checked as every name is
    (``services.text``): no NUL, control or invisible character, within the length."""
    errors = {}
    for field in ("name", "other_name"):
        if field in values:
            model_field = Tournament._meta.get_field(field)
            try:
                values[field] = clean_text(
                    values[field], label=model_field.verbose_name,
                    max_length=model_field.max_length, required=not model_field.blank)
            except ValueError as error:
                errors[field] = [str(error)]
    if errors:
        raise ServiceError("; ".join(m for ms in errors.values() for m in ms),
                           field_errors=errors)
    return values


def _validated(tournament: Tournament) -> None:
    try:
        tournament.full_clean()
    except ValidationError as error:
        raise ServiceError(
            "; ".join(m for ms in error.message_dict.values() for m in ms),
            field_errors=error.message_dict,
        ) from None


def create_tournament(actor: Actor, **values) -> Tournament:
    """Create a tournament; its creator becomes its director."""
    if not can_create_tournament(actor.user):
        raise PermissionDenied(_("You are not allowed to create tournaments."))
    unknown = set(values) - set(EDITABLE_FIELDS)
    if unknown:
        raise ServiceError(f"unknown tournament fields: {', '.join(sorted(unknown))}")
    tournament = Tournament(**_clean_names(values))
    _validated(tournament)
    try:
        with transaction.atomic():
            tournament.save()
            if not actor.user.is_superuser:
                StaffRole.objects.create(
                    tournament=tournament, user=actor.user, role=Role.DIRECTOR
                )
                forget_cached_roles(actor.user)
            # The key exists from the start so its commitment is public before any deal.
            key = make_key(actor, tournament)
            audit(actor, tournament, "tournament.create", name=tournament.name,
                  commitment=key.commitment)
    except IntegrityError:
        raise ServiceError(
            _("The short name %(slug)s is already taken.") % {"slug": tournament.slug},
            field_errors={"slug": [_("This short name is already taken.")]},
        ) from None
    return tournament


def update_tournament(actor: Actor, tournament: Tournament, **values) -> Tournament:
    require(actor.user, tournament, Perm.EDIT_TOURNAMENT)
    unknown = set(values) - set(EDITABLE_FIELDS)
    if unknown:
        raise ServiceError(f"unknown tournament fields: {', '.join(sorted(unknown))}")
    values = _clean_names(values)
    try:
        with transaction.atomic():
            locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
            changes = {}
            for name in (n for n in EDITABLE_FIELDS if n in values):
                value = values[name]
                old = getattr(locked, name)
                if old != value:
                    changes[name] = [str(old), str(value)]
                    setattr(locked, name, value)
            if not changes:
                return locked
            _validated(locked)
            locked.save()
            audit(actor, locked, "tournament.update", changes=changes)
    except IntegrityError:
        raise ServiceError(
            _("The short name %(slug)s is already taken.") % {"slug": values.get("slug")},
            field_errors={"slug": [_("This short name is already taken.")]},
        ) from None
    return locked


def open_to_public(actor: Actor, tournament: Tournament) -> Tournament:
    """Open the public pages: a tournament in set-up becomes running (its draws, results and
    hand records can then be seen by anyone). Nothing changes for one already open."""
    require(actor.user, tournament, Perm.EDIT_TOURNAMENT)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.SETUP:
            return locked
        locked.status = Tournament.Status.RUNNING
        locked.save(update_fields=["status"])
        audit(actor, locked, "tournament.open", name=locked.name,
              changes={"status": [Tournament.Status.SETUP.value,
                                  Tournament.Status.RUNNING.value]})
    return locked



def tournament_has_results(tournament: Tournament) -> bool:
    """Whether anything was played: a hand result, a round started, or a penalty."""
    from tournament.models import HandResult, Penalty, Round

    return (HandResult.objects.filter(table__round__stage__tournament=tournament).exists()
            or Round.objects.filter(stage__tournament=tournament).exclude(
                status__in=[Round.Status.DRAFT, Round.Status.PUBLISHED]).exists()
            or Penalty.objects.filter(tournament=tournament).exists())


def delete_tournament(actor: Actor, tournament: Tournament, *, confirm_name: str = "") -> None:
    """A director deletes a tournament with everything in it. The demo (tournament/demo/)
    goes at once; a real tournament with results only when its name is typed again. The
    audit entry outlives it (it belongs to no tournament)."""
    require(actor.user, tournament, Perm.EDIT_TOURNAMENT)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        demo = is_demo(locked)
        played = tournament_has_results(locked)
        if locked.rated and not actor.user.is_superuser:
            # Deleting it would take its results out of the ratings: a superuser's call.
            raise ServiceError(_("This event counts for the ratings: only a superuser can "
                                 "delete it, or take it out of the ratings first."))
        if not demo and played and confirm_name.strip() != locked.name:
            message = _("Type the tournament's name, %(name)s, to delete it with its "
                        "results.") % {"name": locked.name}
            raise ServiceError(message, field_errors={"confirm_name": [message]})
        counts = {"teams": locked.teams.count(), "rounds": Round.objects.filter(
            stage__tournament=locked).count()}
        staff = list(locked.staff.select_related("user"))
        devices = [device.user for device in locked.table_devices.select_related("user")]
        name, slug = locked.name, locked.slug
        persons = list(Player.objects.filter(team__tournament=locked)
                       .values_list("person_id", flat=True))
        _delete_everything(locked)
        drop_if_alone(*persons)  # made for this tournament's players alone
        retired = retire_accounts() if demo else []
        retired_devices = retire_devices(devices)
        for role in staff:
            forget_cached_roles(role.user)
        audit(actor, None, "tournament.delete", name=name, slug=slug, demo=demo,
              played=played, retired=retired, retired_devices=retired_devices, **counts)


def retire_devices(users) -> list[str]:
    """The table devices of a deleted tournament: their accounts were made for it alone,
    so they log in no more (inactive, no usable password, no API token), unless one has
    come to be another's (a role elsewhere, an administrator): that one is left as it is.
    Returns the names retired."""
    retired = []
    for user in users:
        if (user.is_superuser or user.is_staff or not user.is_active
                or StaffRole.objects.filter(user=user).exists()):
            continue
        user.set_unusable_password()
        user.is_active = False
        user.save(update_fields=["password", "is_active"])
        DeviceToken.objects.filter(user=user).delete()
        retired.append(user.get_username())
    return retired


def _delete_everything(tournament: Tournament) -> None:
    """What was played is protected from deletion one row at a time (a team with results, a
    deal with results on it, …); the whole tournament goes from the leaves up."""
    from tournament.models import (
        Deal,
        DealKey,
        HandResult,
        Match,
        Penalty,
        RoundEntry,
        Stage,
        StageTeam,
        TeamResult,
    )

    Penalty.objects.filter(tournament=tournament).delete()
    TeamResult.objects.filter(round__stage__tournament=tournament).delete()
    HandResult.objects.filter(table__round__stage__tournament=tournament).delete()
    RoundEntry.objects.filter(round__stage__tournament=tournament).delete()
    Match.objects.filter(round__stage__tournament=tournament).delete()
    Deal.objects.filter(round__stage__tournament=tournament).delete()
    Round.objects.filter(stage__tournament=tournament).delete()
    StageTeam.objects.filter(stage__tournament=tournament).delete()
    for stage in Stage.objects.filter(tournament=tournament).order_by("-order"):
        stage.delete()  # a later stage may be seeded from an earlier one
    DealKey.objects.filter(tournament=tournament).delete()
    tournament.delete()
