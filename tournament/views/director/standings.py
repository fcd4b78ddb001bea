"""Standings for the staff: per stage, per group and overall, "after round N", as a page,
CSV, XLSX and a printable PDF (issue 11).

Every member of staff may see them (they show no cards). Provisional results (a match not
signed off yet, or being corrected) may tell a scorer another table's result on a box still
being played, so referees and directors see them, marked, and scorers the official results
only (docs/results.md).

The integrity check (``standings_check``, a button on these pages for referees and
directors) recomputes every result row from the hand results and penalties and lists any
difference with the stored rows (``selectors.integrity``; recorded in the audit log).
"""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.pdf.base import paper_asked
from tournament.pdf.standings import StandingsDocument
from tournament.permissions import Perm, has_perm
from tournament.selectors.standings import (
    StageStandings,
    groups_of,
    last_stage_played,
    read_stage,
    tables_of,
)
from tournament.services import Actor
from tournament.services.integrity import run_standings_check
from tournament.tables import (
    SpreadsheetExport,
    StandingsTable,
    empty_standings_columns,
    standings_rows,
)
from tournament.views.access import staff_view
from tournament.wording import ranking_order

DOWNLOADS = ("csv", "xlsx", "pdf")


def sees_provisional(request, tournament) -> bool:
    """Referees and directors see provisional results; scorers the official ones only."""
    return has_perm(request.user, tournament, Perm.SIGN_OFF)


def _after_round(request, played: list[int]) -> int | None:
    """The "after round N" asked for: one of the rounds played, else every round."""
    try:
        number = int(request.GET.get("after", ""))
    except ValueError:
        return None
    return number if number in played and number != max(played) else None


def _tables(request, tournament, stage, group=None):
    official_only = not sees_provisional(request, tournament)
    data = read_stage(stage, official_only=official_only)
    after = _after_round(request, data.played_rounds)
    tables = tables_of(data, group=group, after_round=after, official_only=official_only)
    return data, tables, after, official_only


def _page(request, tournament, stage, group=None, *, overall=False):
    data, tables, after, official_only = _tables(request, tournament, stage, group)
    shown = [(table, StandingsTable(standings_rows(table), exclude=empty_standings_columns(tables)))
             for table in tables]
    query = f"?after={after}" if after is not None else ""
    return render(request, "director/standings.html", {
        "tournament": tournament, "stage": stage, "group": group, "overall": overall,
        "tables": shown, "played_rounds": data.played_rounds, "after": after,
        "groups": groups_of(data) if stage.kind == stage.Kind.GROUPS else [],
        "official_only": official_only, "provisional": any(t.provisional for t in tables),
        "ranking_order": ranking_order(data.tiebreaks),
        "query": query,
    })


def _knockout_elsewhere(tournament, stage, kind=None):
    """A knockout has no match-point table: its ranking and bracket are elsewhere."""
    if kind == "pdf":
        return redirect("director:bracket_pdf", tournament.slug, stage.pk)
    if kind is not None:
        return redirect("director:final_ranking_download", tournament.slug, kind)
    return redirect("director:final_ranking", tournament.slug)


@staff_view(Perm.VIEW_STAFF_AREA)
def stage_standings(request, tournament, pk, group_pk=None):
    stage = get_object_or_404(tournament.stages, pk=pk)
    if stage.kind == stage.Kind.KNOCKOUT:
        return _knockout_elsewhere(tournament, stage)
    group = get_object_or_404(stage.groups, pk=group_pk) if group_pk is not None else None
    return _page(request, tournament, stage, group)


@staff_view(Perm.VIEW_STAFF_AREA)
def overall_standings(request, tournament):
    """The standings of the last stage played (each stage ranks its own field)."""
    stage = last_stage_played(tournament)
    if stage is None:
        return render(request, "director/standings.html", {
            "tournament": tournament, "overall": True, "tables": []})
    if stage.kind == stage.Kind.KNOCKOUT:
        return _knockout_elsewhere(tournament, stage)
    stage.tournament = tournament
    return _page(request, tournament, stage, overall=True)


def _title(stage, group, after) -> str:
    name = f"{stage.shown_name} · {group}" if group is not None else stage.shown_name
    if after is not None:
        return _("Standings — %(stage)s after round %(n)d") % {"stage": name, "n": after}
    return _("Standings — %(stage)s") % {"stage": name}


@staff_view(Perm.VIEW_STAFF_AREA)
def standings_download(request, tournament, pk, kind, group_pk=None):
    """The standings as CSV, XLSX (django-tables2's export) or a printable PDF."""
    if kind not in DOWNLOADS:
        raise Http404("no such download")
    stage = get_object_or_404(tournament.stages, pk=pk)
    if stage.kind == stage.Kind.KNOCKOUT:
        return _knockout_elsewhere(tournament, stage, kind)
    group = get_object_or_404(stage.groups, pk=group_pk) if group_pk is not None else None
    _data, tables, after, official_only = _tables(request, tournament, stage, group)
    filename = "-".join(filter(None, (
        slugify(tournament.slug), "standings", slugify(stage.name) or f"stage{stage.order}",
        slugify(group.name) if group else "", f"after-round-{after}" if after else "")))
    if kind == "pdf":
        return _pdf(request, tournament, tables, _title(stage, group, after), official_only,
                    filename)
    rows = [row for table in tables for row in standings_rows(table)]
    table = StandingsTable(rows, exclude=() if any(t.group for t in tables) else ("group",))
    export = SpreadsheetExport(kind, table, dataset_kwargs={"title": _("Standings")})
    return export.response(filename=f"{filename}.{kind}")


def _pdf(request, tournament, tables: list[StageStandings], title: str, official_only: bool,
         filename: str) -> HttpResponse:
    paper_name = paper_asked(request)
    note = _("official results only") if official_only else (
        _("provisional results included (*)") if any(t.provisional for t in tables)
        else _("official results"))
    pdf = StandingsDocument(tables, title=title, subtitle=f"{tournament.both_names} · {note}",
                            paper_name=paper_name).render()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}.pdf"'
    return response


@staff_view(Perm.SIGN_OFF)
@require_POST
def standings_check(request, tournament):
    """Recompute every result row of the tournament from the hand results and penalties
    and show each difference with what is stored (there should be none)."""
    report = run_standings_check(Actor.from_request(request), tournament)
    return render(request, "director/standings_check.html", {
        "tournament": tournament, "report": report, "checked_at": timezone.now(),
    })
