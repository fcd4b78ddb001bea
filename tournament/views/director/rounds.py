"""One round for the director: review the draw, swap teams, line-ups, publish, print,
close."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms import LineupForm, PublishForm, SwapForm
from tournament.models import Round, RoundEntry, Tournament
from tournament.pdf.base import paper_asked
from tournament.pdf.draw import DrawByTable, DrawByTeam, TableCards
from tournament.permissions import Perm
from tournament.selectors.box_summaries import unbalanced_boxes
from tournament.selectors.devices import issued_devices, round_bindings
from tournament.selectors.draw import round_plan
from tournament.selectors.penalties import left_out
from tournament.selectors.results import round_progress
from tournament.selectors.rounds import has_deals, is_latest_round, previous_round, round_teams
from tournament.services import Actor, ServiceError
from tournament.services.rounds import (
    close_round,
    match_label,
    open_matches,
    publish_round,
    set_lineup,
    start_round,
    undo_round,
)
from tournament.services.swaps import check_swap, swap_teams
from tournament.views.access import staff_view


def _round(tournament, pk) -> Round:
    return get_object_or_404(Round.objects.select_related("stage__tournament"),
                             pk=pk, stage__tournament=tournament)


@staff_view(Perm.MANAGE_ROUNDS)
def round_detail(request, tournament, pk):
    round_ = _round(tournament, pk)
    swap_form = SwapForm(request.GET or None, teams=round_teams(round_))
    swap_check = None
    if "team_a" in request.GET and swap_form.is_valid():
        swap_check = check_swap(round_, swap_form.cleaned_data["team_a"],
                                swap_form.cleaned_data["team_b"])
    return _render_round(request, tournament, round_, swap_form=swap_form,
                         swap_check=swap_check)


def _render_round(request, tournament, round_, **extra):
    draft = round_.status == Round.Status.DRAFT
    # The round before is named only on a draft's page (publishing before it is finished).
    previous = previous_round(round_) if draft else None
    played = round_.status in (Round.Status.IN_PLAY, Round.Status.CLOSED)
    # The table devices' section is on the page of a round published or in play only.
    devices = round_.status in (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
    still_open = open_matches(round_) if round_.status == Round.Status.IN_PLAY else []
    withdrawn, sitting_out = left_out(round_)
    plan = round_plan(round_)
    context = {
        "tournament": tournament, "round": round_, "plan": plan,
        "withdrawn": withdrawn, "sitting_out": sitting_out,
        "previous": previous,
        "previous_open": previous is not None and bool(open_matches(previous)),
        "publish_form": PublishForm(),
        "swap_form": SwapForm(teams=round_teams(round_)),
        "is_latest": is_latest_round(round_),
        # Every match and its state (official ones with the score): "not started" before
        # play, as on every page (tournament.states). The draw's matches, read once.
        "progress": round_progress(round_, plan=plan),
        # Boxes that favoured one seat strongly: a hint for the chief referee.
        "unbalanced": unbalanced_boxes(round_) if played else [],
        "open_matches": [match_label(m) for m in still_open],
        "may_close": round_.status == Round.Status.IN_PLAY and not still_open,
        # The draw is public, but nobody outside the staff sees it yet.
        "public_hidden": round_.is_public and tournament.status == Tournament.Status.SETUP,
        "bindings": round_bindings(round_) if devices else [],
        # Making the devices again asks first: the slips printed before stop working.
        "issued_devices": issued_devices(round_) if devices else [],
        # "Start play" asks first when the boxes cannot come from this application.
        "has_deals": round_.status != Round.Status.PUBLISHED or has_deals(round_),
    }
    context.update(extra)
    return render(request, "director/round_detail.html", context)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def round_swap(request, tournament, pk):
    round_ = _round(tournament, pk)
    form = SwapForm(request.POST, teams=round_teams(round_))
    if form.is_valid():
        a, b = form.cleaned_data["team_a"], form.cleaned_data["team_b"]
        try:
            swap_teams(Actor.from_request(request), round_, a, b,
                       accept_warnings=form.cleaned_data["accept_warnings"])
        except ServiceError as error:
            return _render_round(request, tournament, round_, swap_form=form,
                                 swap_check=check_swap(round_, a, b), swap_error=error.message)
        messages.success(request, _("%(a)s and %(b)s swapped.") % {"a": a.code, "b": b.code})
        return redirect("director:round_detail", tournament.slug, round_.pk)
    return _render_round(request, tournament, round_, swap_form=form)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def round_publish(request, tournament, pk):
    round_ = _round(tournament, pk)
    form = PublishForm(request.POST)
    if form.is_valid():
        try:
            publish_round(Actor.from_request(request), round_,
                          override_reason=form.cleaned_data["override_reason"])
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("%(round)s published.") % {"round": round_.label})
            return redirect("director:round_detail", tournament.slug, round_.pk)
    return _render_round(request, tournament, round_, publish_form=form)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def round_start(request, tournament, pk):
    """Start play. A round without deals asks first whether its boxes are dealt elsewhere
    (the box on the round page); without that tick the service refuses it."""
    round_ = _round(tournament, pk)
    try:
        start_round(Actor.from_request(request), round_,
                    deals_elsewhere=request.POST.get("deals_elsewhere") == "on")
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Play has started in %(round)s.") % {"round": round_.label})
    return redirect("director:round_detail", tournament.slug, round_.pk)


@staff_view(Perm.MANAGE_ROUNDS)
def round_close(request, tournament, pk):
    """GET: what closing does, and which matches still keep the round open. POST: close."""
    round_ = _round(tournament, pk)
    if request.method == "POST":
        try:
            close_round(Actor.from_request(request), round_)
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("director:round_close", tournament.slug, round_.pk)
        messages.success(request, (_(
            "%(round)s closed. Its hand records are public; %(stage)s is complete.")
            if round_.stage.is_last_round(round_.number) else _(
            "%(round)s closed. Its hand records are public; the next round can be drawn."))
            % {"round": round_.label, "stage": round_.stage.shown_name})
        return redirect("director:round_detail", tournament.slug, round_.pk)
    still_open = open_matches(round_) if round_.status == Round.Status.IN_PLAY else []
    return render(request, "director/round_close.html", {
        "tournament": tournament, "round": round_, "open_matches": still_open,
        "may_close": round_.status == Round.Status.IN_PLAY and not still_open,
        "last_of_stage": round_.stage.is_last_round(round_.number),
    })


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def round_undo(request, tournament, pk):
    round_ = _round(tournament, pk)
    stage = round_.stage
    try:
        undo_round(Actor.from_request(request), round_)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("director:round_detail", tournament.slug, round_.pk)
    messages.success(request, _("%(round)s undone.") % {"round": round_.label})
    return redirect("director:stage_detail", tournament.slug, stage.pk)


@staff_view(Perm.MANAGE_ROUNDS)
def round_lineup(request, tournament, pk, team_pk):
    round_ = _round(tournament, pk)
    entry = get_object_or_404(
        RoundEntry.objects.select_related("team", "first_player", "second_player"),
        round=round_, team_id=team_pk, match__isnull=False,
    )
    form = LineupForm(request.POST or None, team=entry.team, initial={
        "first_player": entry.first_player, "second_player": entry.second_player})
    if request.method == "POST" and form.is_valid():
        try:
            set_lineup(Actor.from_request(request), round_, entry.team, **form.cleaned_data)
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Line-up of %(team)s saved.") % {"team": entry.team})
            return redirect("director:round_detail", tournament.slug, round_.pk)
    return render(request, "director/round_lineup.html", {
        "tournament": tournament, "round": round_, "entry": entry, "form": form,
    })


PRINTOUTS = {
    "draw-by-table": DrawByTable,
    "draw-by-team": DrawByTeam,
    "table-cards": TableCards,
}


@staff_view(Perm.MANAGE_ROUNDS)
def round_pdf(request, tournament, pk, kind):
    round_ = _round(tournament, pk)
    document = PRINTOUTS.get(kind)
    if document is None:
        raise Http404("no such printout")
    paper_name = paper_asked(request)
    pdf = document(round_plan(round_), paper_name=paper_name).render()
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"{slugify(tournament.slug)}-{slugify(round_.stage.name)}-r{round_.number}-{kind}"
    response["Content-Disposition"] = f'inline; filename="{filename}.pdf"'
    return response
