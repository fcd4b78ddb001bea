"""Comparison with the field as the pages read it (issue 12, RULES.md §14).

The figures are ``scoring.field`` (exact fractions); this module reads the current result
of every table on each deal and says who held which cards (``scoring.seating``):

- a box's **traveller**: every table's result on one deal, sorted, with the frequencies and
  each seat's datum (``traveller``);
- a round's **boxes**: each deal's summary and balance (``round_boxes``, ``unbalanced_boxes``);
- **anomalies** for the referee: results far from the datum of their seat, and cards-mode
  results that the box's cards make impossible (``result_anomalies``);
- **players against the field** over a stage or the tournament (``field_standings``).

Which results count in the field of a deal:

- every table that played it, the reader's own included; a result belongs to the deal it
  was played on (a reserve deal has its own field);
- with one deal set per match the field of a deal is the two tables of the match;
- a forfeited match has no hands; a table with a team withdrawn from the stage (a default
  in a group stage, a disqualification: ``selectors.penalties.withdrawn_teams``) is still
  listed on the traveller, marked, but left out of the datum, and its players' hands are
  not compared;
- results the reader may not see yet (``view``, with ``shows(table pk, hand)`` like
  ``selectors.visibility.ResultView``) are left out altogether.

Every function reads in a fixed number of queries, whatever the size of the field.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple

from django.db import connection
from django.db.models import Exists, ExpressionWrapper, IntegerField, OuterRef, Q

from scoring import seating
from scoring.field import (
    DEALER,
    NON_DEALER,
    TRIM_FROM,
    FieldLine,
    FieldSums,
    TableResult,
    Traveller,
    datum_parts,
    favoured_seat,
    field_lines,
    table_result,
    traveller,
)
from scoring.rules import DEFAULT_RULES, DealScope
from tournament.models import (
    Deal,
    HandResult,
    Match,
    Player,
    Round,
    RoundEntry,
    Stage,
    Table,
    Team,
)
from tournament.selectors.penalties import withdrawn_teams
from tournament.selectors.visibility import PublicViews

CENT = Decimal("0.01")


def two_places(value: Fraction | None) -> Decimal | None:
    """An exact figure as the pages show it: two decimals, half up."""
    if value is None:
        return None
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(CENT, rounding=ROUND_HALF_UP)


def deal_key(deal_id: int | None, round_id: int, match_number: int, hand: int,
             per_match: bool) -> Hashable:
    """What names the deal a result was played on: the deal's row; in a round without
    deals made here, ("set", round, deal set, hand), the deal set being the match's with
    one deal set per match, else 1."""
    if deal_id is not None:
        return deal_id
    return ("set", round_id, match_number if per_match else 1, hand)


class Played(NamedTuple):
    """One table's current result on a hand, as read for the comparison (a named tuple:
    the whole event's bulletin reads 61,440 of them)."""

    result_id: int
    table_id: int
    table: int  # the round's table number
    position: int  # the match's table 1 or 2
    match_id: int
    match_number: int
    round_id: int
    hand: int
    deal_id: int | None
    seat1_points: int
    outcome: str
    declarer_seat: int | None
    declarer_deadwood: int | None
    opponent_deadwood: int | None
    false_knock_seat: int | None
    explanation: str
    provisional: bool  # its match is not signed off (yet, or again)
    home_id: int
    away_id: int
    version: int
    box_conflict: str

    def result(self) -> TableResult:
        return table_result(self.table, self.hand, self.seat1_points, self.outcome,
                            self.declarer_seat, self.declarer_deadwood,
                            self.opponent_deadwood, self.false_knock_seat)

    def key(self, per_match: bool) -> Hashable:
        """The deal it was played on; without deals made here, its set and hand."""
        return deal_key(self.deal_id, self.round_id, self.match_number, self.hand, per_match)

    def involves(self, teams: set[int]) -> bool:
        return self.home_id in teams or self.away_id in teams


