"""Standings as every page, printout and the Swiss pairing read them (RULES.md §9).

The ranking itself is ``scoring.standings.standings``; this module only gathers what it
ranks, from the stored result rows (``TeamResult``, one per team and round, written by
``services.team_results``):

- a match is the pair of rows of its two teams; void rows (a team withdrawn from a group
  stage) are skipped; provisional rows (a match not signed off, or being corrected) count
  but mark their teams and the table provisional, unless ``official_only`` leaves them out;
- a bye is its row; point penalties come from ``selectors.penalties.point_penalties``, each
  counted from its round; teams withdrawn from a group stage from
  ``selectors.penalties.withdrawn_teams``;
- the tiebreak chain is the tournament's (``Tournament.tiebreak_order``), for every round;
- the drawing of lots is seeded by ``lots_seed`` (from the tournament's first deal key and
  the stage, docs/engine.md): the same every time, and checkable once the key is revealed.

Teams enter ``scoring.standings`` by their codes, so that ``python -m scoring standings``
with the same codes and seed draws the same lots. The number of queries is fixed whatever
the size of the event (seven for a stage, all its groups included). On PostgreSQL a
statement of digests comes first, and the teams, the rounds, the penalties
(``selectors.stage_kept``) and each round's matches and byes (``selectors.stage_results``)
are read again only when they changed since the process last read them: with nothing
changed, two queries.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import F

from scoring.standings import (
    ByeRecord,
    MatchRecord,
    PenaltyRecord,
    Separation,
    Totals,
    standings,
)
from scoring.tiebreaks import LOTS
from tournament.models import DealKey, Group, Round, Stage, Team, Tournament
from tournament.prepared import prepared_rows
from tournament.selectors.penalties import point_penalties, withdrawn_teams
from tournament.selectors.stage_kept import digests, fresh, kept
from tournament.selectors.stage_results import stage_records


@dataclass(frozen=True)
class StandingsLine:
    """One team's place in a table."""

    rank: int
    team: Team
    totals: Totals
    separation: Separation | None  # from the next team; None when tied with it, or last
    tied_with_next: bool

    @property
    def played(self) -> int:
        return self.totals.played

    @property
    def match_points(self) -> int:
        return self.totals.match_points

    @property
    def small_points(self) -> int:
        return self.totals.small_points

    @property
    def wins(self) -> int:
        return self.totals.wins

    @property
    def gins(self) -> int:
        return self.totals.gins

    @property
    def byes(self) -> int:
        return self.totals.byes

    @property
    def provisional(self) -> bool:
        return self.totals.provisional

    @property
    def separated_by(self) -> str | None:
        return self.separation.key if self.separation else None


@dataclass(frozen=True)
class StageStandings:
    """The ranked table of a stage (or of one of its groups) after some of its rounds."""

    stage: Stage
    group: Group | None
    after_round: int | None  # None: every round so far
    lines: list[StandingsLine]
    withdrawn: list[Team] = field(default_factory=list)
    official_only: bool = False

    @property
    def provisional(self) -> bool:
        return any(line.provisional for line in self.lines)

    @property
    def title(self) -> str:
        return f"{self.stage.shown_name} · {self.group}" if self.group else self.stage.shown_name

    def lots(self) -> list[StandingsLine]:
        """The lines placed above the next team by the drawing of lots."""
        return [line for line in self.lines if line.separated_by == LOTS]

    def order(self) -> list[int]:
        """Team ids in rank order."""
        return [line.team.pk for line in self.lines]


class Entry(NamedTuple):
    """A team entered in the stage, and its group (None outside a group stage)."""

    team: Team
    group_id: int | None

    @property
    def team_id(self) -> int:
        return self.team.pk


