"""Result entry: one screen per table, the match page with its history, the round dashboard.

Keyboard-first on a desk, thumb-friendly on a phone; with htmx a saved hand or a points
preview replaces only its own row. Every change goes through the services (``entry``,
``approvals``, ``signoff``, ``extra_hands``); a match's state is read in
``selectors.results``.
"""

import re
import uuid

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.clock import clock_view
from tournament.forms import HandResultForm
from tournament.models import Match, Player, Round, Table
from tournament.pdf.base import paper_asked
from tournament.pdf.scorecards import ResultSlips, Scorecards
from tournament.permissions import Perm, has_perm
from tournament.prepared import prepared_rows
from tournament.queue_keys import queue_key, queue_name
from tournament.selectors.anomalies import conflicts_shown, result_anomalies
from tournament.selectors.audit import match_history
from tournament.selectors.clock import tables_still_playing
from tournament.selectors.devices import round_bindings, round_tables, scorer_accounts
from tournament.selectors.draw import match_plan, round_plan
from tournament.selectors.match_states import state_of_match
from tournament.selectors.penalties import match_penalties
from tournament.selectors.results import (
    is_correction,
    pin_alerts,
    round_progress,
    round_totals,
    table_sheet,
    tied_knockout,
    version_saved_by,
)
from tournament.selectors.visibility import result_view
from tournament.services import Actor, ServiceError, commands
from tournament.services.base import Stale
from tournament.services.cards import settle_cards
from tournament.services.devices import bound_table, check_table_for
from tournament.services.entry import StaleResult, check_may_enter, new_request_token
from tournament.services.extra_hands import add_extra_hands
from tournament.services.hands import score_entry
from tournament.services.locking import shown_revision
from tournament.services.pins import lift_pin_lock
from tournament.services.request_tokens import TokenReused
from tournament.services.rounds import open_matches
from tournament.services.text import parse_whole_number
from tournament.views.access import staff_view
from tournament.views.entry_queue import refused_for_another_account
from tournament.wording import score_text


def _round_or_404(request, tournament, round_: Round) -> Round:
    """A draw is secret until it is published, except to directors."""
    if round_.status == Round.Status.DRAFT and not has_perm(request.user, tournament,
                                                            Perm.MANAGE_ROUNDS):
        raise Http404("no such round")
    return round_


def _table(request, tournament, pk, hand: int | None = None) -> Table:
    """A table of the URL's tournament that this device may score (see ``_own_table``)."""
    # An entry screen asks for its table at every save: SQL built once (tournament.prepared).
    found = prepared_rows("entry-table", _table_of, [pk, tournament.pk])
    if not found:
        raise Http404("no such table in this tournament")
    table = found[0]
    _round_or_404(request, tournament, table.match.round)
    if hand is not None and not 1 <= hand <= table.match.hands:
        raise Http404(f"the match has hands 1 to {table.match.hands}")
    _own_table(request, table)
    return table


def _table_of(pk: int, tournament: int):
    return (Table.objects.select_related("match__round__stage__tournament", "match__home",
                                         "match__away")
            .filter(pk=pk, round__stage__tournament_id=tournament).order_by())


def _own_table(request, table: Table) -> None:
    """A scorer account scores its one table of the round (services.devices: kept in the
    database, so that logging in again keeps it); referees and directors open any table."""
    check_table_for(Actor.from_request(request), table)


def _own_table_id(request, round_: Round) -> int | None:
    table = bound_table(request.user, round_)
    return table.pk if table is not None else None


def _posted_number(request, name: str) -> int | None:
    return parse_whole_number(request.POST.get(name))


def _form_for(row, data=None):
    initial = {"seen_version": row.version, "request_token": new_request_token()}
    if row.result is not None:
        result = row.result
        initial.update(
            outcome="knock" if result.outcome == "undercut" else result.outcome,
            declarer_seat=result.declarer_seat, declarer_deadwood=result.declarer_deadwood,
            opponent_deadwood=result.opponent_deadwood,
            false_knock_seat=result.false_knock_seat,
            false_knock_deadwood=result.false_knock_deadwood,
        )
    return HandResultForm(data, initial=initial, prefix=f"h{row.hand}")


