import pytest

from scoring import seating
from scoring.errors import RuleError
from scoring.seating import SeatHolder, Side


def test_table_one_is_first_players_with_home_in_seat_one():
    assert seating.seat_holder(1, 1) == SeatHolder(Side.HOME, 1)
    assert seating.seat_holder(1, 2) == SeatHolder(Side.AWAY, 1)


def test_table_two_is_second_players_with_away_in_seat_one():
    assert seating.seat_holder(2, 1) == SeatHolder(Side.AWAY, 2)
    assert seating.seat_holder(2, 2) == SeatHolder(Side.HOME, 2)


def test_in_hand_one_home_deals_at_table_one_and_away_at_table_two():
    assert seating.dealer(1, 1).side is Side.HOME
    assert seating.dealer(2, 1).side is Side.AWAY


@pytest.mark.parametrize("hand", range(1, 65))
def test_every_hand_is_duplicate(hand):
    dealers = [seating.dealer(table, hand) for table in (1, 2)]
    non_dealers = [seating.non_dealer(table, hand) for table in (1, 2)]
    # Each team holds the dealer cards at one table and the non-dealer cards at the other.
    assert {d.side for d in dealers} == {Side.HOME, Side.AWAY}
    assert {n.side for n in non_dealers} == {Side.HOME, Side.AWAY}
    for table in (1, 2):
        assert dealers[table - 1].side is not non_dealers[table - 1].side
        # The dealer alternates with the hand number at each table.
        assert seating.dealer(table, hand + 1) == non_dealers[table - 1]


def test_each_player_of_a_line_up_sits_exactly_once():
    holders = [seating.seat_holder(t, s) for t in (1, 2) for s in (1, 2)]
    assert sorted(holders) == sorted(SeatHolder(side, slot)
                                     for side in Side for slot in (1, 2))


def test_seat_of_agrees_with_seat_holder():
    for table in (1, 2):
        for side in Side:
            assert seating.seat_holder(table, seating.seat_of(table, side)).side is side


@pytest.mark.parametrize("call", [
    lambda: seating.seat_holder(3, 1),
    lambda: seating.seat_holder(1, 0),
    lambda: seating.dealer_seat(0),
    lambda: seating.seat_of(0, Side.HOME),
])
def test_impossible_places_are_refused(call):
    with pytest.raises(RuleError):
        call()


def test_match_m_plays_at_tables_2m_minus_1_and_2m():
    assert [seating.table_number(m, p) for m in (1, 2, 3) for p in (1, 2)] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("call", [
    lambda: seating.table_number(0, 1),
    lambda: seating.table_number(1, 3),
    lambda: seating.place_of(Side.HOME, 3),
])
def test_impossible_tables_and_slots_are_refused(call):
    with pytest.raises(RuleError):
        call()


def test_place_of_is_the_inverse_of_seat_holder():
    for table in (1, 2):
        for seat in (1, 2):
            side, slot = seating.seat_holder(table, seat)
            assert seating.place_of(side, slot) == (table, seat)
    # A team's first player sits at the match's table 1, its second at table 2.
    assert seating.place_of(Side.AWAY, 1) == (1, 2)
    assert seating.place_of(Side.AWAY, 2) == (2, 1)


def test_the_player_in_a_seat_comes_from_the_line_ups():
    lineups = {"home": ("A1", "A2"), "away": ("B1", "B2")}
    assert [seating.player_in_seat(t, s, lineups) for t in (1, 2) for s in (1, 2)] == \
        ["A1", "B1", "B2", "A2"]
    assert seating.player_in_seat(1, 1, {Side.HOME: ("a", "b"), Side.AWAY: ("c", "d")}) == "a"


def test_seats_names_every_seat_of_a_match_once_with_its_holder():
    listed = seating.seats()
    assert [(position, seat) for position, seat, _holder in listed] == [
        (1, 1), (1, 2), (2, 1), (2, 2)]
    assert all(holder == seating.seat_holder(position, seat)
               for position, seat, holder in listed)
    # Each side's first and second player sits exactly once.
    assert sorted(holder for *_place, holder in listed) == sorted(
        SeatHolder(side, slot) for side in (Side.HOME, Side.AWAY) for slot in (1, 2))
