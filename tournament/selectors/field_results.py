"""The current results the comparison with the field reads (issue 12, RULES.md §14): one
table's result on one hand as a ``Played`` (``played_results``: one query), the deal it was played
on (``deal_key``), and a figure as the pages show it (``two_places``).

The figures are ``scoring.field`` (exact fractions); the modules that read these results:

- a box's **traveller** (``selectors.travellers.box_traveller``);
- a round's **box summaries** and their balance (``selectors.box_summaries``:
  ``round_box_summaries``, ``unbalanced_boxes``);
- **anomalies** for the referee (``selectors.anomalies.result_anomalies``);
- **players against the field** over a stage or the tournament
  (``selectors.field.field_standings``, its database sums in ``selectors.field_sums``).

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

from collections.abc import Hashable
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple

from django.db.models import ExpressionWrapper, IntegerField, Q

from scoring.field import TableResult, table_result
from scoring.rules import DealScope
from tournament.models import HandResult, Round

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


def played_results(view=None, *, ordered: bool = True, **where) -> list[Played]:
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


def deals_per_match(round_: Round) -> bool:
    return round_.rules.deal_scope == DealScope.MATCH
