"""django-tables2 tables of the staff and public pages."""

import io
import re

import django_tables2 as tables
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.formats import date_format, localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport
from django_tables2.utils import AttributeDict, signature
from tablib import Dataset

from tournament.models import AuditEntry, StaffRole, Team, Tournament
from tournament.templatetags.comparison import versus
from tournament.templatetags.scores import MINUS, signed
from tournament.wording import separation_text, tiebreak_name


class TournamentTable(tables.Table):
    caption = _("Tournaments")
    caption_hidden = True
    stacked = True  # a card per row on a phone
    name = tables.LinkColumn("director:dashboard", args=[tables.A("slug")])

    class Meta:
        model = Tournament
        fields = ("name", "starts_on", "ends_on", "venue", "status")
        orderable = False
        attrs = {"class": "stack"}


class TeamTable(tables.Table):
    caption = _("Teams")
    caption_hidden = True
    stacked = True
    seed = tables.Column(verbose_name=_("Seed"), default="")
    code = tables.Column(verbose_name=_("Code"))
    name = tables.Column(verbose_name=_("Team"))
    country = tables.Column(verbose_name=_("Country or club"))
    players = tables.Column(verbose_name=_("Players"), empty_values=(), orderable=False)

    class Meta:
        model = Team
        fields = ("seed", "code", "name", "country", "players")
        order_by = ("seed", "name")
        attrs = {"class": "stack"}

    def render_players(self, record):
        return ", ".join(
            f"{p.name} ({_('reserve')})" if p.is_reserve else p.name
            for p in record.players.all()
        )


class DirectorTeamTable(TeamTable):
    name = tables.LinkColumn(
        "director:team_edit", args=[tables.A("tournament__slug"), tables.A("pk")],
        verbose_name=_("Team"),
    )

    class Meta(TeamTable.Meta):
        pass


class StaffTable(tables.Table):
    caption = _("Staff of the tournament")
    caption_hidden = True
    stacked = True
    user = tables.Column(verbose_name=_("User"), accessor="user__username")
    title = tables.Column(verbose_name=_("Role"), empty_values=(), orderable=False)
    remove = tables.TemplateColumn(
        template_name="director/staff_remove_button.html", verbose_name="", orderable=False
    )

    class Meta:
        model = StaffRole
        fields = ("user", "title", "remove")
        orderable = False
        attrs = {"class": "stack"}


class AuditTable(tables.Table):
    caption = _("Audit log")
    caption_hidden = True
    stacked = True
    # The language's date (tournament/formats) and the time to the second.
    created_at = tables.DateTimeColumn(verbose_name=_("When"))
    actor_name = tables.Column(verbose_name=_("Who"))
    # Written now in the reader's language; an older entry as recorded, in English, marked.
    summary = tables.TemplateColumn(template_name="director/audit_summary.html",
                                    verbose_name=_("What"))
    ip_address = tables.Column(verbose_name=_("From"), default="")

    class Meta:
        model = AuditEntry
        fields = ("created_at", "actor_name", "summary", "ip_address")
        orderable = False
        attrs = {"class": "stack"}

    def render_created_at(self, value):
        moment = timezone.localtime(value)
        return f"{date_format(moment)} {moment:%H:%M:%S}"


