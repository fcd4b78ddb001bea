"""Row locks, taken one way by every service that changes results (docs/invariants.md).

``lock`` is the only door: it refuses to run outside a transaction (a lock taken there
would end with its statement), it takes its rows in one fixed order, tournaments, then
rounds, then matches, then tables, then players, each kind by ascending primary key, and it
gives up after ``LOCK_TIMEOUT_MS`` with a message instead of waiting forever. Two services that lock
the same rows therefore always queue in the same order and can never deadlock on them.

Call it once, at the start of the service's transaction, with everything the service
will change or decide on, and read what you decide on *after* it (from the rows it
returns, or with new queries): what was read before the lock may be stale. Which rows each
service locks:

- a hand saved (and a correction): its match, then its table; saves at other matches go on;
- an approval or a signature: the match and the table (and the seat's player when a PIN
  is checked);
- a sign-off: the match and both its tables, so a hand saved at that moment either lands
  before it (and its points are in the totals) or finds the match signed off;
- extra hands for a tied knockout match: the round (their deals may be shared by every
  match of the round) and the match;
- closing a round: the round and all its matches;
- making the table devices: the tournament (its device accounts are the tournament's, not
  the round's) and the round.

On SQLite every write transaction already holds the database's single write lock from its
start (``transaction_mode = IMMEDIATE``), so the row locks are PostgreSQL's business; the
order and the refusal outside a transaction hold on both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db import OperationalError, models, transaction
from django.utils.translation import gettext

from tournament.models import Match, Player, RatingState, Round, Table, Tournament
from tournament.prepared import prepared_rows
from tournament.services.base import ServiceError

LOCK_TIMEOUT_MS = 10_000

# The order of the kinds, and what each locked row brings with it (read in the same query,
# not locked: ``of=("self",)``). A row whose parent (a match's round, a table's match) is
# locked by the same call gets that locked row, freshly read, instead of joining it again:
# building the joined query is most of the cost of a lock (docs/benchmarks.md, the demo).
_ORDER: tuple[tuple[str, type[models.Model], tuple[str, ...]], ...] = (
    ("tournaments", Tournament, ()),
    ("rounds", Round, ("stage__tournament",)),
    ("matches", Match, ("round__stage__tournament", "home", "away")),
    ("tables", Table, ("match__round__stage__tournament", "match__home", "match__away")),
    ("players", Player, ("team__tournament",)),
    # The one row of the ratings (models/ratings.py): last, since a service that changes a
    # rated event's results marks the ratings out of date at the end of its transaction.
    ("ratings", RatingState, ()),
)
# kind → (the field naming its parent, the parent's kind)
_PARENT = {"matches": ("round", "rounds"), "tables": ("match", "matches")}


@dataclass(frozen=True)
class Locked:
    """The locked rows, freshly read, by primary key."""

    tournaments: dict[int, Tournament] = field(default_factory=dict)
    rounds: dict[int, Round] = field(default_factory=dict)
    matches: dict[int, Match] = field(default_factory=dict)
    tables: dict[int, Table] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)
    ratings: dict[int, RatingState] = field(default_factory=dict)

    def one(self, kind: str):
        """The only row of a kind (for a service that locked one)."""
        rows = getattr(self, kind)
        if len(rows) != 1:
            raise ValueError(f"{len(rows)} {kind} are locked, not one")
        return next(iter(rows.values()))


def _pk(item) -> int:
    return item if isinstance(item, int) else item.pk


def lock(*, tournaments: Iterable[Tournament | int] = (), rounds: Iterable[Round | int] = (),
         matches: Iterable[Match | int] = (), tables: Iterable[Table | int] = (),
         players: Iterable[Player | int] = (), ratings: bool = False) -> Locked:
    """Lock these rows (models or primary keys) with SELECT … FOR UPDATE, in the one order,
    for the rest of the caller's transaction; returns them freshly read."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("row locks are taken inside the service's transaction "
                           "(transaction.atomic()), never outside one")
    wanted = {"tournaments": tournaments, "rounds": rounds, "matches": matches,
              "tables": tables, "players": players,
              "ratings": [RatingState.ONLY] if ratings else []}
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # For the rest of this transaction: a lock not granted by then is refused.
            cursor.execute(f"SET LOCAL lock_timeout = {int(LOCK_TIMEOUT_MS)}")
    found: dict[str, dict[int, models.Model]] = {}
    for kind, model, related in _ORDER:
        pks = sorted({_pk(item) for item in wanted[kind]})
        if not pks:
            found[kind] = {}
            continue
        parent = _PARENT.get(kind)
        parents = found[parent[1]] if parent else {}
        if parents:
            # Only what does not come with the locked parent is joined.
            prefix = parent[0] + "__"
            joined = tuple(path for path in related
                           if path != parent[0] and not path.startswith(prefix))
        else:
            joined = related

        def query(pks: list[int], model=model, joined=joined) -> models.QuerySet:
            rows = model.objects.select_for_update(of=("self",))
            if joined:
                rows = rows.select_related(*joined)
            return rows.filter(pk__in=pks).order_by("pk")

        try:
            rows = {row.pk: row for row in _read((kind, joined), query, pks)}
        except OperationalError as error:
            if getattr(getattr(error, "__cause__", None), "sqlstate", None) == "55P03":
                raise ServiceError(
                    gettext("someone else is changing the same results right now; try again in a "
                            "moment")) from None
            raise
        missing = [pk for pk in pks if pk not in rows]
        if missing:
            raise model.DoesNotExist(f"no {model._meta.verbose_name} with id {missing[0]}")
        if parents:
            _attach_parents(rows.values(), parent[0], parents, related)
        found[kind] = rows
    return Locked(**found)


