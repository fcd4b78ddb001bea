"""``/manage/<slug>/rounds/<id>/papers.pdf``: every paper of a round in one print (issue
58; tournament/pdf/round_papers.py). A GET prints what can be printed again (the draw, the
table cards, the deal sheets and box labels while the round's deals may be printed by this
user, the scorecards); a POST with "make the table devices" makes them as the devices
section's button does (services.devices, the same refusals and request token) and adds
their slips at the end: new passwords, shown once."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament.pdf.base import paper_asked
from tournament.pdf.deals import BoxLabels, DealSheet
from tournament.pdf.devices import DeviceSlips
from tournament.pdf.draw import DrawByTable, TableCards
from tournament.pdf.round_papers import joined
from tournament.pdf.scorecards import Scorecards
from tournament.permissions import Perm, perms_of
from tournament.selectors.boxes import round_boxes
from tournament.selectors.draw import round_plan
from tournament.services import Actor, ServiceError
from tournament.services.deals import record_download
from tournament.services.devices import create_table_devices
from tournament.views.access import staff_view
from tournament.views.director.rounds import _round


@staff_view(Perm.MANAGE_ROUNDS)
def round_papers(request, tournament, pk):
    round_ = _round(tournament, pk)
    paper_name = paper_asked(request)
    actor = Actor.from_request(request)
    slips = None
    if request.method == "POST" and request.POST.get("devices") == "on":
        try:
            slips = create_table_devices(actor, round_,
                                         request_token=request.POST.get("request_token"),
                                         replace=request.POST.get("replace") == "on")
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect(reverse("director:round_detail", args=[tournament.slug, round_.pk])
                            + "#print")
    plan = round_plan(round_)
    parts = [(_("Draw by table"), DrawByTable(plan, paper_name=paper_name).render()),
             (_("Table cards"), TableCards(plan, paper_name=paper_name).render())]
    boxes = round_boxes(round_, plan)
    if boxes.deals and Perm.VIEW_DEALS in perms_of(request.user, tournament):
        parts += [(_("Deal sheets"), DealSheet(boxes, paper_name=paper_name).render()),
                  (_("Box labels"), BoxLabels(boxes, paper_name=paper_name).render())]
        record_download(actor, round_, "everything", paper_name)

    def entry_url(table):
        return request.build_absolute_uri(
            reverse("director:table_entry", args=[tournament.slug, table.table.pk]))

    parts.append((_("Scorecards"), Scorecards(
        plan, entry_url=entry_url, paper_name=paper_name,
        title=_("Scorecards — %(round)s") % {"round": round_}).render()))
    if slips is not None:
        parts.append((_("Device slips"), DeviceSlips(
            slips, login_url=request.build_absolute_uri(reverse("terminal")),
            round_name=f"{round_.stage.shown_name} · {round_.label}",
            title=tournament.shown_name, paper_name=paper_name).render()))
    response = HttpResponse(joined(parts), content_type="application/pdf")
    name = slugify(f"{tournament.slug}-{round_.stage.name}-r{round_.number}-papers")
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response
