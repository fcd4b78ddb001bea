"""Every public table as CSV and XLSX (issue 13, item 3): the standings, the individual
standings, a round's results, its travellers (the box index and each box) and the
penalties, linked from their pages.

Each export reads what its page reads, through the same selectors, behind the same switch
(``public_page``) and under the same live-results rule (``selectors.visibility``): nothing
a page hides reaches a file. The columns are the page's, with a team's code and name apart
and numbers as numbers; ``tables.SpreadsheetExport`` keeps every text a text (a name that
starts with ``=`` never becomes a formula; docs/results.md). The file is named after the
tournament, the table and the time it was made, in the venue's time zone.
"""

from __future__ import annotations

import django_tables2 as tables
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models import Deal, Round, Stage
from tournament.selectors.box_summaries import round_box_summaries
from tournament.selectors.event_ranking import event_ranking, knockout_of
from tournament.selectors.penalties import penalty_list
from tournament.selectors.public import round_lines, tournament_views
from tournament.selectors.public_standings import public_individual, public_standings
from tournament.selectors.standings import last_stage_played
from tournament.selectors.travellers import box_traveller
from tournament.selectors.visibility import public_view, public_views
from tournament.tables import (
    IndividualTable,
    RankingTable,
    SpreadsheetExport,
    StandingsTable,
    empty_standings_columns,
    individual_rows,
    ranking_rows,
    standings_rows,
)
from tournament.views.public.base import int_param, public_page
from tournament.views.public.standings import begun_knockout

KINDS = (SpreadsheetExport.CSV, SpreadsheetExport.XLSX)


def _yes() -> str:
    """A ticked column of a download, in the reader's language."""
    return str(_("yes"))


def export_response(tournament, table: tables.Table, kind: str, what: str, title: str):
    """The table as a download named ``<tournament>-<what>-<YYYYMMDD-HHMM>.<kind>``."""
    if kind not in KINDS:
        raise Http404("no such download")
    name = slugify(tournament.name) or tournament.slug
    made = timezone.localtime()  # public_page has the venue's time zone on
    export = SpreadsheetExport(kind, table, dataset_kwargs={"title": title[:31]})
    return export.response(filename=f"{name}-{what}-{made:%Y%m%d-%H%M}.{kind}")


def _plain(value):
    """A number, or nothing where the page shows a dash."""
    return "" if value is None else value


# Standings ------------------------------------------------------------------------------------

def _standings(request, tournament, stage, group, kind, views=None):
    if stage is None:
        raise Http404("no standings yet")
    stage.tournament = tournament
    if views is None:
        _rounds, views = tournament_views(tournament)
    standings = public_standings(stage, views, group=group, after=int_param(request, "after"))
    exclude = list(empty_standings_columns(standings.tables))
    if "penalties" in exclude:
        exclude += ["penalty_match_points", "penalty_small_points"]
    if not any(t.group for t in standings.tables):
        exclude.append("group")
    rows = [row for table in standings.tables for row in standings_rows(table)]
    after = f"-after-round-{standings.after}" if standings.after is not None else ""
    parts = [slugify(stage.name) or f"stage{stage.order}", slugify(group.name) if group else ""]
    what = "-".join(filter(None, ["standings", *parts])) + after
    return export_response(tournament, StandingsTable(rows, exclude=exclude), kind, what,
                           str(_("Standings")))


def _ranking(tournament, kind, views=None):
    """The event's ranking as the standings page shows it once the knockout has begun."""
    if views is None:
        rounds, views = tournament_views(tournament)
        if begun_knockout(tournament, rounds) is None:
            raise Http404("the knockout has not begun")
    ranking = event_ranking(tournament, views)
    title = _("Final ranking") if ranking.is_final else _("Ranking so far")
    return export_response(tournament, RankingTable(ranking_rows(ranking)), kind,
                           "final-ranking" if ranking.is_final else "ranking-so-far",
                           str(title))


@public_page("public_standings")
def final_ranking_export(request, tournament, kind):
    """The event's ranking: the places decided so far (blank while open), once the
    knockout that ends the event has begun."""
    return _ranking(tournament, kind)


@public_page("public_standings")
def standings_export(request, tournament, kind):
    """The overall standings (the last stage played), as on the standings page: the
    event's ranking once its knockout has begun."""
    rounds, views = tournament_views(tournament)
    if begun_knockout(tournament, rounds) is not None:
        return _ranking(tournament, kind, views)
    return _standings(request, tournament, last_stage_played(tournament), None, kind, views)


@public_page("public_standings")
def stage_standings_export(request, tournament, pk, kind, group_pk=None):
    stage = get_object_or_404(tournament.stages, pk=pk)
    if stage.kind == Stage.Kind.KNOCKOUT:
        # A knockout's table is the event's ranking, never its match points.
        last = knockout_of(tournament)
        if group_pk is not None or last is None or last.pk != stage.pk:
            raise Http404("a knockout has no standings table")
        return _ranking(tournament, kind)
    group = get_object_or_404(stage.groups, pk=group_pk) if group_pk is not None else None
    return _standings(request, tournament, stage, group, kind)