@dataclass
class StageData:
    """Everything a stage's tables are ranked from: one read of the database."""

    stage: Stage
    entries: list[Entry]  # group, then number order
    groups: dict[int, Group]  # the groups that have teams, in order, by id
    matches: list[MatchRecord]  # teams by code
    byes: list[ByeRecord]
    penalties: list[PenaltyRecord]
    withdrawn: set[int]
    tiebreaks: tuple
    seed: bytes
    rounds: list[Round]  # the stage's rounds, in order

    @property
    def played_rounds(self) -> list[int]:
        """Numbers of the rounds that have started (the "after round N" choices)."""
        return [r.number for r in self.rounds
                if r.status in (Round.Status.IN_PLAY, Round.Status.CLOSED)]


def lots_seed(stage: Stage) -> bytes:
    """The stage's seed for the drawing of lots: the 64 hex digits of HMAC-SHA256 keyed
    with the tournament's first deal key over ``duplicate-gin/lots-seed|stage:<order>``
    (the stage's order in the tournament, set when it is made and never changed: a natural
    key, so a tournament exported and imported elsewhere draws the same lots).
    Secret while the key is, reproducible by anyone once it is revealed. Without a deal key
    yet the seed is empty: the draw is still reproducible, but not secret (one query)."""
    found = prepared_rows("lots-seed-key", _first_key, [stage.tournament_id])
    return _seed(found[0][0] if found else None, stage.order)


def _first_key(tournament: int):
    return DealKey.objects.filter(tournament_id=tournament, number=1).order_by().values_list(
        "key_hex")


def _seed(key_hex: str | None, stage_order: int) -> bytes:
    if not key_hex:
        return b""
    message = f"duplicate-gin/lots-seed|stage:{stage_order}".encode()
    return hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).hexdigest().encode()


def read_stage(stage: Stage, *, official_only: bool = False) -> StageData:
    """One read of everything the stage's standings need (seven queries). On PostgreSQL
    the statement of digests first (``selectors.stage_kept``), then only what changed since
    the process last read the stage: after a correction, the changed round's result rows
    (``selectors.stage_results``). The small reads' SQL is built once per connection
    (``tournament.prepared``): on the last day of a 512-team event, building it cost as much
    as running it."""
    tournament: Tournament = stage.tournament
    found = digests(stage.pk)
    # The teams, each with its group's columns: a model for each team and group, not for
    # each entry, team and group.
    entries, groups = [], {}
    for kept_team in kept(stage.pk, "teams", found and found.teams,
                          lambda: prepared_rows("stage-teams", _entered_teams, [stage.pk])):
        team = fresh(kept_team)
        if team.group_id is not None and team.group_id not in groups:
            groups[team.group_id] = Group.from_db(
                team._state.db, ["id", "stage_id", "name", "order"],
                (team.group_id, stage.pk, team.group_name, team.group_order))
        entries.append(Entry(team, team.group_id))
    code = {entry.team_id: entry.team.code for entry in entries}
    rounds = [fresh(round_) for round_ in kept(
        stage.pk, "rounds", found and found.rounds,
        lambda: prepared_rows("stage-rounds", _rounds, [stage.pk]))]
    for round_ in rounds:
        round_.stage = stage  # as ``stage.rounds`` gives them
    number_of = {r.pk: r.number for r in rounds}
    matches, byes = stage_records(stage.pk, list(number_of), code, number_of,
                                  official_only=official_only,
                                  digests=found and found.results)
    # The penalties' rounds by number: kept with the rounds' digest too.
    penalties = [PenaltyRecord(code[team], kind, amount, number)
                 for team, kind, amount, number in kept(
                     stage.pk, "penalties", found and (found.penalties, found.rounds),
                     lambda: [(p.team_id, p.kind, p.amount, p.round.number)
                              for p in point_penalties(stage)])
                 if team in code]
    # A withdrawal clears results only in a group stage (RULES.md §10); the result rows
    # of that stage are void already, and the team leaves the table.
    withdrawn = withdrawn_teams(stage) if stage.kind == Stage.Kind.GROUPS else set()
    return StageData(stage=stage, entries=entries, groups=groups, matches=matches, byes=byes,
                     penalties=penalties, withdrawn=withdrawn,
                     tiebreaks=tournament.rules.tiebreaks, seed=lots_seed(stage),
                     rounds=rounds)


