"""What players against the field read from the database (``selectors.field.
field_standings``): the sums of the rounds shown whole added up by the database
(``_field_sums``, one query whatever the number of hands), the hands of a round shown in
part (``_field_rows``), who sat where (``_field_seats``) and the matches left out for a
withdrawn team (``_left_out_matches``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import NamedTuple

from django.db import connection
from django.db.models import Exists, ExpressionWrapper, IntegerField, Max, OuterRef, Q

from scoring import seating
from scoring.field import TRIM_FROM
from scoring.rules import Rules
from tournament.models import HandResult, Match, Round, Table, TableSeat

_FIELD_ROW = ("table__round_id", "table_id", "hand", "table__match_id", "table__match__number",
              "deal_id", "seat1_points", "table__match__home_id", "table__match__away_id")


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


# The hands whose dealer is written into the query: every hand of a match of the longest
# (64 hands, ``scoring.rules``) with as many extra hands again. A hand beyond them reads the
# rounds' longest match and asks again (``_field_sums``).
_DEALT_HANDS = 128


def _dealing_sql(hands: int) -> tuple[str, list[int]]:
    """(hand, 1 when seat 1 holds the dealer cards else 0) for hands 1 to ``hands``, as SQL
    ``VALUES`` and its parameters: ``scoring.seating.dealer_seat``'s answer for each hand,
    so that the query holds no dealing rule of its own."""
    numbers = range(1, hands + 1)
    return (", ".join(["(%s, %s)"] * len(numbers)),
            [value for hand in numbers for value in (hand, int(seating.dealer_seat(hand) == 1))])


def dealing_rule() -> tuple[int, ...]:
    """The seat that holds the dealer cards in hands 1 to ``_DEALT_HANDS``
    (``scoring.seating``): what sums kept between reads were made under."""
    return tuple(seating.dealer_seat(hand) for hand in range(1, _DEALT_HANDS + 1))


def _most_hands(round_ids: list[int]) -> int:
    """The most hands a match of these rounds has (one query)."""
    return max((Rules.from_dict(rules).hands_per_match + (extra or 0)
                for rules, extra in Round.objects.filter(pk__in=round_ids).annotate(
                    extra=Max("matches__extra_hands")).order_by().values_list(
                    "rule_settings", "extra")), default=1)


def _field_sums(round_ids: list[int], per_match_ids: list[int], official_only: bool,
                left_out_matches: Collection[int], *, by_round: bool = False,
                dealt_hands: int = _DEALT_HANDS) -> list[PlayerSums]:
    """What the database adds up of these rounds' counted hands, per player (one query,
    whatever the number of hands; about four rows a player). The field of a deal is worked
    out as ``scoring.field.datum_parts`` does it (the highest and lowest dropped from
    ``TRIM_FROM`` tables), over the hands that ``field_standings`` counts one by one
    elsewhere: current, of matches decided by play (signed off with ``official_only``),
    with both seats written, not ``left_out_matches``. Who sat in which seat is read in
    the query (``TableSeat``), and which seat held the dealer cards in each hand is
    ``scoring.seating``'s (``_dealing_sql``): the 15,360 sums per table of the last day of
    a 512-team event would cost more to bring back and pair with their players than to add
    up. ``by_round``: summed per player and round (every deal is of one round,
    so a round's sums are its own: ``selectors.field_kept`` keeps them)."""
    hands, tables, matches, seats = (model._meta.db_table for model in (
        HandResult, Table, Match, TableSeat))
    per_match = f"t.round_id IN ({_sql_list(per_match_ids)})" if per_match_ids else "1 = 0"
    official = "AND m.signed_off_at IS NOT NULL" if official_only else ""
    left_out = f"AND m.id NOT IN ({_sql_list(left_out_matches)})" if left_out_matches \
        else ""
    rounds = _sql_list(round_ids)
    dealing, dealing_params = _dealing_sql(dealt_hands)
    # A deal is named by its row, or without deals made here by (round, set, hand)
    # (``field_results.deal_key``): one integer column, never null, so that it can be joined
    # on — the row's id, or minus the round, set and hand packed into 20 bits each (no
    # round has a million matches or hands). Integers rather than text ("17", "3/1/2"):
    # a tenth of the query's time on the last day of a 512-team event.
    sql = f"""
        WITH dealing (hand, seat1_deals) AS (VALUES {dealing}),
        h AS (
            SELECT hr.table_id, t.round_id, dealing.seat1_deals,
                   hr.seat1_points AS seat1,
                   CASE WHEN dealing.seat1_deals = 1 THEN hr.seat1_points
                        ELSE -hr.seat1_points END AS dealer,
                   COALESCE(hr.deal_id, -((t.round_id * {_PACK} + CASE WHEN {per_match}
                             THEN m.number ELSE 1 END) * {_PACK} + hr.hand)) AS deal,
                   CASE WHEN m.signed_off_at IS NULL THEN 1 ELSE 0 END AS unsigned
            FROM {hands} hr
            LEFT JOIN dealing ON dealing.hand = hr.hand
            JOIN {tables} t ON t.id = hr.table_id
            JOIN {matches} m ON m.id = t.match_id
            WHERE hr.is_current = %s AND m.forfeited_by_id IS NULL
              AND t.round_id IN ({rounds}) {official} {left_out}
              AND EXISTS (SELECT 1 FROM {seats} s WHERE s.table_id = t.id AND s.seat = 1)
              AND EXISTS (SELECT 1 FROM {seats} s WHERE s.table_id = t.id AND s.seat = 2)
        ), d AS (
            SELECT deal,
                   CASE WHEN COUNT(*) >= %s THEN SUM(dealer) - MAX(dealer) - MIN(dealer)
                        ELSE SUM(dealer) END AS total,
                   CASE WHEN COUNT(*) >= %s THEN COUNT(*) - 2 ELSE COUNT(*) END AS kept
            FROM h GROUP BY deal
        ), per_table AS (
            SELECT h.table_id, h.round_id, h.seat1_deals, d.kept, h.unsigned,
                   COUNT(*) AS hands, SUM(h.seat1) AS seat1, SUM(d.total) AS totals
            FROM h JOIN d ON d.deal = h.deal
            GROUP BY h.table_id, h.round_id, h.seat1_deals, d.kept, h.unsigned
        )
        SELECT s.player_id AS player,
               {"p.round_id" if by_round else "NULL"} AS round_id, s.seat,
               p.seat1_deals, p.kept, CAST(SUM(p.hands) AS BIGINT), CAST(SUM(p.seat1) AS BIGINT),
               CAST(SUM(p.totals) AS BIGINT), MAX(p.unsigned)
        FROM per_table p
        JOIN {seats} s ON s.table_id = p.table_id
        GROUP BY 1, 2, s.seat, p.seat1_deals, p.kept"""
    params = [*dealing_params, *per_match_ids, True, *round_ids, *left_out_matches,
              TRIM_FROM, TRIM_FROM]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if any(row[3] is None for row in rows):  # a hand beyond those dealt in the query
        return _field_sums(round_ids, per_match_ids, official_only, left_out_matches,
                           by_round=by_round, dealt_hands=_most_hands(round_ids))
    # PostgreSQL adds bigints up into numerics; cast back in the query (exact: no sum of
    # hands comes near 2**63), as Python's Decimals would cost a tenth of the page.
    return [PlayerSums(player, round_id, seat, seat1_deals == 1, kept, count, seat1,
                       totals, unsigned == 1)
            for player, round_id, seat, seat1_deals, kept, count, seat1, totals, unsigned
            in rows]


def _field_seats(round_ids: list[int]) -> tuple[dict[int, tuple[int, int]], set[int],
                                                 set[int]]:
    """table pk → (the player in seat 1, the player in seat 2), for the tables of a match
    with both seats; the teams with a line-up; the matches not signed off (one query: the
    sign-off read per seat as 1 or 0, not per hand, and no date parsed)."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    teams: set[int] = set()
    unsigned: set[int] = set()
    for table_id, seat, player, team_id, match_id, provisional in (
            TableSeat.objects.filter(round_id__in=round_ids, table__match__isnull=False)
            .annotate(provisional=ExpressionWrapper(
                Q(table__match__signed_off_at__isnull=True), output_field=IntegerField()))
            .order_by().values_list("table_id", "seat", "player_id", "player__team_id",
                                    "table__match_id", "provisional")):
        seats[table_id][seat] = player
        teams.add(team_id)
        if provisional:
            unsigned.add(match_id)
    return ({table: (pair[1], pair[2]) for table, pair in seats.items() if len(pair) == 2},
            teams, unsigned)


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
