import pytest

from scoring.errors import RuleError
from scoring.pairing import snake_groups


def test_sixteen_teams_snake_into_four_groups():
    assert snake_groups(list(range(1, 17)), 4) == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


def test_uneven_count_fills_the_first_groups_of_the_last_band():
    assert snake_groups(list(range(1, 11)), 4) == [[1, 8, 9], [2, 7, 10], [3, 6], [4, 5]]


def test_a_band_running_backwards_fills_the_last_groups():
    assert snake_groups(list(range(1, 15)), 4) == [
        [1, 8, 9],
        [2, 7, 10],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


def test_one_group_keeps_the_seed_order():
    assert snake_groups(["a", "b", "c"], 1) == [["a", "b", "c"]]


def test_groups_differ_by_at_most_one_team():
    for teams in range(6, 40):
        sizes = [len(group) for group in snake_groups(list(range(teams)), 3)]
        assert max(sizes) - min(sizes) <= 1
        assert sum(sizes) == teams


@pytest.mark.parametrize(("teams", "groups"), [(7, 4), (1, 1), (0, 1), (8, 0), (8, -2)])
def test_refuses_groups_that_cannot_be_filled(teams, groups):
    with pytest.raises(RuleError):
        snake_groups(list(range(teams)), groups)
