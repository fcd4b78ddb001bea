"""A team match's result: small points and match points (RULES.md §8, §11)."""

from __future__ import annotations

from typing import NamedTuple

from scoring.rules import DEFAULT_RULES, Rules


class MatchResult(NamedTuple):
    match_points: int
    small_points: int


def match_points(own_total: int, other_total: int, rules: Rules = DEFAULT_RULES) -> int:
    """3 for a win, 2 for a tie, 1 for a loss (settings), from the two teams' totals."""
    if own_total > other_total:
        return rules.match_points_win
    if own_total == other_total:
        return rules.match_points_tie
    return rules.match_points_loss


def played(own_total: int, other_total: int, rules: Rules = DEFAULT_RULES) -> MatchResult:
    return MatchResult(match_points(own_total, other_total, rules), own_total)


def bye_result(rules: Rules = DEFAULT_RULES) -> MatchResult:
    return MatchResult(rules.match_points_bye, rules.small_points_bye)


def forfeit_results(rules: Rules = DEFAULT_RULES) -> tuple[MatchResult, MatchResult]:
    """(winner, defaulter) of a match the other team forfeited; zero-sum in small points."""
    small = rules.small_points_forfeit
    return (MatchResult(rules.match_points_forfeit_win, small),
            MatchResult(rules.match_points_forfeit_loss, -small))


def knockout_decided(home_total: int, away_total: int) -> bool:
    """A tied knockout match is not over: it goes on with extra boxes (RULES.md §11)."""
    return home_total != away_total
