"""What the entry screens, match pages and the dashboard show about results."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.lookups import Exact
from django.utils import timezone

from scoring import seating
from scoring.match import plays_extra_hands, team_totals
from tournament import states
from tournament.models import (
    Approval,
    HandResult,
    Match,
    Player,
    Round,
    Stage,
    Table,
    TableSeat,
    TableSignature,
    TeamResult,
)
from tournament.prepared import prepared_rows
from tournament.selectors.visibility import ResultView

if TYPE_CHECKING:
    from tournament.selectors.draw import RoundPlan

# A match's state, read one way by the services and the pages ----------------------------

def is_correction(match: Match) -> bool:
    """Whether a change to the match's results now is a correction: the match is signed
    off, or its round is closed. Only a referee corrects, with a reason (RULES.md §10)."""
    return match.signed_off_at is not None or match.round.status == Round.Status.CLOSED


def match_totals(match: Match) -> tuple[int, int]:
    """(home, away) small points from the current results at both tables (RULES.md §8)."""
    return team_totals(HandResult.objects.filter(table__match=match, is_current=True)
                       .order_by().values_list("table__position", "seat1_points",
                                               "seat2_points"))


def all_hands_entered(match: Match) -> bool:
    """Every hand of the match (extra hands included) has a result at both tables."""
    entered = HandResult.objects.filter(table__match=match, is_current=True).count()
    return entered >= seating.TABLES_PER_MATCH * match.hands


def is_knockout(match: Match) -> bool:
    return match.round.stage.kind == Stage.Kind.KNOCKOUT


def tied_knockout(match: Match) -> bool:
    """A knockout match not signed off, with every hand entered and the teams level: it
    goes on with extra hands (RULES.md §11)."""
    if match.signed_off_at is not None or match.forfeited_by_id is not None \
            or not is_knockout(match):
        return False
    if not all_hands_entered(match):
        return False
    home, away = match_totals(match)
    return plays_extra_hands(knockout=True, home_total=home, away_total=away)


@dataclass
class HandRow:
    hand: int
    dealer_seat: int
    result: HandResult | None = None
    approved: set[int] = field(default_factory=set)
    # Entered, but not for this reader's eyes yet (selectors.visibility).
    hidden: bool = False

    @property
    def version(self) -> int:
        return self.result.version if self.result else 0

    @property
    def fully_approved(self) -> bool:
        return self.approved == {1, 2}

    @property
    def approvals(self) -> list[tuple[int, bool]]:
        """(seat, approved?) for seats 1 and 2."""
        return [(seat, seat in self.approved) for seat in (1, 2)]


@dataclass
class TableSheet:
    table: Table
    rows: list[HandRow]
    signed: set[int]

    @property
    def hides_some(self) -> bool:
        return any(row.hidden for row in self.rows)

    @property
    def totals(self) -> tuple[int, int]:
        """Seat 1 and seat 2 points so far (of the hands the reader may see)."""
        return (sum(r.result.seat1_points for r in self.rows if r.result),
                sum(r.result.seat2_points for r in self.rows if r.result))

    @property
    def entered(self) -> int:
        return sum(1 for r in self.rows if r.result or r.hidden)

    @property
    def approved(self) -> int:
        return sum(1 for r in self.rows if r.fully_approved)

    @property
    def ready_to_sign(self) -> bool:
        return all(r.fully_approved for r in self.rows)


def table_sheet(table: Table, view: ResultView | None = None) -> TableSheet:
    """A table's hands with their current results and approvals; with a ``view``, the
    results its reader may not see yet are left out (the row says it is entered)."""
    hands = table.match.hands
    # An entry screen reads its sheet again after every save: the three queries' SQL is
    # built once per connection (tournament.prepared).
    by_hand = {r.hand: r for r in prepared_rows("sheet-results", _current_results, [table.pk])}
    approved: dict[int, set[int]] = {}
    for result, seat in prepared_rows("sheet-approvals", _current_approvals, [table.pk]):
        approved.setdefault(result, set()).add(seat)
    rows = []
    for hand in range(1, hands + 1):
        result = by_hand.get(hand)
        if result is not None and view is not None and not view.shows(table.pk, hand):
            rows.append(HandRow(hand=hand, dealer_seat=seating.dealer_seat(hand), hidden=True))
            continue
        rows.append(HandRow(hand=hand, dealer_seat=seating.dealer_seat(hand), result=result,
                            approved=approved.get(result.pk, set()) if result else set()))
    signed = {seat for (seat,) in prepared_rows("sheet-signatures", _signed_seats, [table.pk])}
    return TableSheet(table=table, rows=rows, signed=signed)


def version_saved_by(table: Table, hand: int, request_token: uuid.UUID | None
                     ) -> int | None:
    """The version of the table's hand that the save with this request token made, or
    None when that save has not reached the server (one query): an approval queued on a
    device behind its save names the save, not a version (every save has a token: None
    finds nothing)."""
    return (HandResult.objects.filter(table=table, hand=hand, request_token=request_token)
            .values_list("version", flat=True).first())


def table_revisions(match: Match) -> QuerySet[Table]:
    """The match's tables with their revisions alone: with the match's own, the revision a
    page shows and a sign-off names (``services.locking.shown_revision``). A query set, one
    query when read."""
    return Table.objects.filter(match=match).only("revision")


def match_as_saved(match_id: int) -> tuple[Match, QuerySet[Table]]:
    """The match read again, and its tables' revisions (``table_revisions``): what a device
    is answered after a command that may have moved them or signed the match off (one
    query, and one when the tables are read)."""
    match = Match.objects.get(pk=match_id)
    return match, table_revisions(match)


def _current_results(table: int):
    return HandResult.objects.filter(table_id=table, is_current=True).order_by()


def _current_approvals(table: int):
    return (Approval.objects.filter(result__table_id=table, result__is_current=True)
            .order_by().values_list("result_id", "seat"))


def _signed_seats(table: int):
    return TableSignature.objects.filter(table_id=table).order_by().values_list("seat")


@dataclass
class MatchProgress:
    match: Match
    entered: int
    approved: int  # hands both players approved, both tables
    signatures: int
    hands: int
    tables: list[Table] = field(default_factory=list)  # by number
    round_status: str = Round.Status.IN_PLAY
    void: bool = False  # a team withdrew from the group stage: the result is cleared

    @property
    def state(self) -> str:
        """A code of ``tournament.states``."""
        to_enter = seating.TABLES_PER_MATCH * self.hands
        return states.match_state(
            round_status=self.round_status, forfeited=self.match.forfeited_by_id is not None,
            void=self.void, signed_off=self.match.signed_off_at is not None,
            entered=self.entered, to_enter=to_enter, all_approved=self.approved >= to_enter,
            signatures=self.signatures)

    @property
    def state_word(self) -> str:
        return states.word(self.state)


def round_progress(round_: Round, *, plan: RoundPlan | None = None) -> list[MatchProgress]:
    """Every match of a round with its counts, in a fixed number of queries. ``plan``: the
    round's draw, read already (``selectors.draw.round_plan``): its matches, their teams and
    tables are not read again."""
    tables: dict[int, list[Table]] = {}  # match → its tables, by number
    if plan is None:
        # Whether a team's withdrawal voided the match comes with the match's row.
        matches = list(round_.matches.select_related("home", "away").order_by("number")
                       .annotate(void=Exists(TeamResult.objects.filter(match=OuterRef("pk"),
                                                                       void=True))))
        void = {m.pk for m in matches if m.void}
        # The tables in one query, grouped here: a prefetch makes a query set of each
        # match's tables, a tenth of the page's time in a round of 256 matches.
        for table in Table.objects.filter(round=round_).order_by("number"):
            tables.setdefault(table.match_id, []).append(table)
    else:
        matches = [match_plan.match for match_plan in plan.matches]
        void = set(TeamResult.objects.filter(match__round=round_, void=True).order_by()
                   .values_list("match_id", flat=True))
        for match_plan in plan.matches:
            tables[match_plan.match.pk] = sorted((t.table for t in match_plan.tables),
                                                 key=lambda table: table.number)
    # Counted by the database, a row a match, not a row a hand: its current results, and
    # those both seats approved (a seat approves a result once: the constraint
    # approval_once), counted for each result by the index of its approvals.
    approvals = (Approval.objects.filter(result=OuterRef("pk")).order_by().values("result")
                 .annotate(n=Count("*")).values("n"))
    entered: dict[int, int] = {}
    approved: dict[int, int] = {}
    for match_id, n, both in (
            HandResult.objects.filter(table__round=round_, is_current=True).order_by()
            .values("table__match_id")
            .annotate(n=Count("id"), both=Count("id", filter=Exact(Subquery(approvals), 2)))
            .values_list("table__match_id", "n", "both")):
        entered[match_id], approved[match_id] = n, both
    signatures = dict(TableSignature.objects.filter(table__round=round_).order_by()
                      .values("table__match_id").annotate(n=Count("id"))
                      .values_list("table__match_id", "n"))
    return [MatchProgress(match=m, entered=entered.get(m.pk, 0),
                          approved=approved.get(m.pk, 0), signatures=signatures.get(m.pk, 0),
                          hands=round_.hands_per_match + m.extra_hands,
                          tables=tables.get(m.pk, []), round_status=round_.status,
                          void=m.pk in void) for m in matches]


@dataclass(frozen=True)
class PinAlert:
    """A player of the round whose PIN entry is locked, or who has typed wrong PINs since
    their last right one."""

    player: Player
    team_code: str
    table: int | None  # the table number and seat where the player sits this round
    seat: int
    failures: int
    locked_until: dt.datetime | None  # None: not locked

    @property
    def locked(self) -> bool:
        return self.locked_until is not None


def pin_alerts(round_: Round) -> list[PinAlert]:
    """The round's players with a PIN lock or wrong PINs, locked ones first, each at the
    seat where they sit (``TableSeat``): one query."""
    now = timezone.now()
    troubled = (Q(player__pin_locked_until__gt=now)
                | Q(player__pin_failures__gt=0, player__pin_locked_until=None))
    alerts = []
    for sat in (TableSeat.objects.filter(troubled, round=round_, table__match__isnull=False)
                .select_related("player__team", "table")):
        player = sat.player
        until = player.pin_locked_until
        locked = until is not None and until > now
        if not locked and (until is not None or not player.pin_failures):
            continue  # nothing to see, or a lock that has ended (the count restarts)
        alerts.append(PinAlert(
            player=player, team_code=player.team.code, table=sat.table.number, seat=sat.seat,
            failures=player.pin_failures, locked_until=until if locked else None))
    alerts.sort(key=lambda a: (not a.locked, a.table or 0, a.seat))
    return alerts


def round_totals(round_: Round) -> dict:
    """Points so far per (table number, seat), and per match the home and away totals:
    ``{(14, 1): 23, …, (match_pk, "home"): 40, …}``. One query."""
    totals: dict = {}
    per_match: dict[int, list[tuple[int, int, int]]] = {}
    rows = HandResult.objects.filter(table__round=round_, is_current=True).values_list(
        "table__number", "table__position", "table__match_id", "seat1_points", "seat2_points")
    for number, position, match_id, seat1, seat2 in rows:
        for seat, points in ((1, seat1), (2, seat2)):
            totals[number, seat] = totals.get((number, seat), 0) + points
        per_match.setdefault(match_id, []).append((position, seat1, seat2))
    for match_id, results in per_match.items():
        totals[match_id, "home"], totals[match_id, "away"] = team_totals(results)
    return totals
