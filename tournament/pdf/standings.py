"""The printed standings of a stage: one table per group (or one for the stage), each row
with the criterion that put the team above the next one (issue 11)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm

from tournament.names import SEPARATOR
from tournament.pdf.base import Document, fit_text
from tournament.selectors.standings import StageStandings
from tournament.tables import standings_rows
from tournament.templatetags.scores import MINUS


def _signed(value: int) -> str:
    """+10, -33 or 0 (a hyphen-minus, which copies into a spreadsheet as a number)."""
    return f"{value:+d}" if value else "0"


# The smallest size at which a team's two names share its cell (below, the one name alone).
BOTH_NAMES_SIZE = 7.5


class StandingsDocument(Document):
    row_height = 7 * mm
    size = 9
    columns = (
        ("#", 0.05, "right"), (gettext_lazy("Team"), 0.27, "left"),
        (gettext_lazy("P"), 0.05, "right"), (gettext_lazy("MP"), 0.06, "right"),
        (gettext_lazy("SP"), 0.07, "right"), (gettext_lazy("W"), 0.05, "right"),
        (gettext_lazy("G"), 0.05, "right"), (gettext_lazy("Penalties"), 0.10, "left"),
        (gettext_lazy("Ahead of the next by"), 0.30, "left"),
    )

    def __init__(self, tables: list[StageStandings], *, title: str, subtitle: str = "",
                 **kwargs):
        super().__init__(title=title, subtitle=subtitle, **kwargs)
        self.tables = tables
        self.usable = self.width - 2 * self.margin
        self.widths = [share * self.usable for _h, share, _a in self.columns]
        self.y = 0.0

    def draw_pages(self) -> None:
        self._page()
        for table in self.tables:
            rows = standings_rows(table)
            if self.y < self.margin + 4 * self.row_height:
                self._page()
            if table.group is not None:
                self.text(self.margin, self.y, str(table.group), size=12, bold=True)
                self.y -= 6 * mm
            self._heading()
            for index, row in enumerate(rows):
                if self.y < self.margin + self.row_height:
                    self._page()
                    self._heading()
                self._row(row, shaded=index % 2 == 1)
            if not rows:
                self.text(self.margin + 1 * mm, self.y, _("No team."), size=self.size,
                          colour=0.4)
                self.y -= self.row_height
            if table.withdrawn:
                self.text(self.margin + 1 * mm, self.y, _("Withdrawn (results cleared): %(teams)s")
                          % {"teams": ", ".join(f"{t.code} {t.shown_name}"
                                                for t in table.withdrawn)},
                          size=8, colour=0.3)
                self.y -= self.row_height
            self.y -= 4 * mm
        if any(table.provisional for table in self.tables):
            self.text(self.margin, max(self.y, self.margin + 2 * mm),
                      _("* provisional: includes results not signed off yet"), size=8,
                      colour=0.3)

    def _page(self) -> None:
        self.new_page()
        top = self.height - self.margin
        self.text(self.margin, top - 5 * mm, self.title, size=15, bold=True)
        if self.subtitle:
            self.text(self.margin, top - 11 * mm, self.subtitle, size=10, colour=0.3)
        self.y = top - 20 * mm

    def _heading(self) -> None:
        x = self.margin
        for (heading, _share, align), width in zip(self.columns, self.widths, strict=True):
            self._cell(x, width, str(heading), align, bold=True)
            x += width
        self.canvas.setLineWidth(0.6)
        self.canvas.line(self.margin, self.y - 2.5 * mm, self.width - self.margin,
                         self.y - 2.5 * mm)
        self.y -= self.row_height

    def _row(self, row: dict, *, shaded: bool) -> None:
        if shaded:
            self.canvas.setFillGray(0.95)
            self.canvas.rect(self.margin, self.y - 2 * mm, self.usable, self.row_height,
                             stroke=0, fill=1)
            self.canvas.setFillGray(0)
        team = f"{row['code']} {row['name']}"
        if row["other_name"]:
            # The name in the other script beside it while both fit at a readable size.
            both = f"{team}{SEPARATOR}{row['other_name']}"
            if fit_text(both, self.size, self.widths[1] - 3 * mm) >= BOTH_NAMES_SIZE:
                team = both
        team += " *" if row["provisional"] else ""
        cells = (str(row["rank"]), team, str(row["played"]), str(row["match_points"]),
                 _signed(row["small_points"]), str(row["wins"]), str(row["gins"]),
                 row["penalty_text"].replace(MINUS, "-"), row["separation"])
        x = self.margin
        for index, (text, (_h, _share, align), width) in enumerate(
                zip(cells, self.columns, self.widths, strict=True)):
            self._cell(x, width, text, align, bold=index == 3)  # match points stand out
            x += width
        self.y -= self.row_height

    def _cell(self, x: float, width: float, text: str, align: str, *, bold: bool = False):
        size = fit_text(text, self.size, width - 3 * mm, bold=bold)
        if align == "right":
            self.text(x + width - 1 * mm, self.y, text, size=size, bold=bold, align="right")
        else:
            self.text(x + 2 * mm, self.y, text, size=size, bold=bold)
