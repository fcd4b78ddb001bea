"""The public's bulletins: a day's (``/t/<slug>/bulletin/<date>.pdf``) and the whole
event's (``/t/<slug>/bulletin.pdf``), closed rounds only, in the reader's language."""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpResponse
from django.utils.text import slugify

from tournament.pdf.base import paper_asked
from tournament.pdf.bulletin import BulletinDocument
from tournament.selectors.bulletin import read_bulletin
from tournament.views.public.base import public_page


def day_asked(text: str | None) -> dt.date | None:
    """The date of the address (``2026-05-14``); 404 for anything else."""
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Http404("a day is written YYYY-MM-DD") from None


def bulletin_response(request, tournament, day: str | None, *, public: bool) -> HttpResponse:
    bulletin = read_bulletin(tournament, day_asked(day), public=public)
    if bulletin is None:
        raise Http404("no round of that day is closed")
    pdf = BulletinDocument(bulletin, paper_name=paper_asked(request)).render()
    response = HttpResponse(pdf, content_type="application/pdf")
    name = slugify(f"{tournament.slug}-bulletin-{day or 'event'}") or "bulletin"
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


@public_page()
def bulletin(request, tournament, day=None):
    """What the public pages show of the day's closed rounds, on paper."""
    return bulletin_response(request, tournament, day, public=True)
