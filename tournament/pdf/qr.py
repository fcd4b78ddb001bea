"""QR codes for a document with many of them: each encoded once, drawn as one path.

reportlab's QR widget encodes its text when it is measured and again when it is drawn, and
each encoding tries all eight mask patterns (nine encodings and eight scorings: 9 ms a
code, 4.6 s for the 512 scorecards of a round). Every mask gives a valid code; the search
only picks the one least like the finder patterns. The addresses on one document differ in
a few digits only, so the mask chosen for the first code of each size is kept for the
others: one encoding a code (1.3 ms). The tests decode a sample of the printed codes.
"""

from __future__ import annotations

import itertools
import re

from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel, QRUtil
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE = 4  # modules of white around the code, as the standard asks
_DARK_RUN = re.compile(rb"\x01+")  # a row as bytes: True is 1


class _Code(QRCode):
    """reportlab's QR code, placing its bits along positions worked out once per version
    and mask (reportlab walks the positions and evaluates the mask for every code)."""

    _placements: dict[tuple[int, int], list[tuple[int, int, bool]]] = {}

    def mapData(self, data, maskPattern):  # reportlab's name
        key = (self.version, maskPattern)
        places = self._placements.get(key)
        if places is None:
            mask = QRUtil.getMask(maskPattern)
            places = self._placements[key] = [
                (row, col, bool(mask(row, col))) for col, row in self.dataPosIterator()]
        # Past the data the remaining places are light before the mask, as in reportlab.
        bits = itertools.chain(self.dataBitIterator(data), itertools.repeat(False))
        modules = self.modules
        for (row, col, flip), dark in zip(places, bits, strict=False):
            modules[row][col] = dark ^ flip


class QrEncoder:
    """Encodes text to a QR matrix, reusing the first chosen mask for each version."""

    def __init__(self, level: str = "L"):
        self.level = getattr(QRErrorCorrectLevel, level)
        self._masks: dict[int, int] = {}

    def modules(self, text: str) -> list[list[bool]]:
        code = _Code(None, self.level)
        code.addData(text)
        code.version = code.calculate_version()
        mask = self._masks.get(code.version)
        if mask is None:
            mask = self._masks[code.version] = code.getBestMaskPattern()
        code.makeImpl(False, mask)
        return code.modules


def draw_modules(canvas: Canvas, modules: list[list[bool]], x: float, y: float,
                 size: float) -> None:
    """The matrix as a square of ``size`` with its lower left corner at (x, y), quiet
    zone included. Drawn in module units, each run of dark modules in a row one rectangle
    of one filled path, written as PDF operators with whole numbers: a scorecard round has
    110,000 such rectangles, and reportlab's path object formats four floats for each."""
    count = len(modules) + 2 * QUIET_ZONE
    operators = []
    for row, cells in enumerate(modules):
        bottom = count - QUIET_ZONE - 1 - row  # PDF's y axis points up
        operators.extend(f"{QUIET_ZONE + run.start()} {bottom} {len(run.group())} 1 re"
                         for run in _DARK_RUN.finditer(bytes(cells)))
    operators.append("f")
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(size / count, size / count)
    canvas.setFillGray(0)
    canvas.addLiteral("\n".join(operators))
    canvas.restoreState()
