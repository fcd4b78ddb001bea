"""What every printed document shares: paper, fonts that print Chinese, page furniture.

Renderers are small classes (after pretix's invoice renderer): layout constants as class
attributes, ``draw_page`` hooks to override, ``render() -> bytes``.
"""

from __future__ import annotations

import abc
import functools
import io
from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from tournament.pdf.fonts import LatinFonts, cjk_font, latin_fonts

PAPER_SIZES = {"a4": A4, "letter": LETTER}
# Chinese in bold text: the CJK font has no bold face, so its glyphs are stroked as well as
# filled, with a line this share of the font size (text render mode 2).
FAKE_BOLD = 0.04
_ORIGIN = "BT 1 0 0 1 0 0 Tm "  # how reportlab's text object at (0, 0) begins


@functools.lru_cache(maxsize=8192)
def _split(text: str, latin: LatinFonts) -> tuple[tuple[str, bool], ...]:
    """(piece, is Latin) runs; the same strings come back on every page. One match a run:
    the regular expression engine walks the characters, not Python."""
    return tuple((m.group(), m.group(1) is not None) for m in latin.run.finditer(text))


def runs(text: str, *, bold: bool = False) -> list[tuple[str, str]]:
    """Split text into (piece, font) runs: the Latin font (DejaVu Sans) wherever it has the
    characters, the CJK font elsewhere (Chinese names), so a Latin line keeps its look
    around a Chinese name."""
    fonts = latin_fonts()
    latin = fonts.bold if bold else fonts.regular
    pieces = _split(text, fonts)
    if all(is_latin for _piece, is_latin in pieces):
        return [(piece, latin) for piece, _is_latin in pieces]
    cjk = cjk_font()
    return [(piece, latin if is_latin else cjk) for piece, is_latin in pieces]


def font_for(text: str, *, bold: bool = False) -> str:
    """The font of a whole string when it cannot be split: the CJK font if any character
    needs it."""
    fonts = latin_fonts()
    if all(is_latin for _piece, is_latin in _split(text, fonts)):
        return fonts.bold if bold else fonts.regular
    return cjk_font()


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    return size * _unit_width(text, bold, latin_fonts(), cjk_font())


@functools.lru_cache(maxsize=8192)
def _unit_width(text: str, bold: bool, latin: LatinFonts, cjk: str) -> float:
    # At 1 pt; a text is fitted, then drawn centred or right-aligned: measured once.
    # (The fonts are in the key: a test may change the setting or the Latin font's path.)
    return sum(pdfmetrics.stringWidth(piece, font, 1) for piece, font in runs(text, bold=bold))


def fit_text(text: str, size: float, width: float, *, bold: bool = False,
             min_size: float = 6) -> float:
    """The largest font size up to ``size``, in steps of half a point, at which ``text``
    fits in ``width``."""
    full = text_width(text, size, bold=bold)
    # A text's width grows in proportion to its size: measured once, not at every step.
    while size > min_size and full > width:
        full *= (size - 0.5) / size
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


def paper_asked(request) -> str:
    """The paper a printout's address asks for (``?paper=letter``); A4 for anything else."""
    try:
        return paper(request.GET.get("paper")).name
    except ValueError:
        return "a4"


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
        # The initial font is ours: reportlab's default would name Helvetica (not embedded)
        # on every page.
        self.canvas = Canvas(self._buffer, pagesize=self.paper.size, invariant=1,
                             initialFontName=latin_fonts().regular)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Duplicate Gin")
        self.page_number = 0
        self._shown: dict[tuple[str, float, bool], tuple[str, bool]] = {}

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
        operators, stroked = self.shown(text, size, bold=bold)
        if stroked:
            # The stroke that thickens the CJK glyphs: as wide as FAKE_BOLD, in the fill's
            # colour; the state saved and restored (rare: Chinese names in headings).
            c.saveState()
            c.setLineWidth(FAKE_BOLD * size)
            if isinstance(colour, tuple):
                c.setStrokeColorRGB(*colour)
            else:
                c.setStrokeGray(colour)
        c.addLiteral(f"BT 1 0 0 1 {fp_str(x, y)} Tm {operators} ET")
        if stroked:
            c.restoreState()
        c.setFillGray(0)

    def shown(self, text: str, size: float, *, bold: bool = False) -> tuple[str, bool]:
        """The operators that show ``text`` from a text object's origin (its fonts, size and
        encoded runs, no position or colour), and whether they stroke; made once a document
        for each text, size and weight."""
        shown = self._shown.get((text, size, bold))
        if shown is None:
            shown = self._shown[text, size, bold] = self._show(text, size, bold)
        return shown

    def _show(self, text: str, size: float, bold: bool) -> tuple[str, bool]:
        """The operators that show ``text`` from the text origin, and whether they stroke
        (Chinese in bold text). Made once a document by reportlab's text object, one text
        object for the whole line, each run setting its font; then shown again wherever the
        same text comes: a document repeats its ranks, headings and names, and splitting a
        text into the embedded fonts' subsets goes letter by letter."""
        pieces = runs(text, bold=bold)
        latin = latin_fonts().bold if bold else ""
        stroked = bold and any(font != latin for _piece, font in pieces)
        line = self.canvas.beginText(0, 0)
        for piece, font in pieces:
            line.setFont(font, size)
            if stroked and font != latin:
                line.setTextRenderMode(2)  # fill, then stroke
                line.textOut(piece)
                line.setTextRenderMode(0)
            else:
                line.textOut(piece)
        code = line.getCode()
        assert code.startswith(_ORIGIN) and code.endswith(" ET"), code
        return code[len(_ORIGIN):-len(" ET")], stroked

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
