"""A round's matches as the staff follow them, written in one pass: ``{% match_states %}``
(the round page's list), ``{% progress_rows %}`` (the progress page's table) and
``{% far_results %}`` (the referees' results far from the field).

Written by the template engine row by row, these lists of 256 matches (and hundreds of far
results) were most of the two pages' time (docs/benchmarks.md, issue 28). The words and
the addresses are worked out once per list here; the states are ``MatchProgress.state``.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop

from tournament.models import Round
from tournament.selectors.anomalies import FarResult
from tournament.selectors.results import MatchProgress
from tournament.templatetags.comparison import points, versus
from tournament.templatetags.links import url_around
from tournament.templatetags.scores import match_score

register = template.Library()


def _score_or_teams(p: MatchProgress) -> str:
    """The official score line of the match, else its two teams' codes."""
    match = p.match
    if p.state == "official":
        return match_score(match)
    return (f'<span class="team-code">{escape(match.home.code)}</span> – '
            f'<span class="team-code">{escape(match.away.code)}</span>')


def _forfeited(p: MatchProgress, words: str) -> str:
    """"forfeited by …" (``words``: its translation, with ``%(team)s``), escaped."""
    match = p.match
    code = match.home.code if match.forfeited_by_id == match.home_id else match.away.code
    return escape(words % {"team": code})


def _correcting_class(p: MatchProgress, closed: bool) -> str:
    """A match neither official nor forfeited in a closed round is being corrected."""
    return " state-correcting" if closed and p.state not in ("official", "forfeited") else ""


@register.simple_tag
def match_states(progress: list[MatchProgress], round_: Round, slug: str) -> SafeString:
    """An ``<li>`` for each match: a link to its page, its official score (or its two
    teams) and its state; a match not official in a closed round is being corrected."""
    match_url = url_around("director:match_page", slug)
    closed = round_.status == Round.Status.CLOSED
    official = escape(gettext("official"))
    correcting = escape(gettext("being corrected (provisional)"))
    correcting = f"<strong>{correcting}</strong>"
    provisional = escape(gettext("provisional"))
    forfeited, match_word = gettext("forfeited by %(team)s"), gettext("Match %(n)s")
    items = []
    for p in progress:
        match = p.match
        if p.state == "forfeited":
            state = _forfeited(p, forfeited)
        elif p.state == "official":
            state = official
        else:
            state = correcting if closed else provisional
        number = escape(match_word % {"n": match.number})
        items.append(
            f'<li class="state-{p.state}{_correcting_class(p, closed)}">\n'
            f'    <a href="{match_url[0]}{match.pk}{match_url[1]}">{number}</a>\n'
            f'    <span class="result">{_score_or_teams(p)}</span>\n'
            f'    <span class="state">{state}</span>\n  </li>')
    return SafeString("".join(items))


# The words of a match's state on the progress page, by MatchProgress.state.
_PROGRESS_WORDS = {
    "awaiting_sign_off": gettext_noop("awaiting sign-off"),
    "awaiting_signatures": gettext_noop("awaiting signatures"),
    "awaiting_approval": gettext_noop("awaiting approval"),
    "playing": gettext_noop("playing"),
}


@register.simple_tag
def progress_rows(progress: list[MatchProgress], round_: Round, slug: str) -> SafeString:
    """A ``<tr>`` for each match of the progress page: a link to its page, its state, its
    score (or its two teams) with links to its tables' entry screens, and its hands
    entered, approved and signatures."""
    match_url = url_around("director:match_page", slug)
    table_url = url_around("director:table_entry", slug)
    closed = round_.status == Round.Status.CLOSED
    official = escape(gettext("official"))
    official = f"<strong>{official}</strong>"
    correcting = escape(gettext("being corrected (provisional)"))
    correcting = f"<strong>{correcting}</strong> · "
    words = {state: escape(gettext(word)) for state, word in _PROGRESS_WORDS.items()}
    entered, approved = escape(gettext("entered")), escape(gettext("approved"))
    signed = escape(gettext("signed"))
    table_word, forfeited = gettext("table %(n)s"), gettext("forfeited by %(team)s")
    match_word = gettext("Match %(n)s")
    rows = []
    for p in progress:
        match = p.match
        if p.state == "forfeited":
            state = f"<strong>{_forfeited(p, forfeited)}</strong>"
        elif p.state == "official":
            state = official
        else:
            state = (correcting if closed else "") + words[p.state]
        tables = " · ".join(
            f'<a href="{table_url[0]}{table.pk}{table_url[1]}">'
            f'{escape(table_word % {"n": table.number})}</a>' for table in p.tables)
        label = escape(match_word % {"n": match.number})
        rows.append(
            f'<tr class="state-{p.state}{_correcting_class(p, closed)}">\n'
            f'    <td class="num match-no"><a href="{match_url[0]}{match.pk}{match_url[1]}" '
            f'aria-label="{label}">{match.number}</a></td>\n'
            f'    <td class="state">{state}</td>\n'
            f'    <td class="teams">{_score_or_teams(p)} '
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
