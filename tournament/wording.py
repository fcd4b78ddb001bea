"""What ``scoring`` works out, in the reader's language.

``scoring`` words its results in English (the command line and its tests depend on it);
the pages print them again from the stored values with these translated phrases: a hand's
explanation line, what separated two teams in the standings and the names of the
tiebreaks. The numbers always come from ``scoring``; only the words are here.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from scoring import placings
from scoring.errors import Phrase, RuleError
from scoring.explain import Phrases, explain
from scoring.hand import HandScore
from scoring.rules import DrawRule, Rules
from scoring.standings import Separation
from scoring.tiebreaks import criterion


def phrases() -> Phrases:
    """The explanation's phrases in the active language."""
    return Phrases(
        knock=gettext("Knock {declarer} vs {opponent}: {bonus} + {difference} = {points}"),
        undercut=gettext("Undercut {declarer} vs {opponent}: {bonus} + {difference} = "
                         "{points}"),
        gin=gettext("Gin vs {opponent}: {bonus} + {difference} = {points}"),
        big_gin=gettext("Big Gin vs {opponent}: {bonus} + {difference} = {points}"),
        after_false_knock=gettext("{line} (false knock at {deadwood})"),
        draw_exhausted=gettext("Draw: 0 (stock exhausted)"),
        draw_two_left=gettext("Draw: 0 (two cards left in the stock)"),
        draw_exhausted_false_knock=gettext(
            "Draw: 0 (stock exhausted; false knock at {deadwood})"),
        draw_two_left_false_knock=gettext(
            "Draw: 0 (two cards left in the stock; false knock at {deadwood})"),
    )


def draw_rule_of(rules: Rules | DrawRule | str | None) -> DrawRule:
    """The draw rule of a round (or of its rules); the FCG rule when none is known."""
    rules = getattr(rules, "rules", rules)  # a Round
    if isinstance(rules, Rules):
        return rules.draw_rule
    return DrawRule(rules) if rules else DrawRule.STOCK_EXHAUSTED


def hand_line(result, rules=None, *, words: Phrases | None = None) -> str:
    """A stored result's explanation ("Knock 4 vs 12: 15 + 8 = 23") in the active
    language. ``result`` has the fields of a ``HandResult``; ``rules`` is its round, the
    round's rules or its draw rule (only a draw's line depends on it); ``words``: the
    ``phrases()``, translated once for a list of lines (512 on the desk entry of a box)."""
    return explain(result.outcome, result.declarer_deadwood, result.opponent_deadwood,
                   result.seat1_points, draw_rule=draw_rule_of(rules),
                   false_knock_deadwood=result.false_knock_deadwood,
                   phrases=phrases() if words is None else words)


def score_text(score: HandScore, rules: Rules, *, laid_off: str = "") -> str:
    """A hand just scored (the entry preview), with the cards laid off in cards mode."""
    text = explain(score.outcome, score.declarer_deadwood, score.opponent_deadwood,
                   score.declarer_points, draw_rule=rules.draw_rule,
                   false_knock_deadwood=score.false_knock.deadwood if score.false_knock
                   else None, phrases=phrases())
    if laid_off:
        text = gettext("{line}; laid off: {cards}").format(line=text, cards=laid_off)
    return text


def tiebreak_name(key: str) -> str:
    """A criterion of the standings by its key (``scoring.tiebreaks``), in the active
    language."""
    try:
        return gettext(criterion(key).name)
    except RuleError:
        return key


def ranking_order(tiebreaks) -> str:
    """The sentence that says how a stage ranks its teams, its tiebreaks (keys) in their
    order, listed as the language lists things."""
    names = [tiebreak_name(key) for key in tiebreaks]
    return gettext("Order: match points, small points, then %(tiebreaks)s.") % {
        "tiebreaks": pgettext("list separator", ", ").join(names)}


