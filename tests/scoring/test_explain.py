"""The explanation line worked out again from what a result stores (for a page in
another language) is the line the score was made with."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.explain import Phrases, explain
from scoring.hand import MAX_DEADWOOD, FalseKnock, score_hand
from scoring.rules import DrawRule, Rules

deadwoods = st.integers(0, MAX_DEADWOOD)
rules = st.builds(Rules, knock_bonus=st.integers(0, 50), undercut_bonus=st.integers(0, 50),
                  gin_bonus=st.integers(0, 50), big_gin_bonus=st.integers(0, 60),
                  draw_rule=st.sampled_from(DrawRule))


@given(rules, st.sampled_from(["knock", "gin", "big_gin", "draw"]), st.integers(1, 10),
       deadwoods, st.one_of(st.none(), st.integers(11, MAX_DEADWOOD)))
def test_the_stored_fields_give_the_line_of_the_score(rules, outcome, knocker, opponent,
                                                      false_knock):
    knocker = min(knocker, rules.knock_limit)
    known = FalseKnock("opponent", false_knock) if false_knock is not None else None
    if outcome == "draw":
        score = score_hand("draw", rules=rules, false_knock=known)
    else:
        declarer = knocker if outcome == "knock" else 0
        score = score_hand(outcome, declarer, false_knock if known else opponent, rules=rules,
                           false_knock=known)
    again = explain(score.outcome, score.declarer_deadwood, score.opponent_deadwood,
                    score.declarer_points, draw_rule=rules.draw_rule,
                    false_knock_deadwood=false_knock)
    assert again == score.explanation


def test_the_worked_examples_of_the_rules():
    assert explain("knock", 4, 12, 23) == "Knock 4 vs 12: 15 + 8 = 23"
    assert explain("undercut", 6, 2, -29) == "Undercut 6 vs 2: 25 + 4 = 29"
    assert explain("big_gin", 0, 18, 53) == "Big Gin vs 18: 35 + 18 = 53"
    assert explain("draw", None, None, 0, draw_rule="two_cards_left",
                   false_knock_deadwood=23) == \
        "Draw: 0 (two cards left in the stock; false knock at 23)"


def test_other_phrases_fill_the_same_numbers():
    chinese = Phrases(knock="敲牌 {declarer} 对 {opponent}: {bonus} + {difference} = {points}")
    assert explain("knock", 4, 12, 23, phrases=chinese) == "敲牌 4 对 12: 15 + 8 = 23"


def test_an_unknown_outcome_is_refused():
    with pytest.raises(ValueError, match="'forfeit'"):
        explain("forfeit", 1, 2, 3)
