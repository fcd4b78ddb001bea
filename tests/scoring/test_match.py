from scoring.match import bye_result, forfeit_results, knockout_decided, match_points, played
from scoring.rules import DEFAULT_RULES, Rules


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
