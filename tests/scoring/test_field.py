"""Comparison with the field (RULES.md §12), worked out by hand."""

from fractions import Fraction

import pytest

from scoring.errors import RuleError
from scoring.field import (
    DEALER,
    NON_DEALER,
    PlayerOnDeal,
    TableResult,
    against_the_field,
    datum,
    favoured_seat,
    traveller,
)


def knock(table, dealer_points, declarer=DEALER):
    return TableResult(table, dealer_points, "knock", declarer, 4, 12)


def test_the_datum_is_a_plain_mean_below_eight_tables_and_trimmed_from_eight():
    assert datum([23, -25, 0]) == Fraction(-2, 3)
    # Eight results: drop 55 and -40, mean of the six others: (23+10+0+0-5-18)/6 = 10/6.
    assert datum([55, 23, 10, 0, 0, -5, -18, -40]) == Fraction(5, 3)
    assert datum([]) is None


def test_a_traveller_sorts_the_tables_counts_outcomes_and_gives_each_seat_its_datum():
    results = [knock(1, 23), TableResult(3, -45, "gin", NON_DEALER, 0, 20),
               TableResult(5, 0, "draw"), TableResult(7, -29, "undercut", DEALER, 6, 2,
                                                        false_knock=True)]
    board = traveller(results)
    assert [r.table for r in board.results] == [1, 5, 7, 3]
    assert board.dealer_datum == Fraction(23 - 45 + 0 - 29, 4)
    assert board.non_dealer_datum == -board.dealer_datum
    assert board.outcomes == {"knock": 1, "undercut": 1, "gin": 1, "big_gin": 0, "draw": 1}
    assert board.false_knocks == 1 and board.points == {23: 1, 0: 1, -29: 1, -45: 1}
    assert favoured_seat(board.dealer_average, 10) == NON_DEALER
    assert favoured_seat(Fraction(9), 10) is None


def test_players_against_the_field_with_fewer_than_eight_tables():
    """Deal 1 at three tables: dealer cards made 23, 0 and -25 (datum -2/3, the non-dealer
    cards' datum 2/3). Deal 2 at three tables: 45, 45, -15 (datum 25)."""
    deals = {1: [knock("a", 23), TableResult("b", 0, "draw"), knock("c", -25)],
             2: [knock("a", 45), knock("b", 45), knock("c", -15)]}
    hands = [PlayerOnDeal("li", 1, DEALER, 23), PlayerOnDeal("li", 2, NON_DEALER, -45),
             PlayerOnDeal("ann", 1, NON_DEALER, 25), PlayerOnDeal("ann", 2, DEALER, -15),
             PlayerOnDeal("bo", 1, DEALER, 0)]  # bo missed deal 2
    lines = {line.player: line for line in against_the_field(hands, deals)}
    li, ann, bo = lines["li"], lines["ann"], lines["bo"]
    assert li.against_field == Fraction(23) + Fraction(2, 3) + (-45 + 25)  # 3 2/3
    assert li.per_hand == Fraction(11, 6)
    assert (li.dealer_against_field, li.non_dealer_against_field) == (Fraction(71, 3), -20)
    assert ann.against_field == (25 - Fraction(2, 3)) + (-15 - 25)
    assert (bo.hands, bo.against_field) == (1, Fraction(2, 3))
    assert [line.player for line in against_the_field(hands, deals)] == ["li", "bo", "ann"]
    assert [line.player for line in against_the_field(hands, deals, minimum_hands=2)] == [
        "li", "ann"]


def test_with_one_deal_set_per_match_the_field_is_the_two_tables_of_the_match():
    deals = {("m1", 1): [knock(1, 23), knock(2, -25)]}
    hands = [PlayerOnDeal("li", ("m1", 1), DEALER, 23)]
    (line,) = against_the_field(hands, deals)
    assert line.against_field == 23 - Fraction(-2, 2)  # 24


def test_a_withdrawn_team_left_out_changes_the_datum():
    """The caller leaves the withdrawn team's table out (RULES.md §12): with it the datum of
    these eight tables is trimmed; without it, seven tables give a plain mean."""
    with_it = [55, 23, 10, 0, 0, -5, -18, -40]
    assert datum(with_it) == Fraction(5, 3)
    assert datum(with_it[1:]) == Fraction(-30, 7)


def test_bad_input_is_refused():
    with pytest.raises(RuleError, match="draw has no declarer"):
        TableResult(1, 0, "draw", DEALER)
    with pytest.raises(RuleError, match="no table result"):
        against_the_field([PlayerOnDeal("li", 9, DEALER, 0)], {})


def test_table_nine_comes_before_table_ten_among_equal_results():
    board = traveller([knock(10, 23), knock(9, 23), knock(11, 30)])
    assert [r.table for r in board.results] == [11, 9, 10]


def test_a_stored_result_is_seen_from_the_dealer_cards():
    """Hand 1: seat 1 holds the dealer cards; hand 2: seat 2 (scoring.seating)."""
    from scoring.field import table_result

    # Hand 1, seat 1 knocks 4 against 12 and scores 23: the dealer declared, +23.
    assert table_result(3, 1, 23, "knock", 1, 4, 12) == TableResult(3, 23, "knock", DEALER,
                                                                    4, 12)
    # Hand 2, seat 1 (the non-dealer) scores 23: the dealer cards made -23.
    assert table_result(3, 2, 23, "knock", 1, 4, 12) == TableResult(3, -23, "knock",
                                                                    NON_DEALER, 4, 12)
    # An undercut names the knocker; a false knock is kept; a draw has no declarer.
    undercut = table_result(4, 2, 25, "undercut", 2, 7, 7, false_knock_seat=1)
    assert (undercut.dealer_points, undercut.declarer, undercut.false_knock) == (
        -25, DEALER, True)
    assert table_result(5, 1, 0, "draw", None).declarer is None


def test_the_players_of_a_stored_hand_with_their_cards():
    """Table 2 of a match seats away's second player in seat 1 against home's second in
    seat 2; in hand 2 seat 2 deals."""
    from scoring.field import players_on_deal

    lineups = {"home": ("h1", "h2"), "away": ("a1", "a2")}
    assert players_on_deal(2, 2, -23, "deal", lineups) == (
        PlayerOnDeal("a2", "deal", NON_DEALER, -23), PlayerOnDeal("h2", "deal", DEALER, 23))
    assert players_on_deal(1, 1, 55, "deal", lineups) == (
        PlayerOnDeal("h1", "deal", DEALER, 55), PlayerOnDeal("a1", "deal", NON_DEALER, -55))
