"""Printouts for packing boxes: deal sheets, box labels and the packing list (issue 5).

All three are secret until the round is closed; the views check that and record every
download.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import xObjectName

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


class DealSheet(Document):
    """For the packers: per deal the two hands by suit and the stock in order, two deals a
    page, suit symbols large and in colour."""

    rank_size = 15  # the ranks, in the hands and the stock
    hand_suit_size = 20  # the hands' suit symbols (the stock's are as large as its ranks)

    def __init__(self, boxes: RoundBoxes, *, paper_name: str = "a4"):
        round_ = boxes.plan.round
        super().__init__(paper_name=paper_name,
                         title=_("Deal sheet — %(round)s") % {"round": round_})
        self.boxes = boxes
        self._forms: set[str] = set()
        self._page_forms: set[str] = set()  # the forms this page lists in its resources
        self._stock_cards: dict[Card, tuple[str, str]] = {}
        self._stock_places: dict[float, list[str]] = {}
        self._hand_suits: dict[tuple[Suit, str], tuple[str, str, float]] = {}

    @functools.cached_property
    def _words(self) -> dict[str, str]:
        # Translated once for the document: 2,048 deals would look each up three times.
        return {"title": _("Hand %(hand)d · set %(set)d"), "reserve": _("reserve deal %(n)d"),
                "boxes": _("%(n)d boxes"), "check": _("Check: "),
                "secret": _("SECRET until the round is closed")}

    def draw_pages(self) -> None:
        half = (self.height - 2 * self.margin) / 2
        heading = f"{self.title} · {self._words['secret']}"
        for index, deal in enumerate(self.boxes.deals):
            if index % 2 == 0:
                self.new_page()
                self.text(self.margin, self.height - self.margin + 3 * mm, heading,
                          size=8, colour=0.4)
            top = self.height - self.margin - (index % 2) * half
            self._deal(deal, top, half)

    def _deal(self, deal, top: float, height: float) -> None:
        m = self.margin
        words = self._words
        cards = self.boxes.cards_of(deal)
        title = words["title"] % {"hand": deal.hand, "set": deal.deal_set}
        if deal.reserve:
            title += " · " + words["reserve"] % {"n": deal.reserve}
        self.text(m, top - 8 * mm, title, size=16, bold=True)
        self.text(self.width - m, top - 8 * mm, words["boxes"] % {"n": self.boxes.copies(deal)},
                  size=11, align="right", colour=0.3)
        self._place(self._furniture(top, height), 0, 0)
        y = top - 20 * mm
        for hand in (cards.dealer, cards.non_dealer):
            self._hand_by_suit(m + 45 * mm, y - 1 * mm, hand)
            y -= 16 * mm
        self._stock(cards.stock, top)
        check = words["check"] + cards.text
        self.text(m, top - height + 6 * mm, check,
                  size=fit_text(check, 6.5, self.width - 2 * m, min_size=4), colour=0.35)

    # What repeats is drawn once, as a form that each deal shows again: the headings, the
    # stock's numbers and rule of each half page, and each suit symbol at each size.
    def _form(self, name: str, draw) -> str:
        if name not in self._forms:
            self._forms.add(name)
            self.canvas.beginForm(name)
            draw()
            self.canvas.endForm()
        return name

    def new_page(self) -> None:
        super().new_page()
        self._page_forms = set()

    def _show_form(self, before: str, form: str, after: str) -> None:
        """The operators ``before``, those that show ``form``, then ``after``. Through
        reportlab's ``doForm`` the first time on a page, which lists the form in the
        page's resources; as text after that: a deal sheet shows 80,000 forms on 1,024
        pages, ten of them different on a page, and reportlab listed each showing."""
        c = self.canvas
        if form in self._page_forms:
            c.addLiteral(f"{before} /{xObjectName(form)} Do {after}")
        else:
            self._page_forms.add(form)
            c.addLiteral(before)
            c.doForm(form)
            c.addLiteral(after)

    def _place(self, form: str, x: float, y: float, after: str = "") -> None:
        """Show ``form`` with its origin at (x, y), then the operators ``after`` in the same
        frame (a text beside it)."""
        # The graphics state saved and moved by PDF operators: reportlab's saveState and
        # translate keep a Python copy of the state, 80,000 times a deal sheet.
        self._show_form(f"q 1 0 0 1 {x:.2f} {y:.2f} cm", form, f"{after}Q")

    def _suit(self, suit: Suit, size: float) -> str:
        return self._form(f"suit{suit.name}-{size:g}",
                          lambda: self._symbol(0, 0, suit, size=size))

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

    def _stock(self, stock: Iterable[Card], top: float) -> None:
        """The stock's cards, eight a row, each beside its number in the half page's form."""
        places = self._stock_places.get(top)
        if places is None:
            # The same 31 places on every upper and every lower half: formatted once.
            m = self.margin
            y = top - 20 * mm - 2 * 16 * mm - 9 * mm  # below the two hands' rows
            column = (self.width - 2 * m) / 8
            places = self._stock_places[top] = [
                f"q 1 0 0 1 {m + col * column + 7 * mm:.2f} {y - row * 9 * mm:.2f} cm"
                for row, col in (divmod(position, 8) for position in range(31))]
        for place, card in zip(places, stock, strict=True):
            rank, suit = self._stock_card(card)
            self._show_form(place + rank, suit, "Q")

    def _stock_card(self, card: Card) -> tuple[str, str]:
        """A stock card as the operators of its rank in its colour, ending where its suit
        symbol goes, and the form of that symbol.

        The rank is text of the page, not a form of each card as it was: a page's resources
        name every form it shows, and reportlab wrote the 1,024 pages' 50,000 names of card
        forms one by one, about a sixth of the time the sheet took. (As page text, the tails
        of J and Q are no longer cut at the baseline by the form's box.)"""
        made = self._stock_cards.get(card)
        if made is None:
            size = self.rank_size
            rank = _rank(card)
            operators, _stroked = self.shown(rank, size, bold=True)
            advance = text_width(rank, size, bold=True) + 0.05 * size
            made = self._stock_cards[card] = (
                f" {fp_str(*_colour(card.suit))} rg BT 1 0 0 1 0 0 Tm {operators} ET"
                f" 1 0 0 1 {fp_str(advance)} 0 cm",
                self._suit(card.suit, size))
        return made

    def _hand_by_suit(self, x: float, y: float, hand: Iterable[Card]) -> None:
        by_suit: dict[Suit, list[str]] = {suit: [] for suit in SUIT_ORDER}
        for card in sorted(hand):  # by rank
            by_suit[card.suit].append(_rank(card))
        for suit, ranks in by_suit.items():
            form, text, width = self._hand_suit(suit, " ".join(ranks) or "—")
            self._place(form, x, y, text)
            # The next suit after this one's ranks as printed (a ten is two digits wide).
            x += 7 * mm + max(width, 4 * mm) + 5 * mm

    def _hand_suit(self, suit: Suit, ranks: str) -> tuple[str, str, float]:
        """The form of the suit's symbol, the operators of its ranks in its colour 7 mm to
        the right of the symbol, and their width: made once for each suit and ranks, which
        come back often in a deal sheet."""
        made = self._hand_suits.get((suit, ranks))
        if made is None:
            size = self.rank_size
            operators, _stroked = self.shown(ranks, size, bold=True)
            made = self._hand_suits[suit, ranks] = (
                self._suit(suit, self.hand_suit_size),
                f" {fp_str(*_colour(suit))} rg BT 1 0 0 1 {fp_str(7 * mm)} 0 Tm {operators} ET ",
                text_width(ranks, size, bold=True))
        return made

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
        self.round_label = f"{round_.stage.shown_name} · {round_.label}"

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
