"""The persons' lists (issue 55): the rating list and the master points list, on the page
and as CSV/XLSX (views/public/persons.py); rows from ``person_rows``."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.names import shown_name
from tournament.tables.plain import PlainRows


def person_rows(rows) -> list[dict]:
    """Plain rows of ``selectors.persons.ListRow``: what both tables show."""
    return [{
        "rank": row.rank, "person_id": row.person.pk, "name": shown_name(row.person),
        "country": row.person.country, "federation": row.person.federation,
        "rating": round(row.rating.rating, 1) if row.rating else None,
        "deviation": round(row.rating.deviation, 1) if row.rating else None,
        "hands": row.rating.hands if row.rating else 0,
        "provisional": str(_("yes")) if row.rating and row.rating.provisional else "",
        "master_points": row.master_points,
    } for row in rows]


def _number(name, label, strong=False):
    return tables.Column(verbose_name=name, default="", attrs={"td": {
        "class": "num strong mp" if strong else "num detail", "data-label": label}})


class _PersonTable(PlainRows, tables.Table):
    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    person_id = tables.Column(verbose_name=_("Person id"), visible=False)
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "team player"}})
    country = tables.Column(verbose_name=_("Country"), default="",
                            attrs={"td": {"class": "detail", "data-label": _("Country")}})
    federation = tables.Column(verbose_name=_("Federation"), default="",
                               attrs={"td": {"class": "detail",
                                             "data-label": _("Federation")}})

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings persons"}

    def render_name(self, record):
        return format_html('<a href="{}">{}</a>',
                           reverse("public:person", args=[record["person_id"]]),
                           record["name"])

    def value_name(self, record):
        return record["name"]


class RatingListTable(_PersonTable):
    caption = _("Rating list")
    caption_hidden = True

    rating = _number(_("Rating"), _("Rating"), strong=True)
    deviation = _number(_("Deviation"), "±")
    hands = _number(_("Hands"), _("H"))
    provisional = tables.Column(verbose_name=_("Provisional"), default="",
                                attrs={"td": {"class": "detail"}})
    master_points = _number(_("Master points"), _("MP"))

    class Meta(_PersonTable.Meta):
        pass


class MasterPointsTable(_PersonTable):
    caption = _("Master points")
    caption_hidden = True

    master_points = _number(_("Master points"), _("MP"), strong=True)
    rating = _number(_("Rating"), _("Rating"))

    class Meta(_PersonTable.Meta):
        pass
