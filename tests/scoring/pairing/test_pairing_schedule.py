"""Swaps in a stored schedule: a round robin stays whole or the swap is refused, exactly."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.pairing import (
    SwapConflict,
    berger_rounds,
    round_robin,
    swap_conflicts,
    swap_in_bracket,
    swap_in_schedule,
)


def assert_whole(rounds, teams):
    """Every team once a round, every pair exactly once, a bye each when the count is odd."""
    pairs, byes = Counter(), Counter()
    for boards in rounds:
        seated = [team for board in boards for team in board if team is not None]
        assert sorted(seated) == sorted(teams)
        for home, away in boards:
            if away is None:
                byes[home] += 1
            else:
                pairs[frozenset((home, away))] += 1
    assert pairs == Counter(frozenset(p) for p in itertools.combinations(teams, 2))
    assert byes == (Counter(teams) if len(teams) % 2 else Counter())


def is_whole(rounds, teams):
    try:
        assert_whole(rounds, teams)
    except AssertionError:
        return False
    return True


def exchanged_from(rounds, number, a, b):
    other = {a: b, b: a}
    return [list(boards) if n < number else
            [(other.get(h, h), other.get(w, w)) for h, w in boards]
            for n, boards in enumerate(rounds, 1)]


@st.composite
def swaps(draw):
    n = draw(st.integers(2, 12))
    teams = draw(st.permutations([f"T{i}" for i in range(1, n + 1)]))
    rounds = round_robin(teams)
    number = draw(st.integers(1, len(rounds)))
    a, b = draw(st.lists(st.sampled_from(teams), min_size=2, max_size=2, unique=True))
    return teams, rounds, number, a, b


def test_round_robin_puts_teams_on_the_berger_numbers():
    rounds = round_robin(["ITA", "TPE", "USA", "CHN1", "FRA"])
    numbers = {"ITA": 1, "TPE": 2, "USA": 3, "CHN1": 4, "FRA": 5}
    as_numbers = [[(numbers[h], None if w is None else numbers[w]) for h, w in boards]
                  for boards in rounds]
    assert as_numbers == berger_rounds(5)
    assert_whole(rounds, list(numbers))


@settings(max_examples=400, deadline=None)
@given(swaps())
def test_a_swap_is_allowed_exactly_when_the_robin_stays_whole(case):
    teams, rounds, number, a, b = case
    boards = rounds[number - 1]
    if (a, b) in boards or (b, a) in boards:
        # Opponents change sides in that round and nothing else moves.
        swapped = swap_in_schedule(rounds, number, a, b)
        assert [set(map(frozenset, r)) for r in swapped] == \
            [set(map(frozenset, r)) for r in rounds]
        assert sum(s != r for s, r in zip(swapped, rounds, strict=True)) == 1
        assert_whole(swapped, teams)
        return
    played = [board for r in rounds[: number - 1] for board in r]
    conflicts = swap_conflicts(played, rounds[number - 1:], a, b, first_round=number)
    naive = exchanged_from(rounds, number, a, b)
    assert is_whole(naive, teams) == (not conflicts)
    if conflicts:
        with pytest.raises(RuleError, match="meet twice"):
            swap_in_schedule(rounds, number, a, b)
    else:
        swapped = swap_in_schedule(rounds, number, a, b)
        assert swapped == naive
        assert swapped[: number - 1] == rounds[: number - 1]
        # Swapping back restores the schedule (how an undone round's swap is reverted).
        assert swap_in_schedule(swapped, number, a, b) == rounds


@settings(max_examples=300, deadline=None)
@given(swaps())
def test_each_conflict_says_what_would_happen(case):
    _teams, rounds, number, a, b = case
    played = [board for r in rounds[: number - 1] for board in r]
    conflicts = swap_conflicts(played, rounds[number - 1:], a, b, first_round=number)
    naive = exchanged_from(rounds, number, a, b)
    for c in conflicts:
        assert {c.met, c.unmet} == {a, b}
        assert (c.met, c.other) in played or (c.other, c.met) in played
        assert (c.unmet, c.other) not in played and (c.other, c.unmet) not in played
        assert {c.other, c.met} in [set(board) for board in naive[c.again_in - 1]]
        later = [set(board) for r in naive[number - 1:] for board in r]
        assert {c.other, c.unmet} not in later
    assert [c.again_in for c in conflicts] == sorted(c.again_in for c in conflicts)


@settings(max_examples=200, deadline=None)
@given(swaps())
def test_any_swap_in_round_one_keeps_the_robin_whole(case):
    teams, rounds, _number, a, b = case
    assert swap_conflicts([], rounds, a, b) == []
    assert_whole(swap_in_schedule(rounds, 1, a, b), teams)


def test_the_conflicts_name_who_would_meet_twice():
    teams = ["CHN1", "ITA", "TPE", "USA"]
    rounds = round_robin(teams)  # CHN1-USA ITA-TPE | USA-TPE CHN1-ITA | ITA-USA TPE-CHN1
    played = rounds[0]
    assert swap_conflicts(played, rounds[1:], "ITA", "USA", first_round=2) == [
        SwapConflict("CHN1", "USA", "ITA", 2), SwapConflict("TPE", "ITA", "USA", 2)]
    # CHN1 and USA met in round 1: exchanging them from round 2 on is a bijection.
    assert swap_conflicts(played, rounds[1:], "CHN1", "USA", first_round=2) == []
    assert swap_in_schedule(rounds, 2, "CHN1", "USA")[1:] == [
        [("CHN1", "TPE"), ("USA", "ITA")], [("ITA", "CHN1"), ("TPE", "USA")]]


def test_the_bye_is_a_conflict_too():
    teams = ["A", "B", "C", "D", "E"]
    rounds = round_robin(teams)  # A has the bye in round 1, D in round 2
    played = rounds[0]
    (conflict,) = [c for c in swap_conflicts(played, rounds[1:], "A", "C", first_round=2)
                   if c.other is None]
    assert conflict == SwapConflict(None, "A", "C", next(
        n for n, boards in enumerate(rounds, 1) if ("C", None) in boards))


def test_bad_swaps_are_refused():
    rounds = round_robin(["A", "B", "C", "D"])
    with pytest.raises(RuleError, match="no round 4"):
        swap_in_schedule(rounds, 4, "A", "B")
    with pytest.raises(RuleError, match="two different teams"):
        swap_in_schedule(rounds, 1, "A", "A")
    with pytest.raises(RuleError, match="two different teams"):
        swap_conflicts([], rounds, "A", "A")


def test_a_bracket_swap_exchanges_slots():
    bracket = [("T1", None), ("T4", "T5"), ("T3", "T6"), ("T2", None)]
    assert swap_in_bracket(bracket, "T5", "T6") == [
        ("T1", None), ("T4", "T6"), ("T3", "T5"), ("T2", None)]
    assert swap_in_bracket(bracket, "T1", "T3") == [
        ("T3", None), ("T4", "T5"), ("T1", "T6"), ("T2", None)]
    assert swap_in_bracket(bracket, "T4", "T5") == [
        ("T1", None), ("T5", "T4"), ("T3", "T6"), ("T2", None)]
    with pytest.raises(RuleError, match="T9 is not in the bracket"):
        swap_in_bracket(bracket, "T1", "T9")
    with pytest.raises(RuleError, match="two different teams"):
        swap_in_bracket(bracket, "T1", "T1")
