"""The event's final ranking on paper, and the podium's certificates (issue 58).

Both read ``selectors.event_ranking`` (the official results, as the staff's ranking page);
names as the reader's language picks them (tournament.names), the other script beside."""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.pagesizes import landscape
from reportlab.lib.units import mm

from tournament.names import beside_name, both_names, shown_name
from tournament.pdf.base import Document, TabularDocument, fit_text
from tournament.selectors.event_ranking import EventRanking, RankingRow


def _players(row: RankingRow) -> str:
    players = sorted(row.team.players.all(), key=lambda p: (p.number, p.pk))
    return ", ".join(both_names(player) for player in players)


class FinalRankingDocument(TabularDocument):
    columns = ((gettext_lazy("Place"), 0.08), (gettext_lazy("Team"), 0.38),
               (gettext_lazy("Players"), 0.34), (gettext_lazy("How"), 0.20))

    def __init__(self, ranking: EventRanking, **kwargs):
        tournament = ranking.tournament
        super().__init__(title=_("Final ranking — %(event)s") % {
                             "event": both_names(tournament)},
                         subtitle=_dates(tournament), **kwargs)
        self.ranking = ranking

    def rows(self):
        for row in self.ranking.rows:
            yield (str(row.place) if row.place else row.open_places,
                   f"{row.team.code} {both_names(row.team)}", _players(row), row.label)
        for team in self.ranking.withdrawn:
            yield ("—", f"{team.code} {both_names(team)}", "", _("withdrawn"))


PLACE_WORDS = {1: gettext_lazy("Winner"), 2: gettext_lazy("Second place"),
               3: gettext_lazy("Third place")}


class Certificates(Document):
    """One landscape page for each team of the podium."""

    def __init__(self, ranking: EventRanking, *, paper_name: str = "a4"):
        tournament = ranking.tournament
        super().__init__(paper_name=paper_name, title=_("Certificates — %(event)s") % {
            "event": shown_name(tournament)})
        self.width, self.height = landscape(self.paper.size)
        self.canvas.setPageSize((self.width, self.height))
        self.ranking = ranking

    def draw_footer(self) -> None:
        pass  # a certificate carries no page number

    def draw_pages(self) -> None:
        for row in self.ranking.podium:
            self.new_page()
            self._certificate(row)

    def _certificate(self, row: RankingRow) -> None:
        c, w, h, m = self.canvas, self.width, self.height, self.margin
        tournament = self.ranking.tournament
        c.setLineWidth(2)
        c.rect(m, m, w - 2 * m, h - 2 * m)
        c.setLineWidth(0.6)
        c.rect(m + 3 * mm, m + 3 * mm, w - 2 * m - 6 * mm, h - 2 * m - 6 * mm)
        usable = w - 2 * m - 30 * mm
        self.text(w / 2, h - m - 28 * mm, _("CERTIFICATE"), size=30, bold=True,
                  align="center", colour=0.25)
        event = shown_name(tournament)
        self.text(w / 2, h - m - 45 * mm, event, size=fit_text(event, 22, usable, bold=True),
                  bold=True, align="center")
        other = beside_name(tournament)
        if other:
            self.text(w / 2, h - m - 54 * mm, other, size=fit_text(other, 14, usable),
                      align="center", colour=0.35)
        place = str(PLACE_WORDS.get(row.place, _("Place %(n)s") % {"n": row.place}))
        self.text(w / 2, h / 2 + 8 * mm, place, size=26, bold=True, align="center",
                  colour=(0.08, 0.33, 0.18))
        team = f"{row.team.code} {shown_name(row.team)}"
        self.text(w / 2, h / 2 - 10 * mm, team, size=fit_text(team, 34, usable, bold=True),
                  bold=True, align="center")
        other_team = beside_name(row.team)
        if other_team:
            self.text(w / 2, h / 2 - 20 * mm, other_team,
                      size=fit_text(other_team, 16, usable), align="center", colour=0.35)
        players = _players(row)
        self.text(w / 2, h / 2 - 34 * mm, players, size=fit_text(players, 16, usable),
                  align="center")
        when = _dates(tournament)
        self.text(w / 2, m + 16 * mm, when, size=12, align="center", colour=0.35)


def _dates(tournament) -> str:
    start, end = tournament.starts_on, tournament.ends_on
    days = (date_format(start) if start == end
            else f"{date_format(start)} – {date_format(end)}")
    return f"{days} · {tournament.venue}" if tournament.venue else days