def _context(request, tournament, table, **extra):
    sheet = table_sheet(table)
    plan = next(t for t in match_plan(table.match).tables if t.number == table.number)
    forms = {row.hand: _form_for(row) for row in sheet.rows}
    forms.update(extra.pop("forms", {}))
    return {
        "tournament": tournament, "table": table, "match": table.match, "plan": plan,
        "sheet": sheet, "rows": [(row, forms[row.hand]) for row in sheet.rows],
        "correcting": is_correction(table.match), "entry_refused": _entry_refused(request, table),
        # The queue of commands not sent yet (entry_queue.js): this account's, encrypted.
        "queue_name": queue_name(request.user), "queue_key": queue_key(request.user),
        "csrf_cookie_name": settings.CSRF_COOKIE_NAME,
        **extra,
    }


def _entry_refused(request, table) -> str:
    """Why this user may not enter results at this table now ("" when they may)."""
    try:
        check_may_enter(Actor.from_request(request), table)
    except (ServiceError, PermissionDenied) as error:
        return getattr(error, "message", str(error))
    return ""


@staff_view(Perm.ENTER_RESULTS)
def table_entry(request, tournament, pk):
    table = _table(request, tournament, pk)
    return render(request, "entry/table.html", _context(request, tournament, table))


@staff_view(Perm.ENTER_RESULTS)
@require_POST
def hand_save(request, tournament, pk, hand):
    refused = refused_for_another_account(request)  # before the table is read or bound
    if refused is not None:
        return refused
    table = _table(request, tournament, pk, hand)
    form = HandResultForm(request.POST, prefix=f"h{hand}")
    saved = stale = None
    if form.is_valid():
        try:
            saved = commands.enter(Actor.from_request(request), table.pk, hand,
                                   form.cards() if form.cards_mode else form.entry(),
                                   seen_version=form.cleaned_data["seen_version"],
                                   request_token=form.cleaned_data["request_token"],
                                   reason=form.cleaned_data["reason"]).result
        except StaleResult as error:
            form.add_error(None, error.message)
            stale = error
        except TokenReused as error:
            # Another command's token (a form the browser kept, say): what was typed stays,
            # with a new token, so that saving it again is a command of its own.
            data = request.POST.copy()
            data[f"h{hand}-request_token"] = new_request_token()
            form = HandResultForm(data, prefix=f"h{hand}")
            form.is_valid()
            form.add_service_error(error)
        except ServiceError as error:
            form.add_service_error(error)
    if request.htmx:
        # Only this hand's row goes back: the rest of the screen stays as it is.
        table = _table(request, tournament, table.pk)  # a correction clears the sign-off
        sheet = table_sheet(table)
        row = sheet.rows[hand - 1]
        response = render(request, "entry/hand_row.html", {
            "tournament": tournament, "table": table, "sheet": sheet, "row": row,
            "form": _form_for(row) if saved else form, "just_saved": bool(saved),
            "correcting": is_correction(table.match),
            "entry_refused": _entry_refused(request, table),
        })
        # For the page's queue of commands not sent yet (entry_queue.js): what came of
        # this one, without reading the row's words.
        if saved is not None:
            response["X-Saved-Version"] = str(saved.version)
        elif stale is not None:
            response["X-Stale-Version"] = str(stale.current.version if stale.current else 0)
        return response
    if saved:
        messages.success(request, _("Hand %(hand)d saved.") % {"hand": hand})
        return redirect("director:table_entry", tournament.slug, table.pk)
    return render(request, "entry/table.html",
                  _context(request, tournament, table, forms={hand: form}))


@staff_view(Perm.ENTER_RESULTS)
@require_POST
def hand_preview(request, tournament, pk, hand):
    """The points of the fields typed so far, before anything is saved: by the rules alone,
    never compared with the box (services.cards.settle_cards)."""
    table = _table(request, tournament, pk, hand)
    refused = _entry_refused(request, table)
    if refused:
        return render(request, "entry/preview.html", {"error": refused})
    form = HandResultForm(request.POST, prefix=f"h{hand}")
    if not form.is_valid():
        return HttpResponse("")
    try:
        if form.cards_mode:
            rules = table.match.round.rules
            settled = settle_cards(form.cards(), rules, claimed=form.cleaned_data["outcome"])
            return render(request, "entry/preview.html", {"summary": score_text(
                settled.showdown.score, rules, laid_off=settled.laid_off)})
        score = score_entry(form.entry(), table.match.round.rules)
    except ServiceError as error:
        return render(request, "entry/preview.html", {"error": error.message})
    return render(request, "entry/preview.html",
                  {"summary": score_text(score, table.match.round.rules)})


