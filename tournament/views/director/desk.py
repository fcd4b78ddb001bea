"""Desk entry (issue 24): directors and referees type the paper scorecards with the keyboard.

``/manage/<slug>/rounds/<pk>/desk/`` picks a match or a box; ``…/matches/<pk>/desk/`` is a
match's two scorecards, ``…/rounds/<pk>/desk/box/<set>/<hand>/`` one box across the field.
Every row posts to ``…/desk/row/``: ``check`` explains what the engine makes of it,
otherwise it is saved by the same ``services.commands.enter`` as at the table (JSON for the
page's script, with the match's revision the save moved on; a redirect back without it).
"""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from scoring.shorthand import parse
from tournament.converters import LARGEST_ID
from tournament.models import Match, Round, Table
from tournament.permissions import Perm
from tournament.selectors.desk import box_rows, match_rows, shorthand_of
from tournament.selectors.results import is_correction, round_progress
from tournament.services import Actor, ServiceError
from tournament.services.desk import approve_on_paper, enter_line
from tournament.services.entry import new_request_token
from tournament.services.hands import HandEntry, score_entry, seat_points
from tournament.services.locking import shown_revision
from tournament.services.text import parse_whole_number
from tournament.views.access import staff_view
from tournament.wording import rule_message, score_text


def _round(tournament, pk) -> Round:
    round_ = get_object_or_404(Round.objects.select_related("stage__tournament"), pk=pk,
                               stage__tournament=tournament)
    if round_.status not in (Round.Status.IN_PLAY, Round.Status.CLOSED):
        raise Http404("results are typed once the round is in play")
    return round_


@staff_view(Perm.SIGN_OFF)
def desk_round(request, tournament, pk):
    """Which scorecard to type: a match by its number, or a box by its hand."""
    round_ = _round(tournament, pk)
    number = parse_whole_number(request.GET.get("match"))
    if number is not None:
        match = Match.objects.filter(round=round_, number=number).first()
        if match is not None:
            return redirect("director:desk_match", tournament.slug, match.pk)
        messages.error(request, _("%(round)s has no match %(n)d.") % {"round": round_,
                                                                       "n": number})
    hand = parse_whole_number(request.GET.get("hand"))
    if hand is not None:
        deal_set = parse_whole_number(request.GET.get("set")) or 1
        if not (1 <= hand <= LARGEST_ID and deal_set <= LARGEST_ID):
            raise Http404("no table plays that box")  # no address has that number
        return redirect("director:desk_box", tournament.slug, round_.pk, deal_set, hand)
    return render(request, "director/desk_round.html", {
        "tournament": tournament, "round": round_, "progress": round_progress(round_),
        "per_match": round_.rules.deal_scope == "match",
        "hands": range(1, round_.hands_per_match + 1),
    })


def _page(request, tournament, round_, rows, *, title, match=None, box=None):
    context = {
        "tournament": tournament, "round": round_, "rows": rows, "title": title,
        "match": match, "box": box, "token": new_request_token,
        "correcting": match is not None and is_correction(match),
    }
    if match is not None:
        context["revision"] = shown_revision(match, [row.table.table for row in rows
                                                     if row.hand == 1])
    return render(request, "director/desk.html", context)


@staff_view(Perm.SIGN_OFF)
def desk_match(request, tournament, pk):
    match = get_object_or_404(Match.objects.select_related("round__stage__tournament", "home",
                                                           "away"),
                              pk=pk, round__stage__tournament=tournament)
    round_ = _round(tournament, match.round_id)
    title = _("Match %(n)d: %(home)s – %(away)s") % {
        "n": match.number, "home": match.home.code, "away": match.away.code}
    return _page(request, tournament, round_, match_rows(match), title=title, match=match)


@staff_view(Perm.SIGN_OFF)
def desk_box(request, tournament, pk, deal_set, hand):
    round_ = _round(tournament, pk)
    rows = box_rows(round_, deal_set, hand)
    if not rows:
        raise Http404("no table plays that box")
    title = (_("Hand %(hand)d across the field") % {"hand": hand}
             if round_.rules.deal_scope != "match" else
             _("Hand %(hand)d of set %(set)d") % {"hand": hand, "set": deal_set})
    return _page(request, tournament, round_, rows, title=title,
                 box={"set": deal_set, "hand": hand})


