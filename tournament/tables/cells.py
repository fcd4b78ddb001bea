"""How a number reads in a cell of a page or a printout: with a real minus sign."""

import re

from django.utils.html import format_html

from tournament.templatetags.scores import MINUS, signed


def minus_signs(text: str) -> str:
    """"-20" as people read it, with a real minus sign (the pages and the printout)."""
    return re.sub(r"(?<!\w)-(?=\d)", MINUS, text)


class TeamRanked:
    """The cells a ranking of teams shares (standings, the final ranking): the team as its
    code and name, small points signed on the page and a plain number in a download."""

    def render_team(self, record):
        return format_html('<span class="team-code">{}</span> {}', record["code"],
                           record["name"])

    def render_small_points(self, value):
        return signed(value)

    def value_small_points(self, value):
        return value
