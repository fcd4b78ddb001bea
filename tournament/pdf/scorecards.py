"""Scorecards: one per table and round, a blank form, and the match result slip (issue 6).

The pre-filled card carries who sits where and who deals each hand (``scoring.seating``
through the round plan), columns for every hand, totals, signature lines and a QR code to
the table's entry screen.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm

from scoring.hand import Addend, Formula, Outcome, formulas
from scoring.match import match_points
from scoring.rules import DEFAULT_RULES, DrawRule, Rules
from tournament.models import HandResult
from tournament.pdf.base import Document, fit_text, text_width
from tournament.pdf.qr import QrEncoder, draw_modules
from tournament.selectors.draw import MatchPlan, RoundPlan, TablePlan

COLUMNS = (  # heading, share of the width
    (gettext_lazy("Hand"), 0.07), (gettext_lazy("Dealer"), 0.09),
    (gettext_lazy("Outcome"), 0.16), (gettext_lazy("Declarer"), 0.10),
    (gettext_lazy("Declarer's deadwood"), 0.13), (gettext_lazy("Opponent's deadwood"), 0.13),
    (gettext_lazy("Seat 1 points"), 0.11), (gettext_lazy("Seat 2 points"), 0.11),
    (gettext_lazy("Initials"), 0.10),
)


class Scorecards(Document):
    """One page per table. ``entry_url(table_plan)`` gives the QR code's address; without
    it (or with ``blank=True``) the card is a form to fill in by hand."""

    def __init__(self, plan: RoundPlan | None, *, tables: list[TablePlan] | None = None,
                 entry_url=None, blank: bool = False, rules: Rules | None = None,
                 paper_name: str = "a4", title: str = ""):
        super().__init__(paper_name=paper_name, title=title or _("Scorecards"))
        self.plan = plan
        self.tables = tables if tables is not None else (plan.tables if plan else [])
        self.entry_url = entry_url
        self.blank = blank
        # The legend and the number of hands follow the rules the round is played under.
        self.rules = rules or (plan.round.rules if plan else DEFAULT_RULES)
        self.hands = self.rules.hands_per_match
        self.qr = QrEncoder()
        self._forms: dict[tuple, str] = {}

    def draw_pages(self) -> None:
        if self.blank:
            self.new_page()
            self._card(None)
            return
        for table in self.tables:
            self.new_page()
            self._card(table)

    def _card(self, table: TablePlan | None) -> None:
        m, w, h = self.margin, self.width, self.height
        top = h - m
        round_ = self.plan.round if self.plan else None
        if round_ is not None:
            tournament = round_.stage.tournament
            self.text(m, top - 6 * mm, tournament.shown_name, size=14, bold=True)
            self.text(m, top - 12 * mm, f"{round_.stage.shown_name} · {round_.label}", size=10,
                      colour=0.3)
        else:
            self.text(m, top - 6 * mm, _("Scorecard"), size=14, bold=True)
            self.text(m, top - 12 * mm, _("Tournament, round: ") + "_" * 40, size=10)
        number = str(table.number) if table else "____"
        self.text(w - m - (30 * mm if table and self.entry_url else 0), top - 9 * mm,
                  _("Table %(n)s") % {"n": number}, size=22, bold=True, align="right")
        if table and self.entry_url:
            self._qr(self.entry_url(table), w - m - 26 * mm, top - 26 * mm, 26 * mm)
        y = top - 24 * mm
        hands = len(table.dealer_seats) if table else self.hands
        if table:
            match = table.match
            line = _("Match %(n)d: %(home)s – %(away)s") % {
                "n": match.number, "home": match.home.shown_name, "away": match.away.shown_name}
            # Clear of the QR code, which reaches down beside this line.
            self.text(m, y, line, size=fit_text(line, 11, w - 2 * m - 30 * mm))
        y -= 9 * mm
        half = (w - 2 * m) / 2
        for seat in (1, 2):
            x = m + (seat - 1) * half
            holder = table.seat(seat) if table else None
            self.text(x, y, _("Seat %(n)d") % {"n": seat}, size=9, colour=0.4)
            name = (f"{holder.player.name} ({holder.team.code})" if holder
                    else "_" * 34)
            self.text(x, y - 6 * mm, name, size=fit_text(name, 13, half - 4 * mm, bold=True),
                      bold=True)
            if table:
                hands_dealt = ", ".join(map(str, table.hands_dealt_by(seat)))
                self.text(x, y - 11 * mm, _("deals hands %(h)s") % {"h": hands_dealt}, size=8,
                          colour=0.4)
        y -= 20 * mm
        self._grid(table, hands, y)

    def _grid(self, table: TablePlan | None, hands: int, top: float) -> None:
        """The grid, the signature lines and the legend are alike on every card with the
        same hands and dealers: drawn once as a form that each page shows again."""
        key = (hands, table.dealer_seats if table else None, top)
        name = self._forms.get(key)
        if name is None:
            name = self._forms[key] = f"grid{len(self._forms)}"
            self.canvas.beginForm(name)
            self._draw_grid(table, hands, top)
            self.canvas.endForm()
        self.canvas.doForm(name)

    def _draw_grid(self, table: TablePlan | None, hands: int, top: float) -> None:
        m, w = self.margin, self.width
        usable = w - 2 * m
        widths = [share * usable for _heading, share in COLUMNS]
        row = min(10 * mm, (top - 70 * mm) / (hands + 2))
        c = self.canvas
        c.setLineWidth(0.5)
        x = m
        for (heading, _share), width in zip(COLUMNS, widths, strict=True):
            self._heading(str(heading), x + 1 * mm, top - row / 2, width - 2 * mm)
            x += width
        for line in range(hands + 3):  # above the heading, each hand and the totals
            c.line(m, top - line * row, w - m, top - line * row)
        for hand in range(1, hands + 1):
            base = top - (hand + 1) * row + 3 * mm
            self.text(m + 1 * mm, base, str(hand), size=10, bold=True)
            if table:
                dealer = table.dealer_seats[hand - 1]
                self.text(m + widths[0] + 1 * mm, base, _("seat %(s)d") % {"s": dealer},
                          size=9)
        bottom = top - (hands + 2) * row
        self.text(m + 1 * mm, bottom + 3 * mm, _("Total"), size=10, bold=True)
        x = m
        for width in [0, *widths]:
            x += width
            c.line(x, top, x, bottom)
        y = bottom - 18 * mm
        third = usable / 3
        for n, label in enumerate((_("Seat 1 signature"), _("Seat 2 signature"),
                                   _("Referee"))):
            x = m + n * third
            c.line(x, y, x + third - 8 * mm, y)
            self.text(x, y - 5 * mm, label, size=8, colour=0.4)
        for n, line in enumerate(score_legend(self.rules)):
            self.text(m, y - (14 + 4 * n) * mm, line, size=fit_text(line, 7.5, usable),
                      colour=0.4)

    def _heading(self, text: str, x: float, middle: float, width: float) -> None:
        """A column heading on one line, or two when it is too wide."""
        size = 8
        if text_width(text, size, bold=True) <= width or " " not in text:
            self.text(x, middle - 1 * mm, text, size=fit_text(text, size, width, bold=True),
                      bold=True)
            return
        words = text.split()
        cut = max(1, len(words) // 2)
        for n, line in enumerate((" ".join(words[:cut]), " ".join(words[cut:]))):
            self.text(x, middle + 1 * mm - n * 3.5 * mm, line,
                      size=fit_text(line, size, width, bold=True), bold=True)

    def _qr(self, url: str, x: float, y: float, size: float) -> None:
        draw_modules(self.canvas, self.qr.modules(url), x, y, size)


def score_legend(rules: Rules) -> list[str]:
    """How a hand scores under these rules, in the reader's language: the lines printed
    under a scorecard and on the result slips."""
    lines = [" · ".join(_formula_text(each, rules) for each in formulas(rules))]
    if rules.draw_rule == DrawRule.TWO_CARDS_LEFT:
        lines.append(_("The last two stock cards are never drawn: the hand is a draw when "
                       "two cards are left."))
    else:
        lines.append(_("The hand is a draw when the player who drew the last stock card "
                       "discards without declaring."))
    return lines


def _formula_text(formula: Formula, rules: Rules) -> str:
    """One outcome's formula (``scoring.hand.formula``): "Gin: 25 + opponent's deadwood"."""
    if formula.outcome is Outcome.KNOCK:
        name = _("Knock (deadwood %(limit)d or less)") % {"limit": rules.knock_limit}
    else:
        name = str(HandResult.Outcome(formula.outcome.value).label)
    template = {
        Addend.DIFFERENCE: _("%(name)s: %(bonus)d + difference"),
        Addend.OPPONENT_DEADWOOD: _("%(name)s: %(bonus)d + opponent's deadwood"),
        Addend.NOTHING: _("%(name)s: %(bonus)d"),
    }[formula.plus]
    return template % {"name": name, "bonus": formula.bonus}


