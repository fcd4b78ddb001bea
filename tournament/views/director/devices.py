"""The devices at the tables (issue 21; services.devices): a director makes one scorer
account per table of a round in one step and prints its slip; a director binds them to the
next round's tables; a referee or the director moves a scorer account to another table."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.models import Role, Round, Table
from tournament.pdf.base import paper_asked
from tournament.pdf.devices import DeviceSlips
from tournament.permissions import Perm
from tournament.services import Actor, ServiceError
from tournament.services.devices import bind_table_devices, create_table_devices, move_binding
from tournament.views.access import staff_view


def _round(tournament, pk) -> Round:
    return get_object_or_404(Round.objects.select_related("stage__tournament"), pk=pk,
                             stage__tournament=tournament)


@staff_view(Perm.MANAGE_STAFF)
@require_POST
def round_devices(request, tournament, pk):
    """New device accounts (or new passwords and tokens for them) for every table of the
    round, bound to their tables; the answer is their slips (shown once: print them). When
    the tables have devices already, the form's box says the earlier slips stop working;
    the same form sent twice (a double click) answers the same slips."""
    round_ = _round(tournament, pk)
    try:
        slips = create_table_devices(Actor.from_request(request), round_,
                                     request_token=request.POST.get("request_token"),
                                     replace=request.POST.get("replace") == "on")
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(reverse("director:round_detail", args=[tournament.slug, round_.pk])
                        + "#table-devices")
    # The terminal's address: its QR code signs the device in (pdf.devices.qr_link).
    pdf = DeviceSlips(slips, login_url=request.build_absolute_uri(reverse("terminal")),
                      round_name=f"{round_.stage.shown_name} · {round_.label}",
                      title=tournament.shown_name, paper_name=paper_asked(request)).render()
    response = HttpResponse(pdf, content_type="application/pdf")
    name = slugify(f"{tournament.slug}-{round_.stage.name}-r{round_.number}-devices")
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


@staff_view(Perm.MANAGE_STAFF)
@require_POST
def round_devices_bind(request, tournament, pk):
    """The devices of an earlier round to the same table numbers of this one."""
    round_ = _round(tournament, pk)
    bound = bind_table_devices(Actor.from_request(request), round_)
    if bound:
        messages.success(request, _("%(n)d table devices now score %(round)s.") % {
            "n": bound, "round": round_.label})
    else:
        messages.error(request, _("There are no table devices yet: make them first."))
    return redirect("director:round_detail", tournament.slug, round_.pk)


@staff_view(Perm.SIGN_OFF)
@require_POST
def binding_move(request, tournament, pk):
    """A referee or the director moves a scorer account to another table of the round."""
    round_ = _round(tournament, pk)
    user = get_user_model().objects.filter(
        pk=request.POST.get("user") if str(request.POST.get("user", "")).isdigit() else None,
        staff_roles__tournament=tournament, staff_roles__role=Role.SCORER).first()
    table = Table.objects.filter(
        pk=request.POST.get("table") if str(request.POST.get("table", "")).isdigit()
        else None, round=round_).first()
    if user is None or table is None:
        messages.error(request, _("Choose a scorer account and a table of this round."))
    else:
        try:
            move_binding(Actor.from_request(request), user, table)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(user)s now scores table %(n)d.") % {
                "user": user.get_username(), "n": table.number})
    return redirect("director:round_progress", tournament.slug, round_.pk)
