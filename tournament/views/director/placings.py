"""Seeding a knockout from the standings of an earlier stage, and the event's final ranking
(issue 11, item 5)."""

from django.contrib import messages
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms import QualificationForm
from tournament.models import Stage
from tournament.pdf.base import paper_asked
from tournament.pdf.bracket import BracketDocument
from tournament.pdf.ranking import Certificates, FinalRankingDocument
from tournament.permissions import Perm, has_perm
from tournament.selectors.bracket import read_bracket
from tournament.selectors.event_ranking import event_ranking
from tournament.selectors.placings import qualification
from tournament.selectors.public import tournament_views
from tournament.services import Actor, ServiceError
from tournament.services.seeding import seed_from_standings, set_qualification
from tournament.tables import (
    FinalRankingTable,
    QualificationTable,
    SeedTable,
    SpreadsheetExport,
    final_rows,
    standings_rows,
)
from tournament.views.access import staff_view

DOWNLOADS = ("csv", "xlsx")


def _knockout(tournament, pk) -> Stage:
    return get_object_or_404(tournament.stages.select_related("qualify_from"), pk=pk,
                             kind=Stage.Kind.KNOCKOUT)


def _seeding_page(request, tournament, stage, form=None):
    plan = qualification(stage)
    seeds = {seed.team.pk: seed.number for seed in plan.seeds}
    shown = []
    for table in plan.places.tables if plan.places else []:
        rows = standings_rows(table)
        for row, line in zip(rows, table.lines, strict=True):
            row["seed"] = seeds.get(line.team.pk, "")
        shown.append((table, QualificationTable(rows, exclude=("penalties", "provisional"))))
    return render(request, "director/stage_seeding.html", {
        "tournament": tournament, "stage": stage, "plan": plan, "tables": shown,
        "seed_table": SeedTable(plan.seeds, exclude=() if plan.per_match else ("matches",)),
        "entered": stage.entries.exists(), "started": plan.started,
        "form": form or QualificationForm(stage=stage),
    })


@staff_view(Perm.MANAGE_ROUNDS)
def stage_seeding(request, tournament, pk):
    """GET: the seeds the source stage's official standings give, with those standings;
    POST: enter them as the knockout's teams."""
    stage = _knockout(tournament, pk)
    if request.method == "POST":
        try:
            entries = seed_from_standings(Actor.from_request(request), stage)
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("director:stage_seeding", tournament.slug, stage.pk)
        messages.success(request, _("%(stage)s seeded from the standings: %(n)d teams.") % {
            "stage": stage.shown_name, "n": len(entries)})
        return redirect("director:stage_detail", tournament.slug, stage.pk)
    return _seeding_page(request, tournament, stage)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def stage_qualification(request, tournament, pk):
    """Change which stage seeds the knockout and how many of each group qualify."""
    stage = _knockout(tournament, pk)
    form = QualificationForm(request.POST, stage=stage)
    if form.is_valid():
        try:
            set_qualification(Actor.from_request(request), stage, **form.cleaned_data)
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Qualification saved."))
            return redirect("director:stage_seeding", tournament.slug, stage.pk)
    return _seeding_page(request, tournament, stage, form)


@staff_view(Perm.VIEW_STAFF_AREA)
def bracket_pdf(request, tournament, pk):
    """The knockout's bracket on one landscape page, as the public sees it now: safe to
    pin up in the hall while a round is in play (``?paper=letter``)."""
    stage = _knockout(tournament, pk)
    stage.tournament = tournament
    _rounds, views = tournament_views(tournament)
    bracket = read_bracket(stage, views)
    if bracket is None:
        raise Http404("the knockout has no teams yet")
    paper_name = paper_asked(request)
    made = timezone.localtime()
    subtitle = _("%(tournament)s · as the public sees it on %(when)s") % {
        "tournament": tournament.shown_name, "when": date_format(made, "DATETIME_FORMAT")}
    pdf = BracketDocument(bracket, title=_("Bracket: %(stage)s") % {"stage": stage.shown_name},
                          subtitle=subtitle, paper_name=paper_name).render()
    response = HttpResponse(pdf, content_type="application/pdf")
    name = slugify(f"{tournament.slug}-{stage.name}-bracket") or "bracket"
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


def _ranking_for(request, tournament):
    """Referees and directors rank from every official result. A scorer (who may still
    score a box that a signed-off match of the round has played) sees what the public
    sees (``selectors.visibility``)."""
    if has_perm(request.user, tournament, Perm.SIGN_OFF):
        return event_ranking(tournament)
    _rounds, views = tournament_views(tournament)
    return event_ranking(tournament, views)


@staff_view(Perm.VIEW_STAFF_AREA)
def final_ranking_page(request, tournament):
    """The event's ranking from the official results: the places decided so far, and
    what is still missing before it is final."""
    ranking = _ranking_for(request, tournament)
    table = FinalRankingTable(final_rows(ranking)) if ranking.rows else None
    return render(request, "director/final_ranking.html", {
        "tournament": tournament, "ranking": ranking, "table": table,
    })


@staff_view(Perm.VIEW_STAFF_AREA)
def final_ranking_download(request, tournament, kind):
    if kind not in (*DOWNLOADS, "pdf"):
        raise Http404("no such download")
    ranking = _ranking_for(request, tournament)
    if not ranking.is_final:
        raise Http404("the final ranking is not final yet")
    if kind == "pdf":
        return _pdf(FinalRankingDocument(_with_players(ranking),
                                         paper_name=paper_asked(request)),
                    f"{slugify(tournament.slug)}-final-ranking")
    export = SpreadsheetExport(kind, FinalRankingTable(final_rows(ranking)),
                               dataset_kwargs={"title": _("Final ranking")})
    return export.response(filename=f"{slugify(tournament.slug)}-final-ranking.{kind}")


@staff_view(Perm.VIEW_STAFF_AREA)
def certificates_pdf(request, tournament):
    """A certificate for each team of the podium, once the final is decided."""
    ranking = _ranking_for(request, tournament)
    if not ranking.podium:
        raise Http404("no podium yet")
    return _pdf(Certificates(_with_players(ranking), paper_name=paper_asked(request)),
                f"{slugify(tournament.slug)}-certificates")


def _with_players(ranking):
    """The ranking's teams with their players read in one query (the printouts list them)."""
    prefetch_related_objects([row.team for row in ranking.rows], "players")
    return ranking


def _pdf(document, name: str) -> HttpResponse:
    response = HttpResponse(document.render(), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response