class PlainRows:
    """For a table of hundreds of rows of plain dicts (a championship's standings): the body
    is written in one pass, with each column's cell attributes and its render method's
    arguments worked out once per column. django-tables2 works them out again for every
    cell (0.1 ms a cell: half a second for the 512 × 9 cells of 512 teams). The caption,
    the header and the downloads stay django-tables2's, and a cell is what it would have
    made of it: the column's ``render_<name>`` called with the ``record`` and ``value`` it
    asks for, else the value localized as a template shows it; an empty value shows the
    column's default."""

    def plain_body(self) -> SafeString:
        columns = []
        for column in self.columns:  # the visible ones, in order
            render = getattr(self, f"render_{column.name}", None)
            wanted = signature(render)[0] if render else ()
            fixed = {"table": self, "column": column.column, "bound_column": column}
            if not set(wanted) <= {"value", "record", *fixed}:
                raise TypeError(f"{type(self).__name__}.render_{column.name} asks for an "
                                "argument a plain row does not have (bound_row?)")
            fixed = {name: fixed[name] for name in wanted if name in fixed}
            columns.append((column.accessor, column.attrs["td"].as_html(), render, wanted,
                            fixed, column.default, column.column.empty_values))
        row_attrs = [(name, value, signature(value)[0] if callable(value) else ())
                     for name, value in self.row_attrs.items()]
        localized = {}  # the same few numbers come back in every row
        html = []
        for record in self.data.data:
            arguments = {"table": self, "record": record}
            attrs = AttributeDict({
                name: value(**{arg: arguments[arg] for arg in wanted}) if callable(value)
                else value for name, value, wanted in row_attrs})
            html.append(f"<tr {attrs.as_html()}>" if any(attrs.values()) else "<tr>")
            for accessor, td_attrs, render, wanted, fixed, default, empty_values in columns:
                value = record.get(accessor)
                if value in empty_values:
                    cell = default
                elif render is not None:
                    cell = render(**fixed, **{name: record if name == "record" else value
                                              for name in wanted if name not in fixed})
                elif isinstance(value, str):
                    cell = value
                else:
                    key = (type(value), value)
                    if key not in localized:
                        localized[key] = localize(value)
                    cell = localized[key]
                html.append(f"<td {td_attrs}>{conditional_escape(cell)}</td>")
            html.append("</tr>")
        return mark_safe("".join(html))  # every value was escaped above

    def as_values(self, exclude_columns=None):
        """The downloads' rows (django-tables2's ``Table.as_values``: the header, then each
        record's cells by the column's ``value_<name>``, else ``render_<name>``, else the
        value; ``None`` for an empty one), with each column's method and arguments worked
        out once, not per cell (a download of 1,024 players spent half a second there)."""
        exclude_columns = exclude_columns or ()
        columns = [column for column in self.columns.iterall()
                   if not (column.column.exclude_from_export or column.name in exclude_columns)]
        plain = []
        for column in columns:
            value = getattr(self, f"value_{column.name}",
                            getattr(self, f"render_{column.name}", None))
            wanted = signature(value)[0] if value is not None else ()
            fixed = {"table": self, "column": column.column, "bound_column": column}
            if (not set(wanted) <= {"value", "record", *fixed}
                    or (value is None and type(column.column) is not tables.Column)
                    or re.search(r"[.]|__", column.accessor)):
                yield from super().as_values(exclude_columns)  # a cell of another kind
                return
            plain.append((column.accessor, value, wanted,
                          {name: fixed[name] for name in wanted if name in fixed},
                          column.column.empty_values))
        yield [force_str(column.header, strings_only=True) for column in columns]
        for record in self.data.data:
            row = []
            for accessor, method, wanted, fixed, empty_values in plain:
                value = record.get(accessor)
                if value in empty_values:
                    value = None
                elif method is not None:
                    value = method(**fixed, **{name: record if name == "record" else value
                                               for name in wanted if name not in fixed})
                row.append(force_str(value, strings_only=True))
            yield row


# Standings (issue 11) -----------------------------------------------------------------------

class StandingsTable(PlainRows, tables.Table):
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
        row_attrs = {"class": lambda record: "provisional" if record["provisional"] else ""}

    def render_team(self, record):
        return format_html('<span class="team-code">{}</span> {}', record["code"],
                           record["name"])

    def render_small_points(self, value):
        return signed(value)

    def value_small_points(self, value):
        return value

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


