"""The Berger tables must be the FIDE ones (Handbook C.05, Annex 1), board for board."""

import itertools

import pytest

from scoring.errors import RuleError
from scoring.pairing import berger_rounds

# The published tables, one line per round, white (home) first. Odd counts use the table
# of the next even count, where meeting the last number is the bye.
FIDE_TABLES = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
    16: """
        1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9
        16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2
        2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10
        16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3
        3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11
        16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4
        4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12
        16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5
        5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13
        16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6
        6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14
        16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15
        16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1
    """,
}


def table(text):
    return [
        [tuple(int(number) for number in board.split("-")) for board in line.split()]
        for line in text.strip().splitlines()
    ]


def with_bye(rounds, last):
    """The even table with the last number read as the bye: (participant, None)."""
    return [
        [(away, None) if home == last else (home, None) if away == last else (home, away)
         for home, away in boards]
        for boards in rounds
    ]


@pytest.mark.parametrize("n", sorted(FIDE_TABLES))
def test_even_counts_give_the_fide_table(n):
    assert berger_rounds(n) == table(FIDE_TABLES[n])


@pytest.mark.parametrize("n", [5, 7, 9, 11, 13, 15])
def test_odd_counts_give_the_next_table_with_a_bye(n):
    assert berger_rounds(n) == with_bye(table(FIDE_TABLES[n + 1]), n + 1)


def test_three_is_the_four_table_with_a_bye():
    assert berger_rounds(3) == [[(1, None), (2, 3)], [(3, None), (1, 2)], [(2, None), (3, 1)]]


def test_two_meet_once():
    assert berger_rounds(2) == [[(1, 2)]]


@pytest.mark.parametrize("n", range(2, 31))
def test_everyone_meets_everyone_once_and_plays_once_a_round(n):
    rounds = berger_rounds(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = []
    for boards in rounds:
        seated = [p for board in boards for p in board if p is not None]
        assert sorted(seated) == list(range(1, n + 1))
        meetings += [frozenset(board) for board in boards if None not in board]
    assert sorted(meetings, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(range(1, n + 1), 2)), key=sorted
    )


@pytest.mark.parametrize("n", range(5, 31, 2))
def test_odd_counts_give_everyone_one_bye(n):
    byes = [home for boards in berger_rounds(n) for home, away in boards if away is None]
    assert sorted(byes) == list(range(1, n + 1))


@pytest.mark.parametrize("n", range(4, 31, 2))
def test_the_last_participant_alternates_home_and_away(n):
    homes = [n == boards[0][0] for boards in berger_rounds(n)]
    assert n in berger_rounds(n)[0][0]
    assert homes == [index % 2 == 1 for index in range(n - 1)]


@pytest.mark.parametrize("n", range(4, 31, 2))
def test_home_matches_are_balanced(n):
    homes = [0] * (n + 1)
    for boards in berger_rounds(n):
        for home, _away in boards:
            homes[home] += 1
    assert {count for count in homes[1:]} == {n // 2 - 1, n // 2}


@pytest.mark.parametrize("n", [-1, 0, 1])
def test_too_few_participants(n):
    with pytest.raises(RuleError, match="at least 2"):
        berger_rounds(n)
