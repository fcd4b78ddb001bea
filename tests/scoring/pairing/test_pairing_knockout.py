import pytest

from scoring.errors import RuleError
from scoring.pairing import (
    bracket_order,
    bracket_rounds,
    bracket_size,
    cross_groups,
    next_round,
    round_slots,
    seeded_bracket,
    third_place_match,
)


def seeds(n):
    return list(range(1, n + 1))


def test_bracket_of_two_four_and_eight():
    assert seeded_bracket(seeds(2)) == [(1, 2)]
    assert seeded_bracket(seeds(4)) == [(1, 4), (2, 3)]
    assert seeded_bracket(seeds(8)) == [(1, 8), (4, 5), (3, 6), (2, 7)]


def test_bracket_of_sixteen():
    assert seeded_bracket(seeds(16)) == [
        (1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15),
    ]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seeds_meet_as_late_as_their_seeding_allows(size):
    order = bracket_order(size)
    assert sorted(order) == seeds(size)
    # Where k teams are left, the best seeds of the two halves of each block would be
    # seeds s and k + 1 - s: 1 v 2 in the final, 1 v 4 and 2 v 3 in the semifinals, …
    width = 2
    while width <= size:
        left = 2 * size // width
        for start in range(0, size, width):
            half = width // 2
            upper = min(order[start:start + half])
            lower = min(order[start + half:start + width])
            assert upper + lower == left + 1
        width *= 2


def test_byes_go_to_the_top_seeds():
    assert seeded_bracket(seeds(6)) == [(1, None), (4, 5), (3, 6), (2, None)]
    assert seeded_bracket(seeds(3)) == [(1, None), (2, 3)]
    bracket = seeded_bracket(seeds(13))
    assert [home for home, away in bracket if away is None] == [1, 3, 2]
    assert sorted(t for match in bracket for t in match if t is not None) == seeds(13)


def test_bracket_keeps_the_teams_themselves():
    assert seeded_bracket(["Ann", "Bo", "Cy", "Di"]) == [("Ann", "Di"), ("Bo", "Cy")]


@pytest.mark.parametrize("n", [0, 1])
def test_bracket_needs_two_teams(n):
    with pytest.raises(RuleError):
        seeded_bracket(seeds(n))


def group(letter, count):
    return [f"{letter}{place}" for place in range(1, count + 1)]


def test_two_groups_cross_winners_with_runners_up():
    assert cross_groups([group("A", 4), group("B", 4)], 2) == [("A1", "B2"), ("B1", "A2")]


def test_four_groups_pair_in_twos_and_meet_again_only_in_the_final():
    standings = [group(letter, 4) for letter in "ABCD"]
    first = cross_groups(standings, 2)
    assert first == [("A1", "B2"), ("C1", "D2"), ("B1", "A2"), ("D1", "C2")]
    top, bottom = first[:2], first[2:]
    for letter in "ABCD":
        assert sum(team.startswith(letter) for match in top for team in match) == 1
        assert sum(team.startswith(letter) for match in bottom for team in match) == 1


def test_eight_groups_of_two_qualifiers():
    first = cross_groups([group(letter, 3) for letter in "ABCDEFGH"], 2)
    assert first == [
        ("A1", "B2"), ("C1", "D2"), ("E1", "F2"), ("G1", "H2"),
        ("B1", "A2"), ("D1", "C2"), ("F1", "E2"), ("H1", "G2"),
    ]


def test_two_groups_of_four_qualifiers_keep_group_mates_apart():
    first = cross_groups([group("A", 5), group("B", 5)], 4)
    assert first == [("A1", "B4"), ("B2", "A3"), ("A2", "B3"), ("B1", "A4")]


def test_group_winners_only_and_a_single_group():
    assert cross_groups([group(letter, 3) for letter in "ABCD"], 1) == [
        ("A1", "D1"), ("B1", "C1"),
    ]
    assert cross_groups([group("A", 6)], 4) == [("A1", "A4"), ("A2", "A3")]


@pytest.mark.parametrize(
    ("groups", "qualifiers"),
    [(3, 2), (6, 2), (4, 4), (2, 3), (1, 1), (0, 2), (2, 0)],
)
def test_other_shapes_are_refused(groups, qualifiers):
    with pytest.raises(RuleError):
        cross_groups([group(chr(65 + g), 5) for g in range(groups)], qualifiers)


def test_a_group_too_small_for_its_qualifiers():
    with pytest.raises(RuleError, match="group B has 1 teams"):
        cross_groups([group("A", 3), group("B", 1)], 2)


def test_next_round_pairs_neighbouring_winners():
    results = [(1, 8), (5, 4), (3, 6), (7, 2)]
    assert next_round(results) == [(1, 5), (3, 7)]
    assert next_round([(1, 5), (7, 3)]) == [(1, 7)]


def test_next_round_takes_first_round_byes():
    assert next_round([(1, None), (5, 4), (3, 6), (2, None)]) == [(1, 5), (3, 2)]


@pytest.mark.parametrize("results", [[], [(1, 2)], [(1, 2), (3, 4), (5, 6)]])
def test_next_round_needs_an_even_number_of_matches(results):
    with pytest.raises(RuleError):
        next_round(results)


def test_third_place_is_between_the_semifinal_losers():
    assert third_place_match([(1, 5), (7, 3)]) == (5, 3)


@pytest.mark.parametrize("results", [[(1, 5)], [(1, 5), (7, None)], [(1, 2), (3, 4), (5, 6)]])
def test_third_place_needs_two_played_semifinals(results):
    with pytest.raises(RuleError):
        third_place_match(results)


def test_bracket_rounds_are_named_by_the_slots_they_start_from():
    assert [bracket_size(n) for n in (2, 3, 4, 5, 6, 8, 9, 12, 16, 17)] == [
        2, 4, 4, 8, 8, 8, 16, 16, 16, 32]
    assert [bracket_rounds(n) for n in (2, 4, 6, 8, 12, 16)] == [1, 2, 3, 3, 4, 4]
    # A 12-team knockout: round of 16 (with byes), quarter-finals, semi-finals, final.
    assert [round_slots(number, 4) for number in (1, 2, 3, 4)] == [16, 8, 4, 2]
    assert round_slots(1, 1) == 2
    with pytest.raises(RuleError):
        round_slots(5, 4)
    with pytest.raises(RuleError):
        bracket_size(1)