def _explain(table: Table, typed: str) -> tuple[HandEntry, str]:
    """The entry a row's text makes and the engine's account of it; ``ServiceError``
    naming what is wrong."""
    try:
        shorthand = parse(typed)
    except RuleError as error:
        raise ServiceError(rule_message(error)) from None
    entry = HandEntry(**dataclasses.asdict(shorthand))  # the same figures, field by field
    rules = table.match.round.rules
    score = score_entry(entry, rules)
    first, second = seat_points(score, entry.declarer_seat)
    return entry, _("%(line)s · seat 1 %(first)+d, seat 2 %(second)+d") % {
        "line": score_text(score, rules), "first": first, "second": second}


@staff_view(Perm.SIGN_OFF)
@require_POST
def desk_row(request, tournament):
    """One row: explained (``check``) or saved as the table's enter command."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    table = get_object_or_404(Table.objects.select_related("match__round__stage__tournament",
                                                           "match__home", "match__away"),
                              pk=parse_whole_number(request.POST.get("table")) or 0,
                              round__stage__tournament=tournament)
    hand = parse_whole_number(request.POST.get("hand"))
    back = request.POST.get("back", "")
    if not back.startswith(reverse("director:dashboard", args=[tournament.slug])):
        back = reverse("director:desk_match", args=[tournament.slug, table.match_id])
    try:
        if hand is None or not 1 <= hand <= table.match.hands:
            raise ServiceError(_("match %(n)d has hands 1 to %(hands)d") % {
                "n": table.match.number, "hands": table.match.hands})
        entry, explained = _explain(table, request.POST.get("typed", ""))
        if request.POST.get("check"):
            return JsonResponse({"ok": True, "explained": explained})
        entered = enter_line(
            Actor.from_request(request), table, hand, entry,
            seen_version=parse_whole_number(request.POST.get("seen_version")) or 0,
            request_token=request.POST.get("request_token"))
    except ServiceError as error:
        if wants_json:
            # Answered, not failed: the page shows the reason in the line (a 4xx would be
            # logged by the browser as an error of the page).
            return JsonResponse({"ok": False, "error": error.message})
        messages.error(request, _("Table %(table)d, hand %(hand)s: %(error)s") % {
            "table": table.number, "hand": hand, "error": error.message})
        return redirect(back)
    result = entered.result
    if wants_json:
        # The match's revision this save moved on (before → after): the page's buttons
        # follow it from the revision they hold, never from another (desk.js).
        return JsonResponse({"ok": True, "explained": explained, "version": result.version,
                             "typed": shorthand_of(result).text,
                             "revision": {"from": entered.revision_before,
                                          "to": entered.revision_after},
                             "request_token": new_request_token()})
    messages.success(request, _("Table %(table)d, hand %(hand)d saved: %(explained)s") % {
        "table": table.number, "hand": hand, "explained": explained})
    return redirect(back)


@staff_view(Perm.SIGN_OFF)
@require_POST
def desk_on_paper(request, tournament, pk):
    """The referee records the players' approvals and signatures on the paper scorecard."""
    match = get_object_or_404(Match.objects.select_related("round__stage__tournament", "home",
                                                           "away"),
                              pk=pk, round__stage__tournament=tournament)
    _round(tournament, match.round_id)  # as its desk page: a draft's match is not there
    try:
        done = approve_on_paper(Actor.from_request(request), match,
                                revision=parse_whole_number(request.POST.get("revision")))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _(
            "Match %(n)d: the paper scorecards are recorded as approved and signed "
            "(%(approvals)d approvals, %(signatures)d signatures). Sign it off next.") % {
            "n": match.number, "approvals": done.approvals, "signatures": done.signatures})
    return redirect("director:desk_match", tournament.slug, match.pk)
