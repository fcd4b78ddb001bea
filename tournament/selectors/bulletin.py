"""What a day's bulletin holds, read from the closed rounds only (issue 26).

A day is the rounds whose start falls on that date in the tournament's time zone; the
bulletin of the whole event is every closed round. A round still in play, or published, is
never read: its results, its boxes and its standings stay out until it is closed, whatever
the live-results setting shows on the pages (a bulletin is printed and kept, and its cards
are public only once the round is closed).

The public's bulletin leaves out what the tournament's switches keep off its public pages
(results, standings, players, penalties); the directors' copy has every section.
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import NamedTuple
from zoneinfo import ZoneInfo

from scoring import seating
from scoring.deals import Deal as DealCards
from scoring.deals import deal_from_text
from scoring.rules import DealScope
from scoring.seating import Side
from tournament.models import Deal, HandResult, Match, Penalty, Round, Stage, Tournament
from tournament.selectors.bracket import Bracket, read_bracket
from tournament.selectors.field import FieldRow, field_standings
from tournament.selectors.field_results import deal_key
from tournament.selectors.penalties import penalty_list, withdrawn_teams
from tournament.selectors.public import MatchLine, match_lines
from tournament.selectors.public_standings import PublicStandings, public_standings
from tournament.selectors.travellers import SeatHolder, seat_holders
from tournament.selectors.visibility import PublicViews, ResultView

SWINGS = 6  # the boxes with the largest swings
RARE = 6  # the rarest results on the travellers
BEST_PLAYERS = 10
RARE_FROM_TABLES = 4  # a traveller of fewer tables has no "rare" result
OUTCOMES = ("knock", "gin", "big_gin", "undercut", "draw", "false_knock")


def round_day(round_: Round, zone: ZoneInfo) -> dt.date | None:
    """The date its play began at the venue (its close for a round never started)."""
    moment = round_.started_at or round_.closed_at
    return moment.astimezone(zone).date() if moment is not None else None


def _closed_rounds(tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(stage__tournament=tournament, status=Round.Status.CLOSED)
                .select_related("stage").order_by("stage__order", "number"))


def bulletin_days(tournament: Tournament, rounds: list[Round] | None = None) -> list[dt.date]:
    """The days with a closed round, in order (one query, none given the tournament's
    rounds)."""
    zone = ZoneInfo(tournament.time_zone)
    if rounds is None:
        rounds = Round.objects.filter(stage__tournament=tournament,
                                      status=Round.Status.CLOSED).only("status", "started_at",
                                                                       "closed_at")
    days = {round_day(r, zone) for r in rounds if r.status == Round.Status.CLOSED}
    return sorted(day for day in days if day is not None)


@dataclass(frozen=True)
class TableOfBox:
    """One table's play of a box in a match: who held which cards, and what came of it."""

    table: int  # the round's table number
    dealer: SeatHolder | None
    non_dealer: SeatHolder | None
    result: HandResult
    home_points: int  # for the match's home team


@dataclass(frozen=True)
class SwingBox:
    """A box whose two tables of one match went far apart."""

    match: Match
    hand: int
    swing: int  # the home team's net over both tables
    tables: tuple[TableOfBox, TableOfBox]
    cards: DealCards | None  # None when no deal was made here (the cards came from elsewhere)

    @property
    def winner(self):
        return self.match.home if self.swing > 0 else self.match.away


@dataclass(frozen=True)
class RareResult:
    """A result few tables of the field made on a box."""

    round: Round
    deal: Deal
    outcome: str  # one of OUTCOMES
    tables: int  # how many tables made it
    field: int  # how many tables played the box
    table: TableOfBox  # one of them (the best for its declarer)

    @property
    def share(self) -> float:
        return self.tables / self.field


@dataclass(frozen=True)
class StageStanding:
    stage: Stage
    standings: PublicStandings | None  # a stage of match points
    bracket: Bracket | None  # a knockout


@dataclass(frozen=True)
class Bulletin:
    tournament: Tournament
    day: dt.date | None  # None: the whole event
    rounds: list[Round]  # the closed rounds it covers
    results: list[tuple[Round, list[MatchLine]]] | None  # None: the section is not public
    standings: list[StageStanding] | None
    swings: list[SwingBox] | None
    rare: list[RareResult] | None
    penalties: list[Penalty] | None
    players: list[FieldRow] | None
    minimum_hands: int = 0
    later_rounds: list[Round] = field(default_factory=list)  # of the day, not closed yet