_FIELDS = ("pk", "table_id", "table__number", "table__position", "table__match_id",
           "table__match__number", "table__round_id", "hand", "deal_id", "seat1_points",
           "outcome", "declarer_seat", "declarer_deadwood", "opponent_deadwood",
           "false_knock_seat", "explanation", "unsigned", "table__match__home_id",
           "table__match__away_id", "version", "box_conflict")


def _played(view=None, *, ordered: bool = True, **where) -> list[Played]:
    """Current results of matches decided by play (a forfeited one has no hands), one
    query; ``view`` leaves out what the reader may not see yet; ``ordered``: by table and
    hand (a day's bulletin, which sorts what it picks, reads 20,480 of them unsorted)."""
    rows = (HandResult.objects.filter(is_current=True, table__match__forfeited_by__isnull=True,
                                      **where)
            # Whether the match is signed off, as 1 or 0: no date parsed per hand.
            .annotate(unsigned=ExpressionWrapper(Q(table__match__signed_off_at__isnull=True),
                                                 output_field=IntegerField()))
            .order_by(*(("table__number", "hand") if ordered else ())).values_list(*_FIELDS))
    played = []
    for (pk, table_id, number, position, match_id, match_number, round_id, hand, deal_id,
         seat1, outcome, declarer, declarer_dw, opponent_dw, false_knock, explanation,
         unsigned, home, away, version, conflict) in rows:
        if view is not None and not view.shows(table_id, hand):
            continue
        played.append(Played(pk, table_id, number, position, match_id, match_number,
                             round_id, hand, deal_id, seat1, outcome, declarer, declarer_dw,
                             opponent_dw, false_knock, explanation, bool(unsigned), home,
                             away, version, conflict))
    return played


def _per_match(round_: Round) -> bool:
    return round_.rules.deal_scope == DealScope.MATCH


# --- a box's traveller ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SeatHolder:
    team: Team
    player: Player


@dataclass(frozen=True)
class TravellerRow:
    played: Played
    result: TableResult
    dealer: SeatHolder | None
    non_dealer: SeatHolder | None
    counted: bool  # False: a withdrawn team's table, left out of the field
    versus: Fraction | None  # the dealer cards' points minus their datum

    @property
    def table(self) -> int:
        return self.played.table

    @property
    def dealer_points(self) -> int:
        return self.result.dealer_points

    @property
    def non_dealer_points(self) -> int:
        return -self.result.dealer_points

    @property
    def versus_shown(self) -> Decimal | None:
        return two_places(self.versus)


@dataclass(frozen=True)
class PointsBar:
    points: int
    tables: int
    most: int  # the largest count of the traveller (the bars' scale)


@dataclass(frozen=True)
class BoxTraveller:
    deal: Deal
    rows: list[TravellerRow]  # the results shown, best for the dealer cards first
    summary: Traveller  # of the counted rows: frequencies and each seat's datum
    hidden: int  # results entered that the reader may not see yet
    per_match: bool  # the field of a deal is the two tables of its match

    @property
    def left_out(self) -> int:
        return sum(not row.counted for row in self.rows)

    @property
    def provisional(self) -> bool:
        return any(row.played.provisional for row in self.rows)

    @property
    def dealer_datum(self) -> Decimal | None:
        return two_places(self.summary.dealer_datum)

    @property
    def non_dealer_datum(self) -> Decimal | None:
        return two_places(self.summary.non_dealer_datum)

    @property
    def trimmed(self) -> bool:
        """From 8 tables the single highest and lowest result are left out of the datum."""
        return self.summary.tables >= TRIM_FROM

    @property
    def outcomes(self) -> list[tuple[str, int]]:
        """(outcome, tables) in the order of the page, the false knocks last."""
        counts = self.summary.outcomes
        return [(outcome, counts[outcome]) for outcome in
                ("knock", "gin", "big_gin", "undercut", "draw")] + [
            ("false_knock", self.summary.false_knocks)]

    @property
    def points(self) -> list[PointsBar]:
        most = max(self.summary.points.values(), default=0)
        return [PointsBar(points, tables, most)
                for points, tables in self.summary.points.items()]


