"""The bulletin: a day of the event (or the whole of it) on paper, in the reader's language
(issue 26). What it holds is read by ``selectors.bulletin``; this module only lays it out,
section after section, a page breaking where the next block does not fit."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from reportlab.lib.units import mm

from scoring.cards import Card, Suit
from tournament import states
from tournament.pdf.base import Document, fit_text, text_width
from tournament.pdf.suits import draw_suit, suit_width
from tournament.selectors.bulletin import Bulletin, RareResult, SwingBox, TableOfBox
from tournament.tables import standings_rows
from tournament.wording import hand_line

RED = (0.75, 0.08, 0.08)
GREY = 0.35
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
OUTCOME_NAMES = {
    "knock": gettext_lazy("knock"), "gin": gettext_lazy("gin"),
    "big_gin": gettext_lazy("Big Gin"), "undercut": gettext_lazy("undercut"),
    "draw": gettext_lazy("draw"), "false_knock": gettext_lazy("false knock"),
}


def signed(value: int | None) -> str:
    if value is None:
        return ""
    return f"{value:+d}" if value else "0"


def _rank(card: Card) -> str:
    return "10" if card.rank == 10 else "A23456789TJQK"[card.rank - 1]


def seat_holder_of(holder) -> str:
    if holder is None:
        return "?"
    return f"{holder.player.name} ({holder.team.code})"


def wrap(text: str, size: float, width: float, *, bold: bool = False,
         indent: float = 0) -> list[str]:
    """``text`` in lines that fit ``width`` (the lines after the first ``indent`` less):
    broken between words, and inside a word (a Chinese sentence has no spaces) only where
    it does not fit on a line of its own."""
    lines: list[str] = []
    line = ""
    for word in re.findall(r"\S+\s*", text):
        room = width - (indent if lines else 0)
        if text_width(line + word.rstrip(), size, bold=bold) <= room:
            line += word
            continue
        if line:
            lines.append(line.rstrip())
            line = ""
            room = width - indent
        while text_width(word.rstrip(), size, bold=bold) > room:
            cut = len(word)
            while cut > 1 and text_width(word[:cut], size, bold=bold) > room:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
            room = width - indent
        line = word
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def bulletin_title(bulletin: Bulletin) -> str:
    if bulletin.day is None:
        return _("Bulletin: the whole event")
    return _("Bulletin of %(day)s") % {"day": date_format(bulletin.day, "DATE_FORMAT")}


class BulletinDocument(Document):
    line = 5.2 * mm
    size = 9

    def __init__(self, bulletin: Bulletin, **kwargs):
        tournament = bulletin.tournament
        rounds = ", ".join(f"{r.stage.shown_name} · {r.label}" for r in bulletin.rounds)
        super().__init__(title=f"{tournament.shown_name} — {bulletin_title(bulletin)}",
                         subtitle=rounds, **kwargs)
        self.bulletin = bulletin
        self.usable = self.width - 2 * self.margin
        self.y = 0.0

    # Flow ----------------------------------------------------------------------------
    def _page(self) -> None:
        self.new_page()
        top = self.height - self.margin
        if self.page_number == 1:
            self.text(self.margin, top - 6 * mm, self.title, size=16, bold=True)
            self.y = top - 12 * mm
            subtitle = _("Closed rounds: %(rounds)s") % {"rounds": self.subtitle}
            for line in wrap(subtitle, 10, self.usable):  # the whole event: many rounds
                self.text(self.margin, self.y, line, size=10, colour=GREY)
                self.y -= 4.5 * mm
            self.y -= 4.5 * mm
        else:
            self.y = top - 4 * mm

    def _need(self, height: float) -> None:
        if self.page_number == 0 or self.y - height < self.margin + 4 * mm:
            self._page()

    def _say(self, text: str, *, x: float = 0, size: float | None = None, bold: bool = False,
             colour: float | tuple = 0) -> None:
        """A paragraph: wrapped at the width, the lines after the first indented."""
        size = size or self.size
        for index, piece in enumerate(wrap(text, size, self.usable - x, bold=bold,
                                           indent=3 * mm)):
            self._need(self.line)
            indent = 3 * mm if index else 0
            self.text(self.margin + x + indent, self.y, piece, size=size, bold=bold,
                      colour=colour)
            self.y -= self.line

    def _section(self, heading: str) -> None:
        # Room for the heading and what opens the section (a title, a table's head and its
        # first row: the sections ask 3 lines of their own): a heading never ends a page.
        self._need(5 * self.line + 4 * mm)
        self.y -= 2 * mm
        self.text(self.margin, self.y, heading, size=13, bold=True)
        self.canvas.setLineWidth(0.6)
        self.canvas.line(self.margin, self.y - 2 * mm, self.width - self.margin,
                         self.y - 2 * mm)
        self.y -= self.line + 2 * mm

    def _row(self, cells: Iterable[str], widths: Iterable[tuple[float, str]], *,
             bold: bool = False, shaded: bool = False) -> None:
        self._need(self.line)
        if shaded:
            self.canvas.setFillGray(0.95)
            self.canvas.rect(self.margin, self.y - 1.6 * mm, self.usable, self.line, stroke=0,
                             fill=1)
            self.canvas.setFillGray(0)
        x = self.margin
        for text, (share, align) in zip(cells, widths, strict=True):
            width = share * self.usable
            size = fit_text(text, self.size, width - 2 * mm, bold=bold)
            if align == "right":
                self.text(x + width - 1 * mm, self.y, text, size=size, bold=bold,
                          align="right")
            else:
                self.text(x + 1 * mm, self.y, text, size=size, bold=bold)
            x += width
        self.y -= self.line

    # The document --------------------------------------------------------------------
    def draw_pages(self) -> None:
        self._page()
        b = self.bulletin
        if b.later_rounds:
            names = ", ".join(f"{r.stage.shown_name} · {r.label}" for r in b.later_rounds)
            self._say(_("Not in this bulletin (not closed yet): %(rounds)s") % {"rounds": names},
                      colour=GREY)
        if b.results is not None:
            self._results()
        if b.standings is not None:
            self._standings()
        if b.swings is not None:
            self._swings()
        if b.rare is not None:
            self._rare()
        if b.penalties is not None:
            self._penalties()
        if b.players is not None:
            self._players()

    def _results(self) -> None:
        self._section(_("Results"))
        widths = ((0.06, "right"), (0.28, "left"), (0.13, "right"), (0.28, "left"),
                  (0.25, "left"))
        # Translated once for the document, not once a match (the whole event has 3,840).
        points_format = _("%(home)d : %(away)d mp")
        for round_, lines in self.bulletin.results:
            self._need(3 * self.line)
            self._say(f"{round_.stage.shown_name} · {round_.label}", bold=True, size=10)
            self._row((_("Match"), _("Home"), _("Score"), _("Away"), _("Result")), widths,
                      bold=True)
            group = None
            for index, line in enumerate(lines):
                match = line.match
                if match.group_id and match.group_id != group:
                    self._need(2 * self.line)  # the group's name with its first match
                    self._say(str(match.group), size=8, colour=GREY)
                    group = match.group_id
                self._row((str(match.number), f"{match.home.code} {match.home.shown_name}",
                           self._score(line), f"{match.away.code} {match.away.shown_name}",
                           self._outcome(line, points_format)), widths,
                          shaded=index % 2 == 1)
            if not lines:
                self._say(_("No match."), colour=GREY)
            self.y -= 2 * mm

    @staticmethod
    def _score(line) -> str:
        if line.state == states.FORFEITED or not line.has_score:
            return ""
        return f"{signed(line.home_total)} : {signed(line.away_total)}"

    @staticmethod
    def _outcome(line, points_format: str) -> str:
        if line.knockout:
            if line.third_place:
                return _("for third place: %(result)s") % {"result": line.knockout_result}
            return line.knockout_result
        if line.state == states.FORFEITED and line.forfeited_by is not None:
            return _("forfeited by %(team)s") % {"team": line.forfeited_by.code}
        if line.state == states.VOID:
            return _("%(word)s: a team withdrew from the stage") % {"word": line.state_word}
        if not line.has_score:
            return line.state_word
        points = points_format % {"home": line.home_points, "away": line.away_points}
        # A result not official (being corrected) says so, in the pages' word.
        return points if line.state == states.OFFICIAL else f"{points} · {line.state_word}"

    def _standings(self) -> None:
        b = self.bulletin
        self._section(_("Standings after the day") if b.day is not None else _("Standings"))
        widths = ((0.07, "right"), (0.45, "left"), (0.08, "right"), (0.10, "right"),
                  (0.10, "right"), (0.10, "right"), (0.10, "right"))
        for standing in b.standings:
            if standing.bracket is not None:
                self._bracket(standing.bracket)
                continue
            for table in standing.standings.tables:
                rows = standings_rows(table)
                self._need(3 * self.line)
                title = standing.stage.shown_name
                if table.group is not None:
                    title += f" · {table.group}"
                after = standing.standings.last_round
                if after is not None:
                    title += " · " + _("after round %(n)d") % {"n": after}
                self._say(title, bold=True, size=10)
                self._row(("#", _("Team"), _("Played"), _("MP"), _("SP"), _("Won"), _("Gins")),
                          widths, bold=True)
                for index, row in enumerate(rows):
                    self._row((str(row["rank"]), f"{row['code']} {row['name']}",
                               str(row["played"]), str(row["match_points"]),
                               signed(row["small_points"]), str(row["wins"]),
                               str(row["gins"])), widths, shaded=index % 2 == 1)
                self.y -= 2 * mm

    def _bracket(self, bracket) -> None:
        self._need(3 * self.line)
        self._say(_("%(stage)s: the bracket") % {"stage": bracket.stage.shown_name}, bold=True,
                  size=10)
        widths = ((0.30, "left"), (0.12, "right"), (0.30, "left"), (0.28, "left"))
        for round_ in bracket.rounds:
            matches = [(round_.name, m) for m in round_.matches]
            if round_.third_place is not None:
                matches.append((round_.third_place_name, round_.third_place))
            if all(m.home is None and m.away is None for _name, m in matches):
                continue
            shown = None
            for index, (name, match) in enumerate(matches):
                if name != shown:
                    self._need(2 * self.line)
                    self._say(name, bold=True)
                    shown = name
                (_s1, home, home_total), (_s2, away, away_total) = match.sides
                if match.bye:
                    cells = (self._team(home), "", _("bye"), "")
                else:
                    score = "" if home_total is None else \
                        f"{signed(home_total)} : {signed(away_total)}"
                    cells = (self._team(home), score, self._team(away), match.decided_text)
                self._row(cells, widths, shaded=index % 2 == 1)
        if bracket.champion is not None:
            self._say(_("Champion: %(team)s") % {"team": self._team(bracket.champion)},
                      bold=True, size=11)
        self.y -= 2 * mm

    @staticmethod
    def _team(team) -> str:
        return "—" if team is None else f"{team.code} {team.shown_name}"

    # The boxes of the day ------------------------------------------------------------
    def _swings(self) -> None:
        self._section(_("Boxes of the day: the largest swings"))
        if not self.bulletin.swings:
            self._say(_("No box went differently at the two tables of a match."),
                      colour=GREY)
        for box in self.bulletin.swings:
            self._swing(box)

    def _swing(self, box: SwingBox) -> None:
        match = box.match
        self._need(6 * self.line)
        heading = _("%(round)s, match %(match)d (%(home)s – %(away)s), hand %(hand)d: "
                    "%(team)s gained %(points)d") % {
            "round": f"{match.round.stage.shown_name} · {match.round.label}", "match": match.number,
            "home": match.home.code, "away": match.away.code, "hand": box.hand,
            "team": box.winner.code, "points": abs(box.swing)}
        self._say(heading, bold=True)
        for table in box.tables:
            self._table_line(table, match.round, home=match.home.code)
        if box.cards is not None:
            self._hand_line(_("Dealer's 11 cards"), box.cards.dealer)
            self._hand_line(_("Non-dealer's 10 cards"), box.cards.non_dealer)
        self.y -= 2 * mm

    def _table_line(self, table: TableOfBox, round_, *, home: str = "") -> None:
        line = _("Table %(table)d: %(dealer)s dealt, against %(other)s. %(result)s") % {
            "table": table.table, "dealer": seat_holder_of(table.dealer),
            "other": seat_holder_of(table.non_dealer), "result": hand_line(table.result, round_)}
        if home:
            line += f" ({home} {signed(table.home_points)})"
        self._say(line, x=4 * mm)

    def _hand_line(self, label: str, cards: Iterable[Card]) -> None:
        """The cards by suit, each suit's symbol drawn (no font needed) and in colour."""
        self._need(self.line)
        x = self.margin + 4 * mm
        self.text(x, self.y, label, size=self.size, colour=GREY)
        x += 38 * mm
        size = self.size + 1
        by_suit = {suit: sorted((c for c in cards if c.suit == suit), key=lambda c: -c.rank)
                   for suit in SUIT_ORDER}
        for suit in SUIT_ORDER:
            colour = RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else (0, 0, 0)
            self.canvas.setFillColorRGB(*colour)
            draw_suit(self.canvas, suit, x, self.y, size)
            self.canvas.setFillGray(0)
            x += suit_width(suit, size) + 1 * mm
            ranks = " ".join(_rank(c) for c in by_suit[suit]) or "—"
            self.text(x, self.y, ranks, size=size, bold=True, colour=colour)
            x += text_width(ranks, size, bold=True) + 5 * mm
        self.y -= self.line

    def _rare(self) -> None:
        self._section(_("The rarest results on the travellers"))
        if not self.bulletin.rare:
            self._say(_("No result was rare enough to tell (fields of at least four tables)."),
                      colour=GREY)
        for rare in self.bulletin.rare:
            self._rare_one(rare)

    def _rare_one(self, rare: RareResult) -> None:
        self._need(3 * self.line)
        text = ngettext(
            "%(round)s, box %(hand)d: %(outcome)s at %(n)d table of %(field)d",
            "%(round)s, box %(hand)d: %(outcome)s at %(n)d tables of %(field)d",
            rare.tables) % {
            "round": f"{rare.round.stage.shown_name} · {rare.round.label}", "hand": rare.deal.hand,
            "outcome": OUTCOME_NAMES[rare.outcome], "n": rare.tables, "field": rare.field}
        self._say(text, bold=True)
        self._table_line(rare.table, rare.round)

    # Penalties and players -----------------------------------------------------------
    def _penalties(self) -> None:
        self._section(_("Penalties"))
        if not self.bulletin.penalties:
            self._say(_("None."), colour=GREY)
        for penalty in self.bulletin.penalties:
            team = f"{penalty.team.code} {penalty.team.shown_name}"
            if penalty.player is not None:
                team += f" ({penalty.player.name})"
            kind = str(penalty.get_kind_display())
            if penalty.amount:
                kind += f": {penalty.amount}"
            if penalty.minutes is not None:
                kind += ": " + ngettext("%(n)d minute", "%(n)d minutes", penalty.minutes) % {
                    "n": penalty.minutes}
            where = f"{penalty.round.stage.shown_name} · {penalty.round.label}"
            if penalty.match is not None:
                where += " · " + _("match %(n)s") % {"n": penalty.match.number}
            self._need(2 * self.line)
            self._say(f"{team} — {kind} ({where})", bold=True)
            self._say(penalty.reason, x=4 * mm)

    def _players(self) -> None:
        b = self.bulletin
        self._section(_("Best against the field") if b.day is None
                      else _("The day's best against the field"))
        self._say(_("Points per hand against the datum of the same cards across the field; "
                    "at least %(n)d hands to be ranked.") % {"n": b.minimum_hands},
                  colour=GREY, size=8)
        if not b.players:
            self._say(_("No player has enough hands yet."), colour=GREY)
            return
        widths = ((0.07, "right"), (0.33, "left"), (0.24, "left"), (0.10, "right"),
                  (0.13, "right"), (0.13, "right"))
        self._row(("#", _("Player"), _("Team"), _("Hands"), _("Per hand"), _("In all")),
                  widths, bold=True)
        for index, row in enumerate(b.players):
            self._row((str(row.rank), row.player.name, f"{row.team.code} {row.team.shown_name}",
                       str(row.line.hands), f"{row.per_hand:+.2f}",
                       f"{row.against_field:+.2f}"), widths, shaded=index % 2 == 1)
