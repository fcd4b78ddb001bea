"""A round's matches as the staff follow them, written in one pass: ``{% match_states %}``
(the round page's list), ``{% progress_rows %}`` (the progress page's table) and
``{% far_results %}`` (the referees' results far from the field).

Written by the template engine row by row, these lists of 256 matches (and hundreds of far
results) were most of the two pages' time (docs/benchmarks.md, issue 28). The words and
the addresses are worked out once per list here; the states are ``MatchProgress.state``,
their words ``tournament.states``'.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from tournament import states
from tournament.models import Round
from tournament.selectors.anomalies import FarResult
from tournament.selectors.results import MatchProgress
from tournament.templatetags.comparison import points, versus
from tournament.templatetags.links import url_around
from tournament.templatetags.scores import match_score

register = template.Library()


def _score_or_teams(p: MatchProgress, state: str) -> str:
    """The official score line of the match, else its two teams' codes (``state``: the
    match's, worked out once a row)."""
    match = p.match
    if state == states.OFFICIAL:
        return match_score(match)
    return (f'<span class="team-code">{escape(match.home.code)}</span> – '
            f'<span class="team-code">{escape(match.away.code)}</span>')


def _forfeited(p: MatchProgress, words: str) -> str:
    """"forfeited by …" (``words``: its translation, with ``%(team)s``), escaped."""
    match = p.match
    code = match.home.code if match.forfeited_by_id == match.home_id else match.away.code
    return escape(words % {"team": code})


def _state(p: MatchProgress, state: str, words: dict[str, str], forfeited: str) -> str:
    """The word of the match's state (``state``, of ``tournament.states``), escaped; a
    forfeit names the team that defaulted."""
    if state == states.FORFEITED:
        return _forfeited(p, forfeited)
    return words[state]


def _words() -> tuple[dict[str, str], str]:
    """Every state's word and "forfeited by …", translated and escaped once per list."""
    return ({code: escape(state.word) for code, state in states.MATCH_STATES.items()},
            gettext("forfeited by %(team)s"))


@register.simple_tag
def match_states(progress: list[MatchProgress], round_: Round, slug: str) -> SafeString:
    """An ``<li>`` for each match: a link to its page, its official score (or its two
    teams) and the word of its state."""
    match_url = url_around("director:match_page", slug)
    words, forfeited = _words()
    match_word = gettext("Match %(n)s")
    items = []
    for p in progress:
        match, state = p.match, p.state
        number = escape(match_word % {"n": match.number})
        items.append(
            f'<li class="state-{state}">\n'
            f'    <a href="{match_url[0]}{match.pk}{match_url[1]}">{number}</a>\n'
            f'    <span class="result">{_score_or_teams(p, state)}</span>\n'
            f'    <span class="state">{_state(p, state, words, forfeited)}</span>\n  </li>')
    return SafeString("".join(items))


# Shown in bold on the progress page: what is decided, or needs a referee.
_STRONG = (states.OFFICIAL, states.FORFEITED, states.CORRECTING)


@register.simple_tag
def progress_rows(progress: list[MatchProgress], round_: Round, slug: str) -> SafeString:
    """A ``<tr>`` for each match of the progress page: a link to its page, the word of its
    state, its score (or its two teams) with links to its tables' entry screens, and its
    hands entered, approved and signatures."""
    match_url = url_around("director:match_page", slug)
    table_url = url_around("director:table_entry", slug)
    words, forfeited = _words()
    entered, approved = escape(gettext("entered")), escape(gettext("approved"))
    signed = escape(gettext("signed"))
    table_word = gettext("table %(n)s")
    match_word = gettext("Match %(n)s")
    rows = []
    for p in progress:
        match, code = p.match, p.state
        state = _state(p, code, words, forfeited)
        if code in _STRONG:
            state = f"<strong>{state}</strong>"
        tables = " · ".join(
            f'<a href="{table_url[0]}{table.pk}{table_url[1]}">'
            f'{escape(table_word % {"n": table.number})}</a>' for table in p.tables)
        label = escape(match_word % {"n": match.number})
        rows.append(
            f'<tr class="state-{code}">\n'
            f'    <td class="num match-no"><a href="{match_url[0]}{match.pk}{match_url[1]}" '
            f'aria-label="{label}">{match.number}</a></td>\n'
            f'    <td class="state">{state}</td>\n'
            f'    <td class="teams">{_score_or_teams(p, code)} '
            f'<span class="muted tables">{tables}</span></td>\n'
            f'    <td class="num" data-label="{entered}">{p.entered} / {2 * p.hands}</td>\n'
            f'    <td class="num" data-label="{approved}">{p.approved} / {2 * p.hands}</td>'
            f'<td class="num" data-label="{signed}">{p.signatures} / 4</td>\n  </tr>')
    return SafeString("".join(rows))


@register.simple_tag
def far_results(far: list[FarResult], round_: Round, slug: str) -> SafeString:
    """An ``<li>`` for each result far from the field (for referees): where it was played,
    with a link to the table's entry screen, how far it is from the datum, and a link to
    its box's traveller. A round with random results had 285 of them on the progress page,
    the largest part of its time when the template wrote them."""
    table_url = url_around("director:table_entry", slug)
    traveller_url = url_around("director:traveller", slug, round_.pk)
    where = gettext("Table %(n)s, hand %(hand)s")
    how = gettext("%(points)s for the dealer cards against a datum of %(datum)s "
                  "(%(difference)s, field of %(tables)s tables)")
    traveller = escape(gettext("traveller"))
    items = []
    for item in far:
        played = item.played
        place = escape(where % {"n": played.table, "hand": played.hand})
        distance = escape(how % {"points": points(item.dealer_points),
                                 "datum": versus(item.datum_shown),
                                 "difference": versus(item.difference_shown),
                                 "tables": item.tables})
        link = (f' · <a href="{traveller_url[0]}{played.deal_id}{traveller_url[1]}'
                f'?table={played.table}">{traveller}</a>' if played.deal_id else "")
        items.append(f'<li><a href="{table_url[0]}{played.table_id}{table_url[1]}">{place}'
                     f'</a>: {distance}{link}</li>')
    return SafeString("".join(items))
