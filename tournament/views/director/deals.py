"""The deals for the director: key and commitment, making deals, reserve deals, printouts.

Every page here needs VIEW_DEALS (directors only): deals are secret until their round
closes. Each printout download is recorded.
"""

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournament.forms import ServiceErrorsMixin
from tournament.models import Round
from tournament.pdf.base import paper_asked
from tournament.pdf.deals import BoxLabels, DealSheet, PackingList
from tournament.permissions import Perm
from tournament.selectors.boxes import round_boxes
from tournament.selectors.hand_records import deals_of_round
from tournament.selectors.keys import deal_keys
from tournament.selectors.rounds import tournament_rounds
from tournament.services import Actor, ServiceError
from tournament.services.deals import (
    generate_deals,
    new_key,
    record_download,
    replace_deal,
    reveal_key,
    set_public_value,
)
from tournament.views.access import staff_view


class PublicValueForm(ServiceErrorsMixin, forms.Form):
    public_value = forms.CharField(
        label=gettext_lazy("Public value"), max_length=200,
        help_text=gettext_lazy("A value nobody could know in advance, announced just before "
                               "the deals are made, e.g. tonight's lottery numbers."),
    )


class ReplaceDealForm(ServiceErrorsMixin, forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500)


@staff_view(Perm.VIEW_DEALS)
def deal_key(request, tournament):
    """Every key of the tournament; the secret one takes a public value before its first
    deal and is revealed once the rounds it dealt are closed. Opening the page never makes
    a key: that is a POST (``deal_key_new``) or the first deal after a reveal."""
    form = PublicValueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            set_public_value(Actor.from_request(request), tournament,
                             form.cleaned_data["public_value"])
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Public value saved; it goes into every deal of the "
                                        "secret key."))
            return redirect("director:deal_key", tournament.slug)
    keys = deal_keys(tournament)
    secret = next((record for record in keys if not record.key.is_revealed), None)
    return render(request, "director/deal_key.html", {
        "tournament": tournament, "keys": keys, "secret": secret, "form": form,
        "rounds": tournament_rounds(tournament),
    })


@staff_view(Perm.VIEW_DEALS)
@require_POST
def deal_key_new(request, tournament):
    try:
        key = new_key(Actor.from_request(request), tournament)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Key %(n)d made; its commitment is public now.") % {
            "n": key.number})
    return redirect("director:deal_key", tournament.slug)


@staff_view(Perm.VIEW_DEALS)
@require_POST
def deal_key_reveal(request, tournament):
    if request.POST.get("confirm") != "yes":  # a revealed key is never secret again
        messages.error(request, _("Tick the box to confirm: a revealed key cannot be made "
                                  "secret again. Nothing was revealed."))
        return redirect("director:deal_key", tournament.slug)
    try:
        key = reveal_key(Actor.from_request(request), tournament)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Key %(n)d is public now; anyone can check its deals. "
                                    "Later deals come from a new key.") % {"n": key.number})
    return redirect("director:deal_key", tournament.slug)


def _round(tournament, pk) -> Round:
    return get_object_or_404(Round.objects.select_related("stage__tournament"),
                             pk=pk, stage__tournament=tournament)


@staff_view(Perm.VIEW_DEALS)
def round_deals(request, tournament, pk):
    round_ = _round(tournament, pk)
    deals = deals_of_round(round_, with_keys=True)
    return render(request, "director/round_deals.html", {
        "tournament": tournament, "round": round_, "deals": deals,
        "replace_form": ReplaceDealForm(),
    })


@staff_view(Perm.VIEW_DEALS)
@require_POST
def round_deals_generate(request, tournament, pk):
    round_ = _round(tournament, pk)
    try:
        made = generate_deals(Actor.from_request(request), round_)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(n)d deals made.") % {"n": len(made)})
    return redirect("director:round_deals", tournament.slug, round_.pk)


@staff_view(Perm.VIEW_DEALS)
@require_POST
def deal_replace(request, tournament, pk, deal_pk):
    round_ = _round(tournament, pk)
    deal = get_object_or_404(round_.deals, pk=deal_pk)
    form = ReplaceDealForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the reason for replacing the deal."))
    else:
        try:
            new = replace_deal(Actor.from_request(request), deal, form.cleaned_data["reason"])
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Hand %(hand)d now uses reserve deal %(n)d.") % {
                "hand": new.hand, "n": new.reserve})
    return redirect("director:round_deals", tournament.slug, round_.pk)


PRINTOUTS = {
    "deal-sheet": (DealSheet, gettext_lazy("deal sheet")),
    "box-labels": (BoxLabels, gettext_lazy("box labels")),
    "packing-list": (PackingList, gettext_lazy("packing list")),
}


@staff_view(Perm.VIEW_DEALS)
def round_deals_pdf(request, tournament, pk, kind):
    round_ = _round(tournament, pk)
    if kind not in PRINTOUTS:
        raise Http404("no such printout")
    document, _what = PRINTOUTS[kind]
    boxes = round_boxes(round_)
    if not boxes.deals:
        messages.error(request, _("Make the deals of this round first."))
        return redirect("director:round_deals", tournament.slug, round_.pk)
    paper_name = paper_asked(request)
    pdf = document(boxes, paper_name=paper_name).render()
    record_download(Actor.from_request(request), round_, kind, paper_name)
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"{slugify(tournament.slug)}-{slugify(round_.stage.name)}-r{round_.number}-{kind}"
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response
