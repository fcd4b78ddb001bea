"""The round clock's buttons on the progress page (issue 58; services/clock.py): pause,
resume, add time, the round's planned length, and one table's extension with a reason.
Each answers by going back to the progress page, with what was done or why it was not."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.models import Round, Table
from tournament.permissions import Perm
from tournament.services import Actor, ServiceError
from tournament.services.clock import (
    add_time,
    extend_table,
    pause_clock,
    resume_clock,
    set_planned_minutes,
)
from tournament.services.text import parse_whole_number
from tournament.views.access import staff_view


def _back(tournament, round_):
    return redirect("director:round_progress", tournament.slug, round_.pk)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def round_clock(request, tournament, pk):
    round_ = get_object_or_404(Round.objects.select_related("stage__tournament"), pk=pk,
                               stage__tournament=tournament)
    action = request.POST.get("action")
    actor = Actor.from_request(request)
    try:
        if action == "pause":
            pause_clock(actor, round_)
            messages.success(request, _("The clock is paused."))
        elif action == "resume":
            resume_clock(actor, round_)
            messages.success(request, _("The clock runs again."))
        elif action in ("add", "length"):
            minutes = parse_whole_number(request.POST.get("minutes"))
            if minutes is None:
                raise ServiceError(_("Give the minutes as a whole number, such as 5."))
            if action == "add":
                add_time(actor, round_, minutes)
                messages.success(request, _("%(n)s minutes added.") % {"n": minutes})
            else:
                set_planned_minutes(actor, round_, minutes)
                messages.success(request, _("The round lasts %(n)s minutes.") % {"n": minutes})
        elif action == "extend":
            _extend(request, actor, round_)
        else:
            raise ServiceError(_("Choose what to do with the clock."))
    except ServiceError as error:
        messages.error(request, error.message)
    return _back(tournament, round_)


def _extend(request, actor, round_) -> None:
    table_id = parse_whole_number(request.POST.get("table"))
    table = Table.objects.filter(round=round_, pk=table_id).first() if table_id else None
    if table is None:
        raise ServiceError(_("Choose a table of this round."))
    minutes = parse_whole_number(request.POST.get("minutes"))
    if minutes is None:
        raise ServiceError(_("Give the minutes as a whole number, such as 5."))
    try:
        extend_table(actor, table, minutes, request.POST.get("reason", ""))
    except ServiceError as error:
        raise ServiceError(_("Table %(n)s: %(why)s") % {"n": table.number,
                                                        "why": error.message}) from None
    messages.success(request, _("Table %(n)s may play %(m)s minutes longer.") % {
        "n": table.number, "m": minutes})
