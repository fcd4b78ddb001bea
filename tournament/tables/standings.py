"""The standings tables: a stage's standings, the qualification with the seeds, the
proposed seeds, and the rows they are made of."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.tables.cells import TeamRanked, minus_signs, team_cell, team_names
from tournament.tables.plain import PlainRows
from tournament.templatetags.scores import signed
from tournament.wording import separation_text, tiebreak_name


class StandingsTable(TeamRanked, PlainRows, tables.Table):
    """One standings table (``selectors.standings``): the rows come from ``standings_rows``.
    The page shows team, penalties and the provisional marker as text; the downloads carry
    the plain values (code and name apart, penalties as numbers, the criterion's name)."""

    caption = _("Standings")
    caption_hidden = True

    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    team = tables.Column(verbose_name=_("Team"), accessor="name", exclude_from_export=True,
                         attrs={"td": {"class": "team"}})
    group = tables.Column(verbose_name=_("Group"), visible=False)
    code = tables.Column(verbose_name=_("Code"), visible=False)
    name = tables.Column(verbose_name=_("Team"), visible=False)
    other_name = tables.Column(verbose_name=_("Team name in the other script"), visible=False,
                               default="")
    # data-label: the short name a phone shows before the value (site.css).
    played = tables.Column(verbose_name=_("Played"),
                           attrs={"td": {"class": "num detail played",
                                         "data-label": _("P")}})
    match_points = tables.Column(verbose_name=_("Match points"),
                                 attrs={"td": {"class": "num strong mp",
                                               "data-label": _("MP")}})
    small_points = tables.Column(verbose_name=_("Small points"),
                                 attrs={"td": {"class": "num detail", "data-label": _("SP")}})
    wins = tables.Column(verbose_name=_("Wins"),
                         attrs={"td": {"class": "num detail", "data-label": _("W")}})
    gins = tables.Column(verbose_name=_("Gins"),
                         attrs={"td": {"class": "num detail", "data-label": _("G")}})
    penalties = tables.Column(verbose_name=_("Penalties"), accessor="penalty_text",
                              exclude_from_export=True, default="",
                              attrs={"td": {"class": "detail penalty"}})
    penalty_match_points = tables.Column(verbose_name=_("Match points deducted"),
                                         visible=False)
    penalty_small_points = tables.Column(verbose_name=_("Small points deducted"),
                                         visible=False)
    provisional = tables.Column(verbose_name=_("Provisional"), default="",
                                attrs={"td": {"class": "detail"}})
    separation = tables.Column(verbose_name=_("Ahead of the next by"), default="",
                               attrs={"td": {"class": "separation"}})
    separated_by = tables.Column(verbose_name=_("Criterion"), visible=False, default="")

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings"}
        # The name in the other script last: a download's columns keep their places.
        sequence = ("...", "other_name")
        row_attrs = {"class": lambda record: "provisional" if record["provisional"] else ""}

    def render_provisional(self, value):
        if not value:
            return ""
        return format_html('<span class="badge badge-provisional" title="{}">{}</span>',
                           _("includes a result not signed off yet"), _("provisional"))

    def value_provisional(self, value):
        return str(_("yes")) if value else ""

    def render_separation(self, value):
        return minus_signs(value)

    def value_separation(self, value):
        return value


def empty_standings_columns(tables) -> tuple[str, ...]:
    """The penalty and provisional columns a standings page leaves out while no team of
    ``tables`` has one (the downloads always have every column)."""
    lines = [line for table in tables for line in table.lines]
    empty = []
    if not any(line.totals.penalty_match_points or line.totals.penalty_small_points
               for line in lines):
        empty.append("penalties")
    if not any(line.provisional for line in lines):
        empty.append("provisional")
    return tuple(empty)


def standings_rows(table) -> list[dict]:
    """The rows of a ``selectors.standings.StageStandings`` for ``StandingsTable``."""
    rows = []
    for line in table.lines:
        totals = line.totals
        deducted = []
        if totals.penalty_match_points:
            deducted.append(_("−%(n)s mp") % {"n": totals.penalty_match_points})
        if totals.penalty_small_points:
            deducted.append(_("−%(n)s sp") % {"n": totals.penalty_small_points})
        if line.separation is not None:
            separation = separation_text(line.separation)
        elif line.tied_with_next:
            separation = str(_("tied with the next team: same place"))
        else:
            separation = ""
        rows.append({
            "rank": line.rank, "code": line.team.code, **team_names(line.team),
            "group": table.group.name if table.group else "",
            "played": line.played, "match_points": line.match_points,
            "small_points": line.small_points, "wins": line.wins, "gins": line.gins,
            "penalty_text": " · ".join(deducted),
            "penalty_match_points": totals.penalty_match_points,
            "penalty_small_points": totals.penalty_small_points,
            "provisional": line.provisional, "separation": separation,
            # The criterion's name in the reader's language (the JSON API keeps its key).
            "separated_by": tiebreak_name(line.separated_by) if line.separated_by else "",
        })
    return rows


class QualificationTable(StandingsTable):
    """A group's official standings on the seeding page, with the seed each qualifier
    gets (``selectors.placings.qualification``)."""

    caption = _("Standings of the stage before, with the seeds")

    seed = tables.Column(verbose_name=_("Seed"), default="",
                         attrs={"td": {"class": "num strong detail seed", "data-label": _("Seed")}})

    class Meta(StandingsTable.Meta):
        sequence = ("seed", "rank", "...", "other_name")
        row_attrs = {"class": lambda record: "qualified" if record.get("seed") else ""}


class SeedTable(tables.Table):
    """The proposed seeds of a knockout (``selectors.placings.Qualification.seeds``)."""

    caption = _("Seeds")
    caption_hidden = True

    number = tables.Column(verbose_name=_("Seed"), attrs={"td": {"class": "num strong"}})
    team = tables.Column(verbose_name=_("Team"), empty_values=(),
                         attrs={"td": {"class": "team"}})
    where = tables.Column(verbose_name=_("Stage before"), accessor="place__where",
                          empty_values=())
    match_points = tables.Column(verbose_name=_("Match points"),
                                 accessor="place__match_points",
                                 attrs={"td": {"class": "num detail", "data-label": _("MP")}})
    small_points = tables.Column(verbose_name=_("Small points"),
                                 accessor="place__small_points",
                                 attrs={"td": {"class": "num detail", "data-label": _("SP")}})
    wins = tables.Column(verbose_name=_("Wins"), accessor="place__wins",
                         attrs={"td": {"class": "num detail", "data-label": _("W")}})
    # Shown when teams of one place are compared per match (their groups played different
    # numbers of matches: scoring.placings).
    matches = tables.Column(verbose_name=_("Matches"), accessor="place__matches",
                            attrs={"td": {"class": "num detail", "data-label": _("Matches")}})

    class Meta:
        orderable = False
        attrs = {"class": "standings seeds"}

    def render_team(self, record):
        return team_cell(record.team.code, record.team.shown_name)

    def render_where(self, record, value):
        if record.extra:
            return format_html('{} <span class="badge">{}</span>', value,
                               _("best of the next place"))
        return value

    def render_small_points(self, value):
        return signed(value)
