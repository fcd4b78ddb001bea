"""Row locks, taken one way by every service that changes results (docs/invariants.md).

``lock`` is the only door: it refuses to run outside a transaction (a lock taken there
would end with its statement), it takes its rows in one fixed order, rounds, then matches,
then tables, then players, each kind by ascending primary key, and it gives up after
``LOCK_TIMEOUT_MS`` with a message instead of waiting forever. Two services that lock
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
- closing a round: the round and all its matches.

On SQLite every write transaction already holds the database's single write lock from its
start (``transaction_mode = IMMEDIATE``), so the row locks are PostgreSQL's business; the
order and the refusal outside a transaction hold on both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db import OperationalError, models, transaction
from django.utils.translation import gettext

from tournament.models import Match, Player, Round, Table
from tournament.services.base import ServiceError

LOCK_TIMEOUT_MS = 10_000

# The order of the kinds, and what each locked row brings with it (read in the same query,
# not locked: ``of=("self",)``).
_ORDER: tuple[tuple[str, type[models.Model], tuple[str, ...]], ...] = (
    ("rounds", Round, ("stage__tournament",)),
    ("matches", Match, ("round__stage__tournament", "home", "away")),
    ("tables", Table, ("match__round__stage__tournament", "match__home", "match__away")),
    ("players", Player, ("team__tournament",)),
)


@dataclass(frozen=True)
class Locked:
    """The locked rows, freshly read, by primary key."""

    rounds: dict[int, Round] = field(default_factory=dict)
    matches: dict[int, Match] = field(default_factory=dict)
    tables: dict[int, Table] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)

    def one(self, kind: str):
        """The only row of a kind (for a service that locked one)."""
        rows = getattr(self, kind)
        if len(rows) != 1:
            raise ValueError(f"{len(rows)} {kind} are locked, not one")
        return next(iter(rows.values()))


def _pk(item) -> int:
    return item if isinstance(item, int) else item.pk


def lock(*, rounds: Iterable[Round | int] = (), matches: Iterable[Match | int] = (),
         tables: Iterable[Table | int] = (), players: Iterable[Player | int] = ()) -> Locked:
    """Lock these rows (models or primary keys) with SELECT … FOR UPDATE, in the one order,
    for the rest of the caller's transaction; returns them freshly read."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("row locks are taken inside the service's transaction "
                           "(transaction.atomic()), never outside one")
    wanted = {"rounds": rounds, "matches": matches, "tables": tables, "players": players}
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
        query = (model.objects.select_for_update(of=("self",)).select_related(*related)
                 .filter(pk__in=pks).order_by("pk"))
        try:
            rows = {row.pk: row for row in query}
        except OperationalError as error:
            if getattr(getattr(error, "__cause__", None), "sqlstate", None) == "55P03":
                raise ServiceError(
                    gettext("someone else is changing the same results right now; try again in a "
                            "moment")) from None
            raise
        missing = [pk for pk in pks if pk not in rows]
        if missing:
            raise model.DoesNotExist(f"no {model._meta.verbose_name} with id {missing[0]}")
        found[kind] = rows
    return Locked(**found)


# Tests only ---------------------------------------------------------------------------------
# A service calls ``checkpoint`` where it holds its locks and has read everything it decides
# on, just before it writes. Tests set ``on_checkpoint`` to stop a thread there and force an
# interleaving (tests/tournament/services/test_locking_races.py); in production it is None.
on_checkpoint: Callable[[str], None] | None = None


def checkpoint(name: str) -> None:
    if on_checkpoint is not None:
        on_checkpoint(name)