@staff_view(Perm.ENTER_RESULTS)
@require_POST
def hand_approve(request, tournament, pk, hand, seat):
    """A player approves the version of the hand the screen showed (``version``), or the
    version a save of this device made (``entry_token``, its request token: an approval
    queued while the save was not sent yet). JSON for the page's queue."""
    refused = refused_for_another_account(request)  # before the table is read or bound
    if refused is not None:
        return refused
    table = _table(request, tournament, pk, hand)
    version = _posted_number(request, "version")
    entry_token = request.POST.get("entry_token")
    if version is None and entry_token:
        version = version_saved_by(table, hand, _uuid_or_none(entry_token))
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        if version is None:
            raise ServiceError(_("The save this approval was for has not reached the "
                                 "server: nothing was approved."))
        commands.approve(Actor.from_request(request), table.pk, hand, seat, version=version,
                         request_token=request.POST.get("request_token"),
                         pin=request.POST.get("pin"))
    except ServiceError as error:
        if wants_json:
            return JsonResponse({"ok": False, "error": error.message,
                                 "stale": isinstance(error, Stale)})
        messages.error(request, error.message)
    else:
        if wants_json:
            return JsonResponse({"ok": True, "version": version})
    return redirect("director:table_entry", tournament.slug, table.pk)


def _uuid_or_none(text: str):
    try:
        return uuid.UUID(text)
    except ValueError:
        return None


@staff_view(Perm.ENTER_RESULTS)
@require_POST
def table_sign(request, tournament, pk, seat):
    """A player signs the table as the screen showed it (``revision``)."""
    table = _table(request, tournament, pk)
    try:
        commands.sign(Actor.from_request(request), table.pk, seat,
                      revision=_posted_number(request, "revision"),
                      request_token=request.POST.get("request_token"),
                      pin=request.POST.get("pin"))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Seat %(seat)d signed table %(table)d.") % {
            "seat": seat, "table": table.number})
    return redirect("director:table_entry", tournament.slug, table.pk)


@staff_view(Perm.ENTER_RESULTS)
def match_page(request, tournament, pk):
    match = get_object_or_404(Match.objects.select_related("round__stage__tournament", "home",
                                                           "away"),
                              pk=pk, round__stage__tournament=tournament)
    round_ = _round_or_404(request, tournament, match.round)
    view = result_view(request.user, round_, own_table=_own_table_id(request, round_))
    plan = match_plan(match)
    sheets = [(table, table_sheet(table.table, view)) for table in plan.tables]
    may_see_history = has_perm(request.user, tournament, Perm.VIEW_AUDIT)
    history = match_history(tournament, match) if may_see_history else []
    may_sign_off = has_perm(request.user, tournament, Perm.SIGN_OFF)
    may_record_penalty = has_perm(request.user, tournament, Perm.RECORD_PENALTY)
    forfeited_by = {match.home_id: match.home, match.away_id: match.away}.get(
        match.forfeited_by_id)
    return render(request, "entry/match.html", {
        "tournament": tournament, "match": match, "plan": plan, "sheets": sheets,
        "history": history, "may_sign_off": may_sign_off, "forfeited_by": forfeited_by,
        "may_record_penalty": may_record_penalty, "state": state_of_match(match),
        "penalties": match_penalties(match) if may_record_penalty else [],
        "shows_score": not any(sheet.hides_some for _table, sheet in sheets),
        # "(false knock at 23)" explained below the tables, when a result shown says it.
        "false_knock_note": any(row.result is not None
                                and row.result.false_knock_deadwood is not None
                                for _table, sheet in sheets for row in sheet.rows),
        "tied_knockout": may_sign_off and tied_knockout(match),
        # What a sign-off names: the match as this page shows it.
        "revision": shown_revision(match, [t.table for t in plan.tables]),
    })


@staff_view(Perm.SIGN_OFF)
@require_POST
def match_extra_hands(request, tournament, pk):
    match = get_object_or_404(Match.objects.select_related("round"), pk=pk,
                              round__stage__tournament=tournament)
    _round_or_404(request, tournament, match.round)  # as the match page: a draft's is hidden
    try:
        match = add_extra_hands(Actor.from_request(request), match)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Match %(n)d goes on to hand %(hands)d.") % {
            "n": match.number, "hands": match.hands})
    return redirect("director:match_page", tournament.slug, match.pk)


