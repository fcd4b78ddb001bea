"""Who sits where, written down (``TableSeat``): the seats of a match's tables follow from its
line-ups and each table's position by ``scoring.seating``, and are written here, by every
service that makes or changes line-ups (the draw, a line-up change, a swap, the tournament
file's import). The database refuses seats that contradict the line-ups and a line-up
changed under its seats (docs/invariants.md): a change takes the match's seats off
(``clear_seats``), changes the line-up, and writes them again (``write_seats``).

These run inside the caller's transaction, under its locks.
"""

from __future__ import annotations

from collections.abc import Collection

from scoring import seating
from tournament.models import RoundEntry, Table, TableSeat


def _seats_of(**where) -> list[TableSeat]:
    """The seats of the tables of a match ``where`` says (``match_id__in`` or
    ``round_id__in``), from their matches' line-ups (two queries)."""
    tables = (Table.objects.filter(match__isnull=False, **where).order_by()
              .values_list("pk", "round_id", "match_id", "position"))
    lineups: dict[int, dict[str, tuple[int, int]]] = {}
    for match, side, first, second in (
            RoundEntry.objects.filter(match__isnull=False, **where)
            .order_by().values_list("match_id", "side", "first_player_id", "second_player_id")):
        lineups.setdefault(match, {})[side] = (first, second)
    return [TableSeat(round_id=round_id, table_id=table, seat=seat,
                      player_id=seating.player_in_seat(position, seat, lineups[match]))
            for table, round_id, match, position in tables
            if len(lineups.get(match, ())) == 2
            for seat in (1, 2)]


def clear_seats(*, matches: Collection[int]) -> None:
    """Take the seats of these matches' tables off, before their line-ups change."""
    TableSeat.objects.filter(table__match_id__in=list(matches)).delete()


def write_seats(*, matches: Collection[int]) -> None:
    """(Re)write the seats of these matches' tables from their line-ups."""
    clear_seats(matches=matches)
    TableSeat.objects.bulk_create(_seats_of(match_id__in=list(matches)), batch_size=2000)


def write_round_seats(round_ids: Collection[int]) -> None:
    """(Re)write the seats of every table of a match in these rounds (after the rounds'
    tables and line-ups are written: the draw, the tournament file's import)."""
    round_ids = list(round_ids)
    TableSeat.objects.filter(round_id__in=round_ids).delete()
    TableSeat.objects.bulk_create(_seats_of(round_id__in=round_ids), batch_size=2000)
