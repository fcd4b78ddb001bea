import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import parse_cards
from scoring.errors import RuleError
from scoring.hand import MAX_DEADWOOD, FalseKnock, Outcome, Party, score_hand
from scoring.rules import DrawRule, Rules
from scoring.showdown import settle

# --- the worked examples of RULES.md §6 --------------------------------------------------


def test_worked_example_knock_4_vs_12():
    score = score_hand("knock", 4, 12)
    assert (score.outcome, score.winner) == (Outcome.KNOCK, Party.DECLARER)
    assert (score.declarer_points, score.opponent_points) == (23, -23)
    assert score.explanation == "Knock 4 vs 12: 15 + 8 = 23"


def test_worked_example_knock_7_vs_7_is_an_undercut():
    score = score_hand("knock", 7, 7)
    assert (score.outcome, score.winner) == (Outcome.UNDERCUT, Party.OPPONENT)
    assert (score.declarer_points, score.opponent_points) == (-25, 25)
    assert score.explanation == "Undercut 7 vs 7: 25 + 0 = 25"


def test_worked_example_knock_6_vs_2_is_an_undercut():
    score = score_hand("knock", 6, 2)
    assert (score.outcome, score.winner) == (Outcome.UNDERCUT, Party.OPPONENT)
    assert score.points(Party.OPPONENT) == 29
    assert score.points("declarer") == -29
    assert score.explanation == "Undercut 6 vs 2: 25 + 4 = 29"


def test_worked_example_gin_vs_30():
    score = score_hand("gin", 0, 30)
    assert (score.outcome, score.winner, score.declarer_points) == (Outcome.GIN, Party.DECLARER, 55)
    assert score.explanation == "Gin vs 30: 25 + 30 = 55"


def test_worked_example_big_gin_vs_18():
    score = score_hand("big_gin", None, 18)
    assert (score.winner, score.declarer_points, score.opponent_points) == (Party.DECLARER, 53, -53)
    assert score.explanation == "Big Gin vs 18: 35 + 18 = 53"


def test_a_draw_scores_nothing_and_says_which_draw_rule():
    score = score_hand("draw")
    assert (score.outcome, score.winner, score.declarer_points, score.opponent_points) == (
        Outcome.DRAW, None, 0, 0)
    assert score.explanation == "Draw: 0 (stock exhausted)"
    two_left = score_hand("draw", rules=Rules(draw_rule=DrawRule.TWO_CARDS_LEFT))
    assert two_left.explanation == "Draw: 0 (two cards left in the stock)"


def test_every_value_comes_from_the_rules():
    rules = Rules(knock_limit=5, knock_bonus=10, gin_bonus=20, undercut_bonus=10,
                  big_gin_bonus=31)
    assert score_hand("knock", 4, 12, rules=rules).declarer_points == 18
    assert score_hand("knock", 5, 5, rules=rules).opponent_points == 10
    assert score_hand("gin", 0, 30, rules=rules).declarer_points == 50
    assert score_hand("big_gin", 0, 18, rules=rules).declarer_points == 49
    with pytest.raises(RuleError, match="above the knock limit 5"):
        score_hand("knock", 6, 12, rules=rules)


# --- properties ----------------------------------------------------------------------------

deadwoods = st.integers(0, MAX_DEADWOOD)


@settings(deadline=None)
@given(st.sampled_from(["knock", "gin", "big_gin", "draw"]), st.integers(1, 10), deadwoods)
def test_every_hand_is_zero_sum(outcome, knocker, opponent):
    if outcome == "draw":
        score = score_hand(outcome)
    else:
        score = score_hand(outcome, knocker if outcome == "knock" else 0, opponent)
    assert score.declarer_points + score.opponent_points == 0
    assert (score.winner is None) == (score.declarer_points == 0)


@settings(deadline=None)
@given(st.sampled_from(["gin", "big_gin"]), deadwoods)
def test_gin_is_never_undercut(outcome, opponent):
    score = score_hand(outcome, 0, opponent)
    assert score.winner is Party.DECLARER
    assert score.declarer_points >= 25


