"""Staff accounts: unlocking one that login throttling has locked (tournament/login_throttle.py)."""

from __future__ import annotations

from axes.utils import reset as reset_login_failures
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from tournament.models import StaffRole, Tournament
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.text import clean_text


def unlock_account(actor: Actor, tournament: Tournament, username: str) -> int:
    """Forget the failed log-ins of a staff account of this tournament, so it can log in
    again at once; returns how many failure records were cleared.

    A director unlocks the staff of their tournament; a superuser any account. Failures
    from an address (not tied to the account) stay until their cool-off ends.
    """
    require(actor.user, tournament, Perm.MANAGE_STAFF)
    try:
        username = clean_text(username, label=gettext_lazy("user name"),
                              max_length=150, required=True)
    except ValueError as error:
        raise ServiceError(str(error)) from None
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ServiceError(gettext("there is no account %(username)r") % {"username": username})
    if not actor.user.is_superuser and not StaffRole.objects.filter(
            tournament=tournament, user=user).exists():
        raise ServiceError(
            gettext("%(username)s is not on the staff of %(tournament)s")
            % {"username": username, "tournament": tournament.name})
    with transaction.atomic():
        cleared = reset_login_failures(username=user.get_username())
        audit(actor, tournament, "account.unlock", user=user.pk,
              username=user.get_username(), cleared=cleared)
    return cleared
