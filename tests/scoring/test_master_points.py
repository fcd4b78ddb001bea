"""Master points by place (scoring/master_points.py)."""

from decimal import Decimal

import pytest

from scoring.errors import RuleError
from scoring.master_points import awarded_places, check_scale, master_points

SCALE = [10, 7, 5, 4, 3, 2, 1]


def test_points_by_place_within_the_top_share_of_the_field():
    places = {f"T{n}": n for n in range(1, 11)}  # ten teams: 40 % is four places
    assert master_points(places, SCALE, 40) == {
        "T1": Decimal("10.00"), "T2": Decimal("7.00"), "T3": Decimal("5.00"),
        "T4": Decimal("4.00")}


def test_a_long_field_stops_at_the_end_of_the_scale():
    places = {n: n for n in range(1, 101)}
    assert sorted(master_points(places, SCALE, 40).values(), reverse=True) == [
        Decimal(v).quantize(Decimal("0.01")) for v in SCALE]


def test_teams_sharing_a_place_share_the_places_they_occupy():
    places = {"A": 1, "B": 2, "C": 3, "D": 3, "E": 5, "F": 6, "G": None, "H": 8, "I": 9,
              "J": 10}
    awards = master_points(places, SCALE, 40)
    # Four places awarded: C and D share 3rd and 4th, (5 + 4) / 2 each.
    assert awards == {"A": Decimal("10.00"), "B": Decimal("7.00"), "C": Decimal("4.50"),
                      "D": Decimal("4.50")}
    # Sharing across the cut: the place beyond it counts as nothing.
    assert master_points({"A": 1, "B": 1, "C": 3, "D": 4, "E": 5}, SCALE, 20) == {
        "A": Decimal("5.00"), "B": Decimal("5.00")}


def test_a_small_field_awards_at_least_its_winner():
    assert awarded_places(2, 7, 40) == 1
    assert master_points({"A": 1, "B": 2}, SCALE, 40) == {"A": Decimal("10.00")}
    assert awarded_places(0, 7, 40) == 0


@pytest.mark.parametrize("scale, share, message", [
    ([], 40, "a list"), ("10,7", 40, "a list"), ([10, "x"], 40, "place 2"),
    ([10, 12], 40, "earns more"), ([10, -1], 40, "from 0"), ([True], 40, "not a number"),
    ([10], 0, "from 1 to 100"), ([float("nan")], 40, "from 0"),
])
def test_a_bad_scale_is_refused_with_its_reason(scale, share, message):
    with pytest.raises(RuleError, match=message):
        check_scale(scale, share)
