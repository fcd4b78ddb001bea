"""Printouts for packing boxes: deal sheets, box labels and the packing list (issue 5).

All three are secret until the round is closed; the views check that and record every
download.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm

from scoring.cards import Card, Suit
from tournament.pdf.base import Document, TabularDocument, fit_text, text_width
from tournament.pdf.suits import draw_suit
from tournament.selectors.boxes import RoundBoxes

RED = (0.75, 0.08, 0.08)
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)  # colours alternate


def _colour(suit: Suit) -> tuple[float, float, float]:
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else (0, 0, 0)


def _rank(card: Card) -> str:
    return "10" if card.rank == 10 else "A23456789TJQK"[card.rank - 1]


def _deal_title(deal) -> str:
    title = _("Hand %(hand)d · set %(set)d") % {"hand": deal.hand, "set": deal.deal_set}
    if deal.reserve:
        title += " · " + _("reserve deal %(n)d") % {"n": deal.reserve}
    return title


class DealSheet(Document):
    """For the packers: per deal the two hands by suit and the stock in order, two deals a
    page, suit symbols large and in colour."""

    def __init__(self, boxes: RoundBoxes, *, paper_name: str = "a4"):
        round_ = boxes.plan.round
        super().__init__(paper_name=paper_name,
                         title=_("Deal sheet — %(round)s") % {"round": round_})
        self.boxes = boxes
        self._forms: set[str] = set()

    def draw_pages(self) -> None:
        half = (self.height - 2 * self.margin) / 2
        for index, deal in enumerate(self.boxes.deals):
            if index % 2 == 0:
                self.new_page()
                # Outside the f-string: xgettext does not read into f-strings.
                secret = _("SECRET until the round is closed")
                self.text(self.margin, self.height - self.margin + 3 * mm,
                          f"{self.title} · {secret}",
                          size=8, colour=0.4)
            top = self.height - self.margin - (index % 2) * half
            self._deal(deal, top, half)

    def _deal(self, deal, top: float, height: float) -> None:
        m = self.margin
        cards = self.boxes.cards_of(deal)
        copies = self.boxes.copies(deal)
        self.text(m, top - 8 * mm, _deal_title(deal), size=16, bold=True)
        self.text(self.width - m, top - 8 * mm,
                  _("%(n)d boxes") % {"n": copies}, size=11, align="right", colour=0.3)
        self._place(self._furniture(top, height), 0, 0)
        y = top - 20 * mm
        for hand in (cards.dealer, cards.non_dealer):
            self._hand_by_suit(m + 45 * mm, y - 1 * mm, hand)
            y -= 16 * mm
        y -= 9 * mm
        column = (self.width - 2 * m) / 8
        for position, card in enumerate(cards.stock):
            row, col = divmod(position, 8)
            self._place(self._card(card, 15), m + col * column + 7 * mm, y - row * 9 * mm)
        check = _("Check: ") + " ".join(map(str, cards.order))
        self.text(m, top - height + 6 * mm, check,
                  size=fit_text(check, 6.5, self.width - 2 * m, min_size=4), colour=0.35)

    # What repeats is drawn once, as a form that each deal shows again: the headings, the
    # stock's numbers and rule of each half page, each card and suit symbol (a deal sheet
    # of 2,048 deals drew 240,000 text runs).
    def _form(self, name: str, draw) -> str:
        if name not in self._forms:
            self._forms.add(name)
            self.canvas.beginForm(name)
            draw()
            self.canvas.endForm()
        return name

    def _place(self, form: str, x: float, y: float) -> None:
        # The graphics state saved and moved by PDF operators: reportlab's saveState and
        # translate keep a Python copy of the state, 80,000 times a deal sheet.
        c = self.canvas
        c.addLiteral(f"q 1 0 0 1 {x:.2f} {y:.2f} cm")
        c.doForm(form)
        c.addLiteral("Q")

    def _furniture(self, top: float, height: float) -> str:
        def draw() -> None:
            m = self.margin
            y = top - 20 * mm
            for label in (_("Dealer — 11 cards"), _("Non-dealer — 10 cards")):
                # Clear of the hand's first suit symbol, 45 mm in.
                self.text(m, y, label, size=fit_text(label, 10, 43 * mm, bold=True),
                          bold=True, colour=0.3)
                y -= 16 * mm
            self.text(m, y, _("Stock, top card first"), size=10, bold=True, colour=0.3)
            y -= 9 * mm
            column = (self.width - 2 * m) / 8
            for position in range(31):
                row, col = divmod(position, 8)
                self.text(m + col * column, y - row * 9 * mm, f"{position + 1}.", size=9,
                          colour=0.45)
            self.canvas.setStrokeGray(0.8)
            self.canvas.line(m, top - height + 2 * mm, self.width - m, top - height + 2 * mm)
            self.canvas.setStrokeGray(0)

        return self._form(f"half{round(top)}", draw)

    def _card(self, card: Card, size: float) -> str:
        def draw() -> None:
            rank = _rank(card)
            self.text(0, 0, rank, size=size, bold=True, colour=_colour(card.suit))
            self._symbol(text_width(rank, size, bold=True) + 0.05 * size, 0, card.suit,
                         size=size)

        return self._form(f"card{card}-{size}", draw)

    def _hand_by_suit(self, x: float, y: float, hand: Iterable[Card]) -> None:
        by_suit = {suit: sorted((c for c in hand if c.suit == suit), key=lambda c: c.rank)
                   for suit in SUIT_ORDER}
        for suit in SUIT_ORDER:
            cards = by_suit[suit]
            self._place(self._form(f"suit{suit.name}", lambda suit=suit: self._symbol(
                0, 0, suit, size=20)), x, y)
            ranks = " ".join(_rank(c) for c in cards) or "—"
            self.text(x + 7 * mm, y, ranks, size=15, bold=True, colour=_colour(suit))
            # The next suit after this one's ranks as printed (a ten is two digits wide).
            x += 7 * mm + max(text_width(ranks, 15, bold=True), 4 * mm) + 5 * mm

    def _symbol(self, x: float, y: float, suit: Suit, *, size: float) -> None:
        # Drawn as the ZapfDingbats glyph was, at 0.85 of the size: no font to embed.
        self.canvas.setFillColorRGB(*_colour(suit))
        draw_suit(self.canvas, suit, x, y, size * 0.85)
        self.canvas.setFillGray(0)


class BoxLabels(Document):
    """One label per box on a label sheet (3 × 8 on A4, 3 × 10 on Letter), with a cut grid,
    in packing order: hand by hand, table by table."""

    columns = 3
    margin = 8 * mm

    def __init__(self, boxes: RoundBoxes, *, paper_name: str = "a4"):
        round_ = boxes.plan.round
        super().__init__(paper_name=paper_name,
                         title=_("Box labels — %(round)s") % {"round": round_})
        self.boxes = boxes
        self.rows = 8 if self.paper.name == "a4" else 10
        self.round_label = f"{round_.stage.name} · {round_.label}"

    def draw_footer(self) -> None:
        pass  # labels fill the page; a footer would be cut into them

    def draw_pages(self) -> None:
        per_page = self.columns * self.rows
        w = (self.width - 2 * self.margin) / self.columns
        h = (self.height - 2 * self.margin) / self.rows
        for index, box in enumerate(self.boxes.boxes):
            slot = index % per_page
            if slot == 0:
                self.new_page()
                self._grid(w, h)
            row, col = divmod(slot, self.columns)
            x = self.margin + col * w
            y = self.height - self.margin - row * h
            self._label(box, x, y, w, h)

    def _grid(self, w: float, h: float) -> None:
        c = self.canvas
        c.setStrokeGray(0.7)
        c.setLineWidth(0.3)
        c.setDash(2, 2)
        for col in range(self.columns + 1):
            x = self.margin + col * w
            c.line(x, self.margin, x, self.height - self.margin)
        for row in range(self.rows + 1):
            y = self.margin + row * h
            c.line(self.margin, y, self.width - self.margin, y)
        c.setDash()
        c.setStrokeGray(0)

    def _label(self, box, x: float, y: float, w: float, h: float) -> None:
        words = self._words
        pad = 3 * mm
        inner = w - 2 * pad
        line = h / 5.2
        head = words["head"] % {"hand": box.hand, "table": box.table.number}
        self.text(x + pad, y - line, head, size=fit_text(head, 13, inner, bold=True),
                  bold=True)
        sub = f"{self.round_label} · " + words["match"] % {"m": box.table.match.number}
        if box.deal.reserve:
            sub += " · " + words["reserve"] % {"n": box.deal.reserve}
        self.text(x + pad, y - 1.9 * line, sub, size=fit_text(sub, 7.5, inner), colour=0.3)
        for n, (role, seat) in enumerate(((words["dealer"], box.dealer),
                                         (words["non_dealer"], box.non_dealer))):
            text = (f"{role}: " + words["seat"] % {"s": seat.seat}
                    + f" · {seat.player.name} ({seat.team.code})")
            self.text(x + pad, y - (3.0 + n) * line, text,
                      size=fit_text(text, 8.5, inner, bold=n == 0), bold=n == 0)

    @functools.cached_property
    def _words(self) -> dict[str, str]:
        # Translated once for the document: 4,096 labels would look each up six times.
        return {"head": _("Hand %(hand)d · Table %(table)d"), "match": _("match %(m)d"),
                "reserve": _("reserve deal %(n)d"), "dealer": _("Dealer (11)"),
                "non_dealer": _("Non-dealer (10)"), "seat": _("seat %(s)d")}


class PackingList(TabularDocument):
    """How many copies of each deal, and the order to stack the boxes in."""

    columns = ((gettext_lazy("Order"), 0.08), (gettext_lazy("Hand"), 0.08),
               (gettext_lazy("Set"), 0.08), (gettext_lazy("Copies"), 0.10),
               (gettext_lazy("Tables"), 0.40), (gettext_lazy("Dealer's first cards"), 0.26))

    def __init__(self, boxes: RoundBoxes, *, paper_name: str = "a4"):
        round_ = boxes.plan.round
        super().__init__(paper_name=paper_name,
                         title=_("Packing list — %(round)s") % {"round": round_},
                         subtitle=_("%(boxes)d boxes. Stack them hand by hand, tables in "
                                    "rising order; SECRET until the round is closed.")
                         % {"boxes": len(boxes.boxes)})
        self.boxes = boxes

    def rows(self):
        order = 0
        for deal in self.boxes.deals:
            tables = [box.table.number for box in self.boxes.boxes_of(deal)]
            if not tables:
                continue
            order += 1
            first = " ".join(deal.cards.split()[:3]) + " …"
            yield (str(order), str(deal.hand), str(deal.deal_set), str(len(tables)),
                   _ranges(tables), first)


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 5, 7, 8 → "1–3, 5, 7–8"."""
    parts: list[str] = []
    numbers = sorted(numbers)
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)
