"""The duplicate rating (scoring/ratings.py) on hand-made seasons and against a reference."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.ratings import DEFAULT_PARAMETERS, RatedHand, rate, skills_by_date

DAY = dt.date(2026, 3, 1)


def hand(box, dealer, non_dealer, points, date=DAY, event="E1"):
    return RatedHand(date, event, box, dealer, non_dealer, points)


def by_player(rows):
    return {row.player: row for row in rows}


def test_equal_players_stay_equal():
    # Two tables on every box, the same result at both: nobody did better than the field.
    hands = []
    for number in range(1, 9):
        points = [25, -12, 0, 40, -33, 18, -7, 9][number - 1]
        first = ("A", "B") if number % 2 else ("B", "A")
        second = ("C", "D") if number % 2 else ("D", "C")
        hands += [hand(f"b{number}", *first, points), hand(f"b{number}", *second, points)]
    rows = rate(hands)
    assert {round(row.rating, 9) for row in rows} == {DEFAULT_PARAMETERS.base}
    assert len({round(row.deviation, 9) for row in rows}) == 1
    assert {row.hands for row in rows} == {8}


def test_a_player_who_beats_the_datum_on_every_box_rises_and_the_opponents_fall():
    hands = []
    for number in range(1, 9):
        # A holds the dealer's cards of box n at the first table and scores 10 more than
        # C with the same cards at the second.
        hands += [hand(f"b{number}", "A", "B", 20), hand(f"b{number}", "C", "D", 10)]
    rows = by_player(rate(hands))
    assert rows["A"].rating > DEFAULT_PARAMETERS.base
    assert rows["B"].rating < DEFAULT_PARAMETERS.base
    # The field's rating is kept: what A gains, B loses (C and D, mirror images, too).
    assert abs(rows["A"].rating + rows["B"].rating - 2 * DEFAULT_PARAMETERS.base) < 1e-4
    assert rate(hands)[0].player == "A"


def test_the_opponents_strength_counts():
    # Date 1: A beats B by far at the same cards (C and D, the field, break even).
    first = [hand(f"a{n}", "A", "B", 30, DAY) for n in range(8)]
    first += [hand(f"a{n}", "C", "D", 0, DAY) for n in range(8)]
    # Date 2: E and F both beat the datum by the same 10 points, E against the strong A,
    # F against the weak B: beating a strong player says more.
    later = DAY + dt.timedelta(days=7)
    second = [hand(f"c{n}", "E", "A", 10, later) for n in range(8)]
    second += [hand(f"c{n}", "F", "B", 10, later) for n in range(8)]
    second += [hand(f"c{n}", "C", "D", 0, later) for n in range(8)]
    rows = by_player(rate(first + second))
    assert rows["E"].rating > rows["F"].rating


def test_the_order_of_hands_and_of_events_within_a_date_does_not_matter():
    rng = random.Random(4)
    players = [f"P{n}" for n in range(8)]
    hands = []
    for event in ("E1", "E2"):
        for box in range(6):
            seated = rng.sample(players, 8)
            for table in range(0, 8, 2):
                hands.append(hand(f"{event}/{box}", seated[table], seated[table + 1],
                                  rng.randint(-60, 60), event=event))
    hands.append(hand("x", "P1", "P2", 12, DAY + dt.timedelta(days=1), event="E3"))
    expected = rate(hands)
    for _ in range(5):
        rng.shuffle(hands)
        assert rate(hands) == expected


def test_the_deviation_shrinks_with_hands_and_grows_with_time_away():
    hands = []
    for day in range(3):
        date = DAY + dt.timedelta(days=day)
        hands += [hand(f"{day}/{n}", "A", "B", 5, date) for n in range(8)]
        hands += [hand(f"{day}/{n}", "C", "D", -5, date) for n in range(8)]
    deviations = [by_player(rate(hands, as_of=DAY + dt.timedelta(days=day)))["A"].deviation
                  for day in range(3)]
    assert deviations[0] > deviations[1] > deviations[2]
    later = rate(hands, as_of=DAY + dt.timedelta(days=400))
    assert by_player(later)["A"].deviation > deviations[2]
    # Never beyond a newcomer's.
    assert by_player(rate(hands, as_of=DAY + dt.timedelta(days=40000)))["A"].deviation <= (
        DEFAULT_PARAMETERS.scale * DEFAULT_PARAMETERS.initial_sd + 1e-9)


def test_provisional_until_enough_hands_and_as_of_leaves_later_hands_out():
    hands = [hand(f"{n}", "A", "B", 1, DAY + dt.timedelta(days=n)) for n in range(120)]
    hands += [hand(f"{n}", "C", "D", 0, DAY + dt.timedelta(days=n)) for n in range(120)]
    assert by_player(rate(hands))["A"].provisional is False
    early = by_player(rate(hands, as_of=DAY + dt.timedelta(days=49)))
    assert early["A"].hands == 50 and early["A"].provisional is True


def test_a_box_one_table_played_alone_tells_nothing():
    rows = by_player(rate([hand("lonely", "A", "B", 80)]))
    assert rows["A"].rating == rows["B"].rating == DEFAULT_PARAMETERS.base
    assert rows["A"].deviation == DEFAULT_PARAMETERS.scale * DEFAULT_PARAMETERS.initial_sd


def test_the_datum_leaves_out_the_highest_and_lowest_from_eight_tables():
    # Eight tables; table 8's dealer scored a freak 150. Left out of the datum, the others
    # are compared with 0, so the dealers who scored 0 stay at the base.
    players = [(f"D{n}", f"N{n}") for n in range(8)]
    points = [0, 0, 0, 0, 0, 0, -150, 150]
    hands = [hand("b", dealer, non_dealer, score)
             for (dealer, non_dealer), score in zip(players, points, strict=True)]
    rows = by_player(rate(hands))
    assert abs(rows["D0"].rating - DEFAULT_PARAMETERS.base) < 1e-9
    assert rows["D7"].rating > DEFAULT_PARAMETERS.base > rows["D6"].rating


def test_a_later_date_starts_from_the_state_before_it():
    first = [hand(f"a{n}", "A", "B", 15, DAY) for n in range(8)]
    first += [hand(f"a{n}", "C", "D", 0, DAY) for n in range(8)]
    later = DAY + dt.timedelta(days=10)
    second = [hand(f"b{n}", "A", "C", 5, later) for n in range(8)]
    second += [hand(f"b{n}", "B", "D", -5, later) for n in range(8)]
    (_, state), = skills_by_date(first)
    assert rate(second, start=state) == rate(first + second)


# --- the reference: the same fit solved exactly, by the normal equations in fractions ----

def reference_skills(hands, parameters=DEFAULT_PARAMETERS):
    """One date, boxes under 8 tables, newcomers: minimise
    sum over hands (points - box - skill(dealer) + skill(non-dealer))^2 / hand_sd^2
    + sum over players skill^2 / initial_sd^2, over the skills and one value per box."""
    players = sorted({h.dealer for h in hands} | {h.non_dealer for h in hands})
    boxes = sorted({h.box for h in hands})
    names = [("player", p) for p in players] + [("box", b) for b in boxes]
    at = {name: n for n, name in enumerate(names)}
    size = len(names)
    noise = Fraction(1) / Fraction(parameters.hand_sd) ** 2
    prior = Fraction(1) / Fraction(parameters.initial_sd) ** 2
    matrix = [[Fraction(0)] * size for _ in range(size)]
    vector = [Fraction(0)] * size
    for p in players:
        matrix[at["player", p]][at["player", p]] += prior
    for h in hands:
        # One equation: box + skill(dealer) - skill(non-dealer) = points.
        row = {at["box", h.box]: 1, at["player", h.dealer]: 1, at["player", h.non_dealer]: -1}
        for i, a in row.items():
            vector[i] += a * h.dealer_points * noise
            for j, b in row.items():
                matrix[i][j] += a * b * noise
    # Gauss-Jordan elimination, exact.
    for col in range(size):
        pivot = next(r for r in range(col, size) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        vector[col], vector[pivot] = vector[pivot], vector[col]
        for r in range(size):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col] / matrix[col][col]
                matrix[r] = [x - factor * y for x, y in zip(matrix[r], matrix[col], strict=True)]
                vector[r] -= factor * vector[col]
    return {p: float(vector[at["player", p]] / matrix[at["player", p]][at["player", p]])
            for p in players}


@st.composite
def one_date(draw):
    count = draw(st.integers(4, 8))
    players = [f"P{n}" for n in range(count)]
    hands = []
    for box in range(draw(st.integers(1, 5))):
        seated = draw(st.permutations(players))
        tables = draw(st.integers(2, count // 2))
        for table in range(tables):
            hands.append(hand(f"b{box}", seated[2 * table], seated[2 * table + 1],
                              draw(st.integers(-80, 80))))
    return hands


@settings(max_examples=60)
@given(one_date())
def test_the_fit_is_the_exact_least_squares_solution(hands):
    expected = reference_skills(hands)
    for row in rate(hands):
        skill = (row.rating - DEFAULT_PARAMETERS.base) / DEFAULT_PARAMETERS.scale
        assert abs(skill - expected[row.player]) < 1e-4


@settings(max_examples=40)
@given(one_date(), st.randoms(use_true_random=False))
def test_the_same_hands_give_the_same_list_in_any_order(hands, rng):
    shuffled = list(hands)
    rng.shuffle(shuffled)
    assert rate(shuffled) == rate(hands)
