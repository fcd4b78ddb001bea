"""The devices at the tables (issue 21): a scorer account scores one table per round.

The binding is kept in the database (``TableBinding``), not in a browser session, so that
logging out and in again keeps it: a scorer who could take another table after a new log-in
could read that table's results of boxes its own table has still to play
(``selectors.visibility``). The first table a scorer account opens in a round becomes its
table (audited); from then on only a referee or the director moves it (audited).
Referees and directors open any table.

``create_table_devices`` makes one scorer account per table of a round in one step (a
device each, named after the tournament and the table number), with a new password and a
new API token printed on a slip for that device only (``pdf.devices``): never on anything
the players see, since a player who could log in as another table's device could read that
table's results. The accounts are the tournament's (``TableDevice``, issue 48): the device
services act on the accounts recorded for their tournament, never on one found by name.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournament.audit_wording import round_name
from tournament.models import (
    DeviceToken,
    Role,
    Round,
    StaffRole,
    Table,
    TableBinding,
    TableDevice,
)
from tournament.permissions import Perm, forget_cached_roles, has_perm, require
from tournament.prepared import prepared_rows
from tournament.selectors.visibility import sees_every_result
from tournament.services.accounts import not_ours
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.locking import lock
from tournament.services.staff import _new_password


def check_table_for(actor: Actor, table: Table) -> None:
    """May this account work at this table now? A scorer: only at its table of the round,
    the first it opens becoming it. Raises PermissionDenied with the reason."""
    round_ = table.match.round
    if round_.status == Round.Status.DRAFT and not has_perm(
            actor.user, round_.stage.tournament, Perm.MANAGE_ROUNDS):
        # A draft is the director's alone: never bound, never named (issue 48).
        raise PermissionDenied(gettext("there is no table %(id)s") % {"id": table.pk})
    if sees_every_result(actor.user, round_):
        return
    binding = _binding_of(actor.user, round_)
    if binding is None:
        try:
            with transaction.atomic():
                TableBinding.objects.create(round_id=round_.pk, user=actor.user, table=table,
                                            bound_by=actor.user)
                audit(actor, round_.stage.tournament, "device.bind",
                      table=table.pk, match=table.match_id, round=round_.pk,
                      device=actor.device, table_number=table.number,
                      round_name=round_name(round_))
        except IntegrityError:  # bound at the same moment by another request
            binding = TableBinding.objects.select_related("table").get(
                round_id=round_.pk, user=actor.user)
        else:
            return
    if binding.table_id != table.pk:
        raise PermissionDenied(gettext(
            "This account scores table %(n)s in this round: it cannot open another table's "
            "hands. A referee or the director can move it to another table.")
            % {"n": binding.table.number})


def _binding_of(user, round_: Round) -> TableBinding | None:
    """An account's binding to a table of the round (one at most: constraint of
    TableBinding), with its table; every command at a table asks, so its SQL is built once
    per connection (tournament.prepared)."""
    if user.pk is None:
        return None
    found = prepared_rows("table-binding", _binding, [round_.pk, user.pk])
    return found[0] if found else None


def _binding(round_: int, user: int):
    return TableBinding.objects.filter(round_id=round_, user_id=user).select_related(
        "table").order_by()


def bound_table(user, round_: Round) -> Table | None:
    """The table this account scores in the round, if any."""
    binding = _binding_of(user, round_)
    return binding.table if binding else None


def move_binding(actor: Actor, user, table: Table) -> TableBinding:
    """A referee or the director moves a scorer account to another table of the round (or
    binds it for the first time)."""
    round_ = table.match.round
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    with transaction.atomic():
        binding = TableBinding.objects.select_for_update().filter(
            round=round_, user=user).select_related("table").first()
        before = binding.table.number if binding else None
        if binding is None:
            binding = TableBinding.objects.create(round=round_, user=user, table=table,
                                                  bound_by=actor.user)
        elif binding.table_id != table.pk:
            binding.table, binding.bound_by, binding.bound_at = table, actor.user, timezone.now()
            binding.save(update_fields=["table", "bound_by", "bound_at"])
        else:
            return binding
        audit(actor, tournament, "device.move", user=user.pk, table=table.pk, round=round_.pk,
              username=user.get_username(), before=before, table_number=table.number,
              round_name=round_name(round_))
    return binding


@dataclass(frozen=True)
class DeviceSlip:
    """What one table's device needs, printed for that device only."""

    table: int
    username: str  # the account's own name, as it logs in
    password: str
    token: str


