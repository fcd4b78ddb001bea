"""The event's ranking tables: the staff's final ranking and the public's ranking, and the
rows they are made of."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.tables.cells import TeamRanked, team_cell, team_names
from tournament.tables.plain import PlainRows


class FinalRankingTable(TeamRanked, PlainRows, tables.Table):
    """The event's ranking (``selectors.event_ranking.event_ranking``): rows from
    ``final_rows`` (512 of them before a knockout of a 512-team Swiss event)."""

    caption = _("Final ranking")
    caption_hidden = True

    place = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    team = tables.Column(verbose_name=_("Team"), accessor="name", exclude_from_export=True,
                         attrs={"td": {"class": "team"}})
    code = tables.Column(verbose_name=_("Code"), visible=False)
    name = tables.Column(verbose_name=_("Team"), visible=False)
    other_name = tables.Column(verbose_name=_("Team name in the other script"), visible=False,
                               default="")
    how = tables.Column(verbose_name=_("Decided by"), attrs={"td": {"class": "how"}})
    before = tables.Column(verbose_name=_("Stage before"), default="",
                           attrs={"td": {"class": "detail"}})
    match_points = tables.Column(verbose_name=_("Match points"), default="",
                                 attrs={"td": {"class": "num detail", "data-label": _("MP")}})
    small_points = tables.Column(verbose_name=_("Small points"), default="",
                                 attrs={"td": {"class": "num detail", "data-label": _("SP")}})

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings final-ranking"}
        sequence = ("...", "other_name")  # last: a download's columns keep their places



def final_rows(ranking) -> list[dict]:
    """The rows of a ``selectors.event_ranking.EventRanking`` for ``FinalRankingTable``."""
    rows = []
    for row in ranking.rows:
        before = row.before
        rows.append({
            "place": row.place or row.open_places, "code": row.team.code,
            **team_names(row.team),
            "how": row.how, "before": before.where if before else "",
            "match_points": before.match_points if before else None,
            "small_points": before.small_points if before else None,
        })
    return rows


class RankingTable(PlainRows, tables.Table):
    """The event's ranking as the public sees it (``selectors.event_ranking.event_ranking``):
    rows from ``ranking_rows``. A place not decided yet is blank in a download and, on the
    page, the places still open to the team ("5–8")."""

    caption = _("Final ranking")
    caption_hidden = True  # the page's heading names it

    place = tables.Column(verbose_name="#", empty_values=(),
                          attrs={"td": {"class": "num rank"}})
    team = tables.Column(verbose_name=_("Team"), accessor="name", exclude_from_export=True,
                         attrs={"td": {"class": "team"}})
    code = tables.Column(verbose_name=_("Code"), visible=False)
    name = tables.Column(verbose_name=_("Team"), visible=False)
    other_name = tables.Column(verbose_name=_("Team name in the other script"), visible=False,
                               default="")
    label = tables.Column(verbose_name=_("Decided by"), attrs={"td": {"class": "how"}})

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings final-ranking"}
        sequence = ("...", "other_name")  # last: a download's columns keep their places
        row_attrs = {"class": lambda record: record["row_class"]}

    def __init__(self, *args, caption=None, **kwargs):
        super().__init__(*args, **kwargs)
        if caption is not None:
            self.caption = caption

    def render_place(self, record, value):
        if record["open"]:
            return format_html('<span class="muted open-places">{}</span>', record["open"])
        return value

    def value_place(self, value):
        return value

    def render_team(self, record):
        cell = team_cell(record["code"], record["name"], record.get("other_name", ""))
        if record.get("url"):
            return format_html('<a href="{}">{}</a>', record["url"], cell)
        return cell


def ranking_rows(ranking, url_of=None) -> list[dict]:
    """The rows of an ``EventRanking`` for ``RankingTable`` (``url_of(team)``: the team's
    page, if linked)."""
    return [{
        "place": row.place if row.place is not None else "", "open": row.open_places,
        "code": row.team.code, **team_names(row.team), "label": row.label,
        "url": url_of(row.team) if url_of else "",
        "row_class": " ".join(filter(None, [
            f"place-{row.place}" if row.place is not None and row.place <= 3 else "",
            "undecided" if row.place is None else ""])),
    } for row in ranking.rows]
