"""The tournament's staff and their roles."""


from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms import (
    StaffForm,
)
from tournament.login_throttle import locked_usernames
from tournament.models import StaffRole
from tournament.permissions import Perm
from tournament.selectors.audit import creation_entry
from tournament.selectors.people import staff_accounts_named, staff_roles, staff_usernames
from tournament.services import Actor, ServiceError
from tournament.services.accounts import reach_refusals, unlock_account
from tournament.services.staff import assign_role, remove_role
from tournament.tables import StaffTable
from tournament.views.access import staff_view


@staff_view(Perm.MANAGE_STAFF)
def staff_list(request, tournament):
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            staff, password = assign_role(
                Actor.from_request(request), tournament, **form.cleaned_data
            )
        except ServiceError as error:
            form.add_service_error(error)
        else:
            if password:
                messages.warning(request, _(
                    "Account %(user)s created with the password %(password)s. "
                    "It is shown only once: hand it over now."
                ) % {"user": staff.user.get_username(), "password": password})
            else:
                messages.success(request, _("%(user)s is now %(role)s.") % {
                    "user": staff.user.get_username(), "role": staff.title,
                })
            return redirect("director:staff", tournament.slug)
    table = StaffTable(staff_roles(tournament))
    locked = _locked(request, tournament)
    # Who created the tournament: its audit entry names them (an administrator who did has
    # no role in the list below, being director everywhere).
    created = creation_entry(tournament)
    return render(request, "director/staff.html", {
        "tournament": tournament, "form": form, "table": table, "locked": locked,
        "created": created,
    })


def _locked(request, tournament) -> list[tuple[str, str | None]]:
    """The locked accounts of the staff, each with why this director may not unlock it
    (None: the Unlock button; services.accounts)."""
    names = locked_usernames(staff_usernames(tournament))
    if not names:
        return []
    users = staff_accounts_named(tournament, names)
    refusals = reach_refusals(Actor.from_request(request), tournament, users)
    return [(user.get_username(), refusals[user.pk]) for user in users]


@require_POST
@staff_view(Perm.MANAGE_STAFF)
def staff_remove(request, tournament, pk):
    staff = get_object_or_404(StaffRole.objects.select_related("user"), pk=pk,
                              tournament=tournament)
    try:
        remove_role(Actor.from_request(request), staff)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(user)s removed.") % {"user": staff.user.get_username()})
    return redirect("director:staff", tournament.slug)


@require_POST
@staff_view(Perm.MANAGE_STAFF)
def staff_unlock(request, tournament):
    username = request.POST.get("username", "")
    try:
        unlock_account(Actor.from_request(request), tournament, username)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(user)s can log in again.") % {"user": username})
    return redirect("director:staff", tournament.slug)
