"""The scorecard's legend is worded from the round's rules and ``scoring.hand``'s formulas,
so it cannot say anything the score does not do."""

import re

import pytest
from django.utils import translation

from scoring.hand import Outcome, formula, score_hand
from scoring.rules import Rules
from tournament.pdf.scorecards import score_legend


def _bonuses(rules: Rules) -> dict[str, int]:
    """Each outcome's bonus as the legend prints it."""
    with translation.override("en"):
        line = score_legend(rules)[0]
    found = dict(re.findall(r"(Knock|Undercut|Big Gin|Gin|Draw)[^:]*: (\d+)", line))
    return {name: int(value) for name, value in found.items()}


def test_a_bonus_changed_in_the_rules_changes_the_legend():
    assert _bonuses(Rules())["Gin"] == Rules().gin_bonus
    assert _bonuses(Rules(gin_bonus=31))["Gin"] == 31
    assert _bonuses(Rules(undercut_bonus=12))["Undercut"] == 12
    with translation.override("en"):
        assert "Knock (deadwood 7 or less)" in score_legend(Rules(knock_limit=7))[0]


@pytest.mark.parametrize("rules", [Rules(), Rules(knock_bonus=20, undercut_bonus=10,
                                                  gin_bonus=30, big_gin_bonus=50)])
def test_the_legend_says_what_the_score_does(rules):
    """The legend's bonus plus what it names (difference, opponent's deadwood) is the score
    ``score_hand`` gives, for every outcome."""
    bonuses = _bonuses(rules)
    with translation.override("en"):
        line = score_legend(rules)[0]
    knock = score_hand("knock", 3, 12, rules=rules)
    assert knock.declarer_points == bonuses["Knock"] + (12 - 3)
    assert "+ difference" in line.split("Knock")[1].split("·")[0]
    undercut = score_hand("knock", 9, 4, rules=rules)
    assert undercut.outcome is Outcome.UNDERCUT
    assert undercut.opponent_points == bonuses["Undercut"] + (9 - 4)
    for outcome, name in ((Outcome.GIN, "Gin"), (Outcome.BIG_GIN, "Big Gin")):
        assert score_hand(outcome, 0, 17, rules=rules).declarer_points == bonuses[name] + 17
        assert formula(outcome, rules).bonus == bonuses[name]
    assert score_hand("draw", rules=rules).declarer_points == bonuses["Draw"] == 0


def test_the_legend_is_in_the_reader_s_language():
    with translation.override("zh-hans"):
        line = score_legend(Rules())[0]
    assert "Gin" not in line and "差值" in line and str(Rules().gin_bonus) in line
