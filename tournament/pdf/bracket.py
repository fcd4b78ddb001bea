"""A knockout's bracket on a landscape page, for the wall of the hall (issue 20): one column
a round, each match a box with both teams, their totals and who went through, lines from
each pair of matches to the match their winners meet in, the match for third place under
the final. A round larger than the round of 16 comes first, on pages of its own."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import landscape
from reportlab.lib.units import mm

from tournament.pdf.base import Document, fit_text
from tournament.selectors.bracket import Bracket, BracketMatch


def _signed(value: int) -> str:
    """+10, -33 or 0 (a hyphen-minus, which copies into a spreadsheet as a number)."""
    return f"{value:+d}" if value else "0"


class BracketDocument(Document):
    gap = 8 * mm  # between two rounds' columns: room for the connecting lines
    box_height = 15 * mm  # at most; a round of many matches gets less
    # The largest round drawn as part of the tree: 8 boxes down a landscape page stay
    # readable; a larger round gets pages of its own, its matches in a grid, before it.
    tree_slots = 16
    grid = (4, 8)  # columns and rows of boxes on a page of a large round
    def __init__(self, bracket: Bracket, *, title: str, subtitle: str = "", **kwargs):
        super().__init__(title=title, subtitle=subtitle, **kwargs)
        self.width, self.height = landscape(self.paper.size)
        self.canvas.setPageSize((self.width, self.height))
        self.bracket = bracket

    def draw_pages(self) -> None:
        rounds = self.bracket.rounds
        for round_ in rounds:
            if round_.slots > self.tree_slots:
                self._grid(round_)
        self._tree([r for r in rounds if r.slots <= self.tree_slots])

    def _heading(self) -> float:
        self.new_page()
        top = self.height - self.margin
        self.text(self.margin, top - 5 * mm, self.title, size=15, bold=True)
        if self.subtitle:
            self.text(self.margin, top - 11 * mm, self.subtitle, size=9, colour=0.3)
        return top - 20 * mm

    def _grid(self, round_) -> None:
        """A round too large for the tree: its matches in bracket order, a grid a page."""
        columns, rows = self.grid
        width = (self.width - 2 * self.margin - (columns - 1) * self.gap) / columns
        per_page = columns * rows
        for first in range(0, len(round_.matches), per_page):
            heading = self._heading()
            self.text(self.margin, heading, round_.name, size=11, bold=True)
            top, bottom = heading - 4 * mm, self.margin + 4 * mm
            slot = (top - bottom) / rows
            height = min(self.box_height, slot - 3 * mm)
            for index, match in enumerate(round_.matches[first:first + per_page]):
                column, row = divmod(index, rows)
                x = self.margin + column * (width + self.gap)
                self._box(match, x, top - slot * (row + 0.5), width, height)

    def _tree(self, rounds) -> None:
        heading = self._heading()
        columns = len(rounds)
        width = (self.width - 2 * self.margin - (columns - 1) * self.gap) / columns
        area_top, area_bottom = heading - 4 * mm, self.margin + 4 * mm
        previous: list[float] = []  # the middle height of each box of the round before
        for index, round_ in enumerate(rounds):
            x = self.margin + index * (width + self.gap)
            self.text(x, heading, round_.name, size=11, bold=True)
            bottom = area_bottom
            if round_.third_place is not None:
                bottom += self.box_height + 10 * mm  # the third-place match goes below
            slot = (area_top - bottom) / len(round_.matches)
            height = min(self.box_height, slot - 2 * mm)
            middles = []
            for number, match in enumerate(round_.matches):
                middle = area_top - slot * (number + 0.5)
                middles.append(middle)
                self._box(match, x, middle, width, height)
                if previous:
                    self._connect(x, middle, previous[2 * number:2 * number + 2])
            if round_.third_place is not None:
                y = area_bottom + self.box_height / 2
                self.text(x, y + self.box_height / 2 + 3 * mm, round_.third_place_name,
                          size=10, bold=True)
                self._box(round_.third_place, x, y, width, self.box_height)
            previous = middles

    def _connect(self, x: float, middle: float, feeders: list[float]) -> None:
        c = self.canvas
        c.setLineWidth(0.5)
        c.setStrokeGray(0.5)
        elbow = x - self.gap / 2
        for feeder in feeders:
            c.line(x - self.gap, feeder, elbow, feeder)
            c.line(elbow, feeder, elbow, middle)
        c.line(elbow, middle, x, middle)
        c.setStrokeGray(0)

    def _box(self, match: BracketMatch, x: float, middle: float, width: float,
             height: float) -> None:
        c = self.canvas
        c.setLineWidth(0.6)
        c.rect(x, middle - height / 2, width, height, stroke=1, fill=0)
        line = height / 3
        size = max(6.0, min(9.0, line / mm * 2.4))
        for row, (side, team, total) in enumerate(match.sides):
            y = middle + height / 2 - line * (row + 1) + line * 0.25
            if team is not None:
                label = f"{team.code} {team.shown_name}"
            elif match.bye and side == "away":
                label = _("bye")
            else:
                label = "–"
            bold = match.winner_side == side
            score = _signed(total) if total is not None else ""
            room = width - 4 * mm - (12 * mm if score else 0)
            self.text(x + 2 * mm, y, label, size=fit_text(label, size, room, bold=bold),
                      bold=bold, colour=0 if team is not None else 0.45)
            if score:
                self.text(x + width - 2 * mm, y, score, size=size, bold=bold, align="right")
        how = self._how(match)
        if how:
            y = middle - height / 2 + line * 0.25
            self.text(x + 2 * mm, y, how, size=fit_text(how, size - 1, width - 4 * mm),
                      colour=0.35)

    @staticmethod
    def _how(match: BracketMatch) -> str:
        if match.bye:
            return _("%(team)s goes through with a bye") % {"team": match.home.code}
        if match.winner is not None:
            return match.decided_text.replace("\N{MINUS SIGN}", "-")
        if match.line is not None:
            if match.line.knockout_result:
                return match.line.knockout_result.replace("\N{MINUS SIGN}", "-")
            return match.line.state_word
        return _("not drawn yet")