def _lineups(round_ids: Iterable[int] = (), *,
             match_ids: Iterable[int] = ()) -> dict[int, dict[str, RoundEntry]]:
    """match pk → side → its round entry with team and players, of these rounds' matches
    or of these matches (one query)."""
    entries = RoundEntry.objects.filter(match__isnull=False)
    entries = (entries.filter(round_id__in=list(round_ids)) if round_ids
               else entries.filter(match_id__in=list(match_ids)))
    entries = entries.select_related("team", "first_player", "second_player")
    lineups: dict[int, dict[str, RoundEntry]] = defaultdict(dict)
    for entry in entries:
        lineups[entry.match_id][entry.side] = entry
    return lineups


def _holder(entries: dict[str, RoundEntry], position: int, seat: int) -> SeatHolder | None:
    side, slot = seating.seat_holder(position, seat)
    entry = entries.get(side)
    if entry is None:
        return None
    return SeatHolder(entry.team, entry.first_player if slot == 1 else entry.second_player)


def box_traveller(deal: Deal, *, view=None) -> BoxTraveller:
    """Every table's current result on ``deal`` that the reader may see (four queries:
    the results, the line-ups, the withdrawn teams; the deal's round is read with it)."""
    round_ = deal.round
    played = _played(view=None, deal=deal)
    shown = [p for p in played if view is None or view.shows(p.table_id, p.hand)]
    out = withdrawn_teams(round_.stage) if shown else set()
    lineups = _lineups([round_.pk]) if shown else {}
    counted = [p.result() for p in shown if not p.involves(out)]
    summary = traveller(counted)
    datum = summary.dealer_datum
    rows = []
    for p in shown:
        entries = lineups.get(p.match_id, {})
        dealing = seating.dealer_seat(p.hand)
        result = p.result()
        rows.append(TravellerRow(
            played=p, result=result, dealer=_holder(entries, p.position, dealing),
            non_dealer=_holder(entries, p.position, 3 - dealing), counted=not p.involves(out),
            versus=None if datum is None else result.dealer_points - datum))
    rows.sort(key=lambda row: (-row.dealer_points, row.table))
    return BoxTraveller(deal=deal, rows=rows, summary=summary,
                        hidden=len(played) - len(shown), per_match=_per_match(round_))


# --- a round's boxes: the index and their balance ---------------------------------------------

@dataclass(frozen=True)
class BoxSummary:
    deal: Deal
    summary: Traveller
    provisional: bool
    favoured: str | None  # DEALER or NON_DEALER when the box favoured one seat strongly

    @property
    def balance(self) -> Decimal | None:
        """The field's mean for the dealer cards (the non-dealer cards made the negative)."""
        return two_places(self.summary.dealer_average)

    @property
    def dealer_datum(self) -> Decimal | None:
        return two_places(self.summary.dealer_datum)


def _boxes(deals: list[Deal], played: list[Played], out: set[int],
           threshold: int, result_of: dict[int, TableResult] | None = None, *,
           favoured_only: bool = False) -> list[BoxSummary]:
    """``result_of``: each played result's ``TableResult`` made already (by its id);
    ``favoured_only``: only the boxes that favoured a seat (the others' travellers are not
    worked out)."""
    by_deal: dict[int, list[Played]] = defaultdict(list)
    for p in played:
        if p.deal_id is not None and not p.involves(out):
            by_deal[p.deal_id].append(p)
    boxes = []
    for deal in deals:
        results = [result_of[p.result_id] if result_of else p.result()
                   for p in by_deal.get(deal.pk, [])]
        if favoured_only and (not results or favoured_seat(Fraction(
                sum(r.dealer_points for r in results), len(results)), threshold) is None):
            continue
        summary = traveller(results)
        boxes.append(BoxSummary(deal=deal, summary=summary,
                                provisional=any(p.provisional for p in by_deal.get(deal.pk, [])),
                                favoured=favoured_seat(summary.dealer_average, threshold)))
    return boxes


