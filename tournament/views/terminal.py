"""The table terminal (issue 57; docs/terminal.md): a table's device opens at ``/device/``
straight on the table it scores and walks the table through the round one step at a time,
as a Bridgemate does: the hand and who deals, who declared and how, the deadwood on a
keypad (or the cards), the engine's reading in words, each player's approval (a tap, or a
PIN when the tournament asks for one), and at the end both signatures and where each
player goes next.

It is a page over the same doors as the table's entry page (views.entry): a hand is saved
and approved through the same URLs, by the same offline queue (entry_queue.js) and the
same commands; a PIN approval is the same JSON door. Its own doors here only read (the
reading of a hand typed so far) or do what the entry page does with a form (a signature,
answered in JSON)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_POST

from tournament.clock import clock_view
from tournament.forms import HandResultForm
from tournament.permissions import Perm, has_perm
from tournament.queue_keys import queue_key, queue_name
from tournament.reading import reading_of_result, reading_of_score
from tournament.selectors.draw import match_plan
from tournament.selectors.results import table_sheet
from tournament.selectors.terminal import (
    later_table,
    next_tables,
    shown_travellers,
    terminal_table,
)
from tournament.services import Actor, ServiceError, commands
from tournament.services.cards import settle_cards
from tournament.services.hands import score_entry
from tournament.views.access import staff_view
from tournament.views.entry import _entry_refused, _posted_number, _table
from tournament.wording import score_text

# The fields of a hand's save, as the entry page's form names them (HandResultForm).
SAVE_FIELDS = ("outcome", "declarer_seat", "declarer_deadwood", "opponent_deadwood",
               "false_knock_seat", "false_knock_deadwood", "declarer_cards", "opponent_cards",
               "declarer_melds", "seen_version", "request_token")
DONE = "terminal-done"  # the session's key: the table whose players are told where to go


def terminal(request):
    """The device's one page: its sign-in step when not logged in, else its table."""
    if not request.user.is_authenticated:
        response = render(request, "terminal/start.html", {})
    else:
        if request.GET.get("next"):
            request.session.pop(DONE, None)
            return redirect("terminal")
        table, finished = terminal_table(request.user, done=request.session.get(DONE))
        if table is None:
            response = render(request, "terminal/none.html", {})
        else:
            tournament = table.match.round.stage.tournament
            if not has_perm(request.user, tournament, Perm.ENTER_RESULTS):
                raise PermissionDenied("this account does not enter results")
            request.tournament = tournament
            with timezone.override(tournament.time_zone):
                response = render(request, "terminal/terminal.html",
                                  _context(request, tournament, table, finished))
    patch_cache_control(response, private=True, no_store=True)
    return response


def _context(request, tournament, table, finished: bool) -> dict:
    sheet = table_sheet(table)
    plan = next(t for t in match_plan(table.match).tables if t.number == table.number)
    approved = [row.hand for row in sheet.rows if row.fully_approved]
    # The terminal shows the traveller of the hand before the one on the screen: the last
    # hands approved are enough (four queries each).
    travellers = shown_travellers(request.user, table, approved[-2:])
    rows = [(row, reading_of_result(row.result) if row.result else "", travellers.get(row.hand))
            for row in sheet.rows]
    return {
        "tournament": tournament, "table": table, "match": table.match, "plan": plan,
        "sheet": sheet, "rows": rows, "finished": finished,
        "entry_refused": "" if finished else _entry_refused(request, table),
        "save_fields": SAVE_FIELDS,
        "next_tables": next_tables(table, plan.seats) if finished else [],
        "later_table": later_table(request.user, table) if finished else None,
        # The round clock (issue 58), as the big screen and the progress page show it.
        "clock": None if finished else clock_view(table.match.round, timezone.now()),
        "queue_name": queue_name(request.user), "queue_key": queue_key(request.user),
        "csrf_cookie_name": settings.CSRF_COOKIE_NAME,
    }


@staff_view(Perm.ENTER_RESULTS)
@require_POST
def hand_reading(request, tournament, pk, hand):
    """JSON: the engine's reading of the hand typed so far, in words (``reading``) and as
    the scorecard's line (``line``), or why it cannot be scored (``error``). Saves nothing
    and compares nothing with the box (as the entry page's preview)."""
    table = _table(request, tournament, pk, hand)
    refused = _entry_refused(request, table)
    if refused:
        return JsonResponse({"error": refused})
    form = HandResultForm(request.POST, prefix=f"h{hand}")
    if not form.is_valid():
        errors = [e for field_errors in form.errors.values() for e in field_errors]
        return JsonResponse({"error": " ".join(errors)})
    rules = table.match.round.rules
    try:
        if form.cards_mode:
            settled = settle_cards(form.cards(), rules, claimed=form.cleaned_data["outcome"])
            score, seat = settled.showdown.score, settled.entry.declarer_seat
            line = score_text(score, rules, laid_off=settled.laid_off)
        else:
            score, seat = score_entry(form.entry(), rules), form.cleaned_data["declarer_seat"]
            line = score_text(score, rules)
    except ServiceError as error:
        return JsonResponse({"error": error.message})
    return JsonResponse({"reading": reading_of_score(
        score, seat, form.cleaned_data["false_knock_seat"]), "line": line})


@staff_view(Perm.ENTER_RESULTS)
@require_POST
def table_sign(request, tournament, pk, seat):
    """JSON: a player signs the table as the terminal showed it (``revision``), by a tap or
    with a PIN (``commands.sign``, as the entry page's form)."""
    table = _table(request, tournament, pk)
    try:
        commands.sign(Actor.from_request(request), table.pk, seat,
                      revision=_posted_number(request, "revision"),
                      request_token=request.POST.get("request_token"),
                      pin=request.POST.get("pin"))
    except ServiceError as error:
        return JsonResponse({"ok": False, "error": error.message})
    if table.signatures.count() >= 2:
        request.session[DONE] = table.pk  # its players are told where they go next
    return JsonResponse({"ok": True})
