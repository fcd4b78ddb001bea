"""Every paper of a round in one PDF (issue 58), in the order a director hands them out:
the draw, the table cards, the deal sheets for the dealers, the box labels, the scorecards,
and the device slips when they are made with it. Each part is the document its own button
prints (the same classes, the same data); they are joined by pypdf, each part a bookmark,
each keeping its own embedded fonts."""

from __future__ import annotations

import io
from collections.abc import Iterable

from pypdf import PdfWriter


def joined(parts: Iterable[tuple[str, bytes]]) -> bytes:
    """One PDF of ``(bookmark title, PDF)`` parts, in order."""
    writer = PdfWriter()
    for title, pdf in parts:
        writer.append(io.BytesIO(pdf), outline_item=str(title))
    writer.add_metadata({"/Producer": "Duplicate Gin", "/Creator": "Duplicate Gin"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
