import pytest

from scoring.cards import (
    DECK,
    Card,
    Suit,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
    parse_hand,
)
from scoring.errors import RuleError


def test_the_deck_has_52_different_cards_with_their_values():
    assert len(set(DECK)) == 52
    assert sum(card.value for card in DECK) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4)
    assert [card.value for card in DECK[:13]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_each_card_has_its_own_bit_in_code_order():
    assert [card.code for card in DECK] == list(range(52))
    assert mask_of(DECK) == (1 << 52) - 1
    assert cards_of(mask_of(DECK)) == DECK


@pytest.mark.parametrize("token", ["TD", "10D", "td", "10d", "T♦", "10♦", " t♦ ", "T♦\ufe0f"])
def test_every_notation_of_the_ten_of_diamonds(token):
    assert parse_card(token) == Card(10, Suit.DIAMONDS)


@pytest.mark.parametrize(("token", "suit"), [("AS", Suit.SPADES), ("A♠", Suit.SPADES),
                                             ("2h", Suit.HEARTS), ("2♥", Suit.HEARTS),
                                             ("KC", Suit.CLUBS), ("K♣", Suit.CLUBS)])
def test_suits_by_letter_or_symbol(token, suit):
    assert parse_card(token).suit == suit


def test_canonical_and_display_forms():
    ten = parse_card("10♦")
    assert str(ten) == "TD"
    assert ten.display == "10♦"
    assert parse_card("as").display == "A♠"
    assert format_cards(parse_cards("AS TD KC")) == "AS TD KC"
    assert format_cards(parse_cards("AS TD KC"), display=True) == "A♠ 10♦ K♣"


def test_every_card_survives_a_round_trip_through_both_forms():
    for card in DECK:
        assert parse_card(str(card)) == card
        assert parse_card(card.display) == card


@pytest.mark.parametrize(("token", "message"), [
    ("1X", "'1X': unknown suit 'X'"),
    ("1S", "'1S': unknown rank '1'"),
    ("11H", "'11H': unknown rank '11'"),
    ("ZZ", "unknown suit 'Z'"),
    ("S", "needs a rank and a suit"),
    ("", "needs a rank and a suit"),
])
def test_bad_notation_names_the_token_and_why(token, message):
    with pytest.raises(RuleError, match=message):
        parse_card(token)


def test_a_card_that_is_not_text_is_refused():
    with pytest.raises(RuleError, match="written as text"):
        parse_card(10)


def test_parse_cards_takes_a_list_or_one_string():
    assert parse_cards("AS, 2S;3S  4S") == parse_cards(["AS", "2S", "3S", "4S"])
    assert parse_cards([Card(1, Suit.SPADES), "2S"]) == (DECK[0], DECK[1])


def test_a_card_given_twice_is_named():
    with pytest.raises(RuleError, match="TD appears twice"):
        parse_cards(["TD", "AS", "10♦"])


def test_a_hand_must_have_the_right_size():
    assert len(parse_hand("AS 2S 3S", (3,))) == 3
    with pytest.raises(RuleError, match="hand has 2 cards; it must have 10 or 11"):
        parse_hand("AS 2S", (10, 11))
