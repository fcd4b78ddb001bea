"""Giving and taking staff roles in a tournament.

Giving an existing account a role grants no power over the account itself
(``services.accounts``): nothing here changes its password, its activity or its lock.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from tournament.models import Role, StaffRole, Tournament
from tournament.permissions import Perm, forget_cached_roles, require
from tournament.services.accounts import role_refusal
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.text import clean_text


def _new_password() -> str:
    # Readable aloud at a venue desk: no 0/O or 1/l confusion.
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(4))


def _clean_username(username: str | None) -> str:
    """The user name as Django stores it, or a ServiceError saying what is wrong with it.

    Django's own rule (letters, digits and @ . + - _) after the check every name passes,
    which names an invisible or text-direction character by its code point. Django keeps
    user names NFKC-normalised, so the lookup uses that form too ("ﬁona" is "fiona").
    """
    try:
        username = clean_text(username, label=gettext_lazy("user name"),
                              max_length=150, required=True)
    except ValueError as error:
        raise ServiceError(str(error), field_errors={"username": [str(error)]}) from None
    username = get_user_model().normalize_username(username)
    if len(username) > 150:  # NFKC can lengthen a name: "ﷺ" is eighteen letters
        message = gettext("user name is longer than 150 characters")
        raise ServiceError(message, field_errors={"username": [message]})
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        message = (gettext("user name %(username)r may only contain letters, digits and "
                           "@ . + - _") % {"username": username})
        raise ServiceError(message, field_errors={"username": [message]}) from None
    return username


def assign_role(
    actor: Actor, tournament: Tournament, *, username: str, role: str,
    is_chief_referee: bool = False, create_account: bool = False,
) -> tuple[StaffRole, str | None]:
    """Give a user a role here (replacing any other); returns the role and, for a new
    account, its one-time password."""
    require(actor.user, tournament, Perm.MANAGE_STAFF)
    username = _clean_username(username)
    if role not in Role.values:
        raise ServiceError(gettext("unknown role %(role)r") % {"role": role})
    if is_chief_referee and role != Role.REFEREE:
        raise ServiceError(gettext("only a referee can be the chief referee"))
    User = get_user_model()
    password = None
    with transaction.atomic():
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            if not create_account:
                raise ServiceError(
                    gettext("there is no account %(username)r; tick 'create account'")
                    % {"username": username})
            password = _new_password()
            user = User.objects.create_user(username=username, password=password)
        if user == actor.user and role != Role.DIRECTOR and not user.is_superuser:
            raise ServiceError(gettext("you cannot take your own director role away"))
        refusal = role_refusal(tournament, user, role)
        if refusal is not None:
            raise ServiceError(refusal, field_errors={"username": [refusal]})
        staff, _created = StaffRole.objects.update_or_create(
            tournament=tournament, user=user,
            defaults={"role": role, "is_chief_referee": is_chief_referee},
        )
        forget_cached_roles(user)
        audit(actor, tournament, "staff.assign", user=user.pk, role=role,
              chief=is_chief_referee, username=user.get_username(), new_account=bool(password))
    return staff, password


def remove_role(actor: Actor, staff: StaffRole) -> None:
    tournament = staff.tournament
    require(actor.user, tournament, Perm.MANAGE_STAFF)
    if staff.user == actor.user:
        raise ServiceError(gettext("you cannot remove your own role"))
    with transaction.atomic():
        name = staff.user.get_username()
        staff.delete()
        forget_cached_roles(staff.user)
        audit(actor, tournament, "staff.remove", username=name)