@public_page("public_players")
def individual_export(request, tournament, kind, pk=None):
    """The individual standings over the hands the public may see (``?min=N`` as on the
    page)."""
    stage = get_object_or_404(tournament.stages, pk=pk) if pk is not None else None
    _rounds, views = tournament_views(tournament)
    standings = public_individual(tournament, views, stage=stage,
                                  minimum_hands=int_param(request, "min") or 0)
    table = IndividualTable(individual_rows(standings),
                            exclude=() if standings.provisional else ("provisional",))
    what = "-".join(filter(None, ["individual", slugify(stage.name) if stage else ""]))
    return export_response(tournament, table, kind, what, str(_("Individual standings")))


# A round's results ----------------------------------------------------------------------------

class RoundResultsTable(tables.Table):
    """A round's matches as on its page: the teams, the score and match points where the
    public may see them, the state."""

    match = tables.Column(verbose_name=_("Match"))
    group = tables.Column(verbose_name=_("Group"))
    home_code = tables.Column(verbose_name=_("Home code"))
    home = tables.Column(verbose_name=_("Home"))
    away_code = tables.Column(verbose_name=_("Away code"))
    away = tables.Column(verbose_name=_("Away"))
    home_total = tables.Column(verbose_name=_("Home score"))
    away_total = tables.Column(verbose_name=_("Away score"))
    home_points = tables.Column(verbose_name=_("Home match points"))
    away_points = tables.Column(verbose_name=_("Away match points"))
    state = tables.Column(verbose_name=_("Status"))
    provisional = tables.Column(verbose_name=_("Provisional"))

    class Meta:
        orderable = False


def _round(tournament, pk) -> Round:
    return get_object_or_404(
        Round.objects.select_related("stage").exclude(status=Round.Status.DRAFT),
        pk=pk, stage__tournament=tournament)


def _round_name(round_: Round) -> str:
    return "-".join(filter(None, [slugify(round_.stage.name), f"round-{round_.number}"]))


@public_page()
def round_results_export(request, tournament, pk, kind):
    """A published round's matches as its results page lists them."""
    round_ = _round(tournament, pk)
    views = public_views([round_], tournament=tournament)
    rows = []
    for line in round_lines(round_, views):
        match = line.match
        state = line.state_word  # the pages' word (tournament.states)
        if line.state == "playing":
            state = f"{state}: {line.entered}/{line.to_enter}"
        elif line.state == "forfeited" and line.forfeited_by is not None:
            state = f"{state}: {line.forfeited_by.code}"
        rows.append({
            "match": match.number, "group": match.group.name if match.group else "",
            "home_code": match.home.code, "home": match.home.shown_name,
            "away_code": match.away.code, "away": match.away.shown_name,
            "home_total": _plain(line.home_total if line.has_score else None),
            "away_total": _plain(line.away_total if line.has_score else None),
            "home_points": _plain(line.home_points if line.has_score else None),
            "away_points": _plain(line.away_points if line.has_score else None),
            "state": state, "provisional": _yes() if line.provisional else "",
        })
    exclude = [] if any(r["group"] for r in rows) else ["group"]
    if not any(r["provisional"] for r in rows):
        exclude.append("provisional")
    return export_response(tournament, RoundResultsTable(rows, exclude=exclude), kind,
                           f"{_round_name(round_)}-results", str(_("Results")))


# Travellers -------------------------------------------------------------------------------------

class BoxesTable(tables.Table):
    """A round's boxes as its box index lists them."""

    hand = tables.Column(verbose_name=_("Hand"))
    deal_set = tables.Column(verbose_name=_("Set"))
    reserve = tables.Column(verbose_name=_("Reserve deal"))
    replaced = tables.Column(verbose_name=_("Replaced"))
    tables_ = tables.Column(verbose_name=_("Tables"))
    dealer_datum = tables.Column(verbose_name=_("Datum, dealer cards"))
    balance = tables.Column(verbose_name=_("Average, dealer cards"))
    provisional = tables.Column(verbose_name=_("Provisional"))

    class Meta:
        orderable = False


@public_page("public_results")
def boxes_export(request, tournament, pk, kind):
    round_ = _round(tournament, pk)
    round_.stage.tournament = tournament
    view = public_view(round_, tournament=tournament)
    rows = [{
        "hand": box.deal.hand, "deal_set": box.deal.deal_set, "reserve": box.deal.reserve or "",
        "replaced": "" if box.deal.is_current else _yes(), "tables_": box.summary.tables,
        "dealer_datum": _plain(box.dealer_datum), "balance": _plain(box.balance),
        "provisional": _yes() if box.provisional else "",
    } for box in round_box_summaries(round_, view=view)]
    return export_response(tournament, BoxesTable(rows), kind, f"{_round_name(round_)}-boxes",
                           str(_("Travellers")))


