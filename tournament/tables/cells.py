"""How a number reads in a cell of a page or a printout: with a real minus sign."""

import re

from tournament.templatetags.scores import MINUS


def minus_signs(text: str) -> str:
    """"-20" as people read it, with a real minus sign (the pages and the printout)."""
    return re.sub(r"(?<!\w)-(?=\d)", MINUS, text)