def round_boxes(round_: Round, *, view=None) -> list[BoxSummary]:
    """Every deal of the round (replaced ones too, each with the tables that played it) with
    the summary of the results the reader may see, and the seat it favoured by the
    tournament's box balance threshold. Three queries."""
    deals = list(round_.deals.order_by("deal_set", "hand", "reserve"))
    played = _played(view=view, table__round=round_) if deals else []
    out = withdrawn_teams(round_.stage) if played else set()
    return _boxes(deals, played, out, round_.stage.tournament.box_balance_threshold)


def unbalanced_boxes(round_: Round) -> list[BoxSummary]:
    """Boxes whose dealer cards averaged at least the tournament's box balance threshold
    for or against (a hint for the chief referee, not a rule); staff only."""
    deals = list(round_.deals.order_by("deal_set", "hand", "reserve"))
    played = _played(table__round=round_, ordered=False) if deals else []
    out = withdrawn_teams(round_.stage) if played else set()
    return _boxes(deals, played, out, round_.stage.tournament.box_balance_threshold,
                  favoured_only=True)


# --- anomalies for the referee ----------------------------------------------------------------

@dataclass(frozen=True)
class FarResult:
    played: Played
    dealer_points: int
    datum: Fraction  # of the dealer cards on the deal
    tables: int  # tables in the deal's field

    @property
    def difference(self) -> Fraction:
        return self.dealer_points - self.datum

    @property
    def difference_shown(self) -> Decimal:
        return two_places(self.difference)

    @property
    def datum_shown(self) -> Decimal:
        return two_places(self.datum)


@dataclass(frozen=True)
class Anomalies:
    far: list[FarResult]  # results far from the datum of their seat
    conflicts: list[Played]  # cards-mode results the box's cards make impossible
    unbalanced: list[BoxSummary]  # boxes that favoured one seat strongly
    threshold: int

    def __bool__(self) -> bool:
        return bool(self.far or self.conflicts or self.unbalanced)


def result_anomalies(round_: Round, *, tournament=None) -> Anomalies:
    """For referees and directors only (never a scorer: the texts name cards of the box,
    and the field's results on a box still in play): every current result at least the
    tournament's anomaly threshold from the datum of its seat on the same deal, every
    result whose entered cards contradict the box, and the boxes that favoured one seat
    (three queries; ``tournament`` is the round's, when the caller has it)."""
    tournament = tournament or round_.stage.tournament
    threshold = tournament.anomaly_threshold
    played = _played(table__round=round_, ordered=False)
    result_of = {p.result_id: p.result() for p in played}  # each made once, used thrice
    out = withdrawn_teams(round_.stage) if played else set()
    deals = list(round_.deals.order_by("deal_set", "hand", "reserve")) if played else []
    per_match = _per_match(round_)
    fields: dict[Hashable, list[Played]] = defaultdict(list)
    for p in played:
        if not p.involves(out):
            fields[p.key(per_match)].append(p)
    far = []
    for results in fields.values():
        # Far when |points - total / count| >= threshold: in whole numbers, no Fraction a
        # result (4,096 of them in a round of 512 tables).
        total, count = datum_parts([result_of[p.result_id].dealer_points for p in results])
        for p in results:
            points = result_of[p.result_id].dealer_points
            if abs(points * count - total) >= threshold * count:
                far.append(FarResult(p, points, Fraction(total, count), len(results)))
    far.sort(key=lambda f: (f.played.table, f.played.hand))
    conflicts = sorted((p for p in played if p.box_conflict),
                       key=lambda p: (p.table, p.hand))
    unbalanced = _boxes(deals, played, out, tournament.box_balance_threshold, result_of,
                        favoured_only=True)
    return Anomalies(far=far, conflicts=conflicts, unbalanced=unbalanced, threshold=threshold)


# --- players against the field ----------------------------------------------------------------