class TravellerTable(tables.Table):
    """One box's traveller as its page lists it (never the box's cards)."""

    table = tables.Column(verbose_name=_("Table"))
    dealer_code = tables.Column(verbose_name=_("Dealer cards: team"))
    dealer = tables.Column(verbose_name=_("Dealer cards"))
    non_dealer_code = tables.Column(verbose_name=_("Non-dealer cards: team"))
    non_dealer = tables.Column(verbose_name=_("Non-dealer cards"))
    declarer = tables.Column(verbose_name=_("Declarer"))
    outcome = tables.Column(verbose_name=_("Outcome"))
    false_knock = tables.Column(verbose_name=_("False knock"))
    declarer_deadwood = tables.Column(verbose_name=_("Declarer's deadwood"))
    opponent_deadwood = tables.Column(verbose_name=_("Opponent's deadwood"))
    dealer_points = tables.Column(verbose_name=_("Points, dealer"))
    versus = tables.Column(verbose_name=_("Against the datum"))
    counted = tables.Column(verbose_name=_("Left out"))
    provisional = tables.Column(verbose_name=_("Provisional"))

    class Meta:
        orderable = False


OUTCOMES = {"knock": _("Knock"), "gin": _("Gin"), "big_gin": _("Big Gin"),
            "undercut": _("Undercut"), "draw": pgettext_lazy("hand outcome", "Draw")}
DECLARERS = {"dealer": _("dealer"), "non_dealer": _("non-dealer")}


@public_page("public_results")
def traveller_export(request, tournament, pk, deal_pk, kind):
    round_ = _round(tournament, pk)
    round_.stage.tournament = tournament
    deal = get_object_or_404(Deal, pk=deal_pk, round=round_)
    deal.round = round_
    box = box_traveller(deal, view=public_view(round_, tournament=tournament))
    rows = []
    for row in box.rows:
        result = row.result
        rows.append({
            "table": row.table,
            "dealer_code": row.dealer.team.code if row.dealer else "",
            "dealer": row.dealer.player.name if row.dealer else "",
            "non_dealer_code": row.non_dealer.team.code if row.non_dealer else "",
            "non_dealer": row.non_dealer.player.name if row.non_dealer else "",
            "declarer": str(DECLARERS.get(result.declarer, "")),
            "outcome": str(OUTCOMES.get(result.outcome, result.outcome)),
            "false_knock": _yes() if result.false_knock else "",
            "declarer_deadwood": _plain(result.declarer_deadwood),
            "opponent_deadwood": _plain(result.opponent_deadwood),
            "dealer_points": row.dealer_points, "versus": _plain(row.versus_shown),
            "counted": "" if row.counted else _yes(),
            "provisional": _yes() if row.played.provisional else "",
        })
    what = f"{_round_name(round_)}-hand-{deal.hand}-set-{deal.deal_set}"
    if deal.reserve:
        what += f"-reserve-{deal.reserve}"
    return export_response(tournament, TravellerTable(rows), kind, what, str(_("Traveller")))


# Penalties -----------------------------------------------------------------------------------

class PenaltyTable(tables.Table):
    """Every penalty as the penalties page lists it, an undone one marked."""

    recorded = tables.Column(verbose_name=_("Recorded"))
    team_code = tables.Column(verbose_name=_("Team code"))
    team = tables.Column(verbose_name=_("Team"))
    player = tables.Column(verbose_name=_("Player"))
    kind = tables.Column(verbose_name=_("Penalty"))
    amount = tables.Column(verbose_name=_("Amount"))
    minutes = tables.Column(verbose_name=_("Minutes"))
    stage = tables.Column(verbose_name=_("Stage"))
    round = tables.Column(verbose_name=_("Round"))
    match = tables.Column(verbose_name=_("Match"))
    reason = tables.Column(verbose_name=_("Reason"))
    undone = tables.Column(verbose_name=_("Undone"))
    undo_reason = tables.Column(verbose_name=_("Why undone"))

    class Meta:
        orderable = False


@public_page("public_penalties")
def penalties_export(request, tournament, kind):
    rows = [{
        "recorded": f"{timezone.localtime(p.recorded_at):%Y-%m-%d %H:%M}",
        "team_code": p.team.code, "team": p.team.shown_name,
        "player": p.player.name if p.player else "", "kind": p.get_kind_display(),
        "amount": _plain(p.amount or None), "minutes": _plain(p.minutes),
        "stage": p.round.stage.shown_name, "round": p.round.number,
        "match": p.match.number if p.match else "", "reason": p.reason,
        "undone": "" if p.is_active else _yes(),
        "undo_reason": "" if p.is_active else p.undo_reason,
    } for p in penalty_list(tournament)]
    return export_response(tournament, PenaltyTable(rows), kind, "penalties",
                           str(_("Penalties")))
