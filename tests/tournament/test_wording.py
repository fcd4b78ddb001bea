"""The pages word scoring's results in the reader's language: in English exactly as
scoring words them, in Chinese with the same numbers."""

import pytest
from django.utils import translation

from scoring.hand import FalseKnock, score_hand
from scoring.rules import DrawRule, Rules
from scoring.standings import Separation
from scoring.tiebreaks import TIEBREAKS, chain
from tournament.wording import (
    criterion_value,
    hand_line,
    ranking_order,
    score_text,
    separation_text,
)


class Stored:
    """What a HandResult stores of a scored hand (seat 1 declared)."""

    def __init__(self, score, false_knock=None):
        self.outcome = score.outcome.value
        self.declarer_deadwood = score.declarer_deadwood
        self.opponent_deadwood = score.opponent_deadwood
        self.seat1_points = score.declarer_points
        self.false_knock_deadwood = false_knock


HANDS = [
    (("knock", 4, 12), None),
    (("knock", 7, 7), None),
    (("gin", 0, 30), None),
    (("big_gin", 0, 18), None),
    (("knock", 4, 23), 23),
]


@pytest.mark.parametrize(("hand", "false_knock"), HANDS)
def test_in_english_a_stored_hand_reads_as_it_was_scored(hand, false_knock):
    known = FalseKnock("opponent", false_knock) if false_knock else None
    score = score_hand(*hand, false_knock=known)
    with translation.override("en"):
        assert hand_line(Stored(score, false_knock)) == score.explanation
        assert score_text(score, Rules()) == score.explanation


def test_a_draw_reads_by_its_round_s_draw_rule():
    rules = Rules(draw_rule=DrawRule.TWO_CARDS_LEFT)
    score = score_hand("draw", rules=rules)
    with translation.override("en"):
        assert hand_line(Stored(score), rules) == "Draw: 0 (two cards left in the stock)"
        assert hand_line(Stored(score)) == "Draw: 0 (stock exhausted)"


def test_in_chinese_the_line_keeps_its_numbers():
    score = score_hand("knock", 4, 12)
    with translation.override("zh-hans"):
        line = hand_line(Stored(score))
    assert line != score.explanation
    assert all(number in line for number in ("4", "12", "15", "8", "23"))
    assert "Knock" not in line


def test_in_english_every_separation_reads_as_scoring_words_it():
    values = {"match_points": (7, 5), "small_points": (21, 0), "head_to_head": ((5, 3), (3, 0)),
              "wins": (2, 1), "gins": (1, 0), "lots": (0x75A5AADB12345678, 0x1658B39A)}
    criteria = {criterion.key: criterion for criterion in chain(TIEBREAKS)}
    assert set(criteria) == set(values), "a new tiebreak needs its values in this test"
    with translation.override("en"):
        for key, (above, below) in values.items():
            criterion = criteria[key]
            expected = (f"{criterion.name}: {criterion.describe(above)} vs "
                        f"{criterion.describe(below)}")
            assert separation_text(Separation(key, above, below, expected)) == expected


def test_in_chinese_a_separation_names_its_criterion_in_chinese():
    with translation.override("zh-hans"):
        text = separation_text(Separation("head_to_head", (5, 3), (3, 0), ""))
        assert "head-to-head" not in text and "5" in text and "+3" in text
        assert criterion_value("wins", 2) != "2 wins"


# --- error messages --------------------------------------------------------------------------

from scoring.errors import RuleError  # noqa: E402
from tournament.services.base import ServiceError  # noqa: E402
from tournament.services.hands import HandEntry, score_entry  # noqa: E402
from tournament.wording import rule_message  # noqa: E402


def _rule_error(*hand, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        score_hand(*hand, **options)
    return caught.value


def _service_error(entry: HandEntry) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        score_entry(entry, Rules())
    return caught.value


def test_in_english_a_rule_error_reads_as_scoring_words_it():
    for hand in (("knock", 0, 12), ("knock", 11, 30), ("gin", 7, 30), ("knock", "x", 3)):
        error = _rule_error(*hand)
        assert error.template
        with translation.override("en"):
            assert rule_message(error) == str(error)
    assert str(_rule_error("knock", 0, 12)) == "a knock with deadwood 0 is gin; enter it as gin"
    assert str(_rule_error("knock", 11, 30)) == (
        "a knock with deadwood 11 is above the knock limit 10: record it as a false knock")
    assert rule_message(ValueError("plain")) == "plain"


def test_in_english_service_errors_are_unchanged():
    with translation.override("en"):
        assert _service_error(HandEntry("draw", 1, None, None, None, None)).message == (
            "a draw has no declarer")
        error = _service_error(HandEntry("knock", 1, 0, 12, None, None))
        assert error.message == "a knock with deadwood 0 is gin; enter it as gin"


# These two read the Chinese catalogue: they pass once the msgids of /tmp/i18n/t2.json are
# merged into tournament/locale and compiled.
def test_in_chinese_a_rule_error_reaches_the_scorer_translated():
    error = _rule_error("knock", 11, 30)
    with translation.override("zh-hans"):
        assert rule_message(error) == "散牌 11 的敲牌超过了敲牌上限 10：请记为错误敲牌"  # noqa: RUF001
        assert rule_message(_rule_error("knock", "x", 3)) == (
            "敲牌者的散牌点数必须是整数，而不是 'x'")  # noqa: RUF001
        service = _service_error(HandEntry("knock", 1, 0, 12, None, None))
    assert service.message == "散牌为 0 的敲牌就是金；请按金录入"  # noqa: RUF001
    assert service.field_errors == {"declarer_deadwood": [service.message]}


def test_in_chinese_a_service_error_reaches_the_reader_translated():
    with translation.override("zh-hans"):
        error = _service_error(HandEntry("draw", 1, None, None, None, None))
    assert error.message == "和局没有宣告方"
    assert error.field_errors == {"declarer_seat": ["和局没有宣告方"]}


def test_the_ranking_order_is_listed_as_each_language_lists():
    keys = ["head_to_head", "wins", "lots"]
    with translation.override("en"):
        assert ranking_order(keys) == ("Order: match points, small points, then head-to-head, "
                                       "match wins, drawing of lots.")
    with translation.override("zh-hans"):
        chinese = ranking_order(keys)
    assert chinese == "排序\uff1a积分、小分\uff0c然后依次为相互战绩、胜场数、抽签。"
