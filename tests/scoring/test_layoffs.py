import gin_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import DECK, parse_cards
from scoring.errors import RuleError
from scoring.layoffs import choose_declarer_arrangement, lay_off
from scoring.melds import arrange, deadwood, meld_of


@st.composite
def knock_situations(draw):
    """Twenty cards, dense enough (a window of 5 to 8 ranks) that lay-offs are common."""
    if draw(st.integers(0, 4)) == 0:
        pool = list(DECK)
    else:
        width = draw(st.integers(5, 8))
        low = draw(st.integers(1, 14 - width))
        pool = [card for card in DECK if low <= card.rank < low + width]
    cards = draw(st.permutations(pool))[:20]
    return cards[:10], cards[10:]


def melds(*groups):
    return [meld_of(parse_cards(group)) for group in groups]


def laid(result):
    return [(str(layoff.card), str(layoff.meld)) for layoff in result.layoffs]


@settings(deadline=None, max_examples=300)
@given(knock_situations())
def test_lay_offs_equal_the_reference(situation):
    declarer, opponent = situation
    laid_down = arrange(declarer).melds
    result = lay_off(laid_down, opponent)
    expected = ref.deadwood_after_layoffs([m.cards for m in laid_down], opponent)
    assert result.deadwood == expected
    # Lay-offs never raise the opponent's deadwood.
    assert result.deadwood <= deadwood(opponent)
    # What is reported adds up: laid-off cards plus the arrangement are his ten cards.
    kept = [c for m in result.arrangement.melds for c in m.cards]
    kept += list(result.arrangement.deadwood_cards)
    assert sorted(kept + [layoff.card for layoff in result.layoffs]) == sorted(opponent)
    assert result.arrangement.deadwood == ref.min_deadwood(
        [c for c in opponent if c not in {layoff.card for layoff in result.layoffs}])
    for layoff in result.layoffs:
        assert layoff.meld in laid_down


@settings(deadline=None, max_examples=60)
@given(knock_situations())
def test_calculator_mode_leaves_the_opponent_the_most_among_best_arrangements(situation):
    declarer, opponent = situation
    arrangement, answer = choose_declarer_arrangement(declarer, opponent)
    assert arrangement.deadwood == ref.min_deadwood(declarer)
    # Over every best arrangement, cut runs included: none leaves the opponent more.
    most = max(ref.deadwood_after_layoffs(packing, opponent)
               for packing in ref.best_arrangements(declarer))
    assert answer.deadwood == most


def test_chained_lay_offs_onto_a_run():
    result = lay_off(melds("8S 9S TS"), parse_cards("7S 6S KH KD 2D 9C 5D AD 3C 4H"))
    assert laid(result) == [("7S", "8S 9S TS"), ("6S", "8S 9S TS")]
    assert result.deadwood == 10 + 10 + 2 + 9 + 5 + 1 + 3 + 4


def test_lay_offs_at_both_ends_of_a_run():
    result = lay_off(melds("4H 5H 6H"), parse_cards("2H 3H 7H 8H KS QD JC 9S 9D 2C"))
    assert {card for card, _ in laid(result)} == {"2H", "3H", "7H", "8H"}
    assert result.deadwood == 10 + 10 + 10 + 9 + 9 + 2


def test_a_chain_stops_at_a_gap():
    result = lay_off(melds("8S 9S TS"), parse_cards("6S QS KH KD 2D 9C 5D AD 3C 4H"))
    assert laid(result) == []


def test_the_fourth_card_onto_a_set_of_three():
    result = lay_off(melds("7H 7D 7C"), parse_cards("7S KH KD 2D 9C 5D AD 3C 4H QS"))
    assert laid(result) == [("7S", "7H 7D 7C")]


def test_nothing_onto_a_set_of_four():
    result = lay_off(melds("7S 7H 7D 7C"), parse_cards("6S 8S KH KD 2D 9C 5D AD 3C 4H"))
    assert laid(result) == []


def test_nothing_onto_the_declarers_deadwood():
    # The knocker keeps 4♣ as deadwood; the opponent's 3♣ and 5♣ do not go there.
    knocker = parse_cards("8S 9S TS JH JD JC 2H 2D 2S 4C")
    opponent = parse_cards("3C 5C KH KD 9C 5D AD 3H 4H QD")
    arrangement, answer = choose_declarer_arrangement(knocker, opponent)
    assert [str(card) for card in arrangement.deadwood_cards] == ["4C"]
    assert answer.layoffs == ()


