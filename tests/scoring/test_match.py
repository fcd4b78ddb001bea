import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.match import (
    LOSS,
    TIE,
    WIN,
    bye_result,
    forfeit_results,
    knockout_decided,
    knockout_winner,
    match_points,
    played,
    plays_extra_hands,
    team_outcomes,
    team_totals,
    winner,
)
from scoring.rules import DEFAULT_RULES, Rules
from scoring.seating import Side


def test_win_tie_loss_earn_three_two_one():
    assert match_points(40, -40) == 3
    assert match_points(0, 0) == 2
    assert match_points(-40, 40) == 1


def test_match_points_follow_the_settings():
    rules = Rules(match_points_win=2, match_points_tie=1, match_points_loss=0)
    assert [match_points(a, b, rules) for a, b in ((5, -5), (0, 0), (-5, 5))] == [2, 1, 0]


def test_played_match_keeps_the_small_points():
    assert played(-23, 23) == (1, -23)


def test_bye_earns_two_match_points_and_no_small_points_by_default():
    assert bye_result(DEFAULT_RULES) == (2, 0)


def test_forfeit_is_zero_sum_in_small_points():
    winner, loser = forfeit_results(Rules(small_points_forfeit=50))
    assert winner == (3, 50)
    assert loser == (0, -50)


def test_tied_knockout_match_is_not_decided():
    assert not knockout_decided(0, 0)
    assert knockout_decided(1, -1)


def test_team_totals_add_each_team_s_two_players_at_both_tables():
    # RULES.md §8: hand 1, A's first player knocks 4 vs 12 at table 1 (seat 1: +23); B's
    # second player (seat 1 at table 2) goes gin against 30 (+55).
    assert team_totals([(1, 23, -23), (2, 55, -55)]) == (23 - 55, 55 - 23)
    # Seat 2 at table 2 is A's second player.
    assert team_totals([(2, -10, 10)]) == (10, -10)
    assert team_totals([]) == (0, 0)


def test_the_winner_has_more_small_points_and_a_tie_has_none():
    assert winner(5, -5) is Side.HOME
    assert winner(-5, 5) is Side.AWAY
    assert winner(0, 0) is None


def test_a_knockout_winner_needs_a_decided_match():
    assert knockout_winner(-7, 7) is Side.AWAY
    with pytest.raises(RuleError, match="tied"):
        knockout_winner(3, 3)


def test_only_a_level_knockout_match_plays_extra_hands():
    assert plays_extra_hands(knockout=True, home_total=0, away_total=0)
    assert not plays_extra_hands(knockout=True, home_total=4, away_total=-4)
    assert not plays_extra_hands(knockout=False, home_total=0, away_total=0)


def test_gins_count_for_the_team_of_the_declarer():
    from scoring.match import team_gins

    # Table 1 seat 1 is home's first player, table 2 seat 1 is away's second (RULES.md §8).
    assert team_gins([(1, 1, "gin"), (2, 1, "big_gin"), (2, 2, "gin"), (1, 2, "knock"),
                      (1, None, "draw")]) == (2, 1)


# --- a team's outcome: one rule for the result rows and the integrity check ------------------


@given(st.integers(-500, 500), st.integers(-500, 500))
def test_the_side_with_more_small_points_wins_and_equal_is_a_tie(home, away):
    home_result, away_result = team_outcomes(home, away)
    expected = {(True, False): (WIN, LOSS), (False, True): (LOSS, WIN),
                (False, False): (TIE, TIE)}[home > away, away > home]
    assert (home_result.outcome, away_result.outcome) == expected
    assert (home_result.small_points, away_result.small_points) == (home, away)
    points = {WIN: 3, TIE: 2, LOSS: 1}
    assert (home_result.match_points, away_result.match_points) == \
        (points[expected[0]], points[expected[1]])


def test_a_forfeit_is_a_win_for_the_other_side_whatever_the_hands_made():
    rules = Rules(small_points_forfeit=50)
    home, away = team_outcomes(120, -40, rules, forfeited_by=Side.HOME)
    assert home == (LOSS, rules.match_points_forfeit_loss, -50)
    assert away == (WIN, rules.match_points_forfeit_win, 50)
