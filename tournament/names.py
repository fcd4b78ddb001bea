"""A name in two scripts (issue 56): a person, a team, a stage or a tournament has its name
and optionally the same name in the other script (Latin or Chinese). The reader's language
picks which one is shown: a Chinese reader sees the one written in Chinese (Han script) when
there is one, every other reader the one that is not; the other is shown beside it where
there is room (page headings, a team's page, standings on a wide screen), never in a tight
cell (a bracket, a box label).

This module is the one place that choice is made: the pages (``shown_name``/``both_names``
on the models and the ``names`` template filters), the PDFs, the API, the downloads and the
tournament file's summary all ask it.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

# The Han script: the CJK radicals, the ideographic iteration and number marks, the unified
# ideographs and their extensions, the compatibility ideographs.
_HAN = re.compile("[\u2e80-\u2fdf\u3005\u3007\u3021-\u3029\u3038-\u303b\u3400-\u4dbf"
                  "\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
# What joins the two names where both are shown in one line of text (a PDF heading, a
# download's title).
SEPARATOR = " · "


def is_han(text: str | None) -> bool:
    """Whether the text is written (at least partly) in Chinese characters."""
    return bool(text) and _HAN.search(text) is not None


def reads_han(language: str | None = None) -> bool:
    """Whether the reader's language (the active one if none is given) is written in Han."""
    return (language or translation.get_language() or "").lower().startswith("zh")


def in_order(name: str, other_name: str = "", language: str | None = None) -> tuple[str, str]:
    """(the name shown first, the one shown beside it or ""), for a reader of ``language``
    (the active language if None). The name as written comes first unless only the other
    one is in the reader's script."""
    name, other_name = name or "", other_name or ""
    if not other_name or other_name == name:
        return name, ""
    if not name:
        return other_name, ""
    han = reads_han(language)
    if is_han(name) != han and is_han(other_name) == han:
        return other_name, name
    return name, other_name


def names_of(thing: Any) -> tuple[str, str]:
    """The name and the other-script name of a model, a record or a dict."""
    if isinstance(thing, dict):
        return thing.get("name") or "", thing.get("other_name") or ""
    return getattr(thing, "name", "") or "", getattr(thing, "other_name", "") or ""


def shown_name(thing: Any, language: str | None = None) -> str:
    """The name the reader sees of ``thing`` (anything with ``name`` and ``other_name``)."""
    return in_order(*names_of(thing), language)[0]


def beside_name(thing: Any, language: str | None = None) -> str:
    """The name shown beside the one the reader sees, or ""."""
    return in_order(*names_of(thing), language)[1]


def both_names(thing: Any, language: str | None = None, separator: str = SEPARATOR) -> str:
    """Both names as one line of text ("北京烤鸭队 · Beijing Roast Duck"), or the one name."""
    first, second = in_order(*names_of(thing), language)
    return f"{first}{separator}{second}" if second else first


def both_names_html(thing: Any, language: str | None = None):
    """Both names for a page: the one the reader sees, then the other in a smaller span
    marked with its language when it is Chinese (so that it is drawn with Chinese glyphs
    and read out in Chinese)."""
    first, second = in_order(*names_of(thing), language)
    if not second:
        return format_html("{}", first)
    lang = mark_safe(' lang="zh-Hans"') if is_han(second) else ""
    return format_html('{} <span class="other-name"{}>· {}</span>', first, lang, second)


class TwoScripts:
    """The two names of a model with ``name`` and ``other_name``, as the reader sees them."""

    @property
    def shown_name(self) -> str:
        return shown_name(self)

    @property
    def beside_name(self) -> str:
        return beside_name(self)

    @property
    def both_names(self) -> str:
        return both_names(self)
