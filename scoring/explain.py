"""The one-line explanation of a hand's score: "Knock 4 vs 12: 15 + 8 = 23".

The line is worked out from what a result stores (outcome, the two deadwoods, the
winner's points, a false knock's recorded deadwood) and the round's draw rule, so that a
page can print it again in the reader's language long after the hand was scored. The
wording is a ``Phrases``: English here (the command line and the scorecards), translated
by the application.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules import DrawRule


@dataclass(frozen=True)
class Phrases:
    """Templates of the line, filled with ``str.format``: {declarer} and {opponent} are the
    deadwoods, {bonus} the bonus, {difference} what was added to it, {points} the total,
    {deadwood} a false knock's recorded deadwood and {line} the line it is added to."""

    knock: str = "Knock {declarer} vs {opponent}: {bonus} + {difference} = {points}"
    undercut: str = "Undercut {declarer} vs {opponent}: {bonus} + {difference} = {points}"
    gin: str = "Gin vs {opponent}: {bonus} + {difference} = {points}"
    big_gin: str = "Big Gin vs {opponent}: {bonus} + {difference} = {points}"
    after_false_knock: str = "{line} (false knock at {deadwood})"
    draw_exhausted: str = "Draw: 0 (stock exhausted)"
    draw_two_left: str = "Draw: 0 (two cards left in the stock)"
    draw_exhausted_false_knock: str = "Draw: 0 (stock exhausted; false knock at {deadwood})"
    draw_two_left_false_knock: str = ("Draw: 0 (two cards left in the stock; false knock "
                                      "at {deadwood})")


ENGLISH = Phrases()


def explain(outcome: str, declarer_deadwood: int | None, opponent_deadwood: int | None,
            points: int, *, draw_rule: DrawRule | str = DrawRule.STOCK_EXHAUSTED,
            false_knock_deadwood: int | None = None, phrases: Phrases = ENGLISH) -> str:
    """The line of a scored hand. ``outcome`` is what the hand turned out to be (a knock
    that was undercut is ``undercut``); ``points`` is what the winner scored (either sign).

    The bonus is what the points hold beyond the deadwood difference, which is how the
    score was made (RULES.md §6), so the line needs no rule values but the draw rule."""
    outcome = str(getattr(outcome, "value", outcome))
    points = abs(points)
    if outcome == "draw":
        two_left = DrawRule(draw_rule) is DrawRule.TWO_CARDS_LEFT
        if false_knock_deadwood is None:
            return phrases.draw_two_left if two_left else phrases.draw_exhausted
        template = (phrases.draw_two_left_false_knock if two_left
                    else phrases.draw_exhausted_false_knock)
        return template.format(deadwood=false_knock_deadwood)
    if outcome in ("gin", "big_gin"):
        difference = opponent_deadwood or 0
    elif outcome == "knock":
        difference = (opponent_deadwood or 0) - (declarer_deadwood or 0)
    elif outcome == "undercut":
        difference = (declarer_deadwood or 0) - (opponent_deadwood or 0)
    else:
        raise ValueError(f"no explanation for the outcome {outcome!r}")
    line = getattr(phrases, outcome).format(
        declarer=declarer_deadwood, opponent=opponent_deadwood, bonus=points - difference,
        difference=difference, points=points)
    if false_knock_deadwood is not None:
        line = phrases.after_false_knock.format(line=line, deadwood=false_knock_deadwood)
    return line
