"""What players against the field read from the database (``selectors.field.
field_standings``): the sums of the rounds shown whole added up by the database
(``_field_sums``, one query whatever the number of hands), the hands of a round shown in
part (``_field_rows``), the line-ups (``_field_lineups``) and the matches left out for a
withdrawn team (``_left_out_matches``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import NamedTuple

from django.db import connection
from django.db.models import Exists, ExpressionWrapper, IntegerField, OuterRef, Q

from scoring import seating
from scoring.field import TRIM_FROM
from tournament.models import HandResult, Match, Round, RoundEntry, Table

_FIELD_ROW = ("table__round_id", "table_id", "hand", "table__match_id", "table__match__number",
              "table__position", "deal_id", "seat1_points", "table__match__home_id",
              "table__match__away_id")


def _field_rows(round_ids: list[int], official_only: bool) -> list[tuple]:
    """The current results of these rounds' matches decided by play, as plain values in
    the order of ``_FIELD_ROW`` (one query): what ``played_results`` reads, without the columns the
    comparison does not need, in no particular order."""
    rows = HandResult.objects.filter(is_current=True, table__match__forfeited_by__isnull=True,
                                     table__round_id__in=round_ids)
    if official_only:
        rows = rows.filter(table__match__signed_off_at__isnull=False)
    return list(rows.order_by().values_list(*_FIELD_ROW))


def _sql_list(values: Collection) -> str:
    """One query parameter for each value (%s, %s, …), for an SQL IN list."""
    return ", ".join(["%s"] * len(values))


_PACK = 2 ** 20  # see the deal's key in ``_field_sums``


class PlayerSums(NamedTuple):
    """What the database adds up of one player's counted hands of the rounds shown whole,
    for one group of ``scoring.field.FieldSums.add_seat``: the hands the player played in
    ``seat`` of a table, all with seat 1 holding the dealer cards or all with seat 2
    holding them, on deals of ``kept`` tables kept."""

    player: int
    round_id: int | None  # with ``by_round`` only
    seat: int  # 1 or 2
    seat1_deals: bool
    kept: int
    hands: int
    seat1_points: int  # seat 1's points on these hands
    datum_totals: int  # the sum of these deals' kept totals for the dealer cards
    unsigned: bool  # one of these hands is of a match not signed off


def _seat_holders_sql(position: str, seat: str) -> str:
    """The player in seat ``seat`` of the match's table ``position`` (SQL expressions),
    from the line-ups joined as ``home_entry`` and ``away_entry``: ``scoring.seating``'s
    answer for each table and seat (``seats``), written out as SQL."""
    slots = {1: "first_player_id", 2: "second_player_id"}
    cases = " ".join(
        f"WHEN {position} = {table} AND {seat} = {seat_number} "
        f"THEN {holder.side.value}_entry.{slots[holder.slot]}"
        for table, seat_number, holder in seating.seats())
    return f"CASE {cases} END"


def _field_sums(round_ids: list[int], per_match_ids: list[int], official_only: bool,
                left_out_matches: Collection[int], *, by_round: bool = False
                ) -> list[PlayerSums]:
    """What the database adds up of these rounds' counted hands, per player (one query,
    whatever the number of hands; about four rows a player). The field of a deal is worked
    out as ``scoring.field.datum_parts`` does it (the highest and lowest dropped from
    ``TRIM_FROM`` tables), over the hands that ``field_standings`` counts one by one
    elsewhere: current, of matches decided by play (signed off with ``official_only``),
    with both line-ups, not ``left_out_matches``. Who sat in which seat is worked out in
    the query from the line-ups (``_seat_holders_sql``): the 15,360 sums per table of the
    last day of a 512-team event would cost more to bring back and pair with their players
    than to add up. ``by_round``: summed per player and round (every deal is of one round,
    so a round's sums are its own: ``selectors.field_kept`` keeps them)."""
    hands, tables, matches, entries = (model._meta.db_table for model in (
        HandResult, Table, Match, RoundEntry))
    per_match = f"t.round_id IN ({_sql_list(per_match_ids)})" if per_match_ids else "1 = 0"
    official = "AND m.signed_off_at IS NOT NULL" if official_only else ""
    left_out = f"AND m.id NOT IN ({_sql_list(left_out_matches)})" if left_out_matches \
        else ""
    rounds = _sql_list(round_ids)
    # A deal is named by its row, or without deals made here by (round, set, hand)
    # (``field_results.deal_key``): one integer column, never null, so that it can be joined
    # on — the row's id, or minus the round, set and hand packed into 20 bits each (no
    # round has a million matches or hands). Integers rather than text ("17", "3/1/2"):
    # a tenth of the query's time on the last day of a 512-team event.
    sql = f"""
        WITH h AS (
            SELECT hr.table_id, t.round_id, t.match_id, t.position,
                   hr.hand %% 2 AS seat1_deals,
                   hr.seat1_points AS seat1,
                   CASE WHEN hr.hand %% 2 = 1 THEN hr.seat1_points ELSE -hr.seat1_points END
                       AS dealer,
                   COALESCE(hr.deal_id, -((t.round_id * {_PACK} + CASE WHEN {per_match}
                             THEN m.number ELSE 1 END) * {_PACK} + hr.hand)) AS deal,
                   CASE WHEN m.signed_off_at IS NULL THEN 1 ELSE 0 END AS unsigned
            FROM {hands} hr
            JOIN {tables} t ON t.id = hr.table_id
            JOIN {matches} m ON m.id = t.match_id
            WHERE hr.is_current = %s AND m.forfeited_by_id IS NULL
              AND t.round_id IN ({rounds}) {official} {left_out}
              AND EXISTS (SELECT 1 FROM {entries} e WHERE e.match_id = m.id AND e.side = %s)
              AND EXISTS (SELECT 1 FROM {entries} e WHERE e.match_id = m.id AND e.side = %s)
        ), d AS (
            SELECT deal,
                   CASE WHEN COUNT(*) >= %s THEN SUM(dealer) - MAX(dealer) - MIN(dealer)
                        ELSE SUM(dealer) END AS total,
                   CASE WHEN COUNT(*) >= %s THEN COUNT(*) - 2 ELSE COUNT(*) END AS kept
            FROM h GROUP BY deal
        ), per_table AS (
            SELECT h.round_id, h.match_id, h.position, h.seat1_deals, d.kept, h.unsigned,
                   COUNT(*) AS hands, SUM(h.seat1) AS seat1, SUM(d.total) AS totals
            FROM h JOIN d ON d.deal = h.deal
            GROUP BY h.table_id, h.round_id, h.match_id, h.position, h.seat1_deals, d.kept,
                     h.unsigned
        )
        SELECT {_seat_holders_sql("p.position", "s.seat")} AS player,
               {"p.round_id" if by_round else "NULL"} AS round_id, s.seat,
               p.seat1_deals, p.kept, CAST(SUM(p.hands) AS BIGINT), CAST(SUM(p.seat1) AS BIGINT),
               CAST(SUM(p.totals) AS BIGINT), MAX(p.unsigned)
        FROM per_table p
        CROSS JOIN (SELECT 1 AS seat UNION ALL SELECT 2) s
        JOIN {entries} home_entry ON home_entry.match_id = p.match_id
                                    AND home_entry.side = %s
        JOIN {entries} away_entry ON away_entry.match_id = p.match_id
                                    AND away_entry.side = %s
        GROUP BY 1, 2, s.seat, p.seat1_deals, p.kept"""
    params = [*per_match_ids, True, *round_ids, *left_out_matches, RoundEntry.Side.HOME,
              RoundEntry.Side.AWAY, TRIM_FROM, TRIM_FROM, RoundEntry.Side.HOME,
              RoundEntry.Side.AWAY]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        # PostgreSQL adds bigints up into numerics; cast back in the query (exact: no sum
        # of hands comes near 2**63), as Python's Decimals would cost a tenth of the page.
        return [PlayerSums(player, round_id, seat, seat1_deals == 1, kept, count, seat1,
                           totals, unsigned == 1)
                for player, round_id, seat, seat1_deals, kept, count, seat1, totals, unsigned
                in cursor.fetchall()]


def _field_lineups(round_ids: list[int]) -> tuple[dict[int, dict[str, tuple[int, int]]],
                                                   set[int], set[int]]:
    """match pk → side → (first player pk, second player pk); the teams with a line-up;
    the matches not signed off (one query: the sign-off read per match as 1 or 0, not per
    hand, and no date parsed)."""
    lineups: dict[int, dict[str, tuple[int, int]]] = defaultdict(dict)
    teams: set[int] = set()
    unsigned: set[int] = set()
    for match_id, side, team_id, first, second, provisional in (
            RoundEntry.objects.filter(round_id__in=round_ids, match__isnull=False)
            .annotate(provisional=ExpressionWrapper(Q(match__signed_off_at__isnull=True),
                                                    output_field=IntegerField()))
            .order_by().values_list("match_id", "side", "team_id", "first_player_id",
                                    "second_player_id", "provisional")):
        lineups[match_id][side] = (first, second)
        teams.add(team_id)
        if provisional:
            unsigned.add(match_id)
    return lineups, teams, unsigned



def _left_out_matches(rounds: list[Round], out_by_stage: dict[int, set[int]],
                      official_only: bool, left_out: set[int]) -> list[int]:
    """The matches of ``rounds`` with a team withdrawn from their stage (their tables
    leave the field), adding to ``left_out`` those teams where the match has a hand that
    would have counted (one query, none without a withdrawn team)."""
    if not any(out_by_stage.values()):
        return []
    involving = Q(pk__in=[])
    for stage_id, out in out_by_stage.items():
        if out:
            involving |= Q(round__stage_id=stage_id) & (Q(home_id__in=out) | Q(away_id__in=out))
    matches = Match.objects.filter(involving, round__in=rounds, forfeited_by__isnull=True)
    if official_only:
        matches = matches.filter(signed_off_at__isnull=False)
    stage_of = {r.pk: r.stage_id for r in rounds}
    left_out_matches = []
    for pk, round_id, home, away, counted in matches.annotate(counted=Exists(
            HandResult.objects.filter(table__match=OuterRef("pk"), is_current=True))
            ).order_by().values_list("pk", "round_id", "home_id", "away_id", "counted"):
        left_out_matches.append(pk)
        if counted:
            left_out |= {home, away} & out_by_stage[stage_of[round_id]]
    return left_out_matches
