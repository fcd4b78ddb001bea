"""What every printed document shares: paper, fonts that print Chinese, page furniture.

Renderers are small classes (after pretix's invoice renderer): layout constants as class
attributes, ``draw_page`` hooks to override, ``render() -> bytes``.
"""

from __future__ import annotations

import abc
import io
from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas

PAPER_SIZES = {"a4": A4, "letter": LETTER}
LATIN = "Helvetica"
LATIN_BOLD = "Helvetica-Bold"
CJK = "STSong-Light"
# Suit symbols: ZapfDingbats has the four card suits and is built into every PDF reader.
SYMBOLS = "ZapfDingbats"

_registered = False


def register_fonts() -> None:
    global _registered
    if not _registered:
        pdfmetrics.registerFont(UnicodeCIDFont(CJK))
        _registered = True


def _latin_can_print(ch: str) -> bool:
    # The standard PDF fonts print WinAnsi (cp1252): Latin-1 plus dashes, quotes, bullets, €.
    try:
        ch.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def runs(text: str, *, bold: bool = False) -> list[tuple[str, str]]:
    """Split text into (piece, font) runs: Helvetica where it can print, STSong elsewhere
    (Chinese names), so a Latin line keeps its look around a Chinese name."""
    pieces: list[tuple[str, str]] = []
    latin = LATIN_BOLD if bold else LATIN
    for ch in text:
        font = latin if _latin_can_print(ch) or ch.isspace() else CJK
        if pieces and pieces[-1][1] == font:
            pieces[-1] = (pieces[-1][0] + ch, font)
        else:
            pieces.append((ch, font))
    if any(font == CJK for _piece, font in pieces):
        register_fonts()
    return pieces


def font_for(text: str, *, bold: bool = False) -> str:
    """The font of a whole string when it cannot be split: STSong if any character needs it."""
    return CJK if any(f == CJK for _p, f in runs(text, bold=bold)) else (
        LATIN_BOLD if bold else LATIN)


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    return sum(pdfmetrics.stringWidth(piece, font, size) for piece, font in runs(text, bold=bold))


def fit_text(text: str, size: float, width: float, *, bold: bool = False,
             min_size: float = 6) -> float:
    """The largest font size up to ``size`` at which ``text`` fits in ``width``."""
    while size > min_size and text_width(text, size, bold=bold) > width:
        size -= 0.5
    return size


@dataclass(frozen=True)
class Paper:
    name: str

    @property
    def size(self) -> tuple[float, float]:
        return PAPER_SIZES[self.name]


def paper(name: str | None) -> Paper:
    """A4 unless Letter is asked for; any other value is an error for the caller to show."""
    key = (name or "a4").lower()
    if key not in PAPER_SIZES:
        raise ValueError(f"unknown paper size {name!r}; use a4 or letter")
    return Paper(key)


class Document(abc.ABC):
    """A multi-page document on A4 or Letter with a title line and page numbers."""

    margin = 15 * mm
    footer_size = 8

    def __init__(self, *, paper_name: str = "a4", title: str = "", subtitle: str = ""):
        self.paper = paper(paper_name)
        self.title = title
        self.subtitle = subtitle
        self.width, self.height = self.paper.size
        self._buffer = io.BytesIO()
        self.canvas = Canvas(self._buffer, pagesize=self.paper.size, invariant=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Duplicate Gin")
        self.page_number = 0

    # Hooks ---------------------------------------------------------------------------
    @abc.abstractmethod
    def draw_pages(self) -> None:
        """Draw every page, calling ``new_page`` before each."""

    def draw_footer(self) -> None:
        label = f"{self.title} — {self.page_number}" if self.title else str(self.page_number)
        self.text(self.margin, self.margin / 2, label, size=self.footer_size, colour=0.4)

    # Helpers -------------------------------------------------------------------------
    def new_page(self) -> None:
        if self.page_number:
            self.draw_footer()
            self.canvas.showPage()
        self.page_number += 1

    def text(self, x: float, y: float, text: str, *, size: float = 10, bold: bool = False,
             align: str = "left", colour: float | tuple = 0) -> None:
        c = self.canvas
        if isinstance(colour, tuple):
            c.setFillColorRGB(*colour)
        else:
            c.setFillGray(colour)
        if align != "left":
            width = text_width(text, size, bold=bold)
            x -= width / 2 if align == "center" else width
        for piece, font in runs(text, bold=bold):
            c.setFont(font, size)
            c.drawString(x, y, piece)
            x += pdfmetrics.stringWidth(piece, font, size)
        c.setFillGray(0)

    def render(self) -> bytes:
        self.draw_pages()
        if self.page_number:
            self.draw_footer()
            self.canvas.showPage()
        self.canvas.save()
        return self._buffer.getvalue()


class TabularDocument(Document):
    """A document that is one long table, continued over as many pages as it needs."""

    row_height = 7 * mm
    header_size = 9
    cell_size = 9
    columns: tuple[tuple[str, float], ...] = ()  # (heading, share of the width)

    def rows(self):
        """Yield each row as a tuple of cell texts."""
        return iter(())

    def draw_pages(self) -> None:
        usable = self.width - 2 * self.margin
        widths = [share * usable for _heading, share in self.columns]
        y = 0.0
        for index, row in enumerate(self.rows()):
            if index == 0 or y < self.margin + self.row_height:
                y = self._start_page(widths)
            if index % 2:
                self.canvas.setFillGray(0.95)
                self.canvas.rect(self.margin, y - 2 * mm, usable, self.row_height, stroke=0,
                                 fill=1)
                self.canvas.setFillGray(0)
            x = self.margin
            for text, width in zip(row, widths, strict=True):
                size = fit_text(text, self.cell_size, width - 2 * mm)
                self.text(x + 1 * mm, y, text, size=size)
                x += width
            y -= self.row_height
        if self.page_number == 0:
            self._start_page(widths)

    def _start_page(self, widths: list[float]) -> float:
        self.new_page()
        top = self.height - self.margin
        self.text(self.margin, top - 5 * mm, self.title, size=15, bold=True)
        if self.subtitle:
            self.text(self.margin, top - 11 * mm, self.subtitle, size=10, colour=0.3)
        y = top - 20 * mm
        x = self.margin
        for (heading, _share), width in zip(self.columns, widths, strict=True):
            self.text(x + 1 * mm, y, str(heading), size=self.header_size, bold=True)
            x += width
        self.canvas.setLineWidth(0.6)
        self.canvas.line(self.margin, y - 2.5 * mm, self.width - self.margin, y - 2.5 * mm)
        return y - self.row_height
