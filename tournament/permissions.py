"""Who may do what: the one place every view and service asks.

Staff roles are per tournament (Director, Referee with a chief-referee flag, Scorer); a
superuser is director everywhere. Views call ``has_perm`` to decide what to show and
services call ``require`` before they change anything, so a forged request gets no further
than a hidden button.
"""

from __future__ import annotations

import enum

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from tournament.models import Role, StaffRole, Tournament


class Perm(enum.StrEnum):
    VIEW_STAFF_AREA = "view_staff_area"
    EDIT_TOURNAMENT = "edit_tournament"
    MANAGE_TEAMS = "manage_teams"
    MANAGE_STAFF = "manage_staff"
    MANAGE_ROUNDS = "manage_rounds"
    VIEW_DEALS = "view_deals"
    ENTER_RESULTS = "enter_results"
    SIGN_OFF = "sign_off"
    CORRECT_SIGNED_RESULT = "correct_signed_result"
    RECORD_PENALTY = "record_penalty"
    DISQUALIFY = "disqualify"
    VIEW_AUDIT = "view_audit"


_SCORER = frozenset({Perm.VIEW_STAFF_AREA, Perm.ENTER_RESULTS})
_REFEREE = _SCORER | {
    Perm.SIGN_OFF, Perm.CORRECT_SIGNED_RESULT, Perm.RECORD_PENALTY, Perm.VIEW_AUDIT,
}
_CHIEF_REFEREE = _REFEREE | {Perm.DISQUALIFY}
_DIRECTOR = frozenset(Perm)

ROLE_PERMS: dict[str, frozenset[Perm]] = {
    Role.SCORER: _SCORER,
    Role.REFEREE: _REFEREE,
    Role.DIRECTOR: _DIRECTOR,
}

_CACHE_ATTR = "_dupgin_staff_roles"


def staff_role(user, tournament: Tournament) -> StaffRole | None:
    """The user's role in this tournament, cached on the user object for the request."""
    if not user.is_authenticated:
        return None
    cache = user.__dict__.setdefault(_CACHE_ATTR, {})
    if tournament.pk not in cache:
        cache[tournament.pk] = StaffRole.objects.filter(user=user, tournament=tournament).first()
    return cache[tournament.pk]


def perms_of(user, tournament: Tournament) -> frozenset[Perm]:
    if not user.is_authenticated or not user.is_active:
        return frozenset()
    if user.is_superuser:
        return _DIRECTOR
    role = staff_role(user, tournament)
    if role is None:
        return frozenset()
    if role.role == Role.REFEREE and role.is_chief_referee:
        return _CHIEF_REFEREE
    return ROLE_PERMS[role.role]


def has_perm(user, tournament: Tournament, perm: Perm) -> bool:
    return perm in perms_of(user, tournament)


def require(user, tournament: Tournament, perm: Perm) -> None:
    """Raise PermissionDenied unless the user holds ``perm`` in this tournament."""
    if not has_perm(user, tournament, perm):
        raise PermissionDenied(
            _("You are not allowed to do this in %(tournament)s.") % {"tournament": tournament}
        )


def can_create_tournament(user) -> bool:
    return user.is_authenticated and user.is_active and (
        user.is_superuser or user.has_perm("tournament.add_tournament")
    )


def staff_tournaments(user):
    """Tournaments in which the user has a staff area (all of them for a superuser)."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(staff__user=user).distinct()


def forget_cached_roles(user) -> None:
    user.__dict__.pop(_CACHE_ATTR, None)