class DevicesMadeAlready(ServiceError):
    """The tables have devices whose slips were given out: making them again needs a
    confirmation (the earlier slips stop working)."""


# A double click sends the same request twice: the second answers the first's slips, kept
# this long (the passwords are shown once; nothing else keeps them).
SLIPS_KEPT_SECONDS = 300


def device_username(tournament, number: int) -> str:
    """The name a new device account takes: the tournament's short name and the table."""
    return f"{tournament.slug}-table-{number}"[:150]


def _free_username(tournament, number: int) -> str:
    """``device_username``, or with a suffix when an account has that name already
    (whatever its case): a device is always a new account, never one found by name."""
    User = get_user_model()
    base = device_username(tournament, number)
    candidate, suffix = base, 1
    while User.objects.filter(username__iexact=candidate).exists():
        suffix += 1
        candidate = f"{base[:140]}-{suffix}"
    return candidate


def _request_token(value) -> uuid.UUID | None:
    if value in (None, ""):
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise ServiceError(gettext("the form has no valid request token; reload the page")
                           ) from None


def _slips_key(actor: Actor, token: uuid.UUID) -> str:
    return f"device-slips:{actor.user.pk}:{token}"


def create_table_devices(actor: Actor, round_: Round, *, request_token=None,
                         replace: bool = False) -> list[DeviceSlip]:
    """One scorer account per table of the round, each with a new password and a new API
    token printed on its slip, bound to its table.

    The accounts are the tournament's own (``TableDevice``): a table's account is made the
    first time and reused after, never looked up by name, and never one that is not the
    tournament's alone (``services.accounts.not_ours``: such an account is let go and
    the table gets a new one). When the tables have devices already, their slips stop
    working: ``replace`` must say the director knows it (``DevicesMadeAlready`` otherwise).
    The same ``request_token`` again (a double click) answers the slips of the first."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_STAFF)
    token = _request_token(request_token)
    with transaction.atomic():
        # The tournament first: two rounds' devices are the same accounts.
        locked = lock(tournaments=[tournament.pk], rounds=[round_.pk])
        round_ = locked.one("rounds")
        tournament = locked.one("tournaments")
        if round_.status == Round.Status.CLOSED:
            raise ServiceError(gettext("%(round)s is closed: its tables need no devices")
                               % {"round": round_})
        if round_.status == Round.Status.DRAFT:
            raise ServiceError(gettext("%(round)s is a draft: publish it first")
                               % {"round": round_})
        tables = list(Table.objects.filter(round=round_).order_by("number"))
        if not tables:
            raise ServiceError(gettext("%(round)s has no tables yet") % {"round": round_})
        devices = {device.number: device for device in TableDevice.objects.filter(
            tournament=tournament, number__in=[t.number for t in tables]
        ).select_related("user")}
        if token is not None and any(d.issue_token == token for d in devices.values()):
            return _slips_again(actor, token)
        issued = sorted(n for n, d in devices.items() if d.issued_at is not None)
        if issued and not replace:
            raise DevicesMadeAlready(gettext(
                "Tables %(tables)s have devices already: making them again gives them new "
                "passwords and API tokens, and the slips printed before stop working. Tick "
                "the box to make them again.") % {"tables": _numbers(issued)})
        now = timezone.now()
        slips, made = [], []
        for table in tables:
            device = devices.get(table.number)
            if device is not None and not_ours(tournament, device.user):
                _let_go(tournament, device)
                device = None
            password = _new_password()
            if device is None:
                user = get_user_model().objects.create_user(
                    username=_free_username(tournament, table.number), password=password)
                device = TableDevice.objects.create(tournament=tournament,
                                                    number=table.number, user=user)
                made.append(user.get_username())
            else:
                user = device.user
                user.set_password(password)
                user.is_active = True
                user.save(update_fields=["password", "is_active"])
            _make_scorer(tournament, user, table.number)
            api_token = DeviceToken.new_token()
            DeviceToken.objects.update_or_create(user=user, defaults={
                "digest": DeviceToken.digest_of(api_token), "last_used_at": None})
            TableBinding.objects.update_or_create(round=round_, user=user, defaults={
                "table": table, "bound_by": actor.user})
            device.issued_at, device.issue_token = now, token
            device.save(update_fields=["issued_at", "issue_token"])
            slips.append(DeviceSlip(table.number, user.get_username(), password, api_token))
        audit(actor, tournament, "device.create", round=round_.pk, tables=len(tables),
              round_name=round_name(round_), replaced=issued, new_accounts=made)
        if token is not None:
            # Kept before the commit: a second request with the token waits for this one's
            # locks, then finds the slips.
            cache.set(_slips_key(actor, token), slips, SLIPS_KEPT_SECONDS)
    return slips


def _slips_again(actor: Actor, token: uuid.UUID) -> list[DeviceSlip]:
    slips = cache.get(_slips_key(actor, token))
    if slips is None:
        raise ServiceError(gettext(
            "These devices were made a moment ago by the same form, and its answer holds "
            "their slips. If those slips are lost, make the devices again."))
    return slips


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _let_go(tournament, device: TableDevice) -> None:
    """A device account that is no longer the tournament's alone (it has a role elsewhere,
    or became an administrator): it stops being this tournament's device and scorer; the
    account itself is left as it is, since it is not ours to change."""
    StaffRole.objects.filter(tournament=tournament, user=device.user).delete()
    TableBinding.objects.filter(round__stage__tournament=tournament,
                                user=device.user).delete()
    forget_cached_roles(device.user)
    device.delete()


def _make_scorer(tournament, user, number: int) -> None:
    staff = StaffRole.objects.filter(tournament=tournament, user=user).first()
    if staff is None:
        StaffRole.objects.create(tournament=tournament, user=user, role=Role.SCORER)
    elif staff.role != Role.SCORER:  # given before devices were recorded as such
        raise ServiceError(gettext("%(user)s, the device of table %(n)s, is %(role)s here, not "
                                   "a scorer: remove that role first")
                           % {"user": user.get_username(), "n": number,
                              "role": staff.get_role_display()})
    forget_cached_roles(user)


def bind_table_devices(actor: Actor, round_: Round) -> int:
    """The tournament's devices bound to the same table numbers in this round (their
    passwords and tokens stay)."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_STAFF)
    bound = 0
    with transaction.atomic():
        round_ = lock(tournaments=[tournament.pk], rounds=[round_.pk]).one("rounds")
        devices = {device.number: device for device in TableDevice.objects.filter(
            tournament=tournament, issued_at__isnull=False,
            user__staff_roles__tournament=tournament, user__staff_roles__role=Role.SCORER)}
        for table in Table.objects.filter(round=round_).order_by("number"):
            device = devices.get(table.number)
            if device is None:
                continue
            TableBinding.objects.update_or_create(round=round_, user_id=device.user_id,
                                                  defaults={"table": table,
                                                            "bound_by": actor.user})
            bound += 1
        if bound:
            audit(actor, tournament, "device.bind_round", round=round_.pk, tables=bound,
                  round_name=round_name(round_))
    return bound
