"""Cells several tables share: a number as people read it (with a real minus sign), and a
team as its code and name."""

import re

from django.utils.safestring import SafeString, mark_safe

from tournament.tables.plain import escaped
from tournament.templatetags.scores import MINUS, signed


def minus_signs(text: str) -> str:
    """"-20" as people read it, with a real minus sign (the pages and the printout)."""
    return re.sub(r"(?<!\w)-(?=\d)", MINUS, text)


def team_cell(code, name) -> SafeString:
    """A team as its code and name, each escaped: what ``format_html`` would make of them,
    without its checks per call (a thousand cells on a page of 1,024 players)."""
    return mark_safe(f'<span class="team-code">{escaped(code)}</span> {escaped(name)}')


class TeamRanked:
    """The cells a ranking of teams shares (standings, the final ranking): the team as its
    code and name, small points signed on the page and a plain number in a download."""

    def render_team(self, record):
        return team_cell(record["code"], record["name"])

    def render_small_points(self, value):
        return signed(value)

    def value_small_points(self, value):
        return value
