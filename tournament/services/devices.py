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
table's results.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournament.audit_wording import round_name
from tournament.models import DeviceToken, Role, Round, StaffRole, Table, TableBinding
from tournament.permissions import Perm, forget_cached_roles, require
from tournament.prepared import prepared_rows
from tournament.selectors.visibility import sees_every_result
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.staff import _new_password


def check_table_for(actor: Actor, table: Table) -> None:
    """May this account work at this table now? A scorer: only at its table of the round,
    the first it opens becoming it. Raises PermissionDenied with the reason."""
    round_ = table.match.round
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
    username: str
    password: str
    token: str


def device_username(tournament, number: int) -> str:
    return f"{tournament.slug}-table-{number}"[:150]


def create_table_devices(actor: Actor, round_: Round) -> list[DeviceSlip]:
    """One scorer account per table of the round (made when missing), each with a new
    password and a new API token (earlier slips stop working), bound to its table."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_STAFF)
    if round_.status == Round.Status.CLOSED:
        raise ServiceError(gettext("%(round)s is closed: its tables need no devices")
                           % {"round": round_})
    User = get_user_model()
    slips = []
    with transaction.atomic():
        tables = list(Table.objects.filter(round=round_).select_related("match__round")
                      .order_by("number"))
        if not tables:
            raise ServiceError(gettext("%(round)s has no tables yet") % {"round": round_})
        for table in tables:
            username = device_username(tournament, table.number)
            user = User.objects.filter(username__iexact=username).first()
            password = _new_password()
            if user is None:
                user = User.objects.create_user(username=username, password=password)
            else:
                user.set_password(password)
                user.is_active = True
                user.save(update_fields=["password", "is_active"])
            staff = StaffRole.objects.filter(tournament=tournament, user=user).first()
            if staff is not None and staff.role != Role.SCORER:
                raise ServiceError(gettext("%(user)s is %(role)s here, not a table device")
                                   % {"user": username, "role": staff.get_role_display()})
            StaffRole.objects.get_or_create(tournament=tournament, user=user,
                                            defaults={"role": Role.SCORER})
            forget_cached_roles(user)
            token = DeviceToken.new_token()
            DeviceToken.objects.update_or_create(user=user, defaults={
                "digest": DeviceToken.digest_of(token), "last_used_at": None})
            TableBinding.objects.update_or_create(round=round_, user=user, defaults={
                "table": table, "bound_by": actor.user})
            slips.append(DeviceSlip(table.number, username, password, token))
        audit(actor, tournament, "device.create", round=round_.pk, tables=len(tables),
              round_name=round_name(round_))
    return slips


def bind_table_devices(actor: Actor, round_: Round) -> int:
    """The devices made for an earlier round, bound to the same table numbers in this one
    (their passwords and tokens stay)."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_STAFF)
    User = get_user_model()
    bound = 0
    with transaction.atomic():
        for table in Table.objects.filter(round=round_).order_by("number"):
            user = User.objects.filter(
                username__iexact=device_username(tournament, table.number),
                staff_roles__tournament=tournament, staff_roles__role=Role.SCORER).first()
            if user is None:
                continue
            TableBinding.objects.update_or_create(round=round_, user=user, defaults={
                "table": table, "bound_by": actor.user})
            bound += 1
        if bound:
            audit(actor, tournament, "device.bind_round", round=round_.pk, tables=bound,
                  round_name=round_name(round_))
    return bound
