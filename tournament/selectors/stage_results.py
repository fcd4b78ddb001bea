"""A stage's matches and byes as the standings count them (``MatchRecord``, ``ByeRecord``),
from its result rows (``TeamResult``), kept per round between two reads on PostgreSQL.

After a correction on the last day of a 512-team event, one round's 512 rows of 7,680
changed; reading and pairing all of them again was most of the standings' time
(docs/benchmarks.md). So each process keeps, per stage, the records of each round with
the round's *digest*: the number of its rows and the sum of a 64-bit hash of each row's
revision (``TeamResult.revision``: a number from one sequence that PostgreSQL gives the row
at each write, and again when its match's home team or forfeit changes; migration 0026).
Any write of a row or of what it reads of its match, by any process and any door, gives it
a number never given before, so a round whose digest is unchanged has the very rows it
had; only the rounds whose digest moved are read again. Exact whichever service or door
wrote the rows and in whatever order transactions commit (a sum, not a largest number: a
transaction that took its number earlier may commit later); a rolled-back write leaves the
old revisions, hence the old digest. (Two different sets of revisions with the same sum of
hashes are a 2**-64 chance.) The digests come with the stage's other parts' in one
statement (``selectors.stage_kept``), from an index on (round, revision): about a
millisecond for 7,680 rows, where hashing each row's ``xmin`` and its match's took nine.

SQLite has no row versions: there every read reads every row, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from scoring.standings import AWAY, HOME, ByeRecord, MatchRecord
from tournament.models import TeamResult
from tournament.prepared import prepared_rows

Digest = tuple[int, int]  # (rows, the sum of their revisions' hashes)
# (stage, official_only) → what was read; the least recently read is dropped first.
KEPT_STAGES = 16
_kept: OrderedDict[tuple[int, bool], _Kept] = OrderedDict()
_lock = threading.Lock()  # a worker of threads (serve's default) reads in several at once

_ROW = ("round_id", "team_id", "match_id", "match__home_id", "match__forfeited_by_id",
        "outcome", "small_points", "match_points", "gins", "provisional")


@dataclass
class _Kept:
    code: dict[int, str]  # the team codes and round numbers the records were made with
    number_of: dict[int, int]
    # round → (its digest, None without rows; its matches; its byes)
    rounds: dict[int, tuple[Digest | None, list[MatchRecord], list[ByeRecord]]]


def stage_records(stage_pk: int, round_ids: list[int], code: dict[int, str],
                  number_of: dict[int, int], *, official_only: bool,
                  digests: dict[int, Digest] | None = None
                  ) -> tuple[list[MatchRecord], list[ByeRecord]]:
    """The matches and byes of these rounds of the stage (teams by ``code``, rounds by
    ``number_of``), from the rows that are not void; provisional rows left out with
    ``official_only``. ``digests`` are the rounds' digests read just before
    (``selectors.stage_kept``: PostgreSQL; a round without rows has none): then only the
    rounds whose digest is not the one they were kept with are read (none: no query).
    Without them (SQLite), every row is read."""
    if digests is None or not round_ids:
        return _records(_rows(round_ids), code, number_of, official_only)
    key = (stage_pk, official_only)
    with _lock:
        kept = _kept.get(key)
    # A copy: what another thread reads meanwhile is never changed under it.
    rounds = {} if kept is None or kept.code != code or kept.number_of != number_of \
        else dict(kept.rounds)
    changed = [pk for pk in round_ids
               if pk not in rounds or rounds[pk][0] != digests.get(pk)]
    if changed:
        by_round: dict[int, list[tuple]] = {pk: [] for pk in changed}
        for row in _rows(changed):
            by_round[row[0]].append(row)
        # Kept with the digest read *before* the rows: were they written in between, the
        # next read finds another digest and reads them again (never the other way round).
        for pk in changed:
            rounds[pk] = (digests.get(pk), *_records(by_round[pk], code, number_of,
                                                     official_only))
    kept = _Kept(dict(code), dict(number_of), rounds)
    with _lock:
        _kept[key] = kept
        _kept.move_to_end(key)
        while len(_kept) > KEPT_STAGES:
            _kept.popitem(last=False)
    return ([record for pk in round_ids for record in rounds[pk][1]],
            [record for pk in round_ids for record in rounds[pk][2]])


def _rows(round_ids: list[int]) -> list[tuple]:
    """The rows of these rounds as ``_ROW``, void ones included. No ordering: the model's
    (by stage, round and team name) would join two more tables and sort every row, and
    nothing here depends on the order. One round (after a correction) by SQL built once per
    connection: building it cost as much as running it."""
    if len(round_ids) == 1:
        return prepared_rows("round-result-rows", _round_rows, round_ids)
    return list(TeamResult.objects.filter(round_id__in=round_ids).order_by()
                .values_list(*_ROW, "void"))


def _round_rows(round_id: int):
    return TeamResult.objects.filter(round_id=round_id).order_by().values_list(*_ROW, "void")


def _records(rows, code: dict[int, str], number_of: dict[int, int], official_only: bool
             ) -> tuple[list[MatchRecord], list[ByeRecord]]:
    """The records of these rows: a match is the pair of rows of its two teams."""
    byes: list[ByeRecord] = []
    matches: list[MatchRecord] = []
    halves: dict[int, tuple] = {}  # a match's first row read, until its other row comes
    bye = TeamResult.Outcome.BYE.value
    for round_id, team, match, home, forfeited_by, outcome, small, points, gins, provisional, \
            void in rows:
        if void or team not in code:
            continue  # not entered in the stage (never written by the services)
        if outcome == bye:
            byes.append(ByeRecord(number_of[round_id], code[team], points, small))
            continue
        if official_only and provisional:
            continue
        row = (team, small, points, gins, provisional)
        other = halves.pop(match, None)
        if other is None:
            halves[match] = row
            continue
        if (team == home) == (other[0] == home):
            continue  # two rows of one side (never written so): not a result
        (_h, home_small, home_mp, home_gins, home_prov), \
            (away, away_small, away_mp, away_gins, away_prov) = \
            (row, other) if team == home else (other, row)
        matches.append(MatchRecord(
            number_of[round_id], code[home], code[away], home_small, away_small, home_mp,
            away_mp, forfeited_by=None if forfeited_by is None else
            HOME if forfeited_by == home else AWAY, home_gins=home_gins, away_gins=away_gins,
            provisional=bool(home_prov or away_prov)))
    # A match with one row only (half a match, never written so) is not a result.
    return matches, byes