def test_the_opponent_keeps_a_set_rather_than_lay_off_one_of_its_cards():
    # Laying off 7♠ onto 8-9-10♠ would leave 7♥ 7♦ as deadwood.
    result = lay_off(melds("8S 9S TS"), parse_cards("7S 7H 7D KH KD 2D 9C 5D AD 3C"))
    assert laid(result) == []
    assert result.deadwood == 10 + 10 + 2 + 9 + 5 + 1 + 3


def test_lay_offs_and_own_melds_are_chosen_together():
    # 7♠ then 6♠ onto 8-9-10♠ leaves 7♥ 7♦ (14); the set 7♠ 7♥ 7♦ leaves only 6♠ (6).
    result = lay_off(melds("8S 9S TS"), parse_cards("6S 7S 7H 7D KH KD 2D 9C 5D AD"))
    assert laid(result) == []
    assert result.deadwood == 6 + 10 + 10 + 2 + 9 + 5 + 1


def test_a_tie_between_laying_off_and_melding_goes_to_his_own_meld():
    result = lay_off(melds("2S 3S 4S", "8S 9S TS"), parse_cards("5S 6S 7S KH KD 2D 9C QD AD 3C"))
    assert laid(result) == []
    assert [str(meld) for meld in result.arrangement.melds] == ["5S 6S 7S"]


def test_two_runs_of_one_suit_each_take_a_card():
    result = lay_off(melds("2S 3S 4S", "8S 9S TS"), parse_cards("5S 7S KH KD 2D 9C QD AD 3C 4H"))
    assert laid(result) == [("5S", "2S 3S 4S"), ("7S", "8S 9S TS")]
    assert result.deadwood == 10 + 10 + 2 + 9 + 10 + 1 + 3 + 4


def test_calculator_mode_lays_down_the_set_of_four_that_blocks_a_lay_off():
    # 7♥ 8♥ 9♥ 10♥ + 7♠ 7♦ 7♣, or 8♥ 9♥ 10♥ + all four sevens: both meld all seven
    # cards. The opponent's 6♥ goes onto 7♥-10♥ but not onto 8♥-10♥: the knocker shows
    # the set of four.
    knocker = parse_cards("7H 8H 9H TH 7S 7D 7C AS 2D 3C")
    opponent = parse_cards("6H KS KD QC JD 9S 9C TD QS 2H")
    assert [str(m) for m in arrange(knocker).melds] == ["7S 7D 7C", "7H 8H 9H TH"]
    arrangement, answer = choose_declarer_arrangement(knocker, opponent)
    assert [str(m) for m in arrangement.melds] == ["7S 7H 7D 7C", "8H 9H TH"]
    assert arrangement.deadwood == 6
    assert answer.layoffs == ()
    assert answer.deadwood == 6 + 10 + 10 + 10 + 10 + 9 + 9 + 10 + 10 + 2


def test_calculator_mode_with_one_best_arrangement_takes_its_lay_offs():
    # 7♠ 7♥ 7♦ + 5♣ 6♣ 7♣ is the only way to 10 deadwood; 4♣ and 8♣ go onto the run,
    # and 9♣ after 8♣.
    knocker = parse_cards("7S 7H 7D 7C 5C 6C 2S 3D AH 4S")
    opponent = parse_cards("4C 8C KH KD QC JD 9S 9C TD QS")
    arrangement, answer = choose_declarer_arrangement(knocker, opponent)
    assert arrangement.deadwood == 10
    assert [str(layoff.card) for layoff in answer.layoffs] == ["4C", "8C", "9C"]
    assert answer.deadwood == 10 + 10 + 10 + 10 + 9 + 10 + 10


def test_cards_in_both_hands_are_refused():
    with pytest.raises(RuleError, match="7S is in the declarer's meld"):
        lay_off(melds("7S 8S 9S"), parse_cards("7S KH KD 2D 9C 5D AD 3C 4H QH"))


def test_the_opponent_needs_ten_cards():
    with pytest.raises(RuleError, match="opponent's hand has 9 cards"):
        lay_off(melds("7S 8S 9S"), parse_cards("KH KD 2D 9C 5D AD 3C 4H QH"))