def read_bulletin(tournament: Tournament, day: dt.date | None, *,
                  public: bool = True) -> Bulletin | None:
    """The bulletin of ``day`` (the whole event when None); None when no round of it is
    closed. ``public``: leave out what the tournament keeps off its public pages."""
    zone = ZoneInfo(tournament.time_zone)
    closed = _closed_rounds(tournament)
    for round_ in closed:
        round_.stage.tournament = tournament
    if day is None:
        rounds, upto = closed, closed
    else:
        rounds = [r for r in closed if round_day(r, zone) == day]
        upto = [r for r in closed if (round_day(r, zone) or day) <= day]
    if not rounds:
        return None
    later = [] if day is None else [
        r for r in Round.objects.filter(stage__tournament=tournament, status__in=[
            Round.Status.PUBLISHED, Round.Status.IN_PLAY]).select_related("stage")
        if r.started_at is not None and round_day(r, zone) == day]
    ids = {r.pk for r in rounds}
    # The rounds closed by the end of the day, and nothing else, are seen.
    views = PublicViews({r.pk: ResultView(everything=True) for r in upto})
    show = (lambda switch: True) if not public else (lambda switch: getattr(tournament, switch))
    played = _box_results(list(ids))
    results = standings = swings = rare = penalties = players = None
    minimum = 0
    if show("public_results"):
        lines = match_lines(Match.objects.filter(round_id__in=ids), views, switch=False,
                            entered=False, teams=tournament.teams.in_bulk())
        by_round: dict[int, list[MatchLine]] = {r.pk: [] for r in rounds}
        for line in lines:  # in the rounds' order, each round's by number
            by_round[line.match.round_id].append(line)
        results = [(r, by_round[r.pk]) for r in rounds]
        # A withdrawn team's matches are void and its tables out of the travellers: the
        # boxes are told from the tables that count.
        out: dict[int, set[int]] = {}
        for round_ in rounds:
            if round_.stage_id not in out:
                out[round_.stage_id] = withdrawn_teams(round_.stage)
        stage_of = {r.pk: r.stage_id for r in rounds}
        counted = [p for p in played if not p.involves(out[stage_of[p.round_id]])] if any(
            out.values()) else played
        swings = _swings(rounds, counted)
        rare = _rare(rounds, counted)
    if show("public_standings"):
        standings = _standings(rounds, views)
    if show("public_penalties"):
        penalties = list(penalty_list(tournament).filter(round_id__in=ids,
                                                         undone_at__isnull=True))
    if show("public_players"):
        field_ = field_standings(tournament, closed_only=True, round_ids=ids)
        players = field_.rows[:BEST_PLAYERS]
        minimum = field_.minimum_hands
    return Bulletin(tournament=tournament, day=day, rounds=rounds, results=results,
                    standings=standings, swings=swings, rare=rare, penalties=penalties,
                    players=players, minimum_hands=minimum, later_rounds=later)


def _standings(rounds: list[Round], views: PublicViews) -> list[StageStanding]:
    """Each stage played in ``rounds`` as it stood after the last of them: a knockout's
    bracket, any other stage's tables after its last round of these."""
    last: dict[int, Round] = {}
    for round_ in rounds:
        last[round_.stage_id] = round_
    out = []
    for round_ in last.values():
        stage = round_.stage
        if stage.kind == Stage.Kind.KNOCKOUT:
            out.append(StageStanding(stage, None, read_bracket(stage, views)))
        else:
            out.append(StageStanding(stage, public_standings(stage, views, after=round_.number),
                                     None))
    return out


class BoxResult(NamedTuple):
    """A table's current result on a hand, as the bulletin compares them (the whole
    event's bulletin reads 61,440): a match decided by play."""

    result_id: int
    table: int  # the round's table number
    position: int  # the match's table 1 or 2
    match_id: int
    match_number: int
    round_id: int
    hand: int
    deal_id: int | None
    seat1_points: int
    outcome: str
    false_knock_seat: int | None
    home_id: int
    away_id: int

    def key(self, per_match: bool) -> Hashable:
        """The deal it was played on (``selectors.field_results.deal_key``)."""
        return deal_key(self.deal_id, self.round_id, self.match_number, self.hand, per_match)

    def involves(self, teams: set[int]) -> bool:
        return self.home_id in teams or self.away_id in teams


def _box_results(round_ids: list[int]) -> list[BoxResult]:
    """The current results of these rounds' matches decided by play (one query)."""
    return list(map(BoxResult._make, HandResult.objects.filter(
        is_current=True, table__match__forfeited_by__isnull=True,
        table__round_id__in=round_ids).order_by().values_list(
        "pk", "table__number", "table__position", "table__match_id", "table__match__number",
        "table__round_id", "hand", "deal_id", "seat1_points", "outcome", "false_knock_seat",
        "table__match__home_id", "table__match__away_id")))


# Which seat of table 1 and of table 2 the home team holds (scoring.seating).
_HOME_SEAT = {position: seating.seat_of(position, Side.HOME)
              for position in range(1, seating.TABLES_PER_MATCH + 1)}


def _home_points(p: BoxResult) -> int:
    return p.seat1_points if _HOME_SEAT[p.position] == 1 else -p.seat1_points