@settings(deadline=None)
@given(st.integers(1, 10), deadwoods)
def test_a_knock_is_won_by_the_lower_deadwood_and_the_opponent_on_ties(knocker, opponent):
    score = score_hand("knock", knocker, opponent)
    assert score.winner is (Party.DECLARER if knocker < opponent else Party.OPPONENT)
    assert abs(score.declarer_points) == (15 if knocker < opponent else 25) + abs(
        knocker - opponent)


# --- entry mistakes -------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (("gin", 4, 12), "within the knock limit 10\\) it is a knock: enter it as a knock"),
    (("gin", 14, 12), "above the knock limit 10\\) it is a false knock"),
    (("big_gin", 3, 12), "Big Gin has no deadwood"),
    (("knock", 12, 20), "above the knock limit 10: record it as a false knock"),
    (("knock", 0, 20), "deadwood 0 is gin"),
    (("knock", -1, 20), "must be 0 to 98"),
    (("knock", 4, 99), "must be 0 to 98"),
    (("knock", 4, -3), "must be 0 to 98"),
    (("knock", None, 20), "knocker's deadwood is missing"),
    (("knock", 4, None), "opponent's deadwood is missing"),
    (("gin", 0, None), "opponent's deadwood is missing"),
    (("knock", 4.5, 20), "whole number"),
    (("knock", True, 20), "whole number"),
    (("knock", "4", 20), "whole number"),
    (("draw", 4, 20), "a draw records no deadwood"),
    (("undercut", 4, 12), "not an undercut"),
    (("pass", 4, 12), "unknown outcome 'pass'"),
])
def test_entry_mistakes_are_refused_with_a_reason(args, message):
    with pytest.raises(RuleError, match=message):
        score_hand(*args)


def test_undercut_may_be_entered_when_the_deadwoods_make_it_one():
    assert score_hand("undercut", 7, 7) == score_hand("knock", 7, 7)


def test_the_worst_possible_deadwood_is_98():
    assert MAX_DEADWOOD == 98
    assert score_hand("gin", 0, 98).declarer_points == 123


# --- false knocks -------------------------------------------------------------------------

def test_after_a_false_knock_the_opponents_deadwood_is_the_recorded_one():
    score = score_hand("knock", 4, rules=Rules(), false_knock=FalseKnock(Party.OPPONENT, 23))
    assert (score.opponent_deadwood, score.declarer_points) == (23, 34)
    assert score.explanation == "Knock 4 vs 23: 15 + 19 = 34 (false knock at 23)"
    assert score.false_knock == FalseKnock(Party.OPPONENT, 23)


def test_after_a_false_knock_the_same_deadwood_may_be_given_again():
    fixed = FalseKnock("opponent", 23)
    assert score_hand("gin", 0, 23, false_knock=fixed).declarer_points == 48


def test_a_different_deadwood_after_a_false_knock_is_refused():
    with pytest.raises(RuleError, match="fixed at 23"):
        score_hand("knock", 4, 12, false_knock=FalseKnock(Party.OPPONENT, 23))


def test_the_false_knocker_may_not_declare_later():
    with pytest.raises(RuleError, match="may not declare later"):
        score_hand("gin", 0, 12, false_knock=FalseKnock(Party.DECLARER, 23))


def test_a_false_knock_then_a_draw_scores_nothing():
    score = score_hand("draw", false_knock=FalseKnock(Party.DECLARER, 23))
    assert (score.declarer_points, score.opponent_points, score.winner) == (0, 0, None)
    assert score.explanation == "Draw: 0 (stock exhausted; false knock at 23)"


def test_a_false_knock_within_the_knock_limit_is_no_false_knock():
    with pytest.raises(RuleError, match="not a false knock"):
        score_hand("knock", 4, false_knock=FalseKnock(Party.OPPONENT, 9))


def test_a_false_knock_needs_a_known_party():
    with pytest.raises(RuleError, match="unknown false knocker 'seat 1'"):
        FalseKnock("seat 1", 20)