def criterion_value(key: str, value) -> str:
    """One side of a comparison in the standings: "5 mp", "+21", "2 wins", "lot 75a5aadb"."""
    try:
        kind = criterion(key)
    except RuleError:
        return str(value)
    return kind.describe(value, words=translation)


def separation_text(separation: Separation) -> str:
    """Why a team is above the next: "head-to-head: 5 mp vs 3 mp"."""
    return gettext("{criterion}: {above} vs {below}").format(
        criterion=tiebreak_name(separation.key),
        above=criterion_value(separation.key, separation.above),
        below=criterion_value(separation.key, separation.below))


def rule_message(error: Exception) -> str:
    """A ``scoring`` error (a ``RuleError``) in the active language: its template
    translated and formatted with its parameters, those that are words themselves
    (``scoring.errors.Phrase``) translated too; any other error as it reads."""
    template = getattr(error, "template", None)
    if not template:
        return str(error)
    params = {name: gettext(value) if isinstance(value, Phrase) else value
              for name, value in getattr(error, "params", {}).items()}
    try:
        return gettext(template).format(**params) if params else gettext(template)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
        return str(error)


# The knockout: its rounds and what decided each final place (scoring.placings) -----------

def knockout_round_name(slots: int) -> str:
    """A bracket round by the slots it starts from (``scoring.pairing.round_slots``):
    "Final", "Semi-finals", "Quarter-finals", "Round of 16", "Round of 32", …"""
    if slots == 2:
        return pgettext("knockout round", "Final")
    if slots == 4:
        return pgettext("knockout round", "Semi-finals")
    if slots == 8:
        return pgettext("knockout round", "Quarter-finals")
    return pgettext("knockout round", "Round of %(n)d") % {"n": slots}


def third_place_name() -> str:
    return pgettext("knockout round", "Match for third place")


def placing_label(decided_by: str, *, round_slots: int | None = None,
                  stage: str = "") -> str:
    """What decided a place (``scoring.placings.FinalPlace.decided_by``), in the reader's
    language: "won the final", "out in the quarter-finals", "still playing", …"""
    if decided_by == placings.OUT_IN_ROUND and round_slots is not None:
        if round_slots == 2:
            return gettext("lost the final")
        if round_slots == 4:
            return gettext("out in the semi-finals")
        if round_slots == 8:
            return gettext("out in the quarter-finals")
        return gettext("out in the round of %(n)d") % {"n": round_slots}
    if decided_by == placings.BY_STANDINGS:
        return gettext("by the standings of %(stage)s") % {"stage": stage}
    labels = {
        placings.WON_FINAL: gettext("won the final"),
        placings.LOST_FINAL: gettext("lost the final"),
        placings.WON_THIRD_PLACE: gettext("won the match for third place"),
        placings.LOST_THIRD_PLACE: gettext("lost the match for third place"),
        placings.NOT_QUALIFIED: gettext("did not qualify"),
        placings.STILL_PLAYING: gettext("still playing"),
        placings.WITHDRAWN: gettext("withdrawn"),
    }
    return labels.get(decided_by, decided_by)


def knockout_result(winner: str, margin: int | None, *, default: bool = False,
                    extra_hands: int = 0, provisional: bool = False) -> str:
    """A knockout match's score line (RULES.md §11: the higher total goes through):
    "CHN-R won by 11", "… after 2 extra hands", "AUS won by default", "FRA leads by 4"."""
    if default:
        return gettext("%(team)s won by default") % {"team": winner}
    if provisional:
        return gettext("%(team)s leads by %(n)d") % {"team": winner, "n": margin}
    if extra_hands:
        return ngettext("%(team)s won by %(n)d after %(extra)d extra hand",
                        "%(team)s won by %(n)d after %(extra)d extra hands", extra_hands) % {
            "team": winner, "n": margin, "extra": extra_hands}
    return gettext("%(team)s won by %(n)d") % {"team": winner, "n": margin}