@staff_view(Perm.SIGN_OFF)
@require_POST
def match_sign_off(request, tournament, pk):
    """The referee signs the match off as the page showed it (``revision``)."""
    match = get_object_or_404(Match, pk=pk, round__stage__tournament=tournament)
    try:
        commands.sign_off(Actor.from_request(request), match.pk,
                          revision=_posted_number(request, "revision"),
                          request_token=request.POST.get("request_token"))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Match %(n)d is official.") % {"n": match.number})
    return redirect("director:match_page", tournament.slug, match.pk)


@staff_view(Perm.ENTER_RESULTS)
def round_progress_page(request, tournament, pk):
    """Every match of the round: hands entered, awaiting approval, signatures, sign-off."""
    round_ = get_object_or_404(Round.objects.select_related("stage"), pk=pk,
                               stage__tournament=tournament)
    _round_or_404(request, tournament, round_)
    progress = round_progress(round_)
    referee = has_perm(request.user, tournament, Perm.SIGN_OFF)
    # A director is offered to close the round once every match is decided.
    may_close = (round_.status == Round.Status.IN_PLAY
                 and has_perm(request.user, tournament, Perm.MANAGE_ROUNDS)
                 and not open_matches(round_))
    template = "entry/progress_rows.html" if request.htmx else "entry/progress.html"
    devices = {} if request.htmx or not referee else {
        "bindings": round_bindings(round_), "scorers": scorer_accounts(round_),
        "tables": round_tables(round_)}
    now = timezone.now()
    clock = clock_view(round_, now)
    timing = {"clock": clock, "may_run_clock": round_.status == Round.Status.IN_PLAY
              and has_perm(request.user, tournament, Perm.MANAGE_ROUNDS),
              "late_tables": [t for t in tables_still_playing(round_, now) if t.up]
              if clock is not None and clock.seconds_left <= 0 else []}
    return render(request, template, {"tournament": tournament, "round": round_, **devices,
                                      **timing,
                                      "progress": progress, "pin_alerts": pin_alerts(round_),
                                      "may_close": may_close,
                                      "may_lift_pin_locks": referee,
                                      # They tell how boxes still in play went
                                      # elsewhere: never for a scorer.
                                      # That an entry contradicts its box, and which
                                      # cards: for a director, or once the round is
                                      # closed (selectors.anomalies.conflicts_shown).
                                      "anomalies": result_anomalies(
                                          round_, tournament=tournament,
                                          conflicts=conflicts_shown(request.user, round_))
                                      if referee else None})


@staff_view(Perm.SIGN_OFF)
@require_POST
def player_pin_unlock(request, tournament, pk):
    """A referee lifts a player's PIN lock from the round's progress page."""
    player = get_object_or_404(Player.objects.select_related("team__tournament"), pk=pk,
                               team__tournament=tournament)
    try:
        lift_pin_lock(Actor.from_request(request), player)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s can type their PIN again.") % {
            "name": player.name})
    # Back to the progress page the button was on (the form names its round).
    round_id = request.POST.get("round", "")
    round_ = (Round.objects.filter(pk=int(round_id), stage__tournament=tournament).first()
              if re.fullmatch(r"[0-9]{1,12}", round_id) else None)
    if round_ is None:
        return redirect("director:dashboard", tournament.slug)
    return redirect("director:round_progress", tournament.slug, round_.pk)


@staff_view(Perm.MANAGE_ROUNDS)
def round_scorecards(request, tournament, pk, kind):
    """Scorecards for every table, a blank scorecard, or the match result slips."""
    round_ = get_object_or_404(Round.objects.select_related("stage__tournament"), pk=pk,
                               stage__tournament=tournament)
    paper_name = paper_asked(request)
    plan = round_plan(round_)
    if kind == "scorecards":
        def entry_url(table):
            return request.build_absolute_uri(
                reverse("director:table_entry", args=[tournament.slug, table.table.pk]))

        document = Scorecards(plan, entry_url=entry_url, paper_name=paper_name,
                              title=_("Scorecards — %(round)s") % {"round": round_})
    elif kind == "blank-scorecard":
        document = Scorecards(plan, blank=True, paper_name=paper_name)
    elif kind == "result-slips":
        totals = round_totals(round_)
        slips = []
        for match in plan.matches:
            own = {key: value for key, value in totals.items()
                   if key[0] in (t.number for t in match.tables)}
            own["home"] = totals.get((match.match.pk, "home"))
            own["away"] = totals.get((match.match.pk, "away"))
            slips.append((match, own))
        document = ResultSlips(slips, paper_name=paper_name)
    else:
        raise Http404("no such printout")
    response = HttpResponse(document.render(), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{tournament.slug}-r{round_.number}-{kind}.pdf"')
    return response