def test_a_score_is_a_frozen_value_that_serialises():
    score = score_hand("knock", 4, 12)
    with pytest.raises(AttributeError):
        score.declarer_points = 0
    assert json.loads(json.dumps(score.to_dict()))["explanation"] == score.explanation


# --- from the cards (showdown) -----------------------------------------------------------

def test_cards_mode_knock_with_lay_offs():
    showdown = settle("8S 9S TS 4H 4D 4C AH 2C 3D 4S", "7S 6S JS QS KH KD 2D 9C 5D AD")
    assert showdown.declaration is Outcome.KNOCK
    assert showdown.declarer.deadwood == 6
    assert [str(layoff.card) for layoff in showdown.opponent.layoffs] == ["7S", "6S", "JS", "QS"]
    assert showdown.score.explanation == "Knock 6 vs 37: 15 + 31 = 46"


def test_cards_mode_undercut():
    showdown = settle("AS 2S 3S 7H 7D 7C 9D 9C 9H TD", "4S 5S 6S KH KD KC 8H 8D 8C AD")
    # 4♠ goes onto A-2-3♠ but he needs nothing laid off: 4-5-6♠ already melds (1 deadwood).
    assert showdown.opponent.deadwood == 1
    assert showdown.score.outcome is Outcome.UNDERCUT
    assert showdown.score.opponent_points == 25 + 9


def test_cards_mode_gin_takes_no_lay_offs():
    showdown = settle("AS 2S 3S 4S 7H 7D 7C 9D 9C 9H", "5S 6S KH KD QC 8H 8D JC 2D AD")
    assert showdown.declaration is Outcome.GIN
    assert showdown.opponent.layoffs == ()
    assert showdown.opponent.deadwood == 5 + 6 + 10 + 10 + 10 + 8 + 8 + 10 + 2 + 1
    assert showdown.score.declarer_points == 25 + 70


def test_cards_mode_big_gin_with_eleven_cards():
    showdown = settle("AS 2S 3S 4S 7H 7D 7C 7S 9D 9C 9H", "5S 6S KH KD QC 8H 8D JC 2D AD")
    assert showdown.declaration is Outcome.BIG_GIN
    assert showdown.score.declarer_points == 35 + 70


def test_cards_mode_with_the_melds_laid_down():
    knocker = "7H 8H 9H TH 7S 7D 7C AS 2D 3C"
    opponent = "6H KS KD QC JD 9S 9C TD QS 2H"
    shown = settle(knocker, opponent, declarer_melds=[["7H", "8H", "9H", "TH"],
                                                      ["7S", "7D", "7C"]])
    assert [str(layoff.card) for layoff in shown.opponent.layoffs] == ["6H"]
    chosen = settle(knocker, opponent)  # calculator mode blocks the 6♥ with four sevens
    assert chosen.opponent.layoffs == ()
    assert chosen.score.declarer_points - shown.score.declarer_points == 6


def test_laid_down_melds_must_be_a_best_arrangement_of_the_declarers_cards():
    knocker = "7H 8H 9H TH 7S 7D 7C AS 2D 3C"
    opponent = "6H KS KD QC JD 9S 9C TD QS 2H"
    with pytest.raises(RuleError, match="leave 40 deadwood, but the hand's deadwood is 6"):
        settle(knocker, opponent, declarer_melds=[["7S", "7D", "7C"]])
    with pytest.raises(RuleError, match=r"KS is laid down .* not in the declarer's hand"):
        settle(knocker, opponent, declarer_melds=[["KS", "KH", "KC"]])
    with pytest.raises(RuleError, match="only one meld"):
        settle(knocker, opponent, declarer_melds=[["7S", "7D", "7C"], ["7C", "7H", "7D"]])


def test_cards_mode_refuses_a_false_knock_and_bad_hands():
    with pytest.raises(RuleError, match="above the knock limit 10: that is a false knock"):
        settle("AS 2S 3S 7H 7D 7C 9D KC 9H TD", "4S 5S 6S KH KD QC 8H 8D 8C AD")
    with pytest.raises(RuleError, match="eleven cards are shown only for Big Gin"):
        settle("AS 2S 3S 4S 7H 7D 7C 9D 9C 9H KS", "5S 6S KH KD QC 8H 8D JC 2D AD")
    with pytest.raises(RuleError, match="7H is in both hands"):
        settle("AS 2S 3S 4S 7H 7D 7C 9D 9C 9H", "7H 6S KH KD QC 8H 8D JC 2D AD")


