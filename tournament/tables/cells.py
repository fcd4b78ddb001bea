"""Cells several tables share: a number as people read it (with a real minus sign), and a
team as its code and name (with its name in the other script where there is room)."""

import re

from django.utils.safestring import SafeString, mark_safe

from tournament import names
from tournament.tables.plain import escaped
from tournament.templatetags.scores import MINUS, signed


def minus_signs(text: str) -> str:
    """"-20" as people read it, with a real minus sign (the pages and the printout)."""
    return re.sub(r"(?<!\w)-(?=\d)", MINUS, text)


def team_cell(code, name, beside: str = "") -> SafeString:
    """A team as its code and name, each escaped: what ``format_html`` would make of them,
    without its checks per call (a thousand cells on a page of 1,024 players). ``beside``:
    the name in the other script, in a span a narrow screen leaves out (site.css)."""
    cell = f'<span class="team-code">{escaped(code)}</span> {escaped(name)}'
    if beside:
        lang = ' lang="zh-Hans"' if names.is_han(beside) else ""
        cell += f' <span class="other-name"{lang}>· {escaped(beside)}</span>'
    return mark_safe(cell)


def team_names(team) -> dict[str, str]:
    """A row's "name" (the one the reader sees) and "other_name" (the one beside it, or "")
    of a team (tournament.names)."""
    shown, beside = names.in_order(team.name, team.other_name)
    return {"name": shown, "other_name": beside}


class TeamRanked:
    """The cells a ranking of teams shares (standings, the final ranking): the team as its
    code and name, small points signed on the page and a plain number in a download."""

    def render_team(self, record):
        return team_cell(record["code"], record["name"], record.get("other_name", ""))

    def render_small_points(self, value):
        return signed(value)

    def value_small_points(self, value):
        return value
