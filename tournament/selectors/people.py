"""Who a tournament's director manages: its teams with their players, and its staff (the
director's team and staff lists)."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from tournament.models import StaffRole, Team, Tournament


def teams_with_players(tournament: Tournament) -> QuerySet[Team]:
    """The tournament's teams, each with its players (two queries a page: the table's
    order and paging are its own)."""
    return tournament.teams.select_related("tournament").prefetch_related("players")


def staff_roles(tournament: Tournament) -> list[StaffRole]:
    """The tournament's staff roles, each with its account (one query), by role, then by
    user name with its numbers read as numbers: the device of table 2 before table 10's."""
    return sorted(tournament.staff.select_related("user", "tournament"),
                  key=lambda staff: (staff.role, _natural(staff.user.get_username())))


def _natural(name: str) -> tuple:
    """A name's sort key with its runs of digits compared as numbers ("table-2" before
    "table-10")."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
                 for part in re.split(r"(\d+)", name) if part)


def staff_usernames(tournament: Tournament) -> QuerySet:
    """The user names of the tournament's staff, as a query another one can hold (no query
    of its own: the staff page asks which of them are locked out in one)."""
    return tournament.staff.values_list("user__username", flat=True)


def staff_accounts_named(tournament: Tournament, names) -> list:
    """The accounts of the tournament's staff with these user names, by name (one query):
    the staff page's locked accounts."""
    return list(get_user_model().objects.filter(
        username__in=names, staff_roles__tournament=tournament).order_by("username"))