def test_cards_mode_after_the_opponents_false_knock():
    showdown = settle("8S 9S TS 4H 4D 4C AH 2C 3D 4S", "7S 6S JS QS KH KD 2D 9C 5D AD",
                      false_knock=FalseKnock(Party.OPPONENT, 57))
    assert showdown.opponent.layoffs == ()
    assert showdown.score.opponent_deadwood == 57
    assert showdown.score.declarer_points == 15 + 51


def test_showdown_serialises():
    showdown = settle("8S 9S TS 4H 4D 4C AH 2C 3D 4S", "7S 6S JS QS KH KD 2D 9C 5D AD")
    data = json.loads(json.dumps(showdown.to_dict()))
    assert data["layoffs"][0] == {"card": "7S", "meld": ["8S", "9S", "TS"]}
    assert data["declarer"]["deadwood_cards"] == ["AH", "2C", "3D"]
    assert parse_cards(data["opponent"]["deadwood_cards"])



# Each refusal names the input it is about (issue 21): a form or an API shows it there. ------

@pytest.mark.parametrize(("args", "kwargs", "field"), [
    (("draw", 4, None), {}, "declarer_deadwood"),
    (("knock", None, 12), {}, "declarer_deadwood"),
    (("knock", 0, 12), {}, "declarer_deadwood"),
    (("knock", 11, 12), {}, "declarer_deadwood"),
    (("knock", 4, None), {}, "opponent_deadwood"),
    (("knock", 4, 99), {}, "opponent_deadwood"),
    (("gin", 5, 20), {}, "declarer_deadwood"),
    (("big_gin", 30, 20), {}, "declarer_deadwood"),
    (("schneider", 4, 12), {}, "outcome"),
    (("undercut", 4, 12), {}, "outcome"),
    (("knock", 4, 12), {"false_knock": FalseKnock(Party.OPPONENT, 8)},
     "false_knock_deadwood"),
    (("knock", 4, 12), {"false_knock": FalseKnock(Party.DECLARER, 15)}, "declarer_seat"),
    (("knock", 4, 12), {"false_knock": FalseKnock(Party.OPPONENT, 15)}, "opponent_deadwood"),
])
def test_a_refusal_names_its_field(args, kwargs, field):
    with pytest.raises(RuleError) as refused:
        score_hand(*args, **kwargs)
    assert refused.value.field == field, str(refused.value)


def test_a_refusal_keeps_its_field_through_pickling():
    import pickle

    with pytest.raises(RuleError) as refused:
        score_hand("knock", 4, None)
    again = pickle.loads(pickle.dumps(refused.value))
    assert again.field == "opponent_deadwood" and str(again) == str(refused.value)


@pytest.mark.parametrize(("declarer", "opponent", "melds", "field"), [
    ("AS 2S", "4S 5S KH KD QH QD JH JD 8H 8D", None, "declarer_cards"),
    ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "4S", None, "opponent_cards"),
    ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "AS 5S KH KD QH QD JH JD 8H 8D", None,
     "opponent_cards"),
    ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "4S 5S KH KD QH QD JH JD 8H 8D", ["AS 2S 3S 4S"],
     "declarer_melds"),
    ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "4S 5S KH KD QH QD JH JD 8H 8D", ["7H 7D 7C"],
     "declarer_melds"),
    ("AS 2S 3S 7H 7D 7C 9C TC KC 4D", "4S 5S KH KD QH QD JH JD 8H 8D", None,
     "declarer_cards"),
])
def test_a_refused_showdown_names_its_field(declarer, opponent, melds, field):
    from scoring.showdown import settle

    with pytest.raises(RuleError) as refused:
        settle(declarer, opponent, declarer_melds=melds)
    assert refused.value.field == field, str(refused.value)
