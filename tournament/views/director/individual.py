"""Individual standings for the staff: per stage or for the whole tournament, with a
minimum of hands, as a page, CSV and XLSX (issue 11, item 7). Who sees provisional hands
follows the team standings (``views.director.standings.sees_provisional``)."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament.permissions import Perm
from tournament.selectors.individual import individual
from tournament.selectors.rounds import stages_in_order
from tournament.tables import IndividualTable, SpreadsheetExport, individual_rows
from tournament.views.access import staff_view
from tournament.views.director.standings import sees_provisional

DOWNLOADS = ("csv", "xlsx")
MAX_MINIMUM = 10_000


def _minimum(request) -> int:
    """The ``min`` query parameter: the fewest hands a player needs to be listed."""
    try:
        value = int(request.GET.get("min", "0"))
    except ValueError:
        return 0
    return min(max(value, 0), MAX_MINIMUM)


def _read(request, tournament, pk):
    stage = get_object_or_404(tournament.stages, pk=pk) if pk is not None else None
    return individual(tournament, stage=stage, minimum_hands=_minimum(request),
                      official_only=not sees_provisional(request, tournament))


@staff_view(Perm.VIEW_STAFF_AREA)
def individual_standings(request, tournament, pk=None):
    standings = _read(request, tournament, pk)
    exclude = () if standings.provisional else ("provisional",)
    return render(request, "director/individual.html", {
        "tournament": tournament, "standings": standings, "stage": standings.stage,
        "table": IndividualTable(individual_rows(standings), exclude=exclude),
        "stages": stages_in_order(tournament),
        "query": f"?min={standings.minimum_hands}" if standings.minimum_hands else "",
    })


@staff_view(Perm.VIEW_STAFF_AREA)
def individual_download(request, tournament, kind, pk=None):
    if kind not in DOWNLOADS:
        raise Http404("no such download")
    standings = _read(request, tournament, pk)
    name = slugify(standings.stage.name) if standings.stage else "all-stages"
    export = SpreadsheetExport(kind, IndividualTable(individual_rows(standings)),
                               dataset_kwargs={"title": _("Individual standings")})
    suffix = f"-min-{standings.minimum_hands}" if standings.minimum_hands else ""
    return export.response(
        filename=f"{slugify(tournament.slug)}-individual-{name}{suffix}.{kind}")
