"""Against the field in integers (issue 28, item 1): ``scoring.field`` adds each player's
differences up as integer numerators over each deal's number of tables, and must give
exactly what the ``Fraction`` code it replaced gives (``field_reference.py``, a copy of it):
the same values, of the same type, in the same order, with the same ranks."""

from fractions import Fraction

import field_reference as reference
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.field import (
    DEALER,
    NON_DEALER,
    FieldSums,
    PlayerOnDeal,
    TableResult,
    against_the_field,
    datum,
    datum_parts,
    field_lines,
    traveller,
)

# Few distinct points, so that datums, totals and per-hand figures tie often; and the
# large ones a Gin or a Big Gin makes.
POINTS = st.one_of(st.sampled_from([-25, 0, 23]), st.integers(-90, 90))
# A deal is named as the selector names it: a deal's primary key, or (set, round, match,
# hand) when the round has no deals made here.
DEAL_KEYS = [1, 2, 3, ("set", 7, 1, 1), ("set", 7, 2, 1), ("set", 8, 1, 2)]
PLAYERS = ["li", "ann", "bo", "wei", "jo", "ming", 17, 18]


def knock(table, points):
    return TableResult(table, points, "knock", DEALER if points >= 0 else NON_DEALER, 4, 12)


@st.composite
def events(draw, max_tables=20):
    """Deals played at 1 to 20 tables (trimmed from 8), and players with a random number of
    hands, each on a random deal with either seat's cards."""
    keys = draw(st.lists(st.sampled_from(DEAL_KEYS), min_size=1, max_size=len(DEAL_KEYS),
                         unique=True))
    deals = {key: [knock(table, points) for table, points in enumerate(
        draw(st.lists(POINTS, min_size=1, max_size=max_tables)), 1)] for key in keys}
    hand = st.builds(PlayerOnDeal, st.sampled_from(PLAYERS), st.sampled_from(keys),
                     st.sampled_from([DEALER, NON_DEALER]), POINTS)
    hands = draw(st.lists(hand, max_size=40))
    return deals, hands


def figures(line):
    """Everything a caller may read of a line, with the type of each exact figure."""
    exact = (line.against_field, line.dealer_against_field, line.non_dealer_against_field,
             line.per_hand, *(difference for *_, difference in line.per_deal))
    assert all(type(value) is Fraction for value in exact)
    return (line.player, line.rank, line.hands, line.against_field, line.per_hand,
            line.dealer_hands, line.dealer_against_field, line.non_dealer_hands,
            line.non_dealer_against_field, line.per_deal)


@settings(max_examples=250, deadline=None)
@given(events(), st.integers(0, 6))
def test_the_same_lines_as_the_fraction_code(event, minimum):
    deals, hands = event
    slow = reference.against_the_field(hands, deals, minimum_hands=minimum)
    fast = against_the_field(hands, deals, minimum_hands=minimum)
    assert [figures(line) for line in fast] == [figures(line) for line in slow]
    # The plain-value entry the selector calls gives the same lines.
    plain = field_lines([(h.player, h.deal, h.seat, h.points) for h in hands],
                        {key: [r.dealer_points for r in results]
                         for key, results in deals.items()}, minimum_hands=minimum)
    assert [figures(line) for line in plain] == [figures(line) for line in slow]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([-25, 0, 23]), min_size=1, max_size=4),
       st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=8, unique=True),
       st.integers(0, 4))
def test_level_players_share_a_rank_as_before(points, players, minimum):
    """Every player plays the same hands (or some of them): many exact ties."""
    deals = {key: [knock(table, p) for table, p in enumerate(points * 3, 1)]
             for key in DEAL_KEYS[:2]}
    hands = [PlayerOnDeal(player, key, seat, p)
             for number, player in enumerate(players)
             for key, seat, p in [(1, DEALER, points[0]), (2, NON_DEALER, -points[-1]),
                                  (1, NON_DEALER, 0)][:1 + number % 3]]
    slow = reference.against_the_field(hands, deals, minimum_hands=minimum)
    fast = against_the_field(hands, deals, minimum_hands=minimum)
    assert [figures(line) for line in fast] == [figures(line) for line in slow]
    if len(players) > 3 and minimum <= 1:  # two players with the same hands: one rank
        assert len({line.rank for line in fast}) < len(fast)


@st.composite
def fields(draw):
    """Tables of two players (a player may sit at several, as over several rounds), each
    playing hands 1 to 4: hand n of every table on deal n (seat 1 deals the odd hands);
    some tables stop early, so the deals are played at different numbers of tables."""
    tables = draw(st.lists(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS),
                                     st.lists(POINTS, min_size=1, max_size=4)),
                           min_size=1, max_size=20))
    return [(number, one, two, points) for number, (one, two, points) in enumerate(tables, 1)]


def lines_read(lines):
    """The figures without the hands one by one, level players in one order (which of two
    level players comes first is the caller's: the selector sorts them by team)."""
    return sorted((figures(line)[:-1] for line in lines), key=lambda f: (f[1], repr(f[0])))


