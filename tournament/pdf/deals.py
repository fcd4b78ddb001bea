"""Printouts for packing boxes: deal sheets, box labels and the packing list (issue 5).

All three are secret until the round is closed; the views check that and record every
download.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm

from scoring.cards import Card, Suit
from tournament.pdf.base import SYMBOLS, Document, TabularDocument, fit_text
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

    def draw_pages(self) -> None:
        half = (self.height - 2 * self.margin) / 2
        for index, deal in enumerate(self.boxes.deals):
            if index % 2 == 0:
                self.new_page()
                self.text(self.margin, self.height - self.margin + 3 * mm,
                          f"{self.title} · {_('SECRET until the round is closed')}",
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
        y = top - 20 * mm
        for label, hand in ((_("Dealer — 11 cards"), cards.dealer),
                            (_("Non-dealer — 10 cards"), cards.non_dealer)):
            self.text(m, y, label, size=10, bold=True, colour=0.3)
            self._hand_by_suit(m + 45 * mm, y - 1 * mm, hand)
            y -= 16 * mm
        self.text(m, y, _("Stock, top card first"), size=10, bold=True, colour=0.3)
        y -= 9 * mm
        column = (self.width - 2 * m) / 8
        for position, card in enumerate(cards.stock):
            row, col = divmod(position, 8)
            x = m + col * column
            self.text(x, y - row * 9 * mm, f"{position + 1}.", size=9, colour=0.45)
            self._card(x + 7 * mm, y - row * 9 * mm, card, size=15)
        check = _("Check: ") + " ".join(map(str, cards.order))
        self.text(m, top - height + 6 * mm, check,
                  size=fit_text(check, 6.5, self.width - 2 * m, min_size=4), colour=0.35)
        self.canvas.setStrokeGray(0.8)
        self.canvas.line(m, top - height + 2 * mm, self.width - m, top - height + 2 * mm)
        self.canvas.setStrokeGray(0)

    def _hand_by_suit(self, x: float, y: float, hand: Iterable[Card]) -> None:
        by_suit = {suit: sorted((c for c in hand if c.suit == suit), key=lambda c: c.rank)
                   for suit in SUIT_ORDER}
        for suit in SUIT_ORDER:
            cards = by_suit[suit]
            self._symbol(x, y, suit, size=20)
            ranks = " ".join(_rank(c) for c in cards) or "—"
            self.text(x + 7 * mm, y, ranks, size=15, bold=True, colour=_colour(suit))
            x += 9 * mm + max(len(cards), 1) * 6.5 * mm

    def _card(self, x: float, y: float, card: Card, *, size: float) -> None:
        self.text(x, y, _rank(card), size=size, bold=True, colour=_colour(card.suit))
        self._symbol(x + (6 if card.rank == 10 else 3.5) * mm, y, card.suit, size=size)

    def _symbol(self, x: float, y: float, suit: Suit, *, size: float) -> None:
        c = self.canvas
        c.setFillColorRGB(*_colour(suit))
        c.setFont(SYMBOLS, size * 0.85)
        c.drawString(x, y, suit.symbol)
        c.setFillGray(0)


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
        pad = 3 * mm
        inner = w - 2 * pad
        line = h / 5.2
        head = _("Hand %(hand)d · Table %(table)d") % {"hand": box.hand,
                                                       "table": box.table.number}
        self.text(x + pad, y - line, head, size=fit_text(head, 13, inner, bold=True),
                  bold=True)
        sub = f"{self.round_label} · " + _("match %(m)d") % {"m": box.table.match.number}
        if box.deal.reserve:
            sub += " · " + _("reserve deal %(n)d") % {"n": box.deal.reserve}
        self.text(x + pad, y - 1.9 * line, sub, size=fit_text(sub, 7.5, inner), colour=0.3)
        for n, (role, seat) in enumerate(((_("Dealer (11)"), box.dealer),
                                         (_("Non-dealer (10)"), box.non_dealer))):
            text = (f"{role}: " + _("seat %(s)d") % {"s": seat.seat}
                    + f" · {seat.player.name} ({seat.team.code})")
            self.text(x + pad, y - (3.0 + n) * line, text, size=fit_text(text, 8.5, inner),
                      bold=n == 0)


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
