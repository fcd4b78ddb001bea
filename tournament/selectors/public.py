"""What the public pages read of rounds and matches (issue 12): the public rounds and the
public's view of each, each match's line (its state, and its score when the public may see
it), a match's sheet hand by hand, a round's byes and a box's cards, each shown only as far
as the public's view of its round allows (``selectors.visibility``, ``public_views``: the
one rule; nothing here decides what is hidden).

The public's standings are ``selectors.public_standings``; its pages of teams and players,
``selectors.public_teams``.

Every function reads in a fixed number of queries, whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, QuerySet

from scoring import seating
from scoring.deals import Deal as DealCards
from scoring.deals import deal_from_text
from scoring.rules import DealScope
from scoring.seating import Side
from tournament import states
from tournament.models import (
    Deal,
    HandResult,
    Match,
    Round,
    RoundEntry,
    Stage,
    Team,
    TeamResult,
    Tournament,
)
from tournament.selectors.draw import MatchPlan, SeatPlan, TablePlan, match_plan
from tournament.selectors.match_states import PlayCounts, play_counts, state_from
from tournament.selectors.rounds import tournament_rounds
from tournament.selectors.visibility import PublicViews, ResultView, public_views
from tournament.wording import knockout_result


def public_rounds(tournament: Tournament, *, paged: bool = False) -> QuerySet[Round]:
    """Every round of the tournament whose draw is published (a draft stays with the
    directors), each with its stage, by stage and number: a query set, one query when read.
    ``paged``: then by id, an order no two rounds share (the API's pages)."""
    rounds = tournament_rounds(tournament).exclude(status=Round.Status.DRAFT)
    return rounds.order_by("stage__order", "number", "pk") if paged else rounds


def tournament_views(tournament: Tournament) -> tuple[list[Round], PublicViews]:
    """Every public round of the tournament (drafts stay with the directors), in order, and
    the public's view of each (at most three queries)."""
    rounds = list(public_rounds(tournament))
    return rounds, public_views(rounds, tournament=tournament)


def match_counts(rounds: list[Round]) -> dict[int, int]:
    """Round pk → its number of matches, a round without one left out (one query, none
    without rounds)."""
    if not rounds:
        return {}
    return dict(Match.objects.filter(round__in=rounds).values("round_id")
                .annotate(n=Count("pk")).order_by().values_list("round_id", "n"))


def current_round(rounds: list[Round]) -> Round | None:
    """The round being played, else the next one published, else the last one closed."""
    for status in (Round.Status.IN_PLAY, Round.Status.PUBLISHED):
        started = [r for r in rounds if r.status == status]
        if started:
            return started[-1]
    return rounds[-1] if rounds else None


def last_closed(rounds: list[Round]) -> Round | None:
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    return closed[-1] if closed else None


def matches_latest_first(rounds: list[Round]) -> dict[int, list[int]]:
    """Round pk → its matches' pks, the latest signed off first, then those in play by
    number (one query): a summary shows the first few and counts the rest."""
    matches: dict[int, list[int]] = {r.pk: [] for r in rounds}
    for pk, round_id in (Match.objects.filter(round__in=list(matches))
                         .order_by(F("signed_off_at").desc(nulls_last=True), "number")
                         .values_list("pk", "round_id")):
        matches[round_id].append(pk)
    return matches


# A match's line: its state, and its score when the public may see it --------------------

@dataclass(frozen=True)
class MatchLine:
    match: Match
    state: str  # a code of ``tournament.states``
    entered: int  # results entered, both tables together
    to_enter: int  # hands × 2
    shown: bool  # whether the public may see the score
    home_total: int | None = None
    away_total: int | None = None
    home_points: int | None = None  # match points
    away_points: int | None = None
    provisional: bool = False

    @property
    def state_word(self) -> str:
        return states.word(self.state)

    @property
    def state_meaning(self) -> str:
        return states.meaning(self.state)

    @property
    def has_score(self) -> bool:
        return self.shown and self.home_total is not None

    @property
    def forfeited_by(self) -> Team | None:
        match = self.match
        return {match.home_id: match.home, match.away_id: match.away}.get(
            match.forfeited_by_id)

    @property
    def winner(self) -> str:
        if not self.has_score or self.home_total == self.away_total:
            return ""
        return Side.HOME if self.home_points > self.away_points else Side.AWAY

    @property
    def knockout(self) -> bool:
        """A knockout match: the higher total goes through, match points decide nothing."""
        return self.match.round.stage.kind == Stage.Kind.KNOCKOUT

    @property
    def third_place(self) -> bool:
        """The match for third place: the second match of a knockout's final round."""
        round_ = self.match.round
        return (self.knockout and self.match.number > 1
                and round_.number == round_.stage.bracket_rounds)

    @property
    def knockout_result(self) -> str:
        """"CHN-R won by 11" (official), "… leads by 11" (provisional), "… won by default";
        "" while tied or hidden."""
        match = self.match
        if self.state == states.FORFEITED and match.forfeited_by_id is not None:
            winner = match.away if match.forfeited_by_id == match.home_id else match.home
            return knockout_result(winner.code, None, default=True)
        if not self.has_score or self.home_total == 0:
            return ""
        winner = match.home if self.home_total > 0 else match.away
        return knockout_result(winner.code, abs(self.home_total),
                               extra_hands=match.extra_hands,
                               provisional=self.state != states.OFFICIAL or self.provisional)


def match_lines(matches: QuerySet[Match] | list[Match], views: PublicViews, *,
                switch: bool = True, entered: bool = True,
                teams: dict[int, Team] | None = None) -> list[MatchLine]:
    """Each match with its state and, where the public's view of its round allows (and the
    tournament's results are public: ``switch=False`` for staff, who see them anyway), its
    totals and match points from the stored result rows, which the standings read too
    (three queries, and one for the rounds unless the matches were read through
    their round, its stage and tournament read). ``entered=False``: a reader that shows no
    count of results entered (the bulletin); the matches of closed rounds, whose state
    does not depend on their counts, are then not counted (the whole event's 3,840).
    ``teams``: the tournament's teams by id, read once by a caller of thousands of matches
    (the whole event's bulletin), which are then read without theirs: a model for each
    team, not two for each match (7,680). A list of matches is taken as read, in its
    order: with their teams and group (``line_of_match``)."""
    if not isinstance(matches, list):
        joined = ("group",) if teams is not None else ("home", "away", "group")
        matches = list(matches.select_related(*joined)
                       .order_by("round__stage__order", "round__number", "number"))
    if teams is not None:
        for match in matches:
            match.home, match.away = teams[match.home_id], teams[match.away_id]
    # Each round, stage and tournament once, whatever the number of matches (joined to
    # every match row, a 3,840-match event's rounds, stages and tournament were built
    # 3,840 times over: a fifth of a second): a stage's schedule (a knockout's bracket, a
    # group stage's Berger tables) is read once, when a knockout round's name asks for it.
    # A round the caller read the matches through (``round_.matches``) is kept, with its
    # stage and tournament when they are read already: no query for them.
    rounds = {m.round_id: m.round for m in matches if Match.round.is_cached(m)
              and Round.stage.is_cached(m.round) and Stage.tournament.is_cached(m.round.stage)}
    missing = {m.round_id for m in matches} - rounds.keys()
    if missing:
        read = Round.objects.select_related("stage__tournament").defer(
            "stage__schedule").in_bulk(missing)
        stages = {r.stage_id: r.stage for r in rounds.values()}
        for round_ in read.values():
            round_.stage = stages.setdefault(round_.stage_id, round_.stage)
        rounds.update(read)
    for match in matches:
        match.round = rounds[match.round_id]
    ids = [m.pk for m in matches]
    rows: dict[int, dict[int, tuple]] = {}
    for match_id, team_id, small, points, provisional, void in (
            TeamResult.objects.filter(match_id__in=ids).values_list(
                "match_id", "team_id", "small_points", "match_points", "provisional",
                "void")):
        rows.setdefault(match_id, {})[team_id] = (small, points, provisional, void)
    counts = play_counts(ids if entered else [
        m.pk for m in matches if m.round.status != Round.Status.CLOSED])
    lines = []
    for match in matches:
        view = views.of(match.round_id)
        sides = rows.get(match.pk, {})
        home, away = sides.get(match.home_id), sides.get(match.away_id)
        void = any(row[3] for row in sides.values())
        played = counts.get(match.pk, PlayCounts())
        count = played.entered
        to_enter = seating.TABLES_PER_MATCH * match.hands
        state = state_from(match, match.round.status, played, void=void)
        # The tournament's switch for public results hides every score (not the state).
        shown = ((not switch or match.round.stage.tournament.public_results)
                 and view.shows_match(match.pk))
        if shown and home is not None and away is not None and not void:
            lines.append(MatchLine(
                match=match, state=state, entered=count, to_enter=to_enter, shown=shown,
                home_total=home[0], away_total=away[0], home_points=home[1],
                away_points=away[1], provisional=home[2] or away[2] or view.provisional))
        else:
            lines.append(MatchLine(match=match, state=state, entered=count,
                                   to_enter=to_enter, shown=shown))
    return lines


def line_of_match(match: Match, views: PublicViews) -> MatchLine:
    """One match's line, as ``match_lines`` reads it, of the match as its page read it: with
    its teams, group, round, stage and tournament (two queries: its result rows and its
    counts)."""
    return match_lines([match], views)[0]


def round_lines(round_: Round, views: PublicViews) -> list[MatchLine]:
    """Every match of the round, by number, with its line (three queries, and one for the
    round unless its stage and tournament are read)."""
    return match_lines(round_.matches.all(), views)


def latest_results(rounds: list[Round], views: PublicViews, *, most: int
                   ) -> list[tuple[Round, list[MatchLine], int]]:
    """Each round with the lines of its latest ``most`` matches (those signed off last
    first, then those in play by number: ``matches_latest_first``) and its number of
    matches: a summary, not every match (at most five queries)."""
    matches = matches_latest_first(rounds)
    latest = [pk for pks in matches.values() for pk in pks[:most]]
    lines = match_lines(Match.objects.filter(pk__in=latest), views) if latest else []
    return [(round_, [line for line in lines if line.match.round_id == round_.pk],
             len(matches[round_.pk])) for round_ in rounds]


# The match page: both tables hand by hand ------------------------------------------------

@dataclass(frozen=True)
class TableHand:
    """One table's hand of the match, as the public sees it."""

    table: TablePlan
    dealer: SeatPlan  # who held the box's dealer cards
    entered: bool
    result: HandResult | None  # None: not entered, or not for the public's eyes yet
    approved: bool = False
    deal_id: int | None = None  # the box played (or to be played) here: its traveller

    @property
    def hidden(self) -> bool:
        return self.entered and self.result is None

    @property
    def home_points(self) -> int | None:
        if self.result is None:
            return None
        return self.result.points(seating.seat_of(self.table.position, Side.HOME))


@dataclass(frozen=True)
class HandLine:
    hand: int
    tables: tuple[TableHand, TableHand]

    @property
    def swing(self) -> int | None:
        """The home team's net over both tables (the same cards from both sides); None
        until both results may be shown."""
        points = [t.home_points for t in self.tables]
        return None if None in points else sum(points)

    @property
    def provisional(self) -> bool:
        return any(t.result is not None and not t.approved for t in self.tables)


@dataclass(frozen=True)
class MatchSheet:
    plan: MatchPlan
    hands: list[HandLine]
    view: ResultView

    @property
    def hides_some(self) -> bool:
        return any(t.hidden for line in self.hands for t in line.tables)

    @property
    def totals(self) -> tuple[int, int] | None:
        """(home, away) of the hands shown, when every entered hand is shown."""
        if self.hides_some:
            return None
        home = sum(t.home_points for line in self.hands for t in line.tables
                   if t.home_points is not None)
        return home, -home


def match_sheet(match: Match, view: ResultView) -> MatchSheet:
    """The match's two tables side by side, hand by hand (six queries)."""
    plan = match_plan(match)
    results = {(r.table_id, r.hand): r for r in
               HandResult.objects.filter(table__match=match, is_current=True)
               .annotate(seats=Count("approvals"))}
    deal_set = match.number if match.round.rules.deal_scope == DealScope.MATCH else 1
    deals = dict(Deal.objects.filter(round_id=match.round_id, deal_set=deal_set,
                                     is_current=True).values_list("hand", "pk"))
    lines = []
    for hand in range(1, match.hands + 1):
        tables = []
        for table in plan.tables:
            result = results.get((table.table.pk, hand))
            shown = result is not None and view.shows(table.table.pk, hand)
            tables.append(TableHand(table=table, dealer=table.dealer(hand),
                                    entered=result is not None,
                                    result=result if shown else None,
                                    approved=shown and result.seats >= 2,
                                    deal_id=result.deal_id if result is not None
                                    else deals.get(hand)))
        lines.append(HandLine(hand=hand, tables=tuple(tables)))
    return MatchSheet(plan=plan, hands=lines, view=view)


# A round's byes, a box's cards ----------------------------------------------------------

def round_byes(round_: Round) -> list[Team]:
    """The teams with a bye in the round, by code (one query)."""
    return [entry.team for entry in RoundEntry.objects.filter(
        round=round_, side=RoundEntry.Side.BYE).select_related("team").order_by("team__code")]


def box_cards(deal: Deal, round_: Round) -> DealCards | None:
    """A box's cards for anyone who is not staff: only once its round is closed, whatever
    the live-results setting (a round in play never shows a card)."""
    if round_.status != Round.Status.CLOSED:
        return None
    return deal_from_text(deal.cards)
