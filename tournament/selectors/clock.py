"""The tables of a round against its clock (issue 58; tournament/clock.py): which are still
playing (hands still to enter), each with its own end time (the round's plus its
extension), for the progress page's "time is up" list. One query."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Q

from tournament.clock import RoundClock
from tournament.models import Round, Table


@dataclass(frozen=True)
class TableTime:
    table: Table
    entered: int
    hands: int
    extra_minutes: int
    ends_at: dt.datetime | None
    up: bool  # time is up and hands are still to be played


def tables_still_playing(round_: Round, now: dt.datetime) -> list[TableTime]:
    """The round's tables with hands still to enter (a forfeited match has none), by
    number."""
    clock = RoundClock.of(round_)
    rows = (Table.objects.filter(round=round_, match__isnull=False,
                                 match__forfeited_by__isnull=True)
            .select_related("match")
            .annotate(entered=Count("results", filter=Q(results__is_current=True)))
            .order_by("number"))
    out = []
    for table in rows:
        hands = round_.hands_per_match + table.match.extra_hands  # the round is known
        if table.entered >= hands:
            continue
        out.append(TableTime(table, table.entered, hands, table.extra_minutes,
                             clock.table_ends_at(table.extra_minutes),
                             clock.is_up(now, table.extra_minutes)))
    return out
