"""Players against the field's sums of the rounds shown whole (``selectors.field_sums``),
kept per round between two reads on PostgreSQL, as ``selectors.stage_results`` keeps the
standings' records.

On the last day of a 512-team event the database adds up 61,440 hands for every read of
the field (about 100 ms), though only the round in play changes. Every deal is of one
round, so a round's sums are its own; each process keeps each round's sums per player
with the round's *digest*, and the total of each set of rounds read together (a stage,
the event, a day's bulletin). The digest of a round is the number of rows and the sum of
a 64-bit hash of each row's identity and version (PostgreSQL's ``xmin`` and ``cmin``: the
transaction and the command that wrote the row as it is now; for a hand, its revision, a
number the database gives the row at each write: migration 0026) over everything its sums
are made from: its hands, its tables, its matches and its seats (``TableSeat``). Any write
of one of them, by any process and any door, gives the row a new version, so a round whose digest
is unchanged has the very rows it had; only the rounds whose digest moved are added up
again, and their old sums taken from the total and the new ones added (every figure is a
sum: ``scoring.field.FieldSums.add_seat`` is linear). A rolled-back write leaves the old
versions, hence the old digest. The digest is read before the sums, so sums newer than
their digest are at worst added up once more. (Two different sets of versions with the
same sum of hashes are a 2**-64 chance.)

SQLite has no row versions: there every read adds every round up, as before.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from django.db import connection

from scoring.field import FieldSums
from tournament.models import HandResult, Match, Table, TableSeat
from tournament.selectors.field_sums import PlayerSums, _field_sums, dealing_rule
from tournament.selectors.row_versions import row_version

KEPT_READS = 8  # sets of rounds read together (the field of a stage, of the event, …)
KEPT_ROUNDS = 64  # rounds' sums (about 0.3 MB a round of a 512-team event)


@dataclass
class FieldTotals:
    """The sums of some rounds per player: against the field (``FieldSums``), the raw
    points [all, as dealer, as non-dealer], and how many of the player's groups of hands
    are of a match not signed off (provisional when above zero)."""

    sums: dict[int, FieldSums] = field(default_factory=dict)
    raw: dict[int, list[int]] = field(default_factory=dict)
    unsigned: Counter = field(default_factory=Counter)

    def add(self, rows: Iterable[PlayerSums], sign: int = 1) -> None:
        """Add these rows (``sign`` −1: take them away); a player left without a hand
        leaves the totals."""
        touched = set()
        for row in rows:
            player = row.player
            touched.add(player)
            line = self.sums.get(player) or self.sums.setdefault(player, FieldSums())
            line.add_seat(row.seat, row.seat1_deals, row.kept, sign * row.hands,
                          sign * row.seat1_points, sign * row.datum_totals)
            add_points(self.raw, player,
                       sign * (row.seat1_points if row.seat == 1 else -row.seat1_points),
                       as_dealer=(row.seat == 1) == row.seat1_deals)
            if row.unsigned:
                self.unsigned[player] += sign
        if sign < 0:
            for player in touched:
                line = self.sums[player]
                if not line.dealer_hands + line.non_dealer_hands:
                    del self.sums[player], self.raw[player]
                if self.unsigned.get(player, 1) <= 0:
                    del self.unsigned[player]

    def copy(self) -> FieldTotals:
        return FieldTotals(
            {player: FieldSums(line.dealer_hands, line.non_dealer_hands, dict(line.dealer),
                               dict(line.non_dealer)) for player, line in self.sums.items()},
            {player: list(raw) for player, raw in self.raw.items()}, Counter(self.unsigned))

    @property
    def provisional(self) -> set[int]:
        return {player for player, count in self.unsigned.items() if count > 0}


def add_points(raw: dict[int, list[int]], player: int, points: int, *,
               as_dealer: bool) -> None:
    """Count ``points`` a player made (over one hand or several, all with the dealer cards
    or all with the other's) into the player's raw points: [points, as dealer, as
    non-dealer]."""
    line = raw.get(player) or raw.setdefault(player, [0, 0, 0])
    line[0] += points
    line[1 if as_dealer else 2] += points


@dataclass(frozen=True)
class _Kept:
    totals: FieldTotals
    rounds: dict[int, list[PlayerSums]]  # the sums added into the totals, by round


# (round, its deals per match, official only, matches left out, dealing rule) → (digest,
# sums): what a round's hands add up to does not depend on the rounds read with it (a
# stage's page, the whole event's, a day's bulletin share them).
_rounds: OrderedDict[tuple, tuple[tuple[int, int] | None, list[PlayerSums]]] = OrderedDict()
# (rounds, rounds with a deal set per match, official only, matches left out, dealing rule)
# → their totals. The least recently read of each is dropped first.
_kept: OrderedDict[tuple, _Kept] = OrderedDict()
_lock = threading.Lock()  # a server of threads (runserver) reads in several at once


def field_totals(round_ids: list[int], per_match_ids: list[int], official_only: bool,
                 left_out_matches: Collection[int]) -> FieldTotals:
    """The sums per player of these rounds' counted hands (``_field_sums``). On
    PostgreSQL, one query for the digests and one for the rounds whose digest moved since
    the process last added them up (none: no second query); the totals of rounds read
    together before are kept, the changed rounds' old sums taken away and their new ones
    added. Read-only for the caller: what is kept is never changed, a read with changed
    rounds keeps new objects."""
    if connection.vendor != "postgresql":
        totals = FieldTotals()
        totals.add(_field_sums(round_ids, per_match_ids, official_only, left_out_matches))
        return totals
    left_out = tuple(sorted(left_out_matches))
    per_match = set(per_match_ids)

    # The sums follow the dealing rule too (``scoring.seating``): kept under it.
    rule = dealing_rule()

    def round_key(pk: int) -> tuple:
        return pk, pk in per_match, official_only, left_out, rule

    key = (tuple(round_ids), tuple(per_match_ids), official_only, left_out, rule)
    digests = _digests(round_ids)
    with _lock:
        kept = _kept.get(key)
        known = {pk: _rounds.get(round_key(pk)) for pk in round_ids}
    stale = [pk for pk in round_ids if known[pk] is None or known[pk][0] != digests.get(pk)]
    if stale:
        fresh: dict[int, list[PlayerSums]] = {pk: [] for pk in stale}
        for row in _field_sums(stale, [pk for pk in per_match_ids if pk in fresh],
                               official_only, left_out, by_round=True):
            fresh[row.round_id].append(row)
        for pk in stale:
            known[pk] = (digests.get(pk), fresh[pk])
    sums = {pk: known[pk][1] for pk in round_ids}
    if kept is None:
        totals = FieldTotals()
        for pk in round_ids:
            totals.add(sums[pk])
        kept = _Kept(totals, sums)
    elif changed := [pk for pk in round_ids if kept.rounds.get(pk) is not sums[pk]]:
        totals = kept.totals.copy()
        for pk in changed:
            if pk in kept.rounds:
                totals.add(kept.rounds[pk], sign=-1)
            totals.add(sums[pk])
        kept = _Kept(totals, sums)
    with _lock:
        for pk in round_ids:
            _rounds[round_key(pk)] = known[pk]
            _rounds.move_to_end(round_key(pk))
        while len(_rounds) > max(KEPT_ROUNDS, len(round_ids)):
            _rounds.popitem(last=False)
        _kept[key] = kept
        _kept.move_to_end(key)
        while len(_kept) > KEPT_READS:
            _kept.popitem(last=False)
    return kept.totals


def _digests(round_ids: list[int]) -> dict[int, tuple[int, int]]:
    """round → (rows, the sum of their versions' hashes) over the round's hands, tables,
    matches and seats, for the rounds that have any. A hand's version is its revision
    (``HandResult.revision``, migration 0026: a number from one sequence the database gives
    the row at each write), read from an index with its table: the 61,440 hands of a
    512-team event, hashed from their ``xmin`` as the tables, matches and seats still are,
    were most of the time of this query (issue 59)."""
    hands, tables, matches, seats = (connection.ops.quote_name(model._meta.db_table)
                                     for model in (HandResult, Table, Match, TableSeat))
    places = ", ".join(["%s"] * len(round_ids))

    def version(kind: str, alias: str) -> str:
        return f"hashtextextended('{kind}:' || {alias}.id || ':' || {row_version(alias)}, 0)"

    with connection.cursor() as cursor:
        cursor.execute(f"""
            SELECT round_id, CAST(SUM(n) AS BIGINT), SUM(versions) FROM (
                SELECT t.round_id, COUNT(*) AS n, SUM(hashint8extended(hr.revision, 0))
                    AS versions
                FROM {hands} hr JOIN {tables} t ON t.id = hr.table_id
                WHERE t.round_id IN ({places}) GROUP BY t.round_id
                UNION ALL
                SELECT t.round_id, COUNT(*), SUM({version("t", "t")})
                FROM {tables} t WHERE t.round_id IN ({places}) GROUP BY t.round_id
                UNION ALL
                SELECT m.round_id, COUNT(*), SUM({version("m", "m")})
                FROM {matches} m WHERE m.round_id IN ({places}) GROUP BY m.round_id
                UNION ALL
                SELECT s.round_id, COUNT(*), SUM({version("s", "s")})
                FROM {seats} s WHERE s.round_id IN ({places}) GROUP BY s.round_id
            ) rows GROUP BY round_id""", [*round_ids] * 4)
        return {round_id: (count, int(total)) for round_id, count, total in cursor.fetchall()}