def match_points_legend(rules: Rules) -> str:
    return _("Match points: win %(win)d · tie %(tie)d · loss %(loss)d") % {
        "win": rules.match_points_win, "tie": rules.match_points_tie,
        "loss": rules.match_points_loss}


class ResultSlips(Document):
    """One slip per match: both tables' totals and the match result, for the referee."""

    def __init__(self, matches: list[tuple[MatchPlan, dict]], *, paper_name: str = "a4",
                 title: str = ""):
        super().__init__(paper_name=paper_name, title=title or _("Match result slips"))
        self.matches = matches

    def draw_pages(self) -> None:
        per_page = 3
        block = (self.height - 2 * self.margin) / per_page
        for index, (plan, totals) in enumerate(self.matches):
            if index % per_page == 0:
                self.new_page()
            top = self.height - self.margin - (index % per_page) * block
            self._slip(plan, totals, top, block)

    def _slip(self, plan: MatchPlan, totals: dict, top: float, height: float) -> None:
        m, w = self.margin, self.width
        match = plan.match
        self.text(m, top - 8 * mm, _("Match %(n)d") % {"n": match.number}, size=15, bold=True)
        self.text(w - m, top - 8 * mm, f"{match.round.stage.shown_name} · {match.round.label}",
                  size=9, align="right", colour=0.4)
        y = top - 18 * mm
        for table in plan.tables:
            seat1, seat2 = (totals.get((table.number, s)) for s in (1, 2))
            line = (_("Table %(n)d") % {"n": table.number}
                    + f":  {table.seat(1).team.code} {table.seat(1).player.name} "
                    + (str(seat1) if seat1 is not None else "____")
                    + f"  –  {table.seat(2).team.code} {table.seat(2).player.name} "
                    + (str(seat2) if seat2 is not None else "____"))
            self.text(m, y, line, size=fit_text(line, 11, w - 2 * m))
            y -= 8 * mm
        home = totals.get("home")
        away = totals.get("away")
        result = (f"{match.home.shown_name} {home if home is not None else '____'}  –  "
                  f"{away if away is not None else '____'} {match.away.shown_name}")
        rules = match.round.rules
        if home is not None and away is not None:
            result += "   " + _("match points %(home)d : %(away)d") % {
                "home": match_points(home, away, rules), "away": match_points(away, home, rules)}
        self.text(m, y - 2 * mm, result, size=fit_text(result, 14, w - 2 * m, bold=True),
                  bold=True)
        self.text(m, y - 9 * mm, match_points_legend(rules), size=8, colour=0.4)
        sig = y - 20 * mm
        self.canvas.line(m, sig, m + 70 * mm, sig)
        self.text(m, sig - 4 * mm, _("Referee"), size=8, colour=0.4)
        self.canvas.setStrokeGray(0.8)
        self.canvas.line(m, top - height + 3 * mm, w - m, top - height + 3 * mm)
        self.canvas.setStrokeGray(0)