# A hand's save and its two approvals lock the same shapes again and again: the SQL of a
# shape (a kind, what it joins, one to four rows) is built by Django once per connection
# (tournament.prepared); only the primary keys change from one call to the next.
_PREPARED_ROWS = 4


def _read(shape: tuple, query: Callable[[list[int]], models.QuerySet],
          pks: list[int]) -> Iterable[models.Model]:
    """The rows of a lock query (``query(pks)`` makes it): through its prepared SQL when
    the shape is a small one."""
    if len(pks) > _PREPARED_ROWS:
        return query(pks)
    return prepared_rows(("lock", *shape), lambda *keys: query(list(keys)), pks)


def _attach_parents(rows: Iterable[models.Model], name: str, parents: dict[int, models.Model],
                    related: tuple[str, ...]) -> None:
    """Give each row its parent locked by the same call; a parent that was not locked is
    read (not locked) with what it brings, as a join would have read it."""
    rows = list(rows)
    attname = f"{name}_id"
    others = {getattr(row, attname) for row in rows} - set(parents)
    if others:
        model = next(iter(rows))._meta.get_field(name).related_model
        prefix = name + "__"
        nested = [path[len(prefix):] for path in related if path.startswith(prefix)]
        query = model.objects.filter(pk__in=sorted(others))
        if nested:
            query = query.select_related(*nested)
        parents = {**parents, **{row.pk: row for row in query}}
    for row in rows:
        setattr(row, name, parents[getattr(row, attname)])


# Tests only ---------------------------------------------------------------------------------
# A service calls ``checkpoint`` where it holds its locks and has read everything it decides
# on, just before it writes. Tests set ``on_checkpoint`` to stop a thread there and force an
# interleaving (tests/tournament/services/test_locking_races.py); in production it is None.
on_checkpoint: Callable[[str], None] | None = None


def checkpoint(name: str) -> None:
    if on_checkpoint is not None:
        on_checkpoint(name)


def shown_revision(match, tables) -> int:
    """The revision of a match as a page shows it: its own plus its tables'. What moves
    them on (services.commands): a save or an approval moves its table's, a signature its
    match's (triggers of migration 0013, with the row that moves it: no round trip of its
    own), a sign-off and extra hands the match's (with the match's own update)."""
    return match.revision + sum(table.revision for table in tables)
