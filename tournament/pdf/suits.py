"""The four card suits drawn as vector paths, for the deal sheet's large coloured symbols.

Drawn, not printed from a font: no font to embed for four shapes. They are sized and placed
as ZapfDingbats' suit glyphs were at the same font size: on the baseline, about the capital
letters' height (0.705 of the size), the advance of each glyph its width in ZapfDingbats.
Each is filled with the canvas's current fill colour.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from scoring.cards import Suit

# Each shape in glyph units (1,000 to the font size, y up from the baseline): outlines of
# cubic Bézier segments ("M" move, "C" curve, "L" line), and circles (cx, cy, r).
_SHAPES: dict[Suit, tuple[list[tuple], list[tuple[float, float, float]]]] = {
    Suit.SPADES: ([
        ("M", 313, 705),
        ("C", 270, 590, 34, 450, 34, 285),
        ("C", 34, 175, 110, 110, 192, 110),
        ("C", 248, 110, 288, 140, 302, 180),
        ("C", 300, 70, 210, 12, 80, 0),
        ("L", 546, 0),
        ("C", 416, 12, 326, 70, 324, 180),
        ("C", 338, 140, 378, 110, 434, 110),
        ("C", 516, 110, 592, 175, 592, 285),
        ("C", 592, 450, 356, 590, 313, 705),
    ], []),
    Suit.HEARTS: ([
        ("M", 347, -14),
        ("C", 300, 120, 35, 300, 35, 510),
        ("C", 35, 630, 112, 705, 198, 705),
        ("C", 278, 705, 330, 655, 347, 590),
        ("C", 364, 655, 416, 705, 496, 705),
        ("C", 582, 705, 659, 630, 659, 510),
        ("C", 659, 300, 394, 120, 347, -14),
    ], []),
    Suit.DIAMONDS: ([
        ("M", 297, 705),
        ("C", 235, 590, 125, 450, 34, 345),
        ("C", 125, 240, 235, 100, 297, -14),
        ("C", 359, 100, 469, 240, 561, 345),
        ("C", 469, 450, 359, 590, 297, 705),
    ], []),
    Suit.CLUBS: ([
        ("M", 370, 420),
        ("C", 366, 130, 290, 22, 145, 0),
        ("L", 631, 0),
        ("C", 486, 22, 410, 130, 406, 420),
    ], [(388, 545, 160), (203, 335, 168), (573, 335, 168), (388, 400, 80)]),
}
# ZapfDingbats' advance widths of a109, a110, a111, a112 (♠ ♥ ♦ ♣), in glyph units.
_ADVANCE = {Suit.SPADES: 626, Suit.HEARTS: 694, Suit.DIAMONDS: 595, Suit.CLUBS: 776}


def suit_width(suit: Suit, size: float) -> float:
    """How far the symbol of ``suit`` at this size advances along the line."""
    return _ADVANCE[suit] * size / 1000


def draw_suit(canvas: Canvas, suit: Suit, x: float, y: float, size: float) -> None:
    """Draw the symbol of ``suit`` with its baseline's left end at (x, y), as a glyph of a
    font of ``size`` points, filled with the current fill colour."""
    scale = size / 1000
    outline, circles = _SHAPES[suit]
    path = canvas.beginPath()
    for op, *numbers in outline:
        points = [x + value * scale if i % 2 == 0 else y + value * scale
                  for i, value in enumerate(numbers)]
        if op == "M":
            path.moveTo(*points)
        elif op == "L":
            path.lineTo(*points)
        else:
            path.curveTo(*points)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    # Each circle filled on its own: where they overlap, no fill rule can leave a hole.
    for cx, cy, r in circles:
        canvas.circle(x + cx * scale, y + cy * scale, r * scale, stroke=0, fill=1)
