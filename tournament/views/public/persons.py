"""The persons' public pages (issue 55): ``/persons/`` (the rating list),
``/persons/master-points/``, each as CSV and XLSX, and ``/persons/<id>/`` (a profile across
events). What they show and hide: ``selectors.persons``. They belong to no tournament: the
site's cache scope, built again after any event's change and after every recompute of the
ratings (services.ratings)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.charts import rating_chart
from tournament.models import MasterPointScale, Person
from tournament.public_cache import cache_public
from tournament.selectors.persons import (
    list_choices,
    master_points_list,
    person_profile,
    rating_list,
)
from tournament.tables import MasterPointsTable, RatingListTable, SpreadsheetExport, person_rows

KINDS = (SpreadsheetExport.CSV, SpreadsheetExport.XLSX)
FILTER_LENGTH = 100  # a country or a federation: never longer in the database


def _filters(request) -> dict[str, str]:
    return {name: request.GET.get(name, "").strip()[:FILTER_LENGTH].replace("\x00", "")
            for name in ("country", "federation")}


def _list_page(request, template: str, rows, table_class, **more):
    filters = _filters(request)
    return render(request, template, {
        "table": table_class(person_rows(rows)), "rows": rows, "filters": filters,
        "choices": list_choices(), "query": _query(filters),
        **more,
    })


def _query(filters: dict[str, str]) -> str:
    """The filters again, for the tabs and downloads ("" without any)."""
    chosen = urlencode({k: v for k, v in filters.items() if v})
    return f"?{chosen}" if chosen else ""


@cache_public()
def person_list(request):
    """The rating list, best first; filters by country and federation."""
    return _list_page(request, "public/persons.html", rating_list(**_filters(request)),
                      RatingListTable)


@cache_public()
def master_points_page(request):
    """The master points list, most first, with the scales that award them."""
    return _list_page(request, "public/master_points.html",
                      master_points_list(**_filters(request)), MasterPointsTable,
                      scales=MasterPointScale.objects.order_by("pk"))


@cache_public()
def person_list_export(request, kind):
    return _export(kind, RatingListTable(person_rows(rating_list(**_filters(request)))),
                   "ratings", _("Rating list"))


@cache_public()
def master_points_export(request, kind):
    rows = master_points_list(**_filters(request))
    return _export(kind, MasterPointsTable(person_rows(rows)), "master-points",
                   _("Master points"))


def _export(kind: str, table, what: str, title: str):
    if kind not in KINDS:
        raise Http404("no such download")
    export = SpreadsheetExport(kind, table, dataset_kwargs={"title": title[:31]})
    return export.response(filename=f"{what}-{timezone.now():%Y%m%d-%H%M}.{kind}")


@cache_public()
def person_page(request, pk):
    """A person's events, places, figures, rating history and master points."""
    person = get_object_or_404(Person, pk=pk)
    profile = person_profile(person)
    if profile is None:
        raise Http404("not public")
    return render(request, "public/person.html", {
        "person": person, "profile": profile, "chart": rating_chart(profile.history),
    })