_FIELD_ROW = ("table__round_id", "table_id", "hand", "table__match_id", "table__match__number",
              "table__position", "deal_id", "seat1_points", "table__match__home_id",
              "table__match__away_id")


def _field_rows(round_ids: list[int], official_only: bool) -> list[tuple]:
    """The current results of these rounds' matches decided by play, as plain values in
    the order of ``_FIELD_ROW`` (one query): what ``_played`` reads, without the columns the
    comparison does not need, in no particular order."""
    rows = HandResult.objects.filter(is_current=True, table__match__forfeited_by__isnull=True,
                                     table__round_id__in=round_ids)
    if official_only:
        rows = rows.filter(table__match__signed_off_at__isnull=False)
    return list(rows.order_by().values_list(*_FIELD_ROW))


def _sql_list(values: Collection) -> str:
    """One query parameter for each value (%s, %s, …), for an SQL IN list."""
    return ", ".join(["%s"] * len(values))


def _field_sums(round_ids: list[int], per_match_ids: list[int], official_only: bool,
                left_out_matches: Collection[int]) -> list[tuple[int, int, int, bool, int,
                                                                 int, int, int]]:
    """What the database adds up of these rounds' counted hands, for
    ``scoring.field.FieldSums.add_seat`` (one query, whatever the number of hands): per table, per
    seat holding the dealer cards and per number of tables kept on the deal, (table, match,
    position, seat 1 deals, tables kept, hands, seat 1's points, the deals' kept totals for
    the dealer cards). The field of a deal is worked out as ``scoring.field.datum_parts``
    does it (the highest and lowest dropped from ``TRIM_FROM`` tables), over the hands that
    ``field_standings`` counts one by one elsewhere: current, of matches decided by play
    (signed off with ``official_only``), with both line-ups, not ``left_out_matches``."""
    hands, tables, matches, entries = (model._meta.db_table for model in (
        HandResult, Table, Match, RoundEntry))
    per_match = f"t.round_id IN ({_sql_list(per_match_ids)})" if per_match_ids else "1 = 0"
    official = "AND m.signed_off_at IS NOT NULL" if official_only else ""
    left_out = f"AND m.id NOT IN ({_sql_list(left_out_matches)})" if left_out_matches \
        else ""
    rounds = _sql_list(round_ids)
    # A deal is named by its row, or without deals made here by (round, set, hand)
    # (deal_key): one text column ("17", or "3/1/2"), never null, so that it can be
    # joined on.
    sql = f"""
        WITH h AS (
            SELECT hr.table_id, t.match_id, t.position, hr.hand %% 2 AS seat1_deals,
                   hr.seat1_points AS seat1,
                   CASE WHEN hr.hand %% 2 = 1 THEN hr.seat1_points ELSE -hr.seat1_points END
                       AS dealer,
                   CASE WHEN hr.deal_id IS NOT NULL THEN CAST(hr.deal_id AS TEXT)
                        ELSE CAST(t.round_id AS TEXT) || '/' || CAST(CASE WHEN {per_match}
                             THEN m.number ELSE 1 END AS TEXT) || '/'
                             || CAST(hr.hand AS TEXT) END AS deal
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
        )
        SELECT h.table_id, h.match_id, h.position, h.seat1_deals, d.kept, COUNT(*),
               SUM(h.seat1), SUM(d.total)
        FROM h JOIN d ON d.deal = h.deal
        GROUP BY h.table_id, h.match_id, h.position, h.seat1_deals, d.kept"""
    params = [*per_match_ids, True, *round_ids, *left_out_matches, RoundEntry.Side.HOME,
              RoundEntry.Side.AWAY, TRIM_FROM, TRIM_FROM]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        # PostgreSQL adds bigints up into numerics: back to int, exactly.
        return [(table, match, position, seat1_deals == 1, kept, count, int(seat1),
                 int(totals))
                for table, match, position, seat1_deals, kept, count, seat1, totals
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


@dataclass(frozen=True)
class FieldRow:
    rank: int
    player: Player
    team: Team
    line: FieldLine
    points: int  # the raw points of the same hands
    dealer_points: int
    non_dealer_points: int
    provisional: bool

    @property
    def against_field(self) -> Decimal:
        return two_places(self.line.against_field)

    @property
    def per_hand(self) -> Decimal:
        return two_places(self.line.per_hand)

    @property
    def points_per_hand(self) -> Decimal:
        return two_places(Fraction(self.points, self.line.hands))

    @property
    def dealer_against_field(self) -> Decimal:
        return two_places(self.line.dealer_against_field)

    @property
    def non_dealer_against_field(self) -> Decimal:
        return two_places(self.line.non_dealer_against_field)


@dataclass(frozen=True)
class FieldStandings:
    stage: Stage | None
    rows: list[FieldRow]
    minimum_hands: int
    players: int  # players with a compared hand, before the minimum
    rounds: list[Round]  # the rounds whose hands count
    per_match_rounds: list[Round]  # rounds played with one deal set per match
    left_out_teams: list[Team]  # withdrawn teams whose tables are left out
    closed_only: bool
    official_only: bool

    @property
    def provisional(self) -> bool:
        return any(row.provisional for row in self.rows)

    @property
    def unranked(self) -> int:
        return self.players - len(self.rows)


def field_standings(tournament, *, stage: Stage | None = None, closed_only: bool = False,
                    official_only: bool = False, views: PublicViews | None = None,
                    round_ids: Collection[int] | None = None) -> FieldStandings:
    """Each player's hands of ``stage`` (every stage when None) against the field, ranked
    per hand with the minimum of hands of the latest round's rules (``field_minimum_hands``),
    with the raw points of the same hands. ``closed_only``: rounds that are closed (a
    scorer); ``official_only``: hands of signed-off matches only; ``views`` (the public's,
    ``selectors.visibility``) leaves out the results it does not show, from the field too;
    ``round_ids``: only these rounds are read (a day's bulletin).

    The rounds shown whole are added up by the database (``_field_sums``, then
    ``scoring.field.FieldSums.add_seat``); a round the public sees in part is read hand by hand.
    At most six queries and one more per stage, whatever the number of hands."""
    where = {"stage": stage} if stage is not None else {"stage__tournament": tournament}
    statuses = [Round.Status.CLOSED] if closed_only else [Round.Status.IN_PLAY,
                                                          Round.Status.CLOSED]
    rounds = list(Round.objects.filter(status__in=statuses, **where).select_related("stage")
                  .order_by("stage__order", "number"))
    if round_ids is not None:
        rounds = [r for r in rounds if r.pk in round_ids]
    minimum = rounds[-1].rules.field_minimum_hands if rounds else \
        DEFAULT_RULES.field_minimum_hands
    per_match = {r.pk: _per_match(r) for r in rounds}
    shown_whole = [r for r in rounds if views is None or views.of(r.pk).everything]
    shown_in_part = [r.pk for r in rounds if views is not None and not views.of(r.pk).everything]
    stages = {r.stage_id: r.stage for r in rounds}
    out_by_stage = {pk: withdrawn_teams(s) for pk, s in stages.items()}
    lineups, lineup_teams, unsigned = _field_lineups(list(per_match)) if rounds else (
        {}, set(), set())
    seated: dict[int, tuple[int, ...]] = {}  # table → the players in seats 1 and 2, or ()

    def seats_of(table_id: int, match_id: int, position: int) -> tuple[int, ...]:
        seats = seated.get(table_id)
        if seats is None:
            entries = lineups.get(match_id, {})
            seats = seated[table_id] = (
                seating.player_in_seat(position, 1, entries),
                seating.player_in_seat(position, 2, entries)) if len(entries) == 2 else ()
        return seats

    raw: dict[int, list[int]] = {}  # player → points, as dealer, as non-dealer
    provisional: set[int] = set()
    left_out: set[int] = set()
    summed: dict[int, FieldSums] = {}
    if shown_whole:
        left_out_matches = _left_out_matches(shown_whole, out_by_stage, official_only,
                                             left_out)
        for (table_id, match_id, position, seat1_deals, kept, count, seat1,
             totals) in _field_sums([r.pk for r in shown_whole],
                                    [r.pk for r in shown_whole if per_match[r.pk]],
                                    official_only, left_out_matches):
            one, two = seats_of(table_id, match_id, position)
            for seat, player in ((1, one), (2, two)):
                sums = summed.get(player) or summed.setdefault(player, FieldSums())
                sums.add_seat(seat, seat1_deals, kept, count, seat1, totals)
            dealer, other = (one, two) if seat1_deals else (two, one)
            _add_points(raw, dealer, other, seat1 if seat1_deals else -seat1)
            if match_id in unsigned:
                provisional.update((one, two))
    deals: dict[Hashable, list[int]] = defaultdict(list)  # the dealer cards' points
    hands: list[tuple[int, Hashable, str, int]] = []  # (player, deal, seat, points)
    rounds_by_pk = {r.pk: r for r in rounds}
    for (round_id, table_id, hand, match_id, match_number, position, deal_id, seat1, home,
         away) in (_field_rows(shown_in_part, official_only) if shown_in_part else ()):
        if not views.shows(round_id, table_id, hand):
            continue
        out = out_by_stage[rounds_by_pk[round_id].stage_id]
        if out and (home in out or away in out):
            left_out |= {home, away} & out
            continue
        seats = seats_of(table_id, match_id, position)
        if not seats:
            continue  # a match without both line-ups (never written so by the draw)
        key = deal_key(deal_id, round_id, match_number, hand, per_match[round_id])
        # Seat 1 holds the dealer cards in odd hands (seating.dealer_seat, without a call
        # per hand: it refuses a hand below 1).
        seat1_deals = hand % 2 == 1 if hand >= 1 else seating.dealer_seat(hand) == 1
        dealer_points = seat1 if seat1_deals else -seat1
        deals[key].append(dealer_points)
        one, two = seats
        hands.append((one, key, DEALER if seat1_deals else NON_DEALER, seat1))
        hands.append((two, key, NON_DEALER if seat1_deals else DEALER, -seat1))
        dealer, other = seats if seat1_deals else (two, one)
        _add_points(raw, dealer, other, dealer_points)
        if match_id in unsigned:
            provisional.update(seats)
    lines = field_lines(hands, deals, minimum_hands=minimum, more=summed)
    players = {player.pk: player for player in
               Player.objects.filter(team__tournament=tournament).select_related("team")}
    rows = [FieldRow(rank=line.rank, player=players[line.player],
                     team=players[line.player].team, line=line, points=raw[line.player][0],
                     dealer_points=raw[line.player][1], non_dealer_points=raw[line.player][2],
                     provisional=line.player in provisional) for line in lines]
    rows.sort(key=lambda row: (row.rank, row.team.code, row.player.number))
    teams = {player.team_id: player.team for player in players.values()}
    rounds_per_match = [r for r in rounds if per_match[r.pk]]
    return FieldStandings(
        stage=stage, rows=rows, minimum_hands=minimum, players=len(raw), rounds=rounds,
        per_match_rounds=rounds_per_match,
        left_out_teams=sorted((teams[pk] for pk in left_out
                               if pk in lineup_teams and pk in teams),
                              key=lambda team: team.code),
        closed_only=closed_only, official_only=official_only)


def _add_points(raw: dict[int, list[int]], dealer: int, other: int,
                dealer_points: int) -> None:
    """Count the points the dealer cards made (over one hand or several) into both players'
    raw points: [points, as dealer, as non-dealer]."""
    line = raw.get(dealer) or raw.setdefault(dealer, [0, 0, 0])
    line[0] += dealer_points
    line[1] += dealer_points
    line = raw.get(other) or raw.setdefault(other, [0, 0, 0])
    line[0] -= dealer_points
    line[2] -= dealer_points


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
