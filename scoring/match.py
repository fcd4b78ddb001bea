"""A team match's result: small points and match points (RULES.md §8, §11)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from scoring.errors import RuleError, gettext_noop
from scoring.rules import DEFAULT_RULES, Rules
from scoring.seating import Side, seat_holder


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


# A team's outcome of a match, as the result rows and the standings name it.
WIN, TIE, LOSS = "win", "tie", "loss"


class TeamOutcome(NamedTuple):
    """One team's result of a match: its outcome, match points and small points."""

    outcome: str
    match_points: int
    small_points: int


def team_outcomes(home_total: int, away_total: int, rules: Rules = DEFAULT_RULES, *,
                  forfeited_by: Side | None = None) -> tuple[TeamOutcome, TeamOutcome]:
    """(home, away) results of a match: by the two teams' small points when played (the
    more wins, equal is a tie), or, when one side forfeited it, a win for the other side
    with the forfeit's match points and small points whatever the hands made (§10)."""
    if forfeited_by is not None:
        winner_, defaulter = forfeit_results(rules)
        won = TeamOutcome(WIN, winner_.match_points, winner_.small_points)
        lost = TeamOutcome(LOSS, defaulter.match_points, defaulter.small_points)
        return (lost, won) if forfeited_by == Side.HOME else (won, lost)
    side = winner(home_total, away_total)
    home_outcome = TIE if side is None else WIN if side == Side.HOME else LOSS
    away_outcome = TIE if side is None else LOSS if side == Side.HOME else WIN
    return (TeamOutcome(home_outcome, match_points(home_total, away_total, rules), home_total),
            TeamOutcome(away_outcome, match_points(away_total, home_total, rules), away_total))


def bye_result(rules: Rules = DEFAULT_RULES) -> MatchResult:
    return MatchResult(rules.match_points_bye, rules.small_points_bye)


def forfeit_results(rules: Rules = DEFAULT_RULES) -> tuple[MatchResult, MatchResult]:
    """(winner, defaulter) of a match the other team forfeited; zero-sum in small points."""
    small = rules.small_points_forfeit
    return (MatchResult(rules.match_points_forfeit_win, small),
            MatchResult(rules.match_points_forfeit_loss, -small))


def team_totals(results: Iterable[tuple[int, int, int]]) -> tuple[int, int]:
    """(home, away) small points of a match: each team's two players over every hand at
    both tables (RULES.md §8). ``results`` gives each hand's (table position, seat 1's
    points, seat 2's points)."""
    totals = {Side.HOME: 0, Side.AWAY: 0}
    for position, seat1, seat2 in results:
        totals[seat_holder(position, 1).side] += seat1
        totals[seat_holder(position, 2).side] += seat2
    return totals[Side.HOME], totals[Side.AWAY]


def winner(home_total: int, away_total: int) -> Side | None:
    """The side with more small points; None for a tie."""
    if home_total == away_total:
        return None
    return Side.HOME if home_total > away_total else Side.AWAY


def knockout_decided(home_total: int, away_total: int) -> bool:
    """A tied knockout match is not over: it goes on with extra boxes (RULES.md §11)."""
    return winner(home_total, away_total) is not None


def plays_extra_hands(*, knockout: bool, home_total: int, away_total: int) -> bool:
    """Whether a match whose hands are all played goes on: a knockout match that is level
    (RULES.md §11). Such a match cannot be signed off."""
    return knockout and not knockout_decided(home_total, away_total)


def knockout_winner(home_total: int, away_total: int) -> Side:
    """The side that goes through from a knockout match; a tie has no winner yet."""
    side = winner(home_total, away_total)
    if side is None:
        raise RuleError(
            gettext_noop("the match is tied at {home_total}; a knockout match goes on with extra "
                         "hands until it is decided"),
            home_total=home_total)
    return side


GIN_OUTCOMES = frozenset({"gin", "big_gin"})


def team_gins(results: Iterable[tuple[int, int | None, str]]) -> tuple[int, int]:
    """(home, away) gins and Big Gins of each team's players (a tiebreak, RULES.md §9).
    ``results`` gives each hand's (table position, declarer's seat, outcome)."""
    gins = {Side.HOME: 0, Side.AWAY: 0}
    for position, seat, outcome in results:
        if outcome in GIN_OUTCOMES and seat is not None:
            gins[seat_holder(position, seat).side] += 1
    return gins[Side.HOME], gins[Side.AWAY]
