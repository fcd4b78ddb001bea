"""QR codes for a document with many of them: each encoded once, drawn as one path.

reportlab's QR widget encodes its text when it is measured and again when it is drawn, and
each encoding tries all eight mask patterns (nine encodings and eight scorings: 9 ms a
code, 4.6 s for the 512 scorecards of a round). Every mask gives a valid code; the search
only picks the one least like the finder patterns. The addresses on one document differ in
a few digits only, so the mask chosen for the first code of each size is kept for the
others: one encoding a code, its error correction in whole-number tables (0.4 ms). The
tests compare the modules with reportlab's encoder and decode a sample of printed codes.
"""

from __future__ import annotations

import functools
import itertools
import re

from reportlab.graphics.barcode.qrencoder import (
    QRBitBuffer,
    QRCode,
    QRErrorCorrectLevel,
    QRRSBlock,
    QRUtil,
)
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE = 4  # modules of white around the code, as the standard asks
_DARK_RUN = re.compile(rb"\x01+")  # a row as bytes: True is 1


# Reed-Solomon error correction over GF(256) with the QR polynomial x^8+x^4+x^3+x^2+1, in
# whole-number tables: reportlab's polynomial objects took half the time of a scorecard
# round, building each block's generator again for every code.
_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _power in range(255):
    _EXP[_power] = _EXP[_power + 255] = _value
    _LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D


@functools.cache
def _generator_logs(count: int) -> tuple[int, ...]:
    """The logs of the generator polynomial's coefficients below its leading 1: the product
    of (x - 2^i) for i below ``count``."""
    poly = [1]
    for i in range(count):
        term = _EXP[i]
        poly = [a ^ (_EXP[_LOG[b] + _LOG[term]] if b else 0)
                for a, b in zip([*poly, 0], [0, *poly], strict=True)]
    return tuple(_LOG[c] for c in poly[1:])


def _error_codewords(data: list[int], count: int) -> list[int]:
    """The remainder of data(x) * x^count divided by the generator, as a shift register."""
    generator = _generator_logs(count)
    remainder = [0] * count
    for byte in data:
        factor = byte ^ remainder[0]
        remainder = [*remainder[1:], 0]
        if factor:
            log = _LOG[factor]
            for i, g in enumerate(generator):
                remainder[i] ^= _EXP[log + g]
    return remainder


def _codewords(version: int, level: int, segments) -> list[int]:
    """The data of a code, padded as the standard says, then its blocks' data codewords
    and error codewords each interleaved block by block."""
    blocks = QRRSBlock.getRSBlocks(version, level)
    capacity = 8 * sum(block.dataCount for block in blocks)
    bits = QRBitBuffer()
    for segment in segments:
        segment.write(bits, version)
    if bits.getLengthInBits() > capacity:
        raise ValueError(f"too much data for a version {version} QR code")
    bits.put(0, min(4, capacity - bits.getLengthInBits()))  # the terminator
    while bits.getLengthInBits() % 8:
        bits.putBit(False)
    data = list(bits.buffer)
    data += [(0xEC, 0x11)[n % 2] for n in range(capacity // 8 - len(data))]  # the padding
    data_blocks, error_blocks, start = [], [], 0
    for block in blocks:
        chunk = data[start:start + block.dataCount]
        start += block.dataCount
        data_blocks.append(chunk)
        error_blocks.append(_error_codewords(chunk, block.totalCount - block.dataCount))
    return [word for group in (data_blocks, error_blocks)
            for column in itertools.zip_longest(*group) for word in column
            if word is not None]


class _Code(QRCode):
    """reportlab's QR code with the codewords worked out above, placing its bits along
    positions worked out once per version and mask (reportlab walks the positions and
    evaluates the mask for every code)."""

    _placements: dict[tuple[int, int], list[tuple[int, int, bool]]] = {}

    def makeImpl(self, test, maskPattern):  # reportlab's name
        if self.dataCache is None:
            self.dataCache = _codewords(self.version, self.errorCorrectLevel, self.dataList)
        super().makeImpl(test, maskPattern)

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