def minus_signs(text: str) -> str:
    """"-20" as people read it, with a real minus sign (the pages and the printout)."""
    return re.sub(r"(?<!\w)-(?=\d)", MINUS, text)


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
            deducted.append(f"−{totals.penalty_match_points} mp")
        if totals.penalty_small_points:
            deducted.append(f"−{totals.penalty_small_points} sp")
        if line.separation is not None:
            separation = separation_text(line.separation)
        elif line.tied_with_next:
            separation = str(_("tied with the next team: same place"))
        else:
            separation = ""
        rows.append({
            "rank": line.rank, "code": line.team.code, "name": line.team.name,
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


# The first character of every CSV download (U+FEFF, written as the bytes EF BB BF).
BYTE_ORDER_MARK = "\ufeff"

# Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class SpreadsheetExport(TableExport):
    """django-tables2's export that no spreadsheet runs as a formula: in CSV a text cell
    that starts like a formula gets a leading apostrophe (OWASP's advice); in XLSX every
    text cell is written as text, exactly as it is ("=Team" stays the text "=Team")."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        if self.format != self.CSV:
            return dataset
        safe = Dataset(headers=dataset.headers, title=dataset.title)
        for row in dataset:
            safe.append([f"'{value}" if isinstance(value, str)
                         and value.startswith(_FORMULA_START) else value for value in row])
        return safe

    def export(self):
        if self.format == self.CSV:
            # UTF-8 with a byte-order mark: Excel on Windows reads a CSV without one in the
            # machine's ANSI code page and shows Chinese names as mojibake. Python reads it
            # back with encoding="utf-8-sig", as the team import does.
            return BYTE_ORDER_MARK + super().export()
        if self.format != self.XLSX:
            return super().export()
        from openpyxl import Workbook
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Font

        # Written row by row (openpyxl's write-only mode: a download of 1,024 players'
        # 19,000 cells is not kept as a grid of cell objects first).
        book = Workbook(write_only=True)
        sheet = book.create_sheet((self.dataset.title or "Export")[:31])
        sheet.freeze_panes = "A2"
        bold = Font(bold=True)
        for row_number, row in enumerate([self.dataset.headers, *self.dataset], 1):
            cells = []
            for value in row:
                if isinstance(value, str) or row_number == 1:
                    cell = WriteOnlyCell(sheet, value)
                    if isinstance(value, str):
                        cell.data_type = "s"  # never a formula, whatever it starts with
                        cell.quotePrefix = value.startswith("=")
                    if row_number == 1:
                        cell.font = bold
                    value = cell
                cells.append(value)
            sheet.append(cells)
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()


# Knockout seeding, final ranking and individual standings (issue 11) -----------------------

class QualificationTable(StandingsTable):
    """A group's official standings on the seeding page, with the seed each qualifier
    gets (``selectors.placings.qualification``)."""

    caption = _("Standings of the stage before, with the seeds")

    seed = tables.Column(verbose_name=_("Seed"), default="",
                         attrs={"td": {"class": "num strong detail seed", "data-label": _("Seed")}})

    class Meta(StandingsTable.Meta):
        sequence = ("seed", "rank", "...")
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

    class Meta:
        orderable = False
        attrs = {"class": "standings seeds"}

    def render_team(self, record):
        return format_html('<span class="team-code">{}</span> {}', record.team.code,
                           record.team.name)

    def render_where(self, record, value):
        if record.extra:
            return format_html('{} <span class="badge">{}</span>', value,
                               _("best of the next place"))
        return value

    def render_small_points(self, value):
        return signed(value)


class FinalRankingTable(PlainRows, tables.Table):
    """The event's ranking (``selectors.bracket.event_ranking``): rows from
    ``final_rows`` (512 of them before a knockout of a 512-team Swiss event)."""

    caption = _("Final ranking")
    caption_hidden = True

    place = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    team = tables.Column(verbose_name=_("Team"), accessor="name", exclude_from_export=True,
                         attrs={"td": {"class": "team"}})
    code = tables.Column(verbose_name=_("Code"), visible=False)
    name = tables.Column(verbose_name=_("Team"), visible=False)
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

    def render_team(self, record):
        return format_html('<span class="team-code">{}</span> {}', record["code"],
                           record["name"])

    def render_small_points(self, value):
        return signed(value)

    def value_small_points(self, value):
        return value


def final_rows(ranking) -> list[dict]:
    """The rows of a ``selectors.bracket.EventRanking`` for ``FinalRankingTable``."""
    rows = []
    for row in ranking.rows:
        before = row.before
        rows.append({
            "place": row.place or row.open_places, "code": row.team.code,
            "name": row.team.name,
            "how": row.how, "before": before.where if before else "",
            "match_points": before.match_points if before else None,
            "small_points": before.small_points if before else None,
        })
    return rows


class RankingTable(PlainRows, tables.Table):
    """The event's ranking as the public sees it (``selectors.bracket.event_ranking``):
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
    label = tables.Column(verbose_name=_("Decided by"), attrs={"td": {"class": "how"}})

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings final-ranking"}
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
        if record.get("url"):
            return format_html('<a href="{}"><span class="team-code">{}</span> {}</a>',
                               record["url"], record["code"], record["name"])
        return format_html('<span class="team-code">{}</span> {}', record["code"],
                           record["name"])


def ranking_rows(ranking, url_of=None) -> list[dict]:
    """The rows of an ``EventRanking`` for ``RankingTable`` (``url_of(team)``: the team's
    page, if linked)."""
    return [{
        "place": row.place if row.place is not None else "", "open": row.open_places,
        "code": row.team.code, "name": row.team.name, "label": row.label,
        "url": url_of(row.team) if url_of else "",
        "row_class": " ".join(filter(None, [
            f"place-{row.place}" if row.place is not None and row.place <= 3 else "",
            "undecided" if row.place is None else ""])),
    } for row in ranking.rows]


def _number(name, label, extra=""):
    """A number column: its full name heads the column, ``label`` precedes the value on a
    phone."""
    return tables.Column(verbose_name=name, attrs={"td": {
        "class": f"num detail {extra}".strip(), "data-label": label}})


class IndividualTable(PlainRows, tables.Table):
    """Individual standings (``selectors.individual``): rows from ``individual_rows``. On a
    phone each row folds into a card (site.css), each number after its short label."""

    caption = _("Individual standings")
    caption_hidden = True

    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "team player"}})
    federation_id = tables.Column(verbose_name=_("Federation id"), visible=False, default="")
    team = tables.Column(verbose_name=_("Team"), accessor="team_name",
                         exclude_from_export=True, attrs={"td": {"class": "detail club"}})
    team_code = tables.Column(verbose_name=_("Team code"), visible=False)
    team_name = tables.Column(verbose_name=_("Team"), visible=False)
    hands = _number(_("Hands"), _("H"))
    points = tables.Column(verbose_name=_("Points"),
                           attrs={"td": {"class": "num strong mp", "data-label": _("Pts")}})
    per_hand = _number(_("Per hand"), _("per hand"))
    gins = _number(_("Gins"), _("G"))
    big_gins = _number(_("Big Gins"), _("BG"))
    knocks = _number(_("Knocks won"), _("K"))
    undercuts_won = _number(_("Undercuts won"), _("U won"))
    undercuts_suffered = _number(_("Undercuts suffered"), _("U lost"))
    false_knocks = _number(_("False knocks"), _("FK"))
    dealer_hands = _number(_("Dealer: hands"), _("dealer H"), "side")
    dealer_points = _number(_("Dealer: points"), _("pts"), "side")
    non_dealer_hands = _number(_("Non-dealer: hands"), _("non-dealer H"), "side")
    non_dealer_points = _number(_("Non-dealer: points"), _("pts"), "side")
    provisional = tables.Column(verbose_name=_("Provisional"), default="",
                                attrs={"td": {"class": "detail"}})

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings individual"}
        row_attrs = {"class": lambda record: "provisional" if record["provisional"] else ""}

    def render_team(self, record):
        return format_html('<span class="team-code">{}</span> {}', record["team_code"],
                           record["team_name"])

    def render_points(self, value):
        return signed(value)

    def value_points(self, value):
        return value

    def render_dealer_points(self, value):
        return signed(value)

    def value_dealer_points(self, value):
        return value

    def render_non_dealer_points(self, value):
        return signed(value)

    def value_non_dealer_points(self, value):
        return value

    def render_per_hand(self, value):
        return minus_signs(f"{value:+.2f}" if value else "0.00")

    def value_per_hand(self, value):
        return value

    def render_provisional(self, value):
        if not value:
            return ""
        return format_html('<span class="badge badge-provisional" title="{}">{}</span>',
                           _("includes a hand of a match not signed off yet"),
                           _("provisional"))

    def value_provisional(self, value):
        return str(_("yes")) if value else ""


