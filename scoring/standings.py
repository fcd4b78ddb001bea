"""The ranking of teams (RULES.md §9, §10): one function for every page, the pairing, the
knockout seeding and the command line.

Teams are ranked by match points, then small points, then the tournament's tiebreak
chain. Each tiebreak is a small registered class (``scoring.tiebreaks``); the chain is a
list of their keys. A
tiebreak is applied once to each group of teams still tied when its turn comes, and what it
leaves tied goes to the next one. Head-to-head is a mini-table among *all* the teams of such
a group (match points, then small points in their mutual matches) and applies only when
every pair of them has met; otherwise it passes. The drawing of lots orders teams by an HMAC
of a seed and the team, so the same seed always draws the same way.

Every row says which criterion put it above the next team and the two values compared.
Teams still tied when the chain ends share a rank.

A team withdrawn after a group-stage default is left out with every result involving it
(RULES.md §10): the caller passes it in ``withdrawn``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from scoring.errors import RuleError, gettext_noop
from scoring.match import forfeit_results, match_points
from scoring.rules import DEFAULT_TIEBREAKS, Rules
from scoring.tiebreaks import Criterion, chain

TeamId = Hashable
HOME, AWAY = "home", "away"


# --- what the standings are made from -------------------------------------------------------

class MatchRecord(NamedTuple):
    """One match as the standings count it: small points and match points of both teams
    (by the rules of its round), gins and Big Gins each team made, and how it was decided.

    A named tuple rather than a frozen dataclass: as immutable, and made four times as
    fast, which counts when the standings of a 512-team event read 3,840 of them after
    every correction (docs/benchmarks.md)."""

    round: int
    home: TeamId
    away: TeamId
    home_small: int
    away_small: int
    home_mp: int
    away_mp: int
    forfeited_by: str | None = None  # HOME or AWAY: that team defaulted the match
    home_gins: int = 0
    away_gins: int = 0
    provisional: bool = False  # not signed off yet

    def side(self, team: TeamId) -> str:
        return HOME if team == self.home else AWAY

    def of(self, team: TeamId) -> tuple[int, int]:
        """(small points, match points) of one of its teams."""
        if team == self.home:
            return self.home_small, self.home_mp
        return self.away_small, self.away_mp

    def wins(self) -> tuple[bool, bool]:
        """(home won, away won): a forfeit is won by the other team, a match played by the
        team with more small points; a tie is won by neither."""
        if self.forfeited_by is not None:
            return self.forfeited_by == AWAY, self.forfeited_by == HOME
        return self.home_small > self.away_small, self.away_small > self.home_small


def played_match(round_: int, home: TeamId, away: TeamId, home_total: int, rules: Rules, *,
                 home_gins: int = 0, away_gins: int = 0,
                 provisional: bool = False) -> MatchRecord:
    """A match played to the end: the away total is minus the home total (hands are
    zero-sum), match points by the rules."""
    away_total = -home_total
    return MatchRecord(round_, home, away, home_total, away_total,
                       match_points(home_total, away_total, rules),
                       match_points(away_total, home_total, rules),
                       home_gins=home_gins, away_gins=away_gins, provisional=provisional)


def forfeited_match(round_: int, home: TeamId, away: TeamId, forfeited_by: str,
                    rules: Rules, *, provisional: bool = False) -> MatchRecord:
    """A match one team defaulted: a win for the other, never a 0–0 tie."""
    if forfeited_by not in (HOME, AWAY):
        raise RuleError(
            gettext_noop("a forfeit names the side that defaulted, home or away, not "
                         "{forfeited_by!r}"),
            forfeited_by=forfeited_by)
    winner, loser = forfeit_results(rules)
    first, second = (loser, winner) if forfeited_by == HOME else (winner, loser)
    return MatchRecord(round_, home, away, first.small_points, second.small_points,
                       first.match_points, second.match_points, forfeited_by=forfeited_by,
                       provisional=provisional)


@dataclass(frozen=True, slots=True)
class ByeRecord:
    round: int
    team: TeamId
    match_points: int
    small_points: int


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    """A deduction of match points or small points (``amount`` is what is taken away)."""

    team: TeamId
    kind: str  # "match_points" or "small_points"
    amount: int
    round: int | None = None  # from which round it counts; None: always

    def __post_init__(self) -> None:
        if self.kind not in ("match_points", "small_points"):
            raise RuleError(
                gettext_noop("a penalty deducts match_points or small_points, not {kind!r}"),
                kind=self.kind)


# --- the tiebreaks ----------------------------------------------------------------------------

@dataclass
class Field:
    """What the criteria compute from: each team's totals and the matches counted."""

    totals: dict[TeamId, Totals]
    matches: list[MatchRecord]
    lots_seed: bytes
    _home_matches: dict[TeamId, list[MatchRecord]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def matches_among(self, group: Iterable[TeamId]) -> list[MatchRecord]:
        """The matches between two teams of the group, in no particular order (from an
        index by home team, made at the first call: head-to-head asks once per block of
        tied teams, and a scan of every match each time was a tenth of the ranking)."""
        if self._home_matches is None:
            self._home_matches = {}
            for match in self.matches:
                self._home_matches.setdefault(match.home, []).append(match)
        members = set(group)
        return [match for team in members for match in self._home_matches.get(team, ())
                if match.away in members]


@dataclass
class Totals:
    match_points: int = 0
    small_points: int = 0
    wins: int = 0
    gins: int = 0
    played: int = 0
    byes: int = 0
    penalty_match_points: int = 0
    penalty_small_points: int = 0
    provisional: bool = False


# --- the ranking ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Separation:
    """Why a team is above the next one: the criterion and the two values compared."""

    key: str
    above: Any
    below: Any
    text: str  # e.g. "head-to-head: 5 mp vs 3 mp"


@dataclass(frozen=True)
class StandingRow:
    rank: int
    team: TeamId
    totals: Totals
    separation: Separation | None  # from the next team; None if tied with it, or last

    @property
    def match_points(self) -> int:
        return self.totals.match_points

    @property
    def small_points(self) -> int:
        return self.totals.small_points

    @property
    def separated_by(self) -> str | None:
        return self.separation.key if self.separation else None


@dataclass
class _Block:
    teams: list[TeamId]
    separation: Separation | None = None  # from the next block


def standings(teams: Sequence[TeamId], matches: Iterable[MatchRecord], *,
              byes: Iterable[ByeRecord] = (), penalties: Iterable[PenaltyRecord] = (),
              withdrawn: Iterable[TeamId] = (), tiebreaks: Iterable[str] = DEFAULT_TIEBREAKS,
              after_round: int | None = None, lots_seed: bytes = b"") -> list[StandingRow]:
    """The ranked table of ``teams`` (their order breaks nothing: teams tied to the end keep
    it only for display, with a shared rank)."""
    out = set(withdrawn)
    field_teams = [team for team in teams if team not in out]
    if len(set(field_teams)) != len(field_teams):
        raise RuleError(gettext_noop("a team is listed twice"))

    def counts(round_: int | None) -> bool:
        return after_round is None or round_ is None or round_ <= after_round

    # Written out, each match unpacked as the tuple it is: a 512-team Swiss event counts
    # 3,840 of these after every correction, and a named tuple's fields read by name cost
    # a third of the whole ranking (docs/benchmarks.md, issue 59).
    known = set(field_teams)
    totals = {team: Totals() for team in field_teams}
    counted = []
    every_round = after_round is None
    for match in matches:
        (round_, home, away, home_small, away_small, home_mp, away_mp, forfeited_by,
         home_gins, away_gins, provisional) = match
        if not (every_round or round_ is None or round_ <= after_round) or home in out \
                or away in out:
            continue
        if home not in known or away not in known:
            raise RuleError(
                gettext_noop("a match names the team {team!r}, which is not in the field"),
                team=home if home not in known else away)
        counted.append(match)
        if forfeited_by is None:
            home_won, away_won = home_small > away_small, away_small > home_small
        else:
            home_won, away_won = forfeited_by == AWAY, forfeited_by == HOME
        record = totals[home]
        record.match_points += home_mp
        record.small_points += home_small
        record.wins += home_won
        record.gins += home_gins
        record.played += 1
        if provisional:
            record.provisional = True
        record = totals[away]
        record.match_points += away_mp
        record.small_points += away_small
        record.wins += away_won
        record.gins += away_gins
        record.played += 1
        if provisional:
            record.provisional = True
    for bye in byes:
        if counts(bye.round) and bye.team in totals:
            record = totals[bye.team]
            record.byes += 1
            record.match_points += bye.match_points
            record.small_points += bye.small_points
    for penalty in penalties:
        if counts(penalty.round) and penalty.team in totals:
            record = totals[penalty.team]
            if penalty.kind == "match_points":
                record.match_points -= penalty.amount
                record.penalty_match_points += penalty.amount
            else:
                record.small_points -= penalty.amount
                record.penalty_small_points += penalty.amount
    field_ = Field(totals, counted, lots_seed)
    blocks = _rank(list(field_teams), chain(tiebreaks), field_)
    rows: list[StandingRow] = []
    position = 1
    for block in blocks:
        for index, team in enumerate(block.teams):
            last = index == len(block.teams) - 1
            rows.append(StandingRow(position, team, totals[team],
                                    block.separation if last else None))
        position += len(block.teams)
    return rows


def _rank(group: list[TeamId], criteria: list[Criterion], field_: Field) -> list[_Block]:
    """The group in order, as blocks of teams tied to the end of the chain."""
    if len(group) == 1 or not criteria:
        return [_Block(group)]
    criterion, rest = criteria[0], criteria[1:]
    values = criterion.values(group, field_)
    if values is None:
        return _rank(group, rest, field_)
    # The teams of each level in the group's order, in one pass over the group (not one
    # per level: a first round of 512 teams has dozens of levels of match points).
    members_at: dict[Any, list[TeamId]] = {}
    for team in group:
        members_at.setdefault(values[team], []).append(team)
    levels = sorted(members_at, reverse=criterion.higher_is_better)
    blocks: list[_Block] = []
    for number, level in enumerate(levels):
        ranked = _rank(members_at[level], rest, field_)
        if number + 1 < len(levels):
            below = levels[number + 1]
            ranked[-1].separation = Separation(
                criterion.key, level, below,
                f"{criterion.name}: {criterion.describe(level)} vs {criterion.describe(below)}")
        blocks.extend(ranked)
    return blocks


def ranking_order(rows: Sequence[StandingRow]) -> list[TeamId]:
    """The teams in rank order (for pairing and seeding)."""
    return [row.team for row in rows]
