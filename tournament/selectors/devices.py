"""Which scorer account scores which table of a round, and the tournament's table devices
(services.devices keeps them)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from tournament.models import Role, Round, Table, TableBinding, TableDevice


def round_bindings(round_: Round) -> list[TableBinding]:
    """The round's bound scorer accounts, by table number (one query)."""
    return list(TableBinding.objects.filter(round=round_)
                .select_related("user", "table", "bound_by").order_by("table__number",
                                                                      "user__username"))


def round_tables(round_: Round) -> QuerySet[Table]:
    """The round's tables by number, those a scorer account may be moved to: a query set,
    one query when read."""
    return round_.tables.order_by("number")


def scorer_accounts(round_: Round):
    """The tournament's scorer accounts, by user name (one query)."""
    return (get_user_model().objects.filter(staff_roles__tournament_id=round_.stage
                                            .tournament_id, staff_roles__role=Role.SCORER)
            .order_by("username"))


def issued_devices(round_: Round) -> list[TableDevice]:
    """The tournament's devices of the round's table numbers whose slips were given out
    (making them again makes those slips stop working), by table number (one query)."""
    return list(TableDevice.objects.filter(
        tournament_id=round_.stage.tournament_id,
        number__in=Table.objects.filter(round=round_).values("number"),
        issued_at__isnull=False).select_related("user").order_by("number"))
