"""How a match's result reads on the staff pages: "CHN1 +7 : −7 TPE, 3 : 1".

The winner comes first in weight (bold), the totals carry their sign (a real minus sign,
never "7 – -7"), and the match points come from the rules the round was drawn under.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString

from scoring.match import match_points, winner
from scoring.seating import Side
from tournament.models import Stage
from tournament.wording import hand_line, knockout_result

register = template.Library()

MINUS = "\N{MINUS SIGN}"


def signed(value: int) -> str:
    """+7, −7 or 0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


@dataclass(frozen=True)
class ScoreLine:
    home: str
    away: str
    home_total: str
    away_total: str
    home_points: int
    away_points: int
    winner: str  # "home", "away" or "" for a tie
    knockout: str = ""  # a knockout match: "CHN-R won by 11" instead of match points

    @property
    def points(self) -> str:
        return self.knockout or f"{self.home_points} : {self.away_points}"

    @property
    def text(self) -> str:
        return f"{self.home} {self.home_total} : {self.away_total} {self.away}, {self.points}"


def score_line(match) -> ScoreLine | None:
    """The official result of a match, or None while it has none (a knockout match says who
    went through, not match points)."""
    if match.signed_off_at is None or match.home_total is None or match.away_total is None:
        return None
    rules = match.round.rules
    home, away = match.home_total, match.away_total
    side = winner(home, away)
    knockout = ""
    if match.round.stage.kind == Stage.Kind.KNOCKOUT and side is not None:
        knockout = knockout_result(match.home.code if side is Side.HOME else match.away.code,
                                   abs(home), extra_hands=match.extra_hands)
    return ScoreLine(
        home=match.home.code, away=match.away.code,
        home_total=signed(home), away_total=signed(away),
        home_points=match_points(home, away, rules), away_points=match_points(away, home, rules),
        winner=side.value if side else "", knockout=knockout,
    )


@register.simple_tag
def match_score(match) -> str:
    """``{% match_score match %}``: the official score line (the winner in bold), or nothing.
    Written here rather than by a template of its own: a round's pages write it for each of
    256 matches."""
    score = score_line(match)
    if score is None:
        return ""
    # Joined from escaped texts rather than by format_html: a round's pages write 256.
    home, away = escape(score.home), escape(score.away)
    if score.winner == "home":
        home = f"<strong>{home}</strong>"
    elif score.winner == "away":
        away = f"<strong>{away}</strong>"
    return SafeString(f'<span class="match-score">{home} {escape(score.home_total)} : '
                      f'{escape(score.away_total)} {away}, {escape(score.points)}</span>')


@register.filter
def explained(result, rules=None) -> str:
    """``{{ result|explained:round }}``: a stored result's explanation line in the reader's
    language (the round, or its rules, decides a draw's wording)."""
    if result is None:
        return ""
    return hand_line(result, rules)
