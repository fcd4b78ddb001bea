"""``{% draw_rows %}``: the rows of the draw by table, written in one pass.

A round of 512 tables made the template engine resolve some 20,000 variables and tags for
these rows, half of the director's round page (docs/benchmarks.md, issue 28). Here the words
and addresses are worked out once and each row is joined from escaped texts; the markup is
the one ``includes/draw_by_table.html`` wrote row by row before.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from tournament.selectors.draw import RoundPlan
from tournament.templatetags.links import url_around

register = template.Library()


@register.simple_tag
def draw_rows(plan: RoundPlan, slug: str, *, entry_links: bool = False,
              lineup_links: bool = False) -> SafeString:
    """The ``<tr>`` of every table of ``plan``: its number (a link to its entry screen with
    ``entry_links``), its match, and each seat's team, player and the hands it deals (with a
    link to the team's line-up on the match's first table with ``lineup_links``)."""
    table_url = url_around("director:table_entry", slug) if entry_links else None
    lineup_url = (url_around("director:round_lineup", slug, plan.round.pk)
                  if lineup_links else None)
    match_label = escape(gettext("Match"))
    seat_labels = {n: escape(gettext("Seat %(n)s") % {"n": n}) for n in (1, 2)}
    reserve = escape(gettext("reserve"))
    reserve = f' <span class="badge">{reserve}</span>'
    lineup_word = escape(gettext("line-up"))
    deals = gettext("deals hands %(hands)s")
    rows = []
    # Each text escaped once: a team's code at its two tables, the hands dealt at all 512.
    codes: dict[int, str] = {}
    dealt: dict[str, str] = {}
    for table in plan.tables:
        number = str(table.number)
        if table_url is not None:
            number = f'<a href="{table_url[0]}{table.table.pk}{table_url[1]}">{number}</a>'
        match = table.match
        group = (f' <span class="muted">{escape(match.group.name)}</span>'
                 if match.group_id else "")
        first = table.position == 1
        cells = []
        for seat, hands in table.seats_with_deals:
            team = seat.team
            code = codes.get(team.pk)
            if code is None:
                code = codes[team.pk] = escape(team.code)
            deals_text = dealt.get(hands)
            if deals_text is None:
                deals_text = dealt[hands] = escape(deals % {"hands": hands})
            link = (f'\n        <a class="small-link" href="{lineup_url[0]}{team.pk}'
                    f'{lineup_url[1]}">{lineup_word}</a>'
                    if lineup_url is not None and first else "")
            player = seat.player
            name = (escape(player.name) + (reserve if player.is_reserve else "")
                    if player is not None else "")
            cells.append(
                f'<td data-label="{seat_labels[seat.seat]}">\n'
                f'        <span class="team-code">{code}</span> {name}\n'
                f'        <small class="muted deals">{deals_text}'
                f'</small>{link}\n      </td>')
        start = ' class="match-start"' if first else ""
        rows.append(f'\n    <tr{start}>\n      <td class="num"><strong>{number}</strong></td>\n'
                    f'      <td class="num" data-label="{match_label}">{match.number}{group}'
                    f'</td>\n      {"".join(cells)}\n    </tr>')
    return SafeString("".join(rows))