def individual_rows(standings) -> list[dict]:
    """The rows of a ``selectors.individual.IndividualStandings`` for ``IndividualTable``."""
    return [{
        "rank": row.rank, "player": row.player.name,
        "federation_id": row.player.federation_id, "team_code": row.team.code,
        "team_name": row.team.name, "hands": row.line.hands, "points": row.line.points,
        "per_hand": row.per_hand, "gins": row.line.gins, "big_gins": row.line.big_gins,
        "knocks": row.line.knocks, "undercuts_won": row.line.undercuts_won,
        "undercuts_suffered": row.line.undercuts_suffered,
        "false_knocks": row.line.false_knocks,
        "dealer_hands": row.line.as_dealer.hands, "dealer_points": row.line.as_dealer.points,
        "non_dealer_hands": row.line.as_non_dealer.hands,
        "non_dealer_points": row.line.as_non_dealer.points,
        "provisional": row.line.provisional,
    } for row in standings.rows]


def _field_column(name, label, extra="", default=""):
    """A number of the field's table: ``name`` heads the column, ``label`` precedes the
    value on a phone."""
    return tables.Column(verbose_name=name, default=default, attrs={
        "th": {"class": "num"}, "td": {"class": f"num detail {extra}".strip(),
                                       "data-label": label}})