@settings(max_examples=250, deadline=None)
@given(fields(), st.integers(0, 6))
def test_a_tables_sums_give_what_its_hands_give(tables, minimum):
    """``FieldSums.add_seat`` over each table's hands grouped by who deals and by the deal's tables
    kept (what the database adds up) gives the lines ``field_lines`` gives hand by hand."""
    deals: dict[int, list[int]] = {}
    hands = []
    for _number, one, two, points in tables:
        for hand, seat1 in enumerate(points, 1):
            seat1_deals = hand % 2 == 1
            deals.setdefault(hand, []).append(seat1 if seat1_deals else -seat1)
            hands.append((one, hand, DEALER if seat1_deals else NON_DEALER, seat1))
            hands.append((two, hand, NON_DEALER if seat1_deals else DEALER, -seat1))
    groups: dict[tuple, list[int]] = {}  # (table, seat 1 deals, kept) → [hands, points, totals]
    for number, _one, _two, points in tables:
        for hand, seat1 in enumerate(points, 1):
            total, kept = datum_parts(deals[hand])
            group = groups.setdefault((number, hand % 2 == 1, kept), [0, 0, 0])
            group[0] += 1
            group[1] += seat1
            group[2] += total
    players = {number: (one, two) for number, one, two, _points in tables}
    more: dict = {}
    for (number, seat1_deals, kept), (count, seat1, totals) in groups.items():
        for seat, player in enumerate(players[number], 1):
            more.setdefault(player, FieldSums()).add_seat(seat, seat1_deals, kept, count,
                                                          seat1, totals)
    by_hand = field_lines(hands, deals, minimum_hands=minimum)
    summed = field_lines([], {}, more=more, minimum_hands=minimum)
    assert lines_read(summed) == lines_read(by_hand)
    assert all(line.per_deal == [] for line in summed)
    # Some tables hand by hand, the others summed (a round the public sees in part beside
    # rounds it sees whole): the same figures.
    by_table = [(number, hands[2 * i:2 * i + 2]) for i, number in enumerate(
        number for number, _one, _two, points in tables for _ in points)]
    one_by_one = [hand for number, pair in by_table if number % 2 for hand in pair]
    summed_rest: dict = {}
    for (number, seat1_deals, kept), (count, seat1, totals) in groups.items():
        if not number % 2:
            for seat, player in enumerate(players[number], 1):
                summed_rest.setdefault(player, FieldSums()).add_seat(
                    seat, seat1_deals, kept, count, seat1, totals)
    mixed = field_lines(one_by_one, deals, more=summed_rest, minimum_hands=minimum)
    assert lines_read(mixed) == lines_read(by_hand)


@settings(max_examples=300, deadline=None)
@given(st.lists(POINTS, max_size=20))
def test_the_datum_is_the_fraction_codes(points):
    assert datum(points) == reference.datum(points)
    assert type(datum(points)) is type(reference.datum(points))
    if points:
        total, count = datum_parts(points)
        assert Fraction(total, count) == reference.datum(points)
        assert count == (len(points) - 2 if len(points) >= 8 else len(points))
        board = traveller(knock(table, p) for table, p in enumerate(points, 1))
        assert board.dealer_datum == reference.datum(points)
        assert board.non_dealer_datum == reference.datum([-p for p in points])


@settings(max_examples=100, deadline=None)
@given(events(), st.sampled_from(["north", "", None]), st.booleans())
def test_bad_input_is_refused_with_the_same_message(event, bad_seat, unknown_deal):
    """A seat that holds neither set of cards, or a deal without a table result."""
    deals, hands = event
    if unknown_deal:
        deals = {**deals, "void": []}
        hands = [*hands, PlayerOnDeal("li", "void", DEALER, 0)]
    else:
        hands = [*hands, PlayerOnDeal("li", next(iter(deals)), bad_seat, 0)]
    with pytest.raises(RuleError) as slow:
        reference.against_the_field(hands, deals)
    with pytest.raises(RuleError) as fast:
        against_the_field(hands, deals)
    assert str(fast.value) == str(slow.value)


def test_a_player_over_deals_of_different_sizes_adds_up_over_their_common_multiple():
    """Deal 1 at 3 tables (datum 1/3), deal 2 at 9 tables (7 kept: datum 2/7), deal 3 at
    two (datum 1/2): li's total is (4 − 1/3) + (−2 + 2/7) + (5 − 1/2) with denominators
    3, 7 and 2 met, i.e. 271/42."""
    deals = {1: [knock(1, 1), knock(2, 0), knock(3, 0)],
             2: [knock(t, p) for t, p in enumerate([50, 1, 1, 0, 0, 0, 0, 0, -60], 1)],
             3: [knock(1, 1), knock(2, 0)]}
    hands = [PlayerOnDeal("li", 1, DEALER, 4), PlayerOnDeal("li", 2, NON_DEALER, -2),
             PlayerOnDeal("li", 3, DEALER, 5)]
    (line,) = against_the_field(hands, deals)
    assert line.against_field == Fraction(271, 42) == (
        Fraction(11, 3) + Fraction(-12, 7) + Fraction(9, 2))
    assert (line.dealer_against_field, line.non_dealer_against_field) == (
        Fraction(11, 3) + Fraction(9, 2), Fraction(-12, 7))
    assert line.per_deal == [(1, DEALER, 4, Fraction(11, 3)),
                             (2, NON_DEALER, -2, Fraction(-12, 7)),
                             (3, DEALER, 5, Fraction(9, 2))]
    [slow] = reference.against_the_field(hands, deals)
    assert figures(line) == figures(slow)
