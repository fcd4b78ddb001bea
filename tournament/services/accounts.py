"""What a tournament's staff may do to an account (issue 48; docs/roles.md, "Accounts").

One server hosts a federation's many events, and one event's staff never reach another's
accounts. So every service run by a tournament's staff that changes an account (its
password, whether it is active, its log-in lock, its device token) asks ``reach_refusal``
first: only an account that is the tournament's own may be changed, one that is

- no superuser and no member of the site's staff (``is_staff``, the admin site),
- without a role in any other tournament,
- and no table device of another tournament.

Giving an account a role grants no power over it: the staff page and the tournament file
add an existing account to the staff, but only a service that passes this check changes it.
A table device belongs to its tournament (``TableDevice``): no other tournament may give it
a role (``role_refusal``), and in its own tournament it is a scorer and nothing else.

A superuser (an administrator of the site) is bound by none of this.
"""

from __future__ import annotations

from axes.utils import reset as reset_login_failures
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from tournament.models import Role, StaffRole, TableDevice, Tournament
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.text import clean_text


def reach_refusal(actor: Actor, tournament: Tournament, user) -> str | None:
    """Why this tournament's staff may not change the account (None: they may; a superuser
    always may)."""
    if actor.user is not None and actor.user.is_superuser:
        return None
    return not_ours(tournament, user)


def not_ours(tournament: Tournament, user) -> str | None:
    """Why the account is not the tournament's own (None: it is), whoever asks: the test of
    a table device, which is never shared, even by an administrator."""
    return refusals_of(tournament, [user])[user.pk]


def reach_refusals(actor: Actor, tournament: Tournament, users) -> dict[int, str | None]:
    """``reach_refusal`` of several accounts at once (three queries, whatever their
    number): the staff page asks it of every locked account it lists."""
    if actor.user is not None and actor.user.is_superuser:
        return {user.pk: None for user in users}
    return refusals_of(tournament, users)


def refusals_of(tournament: Tournament, users) -> dict[int, str | None]:
    """The one rule: why each account is not the tournament's own (None: it is)."""
    users = list(users)
    pks = [user.pk for user in users]
    elsewhere = set(StaffRole.objects.filter(user_id__in=pks).exclude(
        tournament=tournament).values_list("user_id", flat=True))
    devices = dict(TableDevice.objects.filter(user_id__in=pks).values_list(
        "user_id", "tournament_id"))
    found = {}
    for user in users:
        name = user.get_username()
        if user.is_superuser or user.is_staff:
            found[user.pk] = gettext("%(username)s is an administrator of the site: only "
                                     "another administrator can change that account") % {
                "username": name}
        elif user.pk in elsewhere:
            found[user.pk] = gettext("%(username)s has a role in another tournament: only an "
                                     "administrator of the site can change that account") % {
                "username": name}
        elif devices.get(user.pk, tournament.pk) != tournament.pk:
            found[user.pk] = gettext("%(username)s is a table device of another "
                                     "tournament") % {"username": name}
        else:
            found[user.pk] = None
    return found


def role_refusal(tournament: Tournament, user, role: str) -> str | None:
    """Why the account may not have this role here (None: it may): a table device is a
    scorer of its own tournament and of no other."""
    device = TableDevice.objects.filter(user=user).first()
    if device is None:
        return None
    name = user.get_username()
    if device.tournament_id != tournament.pk:
        return gettext("%(username)s is a table device of another tournament: a device "
                       "account scores for its own tournament only") % {"username": name}
    if role != Role.SCORER:
        return gettext("%(username)s is the device of table %(n)s: a device account is a "
                       "scorer, nothing else") % {"username": name, "n": device.number}
    return None


def unlock_account(actor: Actor, tournament: Tournament, username: str) -> int:
    """Forget the failed log-ins of a staff account of this tournament, so it can log in
    again at once; returns how many failure records were cleared.

    A director unlocks an account of their own tournament's staff whose only roles are
    there (``reach_refusal``); a superuser any account. Failures from an address (not tied
    to the account) stay until their cool-off ends.
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
    refusal = reach_refusal(actor, tournament, user)
    if refusal is not None:
        raise ServiceError(refusal)
    with transaction.atomic():
        cleared = reset_login_failures(username=user.get_username())
        audit(actor, tournament, "account.unlock", user=user.pk,
              username=user.get_username(), cleared=cleared)
    return cleared
