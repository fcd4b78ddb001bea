"""What final hands can contradict in the box a table played (RULES.md §3, §4)."""

from scoring.box import Box, box_conflicts, never_in_play
from scoring.cards import DECK
from scoring.rules import DEFAULT_RULES, DrawRule

BOX = Box.from_order(DECK)  # dealer A♠…J♠, non-dealer Q♠…8♥, stock 9♥ … K♣ (top first)
CLASSIC = DEFAULT_RULES.replace(draw_rule=DrawRule.TWO_CARDS_LEFT)


def test_under_the_classic_rule_the_last_two_stock_cards_never_come_into_play():
    assert [str(card) for card in never_in_play(BOX, CLASSIC)] == ["QC", "KC"]
    assert box_conflicts(BOX, ["AS", "KC", "9H"], CLASSIC) == [
        "KC can never be in a player's hand: it is one of the last two stock cards of this "
        "box, which are never drawn"]


def test_under_the_fcg_rule_every_card_may_be_drawn():
    assert never_in_play(BOX, DEFAULT_RULES) == ()
    assert box_conflicts(BOX, ["QC", "KC"], DEFAULT_RULES) == []
