"""What a stage's standings read, kept between reads on PostgreSQL behind one statement of
digests (``selectors.standings.read_stage``).

After a correction on the last day of a 512-team event only one round's result rows have
changed; yet each read of the standings read the 512 teams again (and made a model of
each), the 15 rounds (each with its frozen rules) and the penalties: two thirds of the
read (docs/benchmarks.md, issue 59). So one statement (``digests``) now gives, for the
stage, the digest of each part the standings read:

- each round's result rows: the number of rows and the sum of a hash of each row's
  revision (``selectors.stage_results``, migration 0026);
- the teams: every entry of the stage with its team and its group, hashed from each row's
  id and version (``xmin`` and ``cmin``, ``selectors.row_versions``: any write of the row,
  by any process and any door, changes them; a row lock or a rolled-back write does not);
- the rounds and the penalties of the stage, likewise.

A part whose digest is the one it was kept with is the very rows it was read from, and is
not read again. The digests are read *before* the parts, so a part is never kept with a
digest newer than its rows: a write between the two makes the next read read it again.
(Two different sets of rows with the same count and sum of hashes are a 2**-64 chance.)

What is kept is never handed out: each read gets copies of the kept models (``fresh``),
so what one caller caches on a team (a prefetch, a related object) stays its own.
SQLite has no row versions: there ``digests`` is None and every read reads every part.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import NamedTuple, TypeVar

from django.db import connection, models

from tournament.models import Group, Penalty, Round, StageTeam, Team, TeamResult
from tournament.prepared import kept_sql_rows
from tournament.selectors.row_versions import row_version

T = TypeVar("T")
M = TypeVar("M", bound=models.Model)

# (stage, part) → (digest, what was read); the least recently read is dropped first.
KEPT_PARTS = 64
_kept: OrderedDict[tuple[int, Hashable], tuple[Hashable, object]] = OrderedDict()
_lock = threading.Lock()  # a worker of threads (serve's default) reads in several at once

Digest = tuple[int, int]  # (rows, the sum of their hashes)


class Digests(NamedTuple):
    """The digests of a stage's parts, read together."""

    results: dict[int, Digest]  # round → its result rows' digest, for rounds that have any
    teams: Digest  # the entries, their teams and groups
    rounds: Digest
    penalties: Digest  # every penalty of the stage's rounds


def digests(stage_pk: int) -> Digests | None:
    """The digests of the stage's parts (one statement, prepared by the server once the
    connection has run it a few times); None off PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    results, parts = {}, {}
    for part, round_id, count, total in kept_sql_rows("stage-digests", _digests_sql,
                                                      [stage_pk] * 4):
        if part == "results":
            results[round_id] = (count, int(total))
        else:
            parts[part] = (count, int(total or 0))
    return Digests(results, parts["teams"], parts["rounds"], parts["penalties"])


def _digests_sql(connection) -> str:
    def table(model: type[models.Model]) -> str:
        return connection.ops.quote_name(model._meta.db_table)

    def version(alias: str) -> str:
        return f"{alias}.id || ':' || {row_version(alias)}"

    stage_rounds = f"ARRAY(SELECT id FROM {table(Round)} WHERE stage_id = %s)"
    # The result rows from the index on (round, revision) alone, as stage_results reads them.
    return f"""
        SELECT 'results', r.round_id, COUNT(*), SUM(hashint8extended(r.revision, 0))
        FROM {table(TeamResult)} r WHERE r.round_id = ANY({stage_rounds})
        GROUP BY r.round_id
        UNION ALL
        SELECT 'teams', NULL, COUNT(*), SUM(hashtextextended(
            {version("e")} || '|' || {version("t")} || '|' || COALESCE({version("g")}, ''),
            0))
        FROM {table(StageTeam)} e JOIN {table(Team)} t ON t.id = e.team_id
            LEFT JOIN {table(Group)} g ON g.id = e.group_id
        WHERE e.stage_id = %s
        UNION ALL
        SELECT 'rounds', NULL, COUNT(*), SUM(hashtextextended({version("o")}, 0))
        FROM {table(Round)} o WHERE o.stage_id = %s
        UNION ALL
        SELECT 'penalties', NULL, COUNT(*), SUM(hashtextextended({version("p")}, 0))
        FROM {table(Penalty)} p WHERE p.round_id = ANY({stage_rounds})"""


def kept(stage_pk: int, part: Hashable, digest: Hashable | None, read: Callable[[], T]) -> T:
    """The part of the stage kept with ``digest``, or ``read()`` (then kept with it). Without
    a digest (SQLite) it is always read and never kept. The caller must not change what it
    is given: it may be what another request is given too (copy models with ``fresh``)."""
    if digest is None:
        return read()
    key = (stage_pk, part)
    with _lock:
        found = _kept.get(key)
        if found is not None and found[0] == digest:
            _kept.move_to_end(key)
            return found[1]  # type: ignore[return-value]
    value = read()
    with _lock:
        _kept[key] = (digest, value)
        _kept.move_to_end(key)
        while len(_kept) > KEPT_PARTS:
            _kept.popitem(last=False)
    return value


def fresh(instance: M) -> M:
    """A copy of a kept model for one read: its fields' values (and annotations) and a state
    of its own, as ``Model.from_db`` makes it (``_state.db`` and ``adding``), with no related
    object or prefetch cached. A tenth of what making the model from its row costs."""
    copy = instance.__class__.__new__(instance.__class__)
    values = instance.__dict__.copy()
    state = type(instance._state)()
    state.db, state.adding = instance._state.db, False
    values["_state"] = state
    copy.__dict__ = values
    return copy
