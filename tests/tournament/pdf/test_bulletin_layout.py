"""The bulletin's layout: a section's heading never ends a page (issue 56: a heading was left
alone at the bottom of a page of the whole-event bulletin, its section on the next)."""

from reportlab.lib.units import mm

from tournament.pdf.base import Document
from tournament.pdf.bulletin import BulletinDocument


def document_at(y_above_the_margin: float) -> BulletinDocument:
    """A bulletin on its first page with this much room left above its bottom margin."""
    document = BulletinDocument.__new__(BulletinDocument)
    Document.__init__(document, title="Cup")
    document.usable = document.width - 2 * document.margin
    document._page()
    document.y = document.margin + y_above_the_margin
    return document


def test_a_heading_goes_to_the_next_page_with_what_opens_its_section():
    line = BulletinDocument.line
    # From plenty of room down to none, in steps: wherever the heading falls, the title,
    # table head and first row that open a section (3 lines) are on its page.
    for room in range(0, 120):
        document = document_at(room * mm)
        document._section("Standings")
        page = document.page_number
        document._need(3 * line)
        assert document.page_number == page, f"{room} mm: the heading ended page {page}"
