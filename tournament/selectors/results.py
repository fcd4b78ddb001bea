"""What the entry screens, match pages and the dashboard show about results."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from scoring import seating
from scoring.match import plays_extra_hands, team_totals
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
)
from tournament.prepared import prepared_rows
from tournament.selectors.visibility import ResultView

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
    approved: int
    signatures: int
    hands: int
    tables: list[Table] = field(default_factory=list)  # by number

    @property
    def state(self) -> str:
        if self.match.forfeited_by_id is not None:
            return "forfeited"  # decided by a default, without play or sign-off
        if self.match.signed_off_at:
            return "official"
        if self.signatures == 4:
            return "awaiting_sign_off"
        if self.approved == 2 * self.hands:
            return "awaiting_signatures"
        if self.entered == 2 * self.hands and self.approved < self.entered:
            return "awaiting_approval"
        return "playing"


def round_progress(round_: Round) -> list[MatchProgress]:
    """Every match of a round with its counts, in a fixed number of queries."""
    matches = list(round_.matches.select_related("home", "away").order_by("number"))
    # The tables in one query, grouped here: a prefetch makes a query set of each match's
    # tables, a tenth of the page's time in a round of 256 matches.
    tables: dict[int, list[Table]] = {}
    for table in Table.objects.filter(round=round_).order_by("number"):
        tables.setdefault(table.match_id, []).append(table)
    # Counted by the database, a row a match (or a fully approved result), not a row a hand.
    entered = dict(HandResult.objects.filter(table__round=round_, is_current=True).order_by()
                   .values("table__match_id").annotate(n=Count("id"))
                   .values_list("table__match_id", "n"))
    approvals: dict[int, int] = {}
    for match_id, _result, _n in (
            Approval.objects.filter(result__table__round=round_, result__is_current=True)
            .order_by().values("result__table__match_id", "result_id")
            .annotate(n=Count("id")).filter(n=2)
            .values_list("result__table__match_id", "result_id", "n")):
        approvals[match_id] = approvals.get(match_id, 0) + 1
    signatures = dict(TableSignature.objects.filter(table__round=round_).order_by()
                      .values("table__match_id").annotate(n=Count("id"))
                      .values_list("table__match_id", "n"))
    return [MatchProgress(match=m, entered=entered.get(m.pk, 0),
                          approved=approvals.get(m.pk, 0), signatures=signatures.get(m.pk, 0),
                          hands=round_.hands_per_match + m.extra_hands,
                          tables=tables.get(m.pk, [])) for m in matches]


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