class FieldTable(PlainRows, tables.Table):
    """Players against the field (``selectors.field.field_standings``): rows from
    ``field_rows``; the public's page and the staff's. On a phone each row folds into a
    card, each number after its short label. A side's figure is a dash when the player
    never held those cards."""

    caption = _("Players against the field")
    caption_hidden = True

    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num rank"}})
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "team player"}})
    team = tables.Column(verbose_name=_("Team"), accessor="team_name",
                         attrs={"td": {"class": "detail club"}})
    hands = _field_column(_("Hands"), _("H"))
    per_hand = tables.Column(verbose_name=_("Against the field, per hand"), attrs={
        "th": {"class": "num"}, "td": {"class": "num strong mp", "data-label": _("per hand")}})
    against_field = _field_column(_("Against the field, total"), _("total"))
    dealer_hands = _field_column(_("Dealer: hands"), _("dealer H"), "side")
    dealer_against_field = _field_column(_("Dealer: against the field"), _("dealer vs field"),
                                          "side", default="—")
    non_dealer_hands = _field_column(_("Non-dealer: hands"), _("non-dealer H"), "side")
    non_dealer_against_field = _field_column(
        _("Non-dealer: against the field"), _("non-dealer vs field"), "side", default="—")
    points = _field_column(_("Points"), _("Pts"))
    points_per_hand = _field_column(_("Points per hand"), _("pts per hand"))

    class Meta:
        orderable = False
        template_name = "includes/plain_table.html"
        attrs = {"class": "standings individual field"}
        row_attrs = {"class": lambda record: "provisional" if record["provisional"] else ""}

    def render_player(self, record):
        if not record["provisional"]:
            return record["player"]
        return format_html('{} <span class="badge badge-provisional">{}</span>',
                           record["player"], _("provisional"))

    def render_team(self, record):
        return format_html('<span class="team-code">{}</span> {}', record["team_code"],
                           record["team_name"])

    def render_points(self, value):
        return signed(value)

    def render_per_hand(self, value):
        return versus(value)

    def render_against_field(self, value):
        return versus(value)

    def render_dealer_against_field(self, value):
        return versus(value)

    def render_non_dealer_against_field(self, value):
        return versus(value)

    def render_points_per_hand(self, value):
        return versus(value)


def field_rows(standings) -> list[dict]:
    """The rows of a ``selectors.field.FieldStandings`` for ``FieldTable``."""
    return [{
        "rank": row.rank, "player": row.player.name, "team_code": row.team.code,
        "team_name": row.team.name, "hands": row.line.hands, "per_hand": row.per_hand,
        "against_field": row.against_field, "dealer_hands": row.line.dealer_hands,
        "dealer_against_field": row.dealer_against_field if row.line.dealer_hands else None,
        "non_dealer_hands": row.line.non_dealer_hands,
        "non_dealer_against_field": (row.non_dealer_against_field
                                     if row.line.non_dealer_hands else None),
        "points": row.points, "points_per_hand": row.points_per_hand,
        "provisional": row.provisional,
    } for row in standings.rows]
