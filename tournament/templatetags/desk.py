"""``{% desk_rows %}``: the rows of a desk entry page (issue 24), written in one pass.

The desk entry of one box has a row for each of a round's 512 tables, each a form of eight
fields: written by the template engine row by row, they were four fifths of the page's time
(docs/benchmarks.md, issue 59). Here the words and the row's address are worked out once
and each row is joined from escaped texts; the markup is the one ``director/desk.html``
wrote row by row before.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext, pgettext

from tournament.selectors.desk import DeskRow
from tournament.services.entry import new_request_token
from tournament.wording import hand_line, phrases

register = template.Library()


@register.simple_tag
def desk_rows(rows: list[DeskRow], rules, *, action: str, back: str, csrf_token,
              correcting: bool = False) -> SafeString:
    """The ``<tr>`` of every row: the table and hand, both seats (the dealer's marked), the
    form that saves the line (posted to ``action``, back to ``back`` at the row; each row
    with a request token of its own) and what the engine made of the saved result.
    ``rules``: the round, for the wording of a draw (``wording.hand_line``)."""
    # The words every row repeats, translated once (as {% translate %} wrote them: the
    # translations are the project's own, written as they are).
    dealer_mark = f' <abbr title="{gettext("dealer")}">{pgettext("dealer", "D")}</abbr>'
    save = gettext("Save")
    where = gettext("Table %(table)s, hand %(hand)s")
    action, back = escape(action), escape(back)
    csrf = escape(str(csrf_token))
    disabled = " disabled" if correcting else ""
    words = phrases()
    out = []
    for row in rows:
        table = row.table
        key = f"t{table.table.pk}h{row.hand}"  # DeskRow.key
        dealer = table.dealer_seats[row.hand - 1]  # DeskRow.dealer's seat
        seats = []
        for seat in table.seats:
            player = seat.player
            name = escape(player.name) if player is not None else ""
            mark = dealer_mark if seat.seat == dealer else ""
            seats.append(f'<td class="desk-seat{" dealer" if mark else ""}">{name} '
                         f'<span class="team-code">{escape(seat.team.code)}</span>{mark}</td>')
        result = row.result
        if result is not None:
            typed = escape(row.typed)
            approved = row.approved
            approvals = (", " + ngettext("%(n)s approval", "%(n)s approvals", approved)
                         % {"n": approved} if approved else "")
            explained = (f'{escape(hand_line(result, rules, words=words))} <span class="muted">'
                         f'(v{result.version}{approvals})</span>')
        else:
            typed = explained = ""
        out.append(
            f'<tr id="{key}" class="desk-row{" saved" if result is not None else ""}">\n'
            f'    <th scope="row" class="num">{table.number}</th>\n'
            f'    <td class="num">{row.hand}</td>\n'
            f'    {"".join(seats)}\n'
            f'    <td><form method="post" action="{action}" class="desk-form">'
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">\n'
            f'      <input type="hidden" name="table" value="{table.table.pk}">'
            f'<input type="hidden" name="hand" value="{row.hand}">\n'
            f'      <input type="hidden" name="seen_version" value="{row.version}">'
            f'<input type="hidden" name="request_token" value="{new_request_token()}">\n'
            f'      <input type="hidden" name="back" value="{back}#{key}">\n'
            f'      <label class="visually-hidden" for="in-{key}">'
            f'{where % {"table": table.number, "hand": row.hand}}</label>\n'
            f'      <input id="in-{key}" name="typed" value="{typed}" data-saved="{typed}" '
            f'class="desk-input" autocomplete="off" autocapitalize="characters" '
            f'spellcheck="false" size="14" aria-describedby="out-{key}"{disabled}>\n'
            f'      <noscript><button type="submit">{save}</button></noscript>\n'
            f'    </form></td>\n'
            f'    <td><output id="out-{key}" class="desk-out" aria-live="polite">{explained}'
            f'</output></td>\n'
            f'  </tr>')
    return SafeString("".join(out))