def _entered_teams(stage: int):
    return (Team.objects.filter(stage_entries__stage_id=stage)
            .annotate(group_id=F("stage_entries__group_id"),
                      group_name=F("stage_entries__group__name"),
                      group_order=F("stage_entries__group__order"))
            .order_by("stage_entries__group__order", "stage_entries__position"))


def _rounds(stage: int):
    return Round.objects.filter(stage_id=stage).order_by("number")


def rank(data: StageData, *, group: Group | None = None, after_round: int | None = None,
         official_only: bool = False, lots: bool = True) -> StageStandings:
    """The table of the stage, or of one of its groups (its teams and the matches among
    them), from data already read. ``lots=False`` leaves the drawing of lots out of the
    chain: teams still tied keep their entry order (the Swiss pairing's order)."""
    entries = [e for e in data.entries if group is None or e.group_id == group.pk]
    team_of = {e.team.code: e.team for e in entries}
    if group is None:
        matches = data.matches  # every match of the stage is among its teams
    else:
        members = set(team_of)
        matches = [m for m in data.matches if m.home in members and m.away in members]
    withdrawn = [e.team for e in entries if e.team_id in data.withdrawn]
    tiebreaks = [t for t in data.tiebreaks if lots or t != LOTS]
    rows = standings([e.team.code for e in entries], matches, byes=data.byes,
                     penalties=data.penalties, withdrawn=[t.code for t in withdrawn],
                     tiebreaks=tiebreaks, after_round=after_round, lots_seed=data.seed)
    lines = []
    for index, row in enumerate(rows):
        following = rows[index + 1] if index + 1 < len(rows) else None
        lines.append(StandingsLine(row.rank, team_of[row.team], row.totals, row.separation,
                                   following is not None and following.rank == row.rank))
    return StageStandings(stage=data.stage, group=group, after_round=after_round,
                          lines=lines, withdrawn=withdrawn, official_only=official_only)


def groups_of(data: StageData) -> list[Group]:
    """The stage's groups that have teams, in order."""
    return list(data.groups.values())


def stage_standings(stage: Stage, *, group: Group | None = None,
                    after_round: int | None = None, official_only: bool = False,
                    lots: bool = True) -> StageStandings:
    """The standings of a stage, or of one group of it, after rounds 1..``after_round``
    (every round when None). ``official_only`` counts signed-off results only (what a
    scorer sees, and what the pairing uses)."""
    data = read_stage(stage, official_only=official_only)
    return rank(data, group=group, after_round=after_round, official_only=official_only,
                lots=lots)


def tables_of(data: StageData, *, group: Group | None = None, after_round: int | None = None,
              official_only: bool = False) -> list[StageStandings]:
    """Every table of the stage read: one per group in a group stage, else one (or only
    the table of ``group``)."""
    groups = [group] if group is not None else (
        groups_of(data) if data.stage.kind == Stage.Kind.GROUPS else [])
    return [rank(data, group=g, after_round=after_round, official_only=official_only)
            for g in groups] or [
        rank(data, after_round=after_round, official_only=official_only)]


def stage_tables(stage: Stage, *, group: Group | None = None, after_round: int | None = None,
                 official_only: bool = False) -> tuple[StageData, list[StageStandings]]:
    """``tables_of`` from one read of the stage."""
    data = read_stage(stage, official_only=official_only)
    return data, tables_of(data, group=group, after_round=after_round,
                           official_only=official_only)


def _stages_begun(tournament: Tournament):
    """The stages with a round in play or closed (a stage's row once per such round)."""
    return Stage.objects.filter(tournament=tournament,
                                rounds__status__in=[Round.Status.IN_PLAY, Round.Status.CLOSED])


def last_stage_played(tournament: Tournament) -> Stage | None:
    """The overall standings are the standings of the last stage that has a round started
    (results of different stages are not added up: each stage ranks its own field)."""
    return _stages_begun(tournament).order_by("-order").first()


def stages_played(tournament: Tournament) -> list[Stage]:
    """Every stage with a round in play or closed, in order (one query): the stages whose
    standings the pages offer."""
    return list(_stages_begun(tournament).distinct().order_by("order"))
