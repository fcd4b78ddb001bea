"""Printouts of a round's draw: by table, by team, and a card for every table (issue 4)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.pagesizes import landscape
from reportlab.lib.units import mm

from tournament.pdf.base import Document, TabularDocument, fit_text
from tournament.selectors.draw import RoundPlan, TablePlan


def _seat_text(table: TablePlan, seat: int) -> str:
    holder = table.seat(seat)
    return f"{holder.team.code} {holder.player.name}"


def _deals_text(table: TablePlan) -> str:
    """Who deals: the seat of hand 1, alternating (RULES.md §8)."""
    first = table.dealer(1)
    return _("%(code)s deals odd hands") % {"code": first.team.code}


class DrawByTable(TabularDocument):
    columns = (
        (gettext_lazy("Table"), 0.08), (gettext_lazy("Match"), 0.08),
        (gettext_lazy("Seat 1"), 0.32), (gettext_lazy("Seat 2"), 0.32),
        (gettext_lazy("Dealer"), 0.20),
    )

    def __init__(self, plan: RoundPlan, **kwargs):
        round_ = plan.round
        super().__init__(title=_("Draw by table — %(round)s") % {"round": round_},
                         subtitle=str(round_.stage.tournament), **kwargs)
        self.plan = plan

    def rows(self):
        for table in self.plan.tables:
            yield (str(table.number), str(table.match.number), _seat_text(table, 1),
                   _seat_text(table, 2), _deals_text(table))
        for team in self.plan.byes:
            yield ("—", "—", f"{team.code} {team.shown_name}", _("bye"), "")


class DrawByTeam(TabularDocument):
    columns = ((gettext_lazy("Team"), 0.34), (gettext_lazy("Table"), 0.10),
               (gettext_lazy("Seat"), 0.08), (gettext_lazy("Player"), 0.28),
               (gettext_lazy("Opponent"), 0.20))

    def __init__(self, plan: RoundPlan, **kwargs):
        round_ = plan.round
        super().__init__(title=_("Draw by team — %(round)s") % {"round": round_},
                         subtitle=str(round_.stage.tournament), **kwargs)
        self.plan = plan

    def rows(self):
        for place in self.plan.by_team():
            team = f"{place.team.shown_name} ({place.team.code})"
            if place.opponent is None:
                yield (team, "—", "—", _("bye"), "")
            for table, seat in place.seats:
                yield (team, str(table.number), str(seat.seat), seat.player.name,
                       place.opponent.code)


class TableCards(Document):
    """One landscape page per table, readable from across the room."""

    def __init__(self, plan: RoundPlan, *, paper_name: str = "a4"):
        super().__init__(paper_name=paper_name,
                         title=_("Table cards — %(round)s") % {"round": plan.round})
        self.width, self.height = landscape(self.paper.size)
        self.canvas.setPageSize((self.width, self.height))
        self.plan = plan

    def draw_footer(self) -> None:
        self.text(self.margin, self.margin / 2, f"{self.plan.round.stage.tournament} · "
                  f"{self.plan.round}", size=9, colour=0.4)

    def draw_pages(self) -> None:
        for table in self.plan.tables:
            self.new_page()
            self._card(table)

    def _card(self, table: TablePlan) -> None:
        w, h, m = self.width, self.height, self.margin
        self.text(w / 2, h - m - 20 * mm, _("TABLE"), size=28, bold=True, align="center",
                  colour=0.35)
        self.text(w / 2, h / 2 - 10 * mm, str(table.number), size=180, bold=True,
                  align="center")
        self.text(w / 2, m + 56 * mm,
                  _("Match %(n)d · %(home)s – %(away)s") % {
                      "n": table.match.number, "home": table.match.home.code,
                      "away": table.match.away.code},
                  size=16, align="center", colour=0.3)
        for seat in table.seats:
            x = m + 5 * mm if seat.seat == 1 else w / 2 + 5 * mm
            width = w / 2 - m - 10 * mm
            label = _("Seat %(n)d") % {"n": seat.seat}
            self.text(x, m + 40 * mm, label, size=14, colour=0.4)
            name = f"{seat.player.name}"
            self.text(x, m + 27 * mm, name, size=fit_text(name, 30, width, bold=True),
                      bold=True)
            team = f"{seat.team.shown_name} ({seat.team.code})"
            self.text(x, m + 17 * mm, team, size=fit_text(team, 16, width))
            hands = ", ".join(map(str, table.hands_dealt_by(seat.seat)))
            self.text(x, m + 8 * mm, _("Deals hands %(hands)s") % {"hands": hands}, size=13,
                      colour=0.3)
