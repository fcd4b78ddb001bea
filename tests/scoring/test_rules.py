"""Rule settings as one immutable value, and as plain data (scoring/rules.py)."""

import json

import pytest

from scoring.errors import RuleError
from scoring.rules import DEFAULT_RULES, DealScope, DrawRule, Rules


def test_rules_round_trip_through_plain_json():
    rules = Rules(hands_per_match=12, knock_limit=7, draw_rule=DrawRule.TWO_CARDS_LEFT,
                  deal_scope=DealScope.MATCH, tiebreaks=("wins", "lots"))
    stored = json.loads(json.dumps(rules.to_dict()))
    assert Rules.from_dict(stored) == rules
    assert stored["draw_rule"] == "two_cards_left" and stored["tiebreaks"] == ["wins", "lots"]


def test_rules_from_an_older_record_take_the_defaults_and_refuse_unknown_settings():
    assert Rules.from_dict({"knock_limit": 8}) == DEFAULT_RULES.replace(knock_limit=8)
    with pytest.raises(RuleError, match="unknown rule settings: knock_limt"):
        Rules.from_dict({"knock_limt": 8})
    with pytest.raises(RuleError, match="knock limit must be 1 to 99"):
        Rules.from_dict({"knock_limit": 0})