def _table(p: BoxResult, result: HandResult, holders) -> TableOfBox:
    seats = holders.get((p.match_id, p.position), {})
    dealing = seating.dealer_seat(p.hand)
    return TableOfBox(table=p.table, dealer=seats.get(dealing),
                      non_dealer=seats.get(3 - dealing), result=result,
                      home_points=_home_points(p))


def _swings(rounds: list[Round], played: list[BoxResult]) -> list[SwingBox]:
    """The largest nets of one hand over both tables of a match, one per box (four
    queries)."""
    # Each result unpacked as the tuple it is, the home team's points worked out in line:
    # a whole event's bulletin reads 61,440 of them (issue 59).
    home_holds_seat_1 = {position: seat == 1 for position, seat in _HOME_SEAT.items()}
    by_hand: dict[tuple[int, int], list] = {}  # (match, hand) → [table 1, table 2, net]
    for p in played:
        (_result, _number, position, match_id, _match_number, _round, hand, _deal_id,
         points, _made, _false_knock, _home_id, _away_id) = p
        pair = by_hand.get((match_id, hand))
        if pair is None:
            pair = by_hand[match_id, hand] = [None, None, 0]
        pair[position - 1] = p
        pair[2] += points if home_holds_seat_1[position] else -points
    swung = []  # (−|swing|, round, match, hand, order read, the two tables), no level box
    for index, (one, two, swing) in enumerate(by_hand.values()):
        if one is not None and two is not None and swing:
            swung.append((-abs(swing), one.round_id, one.match_number, one.hand, index,
                          (one, two)))
    # Taken largest first from a heap until SWINGS boxes, not all sorted: a whole event
    # has some 30,000. The order read breaks a tie (as a stable sort would), so the
    # tables themselves are never compared.
    heapq.heapify(swung)
    # A box once, at the match where it swung most: where one deal set serves the field,
    # the same cards swing at many matches, and the section is about boxes.
    per_match = {r.pk: r.rules.deal_scope == DealScope.MATCH for r in rounds}
    seen: set = set()
    chosen = []
    while swung:
        *_order, pair = heapq.heappop(swung)
        box = pair[0].key(per_match[pair[0].round_id])
        if box in seen:
            continue
        seen.add(box)
        chosen.append(pair)
        if len(chosen) == SWINGS:
            break
    if not chosen:
        return []
    stored = HandResult.objects.in_bulk([p.result_id for pair in chosen for p in pair])
    matches = Match.objects.select_related("home", "away", "round__stage").in_bulk(
        [pair[0].match_id for pair in chosen])
    deals = Deal.objects.in_bulk([p.deal_id for pair in chosen for p in pair
                                  if p.deal_id is not None])
    holders = seat_holders(match_ids=[pair[0].match_id for pair in chosen])
    boxes = []
    for pair in chosen:
        deal = deals.get(pair[0].deal_id)
        boxes.append(SwingBox(
            match=matches[pair[0].match_id], hand=pair[0].hand,
            swing=sum(_home_points(p) for p in pair),
            tables=tuple(_table(p, stored[p.result_id], holders) for p in pair),
            cards=deal_from_text(deal.cards) if deal is not None else None))
    return boxes


def _outcome(p: BoxResult) -> str:
    return "false_knock" if p.false_knock_seat is not None else p.outcome


def _rare(rounds: list[Round], played: list[BoxResult]) -> list[RareResult]:
    """Per box of a field of at least ``RARE_FROM_TABLES`` tables, the outcomes fewer than
    half of them made, rarest first (three queries)."""
    round_of = {r.pk: r for r in rounds}
    by_deal: dict[int, list[BoxResult]] = defaultdict(list)
    for p in played:
        if p.deal_id is not None:
            by_deal[p.deal_id].append(p)
    candidates = []
    for deal_id, results in by_deal.items():
        if len(results) < RARE_FROM_TABLES:
            continue
        made: dict[str, list[BoxResult]] = defaultdict(list)
        for p in results:
            made[_outcome(p)].append(p)
        for outcome, tables in made.items():
            if 2 * len(tables) < len(results):
                best = max(tables, key=lambda p: (abs(p.seat1_points), -p.table))
                candidates.append((len(tables) / len(results), -len(results), outcome,
                                   deal_id, best, len(tables), len(results)))
    candidates.sort(key=lambda c: (c[0], c[1], OUTCOMES.index(c[2]), c[4].round_id,
                                   c[4].hand, c[4].table))
    chosen = candidates[:RARE]
    if not chosen:
        return []
    stored = HandResult.objects.in_bulk([c[4].result_id for c in chosen])
    deals = Deal.objects.in_bulk([c[3] for c in chosen])
    holders = seat_holders(match_ids=[c[4].match_id for c in chosen])
    return [RareResult(round=round_of[best.round_id], deal=deals[deal_id], outcome=outcome,
                       tables=tables, field=size,
                       table=_table(best, stored[best.result_id], holders))
            for _share, _size, outcome, deal_id, best, tables, size in chosen]
