"""The public's pages of a team and of a player (issue 12): the teams with their players,
a team's place and matches in every public round, the matches a player played in with his
hands and his individual row, each shown only as far as the public's view of its round
allows (``selectors.visibility``).

Every function reads in a fixed number of queries, whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch, Q, QuerySet

from scoring import seating
from tournament.models import (
    HandResult,
    Match,
    Player,
    Round,
    RoundEntry,
    Table,
    TableSeat,
    Team,
    Tournament,
)
from tournament.selectors.individual import IndividualRow, IndividualStandings
from tournament.selectors.public import MatchLine, match_lines
from tournament.selectors.visibility import PublicViews


@dataclass(frozen=True)
class PlayedHand:
    """One hand a player played, as the public sees it."""

    hand: int
    dealer: bool  # the player held the box's dealer cards
    entered: bool
    result: HandResult | None
    points: int | None  # the player's

    @property
    def hidden(self) -> bool:
        return self.entered and self.result is None


@dataclass(frozen=True)
class PlayerMatch:
    """A match a player played in: where he sat and his hands."""

    entry: RoundEntry
    line: MatchLine
    table: Table | None
    seat: int
    opponent: Player | None
    hands: list[PlayedHand] = field(default_factory=list)

    @property
    def points(self) -> int | None:
        """The player's points over the hands shown, when every entered hand is shown and
        there is one."""
        if any(h.hidden for h in self.hands) or not any(h.result for h in self.hands):
            return None
        return sum(h.points for h in self.hands if h.points is not None)


def player_matches(player: Player, views: PublicViews) -> list[PlayerMatch]:
    """Every match the player was in the line-up of, with his hands (six queries)."""
    entries = list(RoundEntry.objects.filter(Q(first_player=player) | Q(second_player=player),
                                             match__isnull=False)
                   .select_related("first_player", "second_player"))
    match_ids = [e.match_id for e in entries]
    lines = {line.match.pk: line for line in
             match_lines(Match.objects.filter(pk__in=match_ids), views)}
    # Who sat where (``TableSeat``): the player's seat of each match, and its opponent.
    sat = {seat.table.match_id: seat for seat in TableSeat.objects.filter(
        player=player, table__match_id__in=match_ids).select_related("table")}
    opponents = {seat.table_id: seat.player for seat in TableSeat.objects.filter(
        table_id__in=[seat.table_id for seat in sat.values()]).exclude(
        player=player).select_related("player__person")}  # the names shown (tournament.names)
    results = {(r.table_id, r.hand): r for r in HandResult.objects.filter(
        table__match_id__in=match_ids, is_current=True)}
    played = []
    for entry in entries:
        mine = sat.get(entry.match_id)
        table = mine.table if mine is not None else None
        seat = mine.seat if mine is not None else None
        line = lines[entry.match_id]
        opponent = opponents.get(table.pk) if table is not None else None
        hands = []
        for hand in range(1, line.match.hands + 1):
            result = results.get((table.pk, hand)) if table else None
            shown = result is not None and views.shows(line.match.round_id, table.pk, hand)
            hands.append(PlayedHand(hand=hand, dealer=seating.dealer_seat(hand) == seat,
                                    entered=result is not None,
                                    result=result if shown else None,
                                    points=result.points(seat) if shown else None))
        played.append(PlayerMatch(entry=entry, line=line, table=table, seat=seat,
                                  opponent=opponent, hands=hands))
    played.sort(key=lambda p: (p.line.match.round.stage.order, p.line.match.round.number))
    return played


def player_row(standings: IndividualStandings, player: Player) -> IndividualRow | None:
    return next((row for row in standings.rows if row.player.pk == player.pk), None)


def public_teams(tournament: Tournament) -> QuerySet[Team]:
    """The tournament's teams by name (then code), each with its players (two queries):
    of a player, what the list shows (a world final's 1,024 built with no more)."""
    players = Prefetch("players", queryset=Player.objects.only(
        "pk", "team_id", "name", "number", "is_reserve"))
    return tournament.teams.prefetch_related(players).order_by("name", "code")


def players_by_team(tournament: Tournament) -> QuerySet[Player]:
    """Every player of the tournament with his team, by team code and number in the team,
    then by id, an order no two players share: a query set for the API's pages (a count
    and a slice)."""
    return (Player.objects.filter(team__tournament=tournament).select_related("team")
            .order_by("team__code", "number", "pk"))


def team_entries(team: Team) -> list[RoundEntry]:
    """The team's place in every public round: its line-up or its bye (one query)."""
    return list(RoundEntry.objects.filter(team=team).exclude(round__status=Round.Status.DRAFT)
                .select_related("round__stage", "first_player", "second_player")
                .order_by("round__stage__order", "round__number"))


def team_matches(team: Team, views: PublicViews) -> list[MatchLine]:
    """Every public match of the team (three queries)."""
    return match_lines(Match.objects.filter(Q(home=team) | Q(away=team))
                       .exclude(round__status=Round.Status.DRAFT), views)
