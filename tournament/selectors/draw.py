"""The draw of a round as pages and printouts show it: tables, seats, who deals each hand.

Who sat in each seat is stored (``TableSeat``, written with the line-ups from
``scoring.seating``, RULES.md §8) and which seat deals each hand is ``scoring.seating``'s;
nothing here decides them.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring import seating
from tournament.models import Match, Player, Round, RoundEntry, Table, TableSeat, Team


@dataclass(frozen=True)
class SeatPlan:
    seat: int  # 1 or 2 at the table
    team: Team
    player: Player


@dataclass(frozen=True)
class TablePlan:
    number: int
    position: int  # the match's table 1 or 2
    match: Match
    seats: tuple[SeatPlan, SeatPlan]
    dealer_seats: tuple[int, ...]  # the dealer's seat in hands 1, 2, …
    table: Table | None = None

    def seat(self, number: int) -> SeatPlan:
        return self.seats[number - 1]

    def dealer(self, hand: int) -> SeatPlan:
        return self.seat(self.dealer_seats[hand - 1])

    def non_dealer(self, hand: int) -> SeatPlan:
        return self.seat(3 - self.dealer_seats[hand - 1])

    def hands_dealt_by(self, seat: int) -> tuple[int, ...]:
        return tuple(hand for hand, dealer in enumerate(self.dealer_seats, 1) if dealer == seat)

    @property
    def seats_with_deals(self) -> list[tuple[SeatPlan, str]]:
        """Each seat with the hands it deals, written out ("1, 3, 5, 7")."""
        return [(seat, ", ".join(map(str, self.hands_dealt_by(seat.seat))))
                for seat in self.seats]

    def seat_of_team(self, team: Team) -> SeatPlan:
        return next(s for s in self.seats if s.team.pk == team.pk)


@dataclass(frozen=True)
class MatchPlan:
    match: Match
    tables: tuple[TablePlan, TablePlan]


@dataclass(frozen=True)
class RoundPlan:
    round: Round
    matches: list[MatchPlan]
    byes: list[Team]

    @property
    def tables(self) -> list[TablePlan]:
        return [table for plan in self.matches for table in plan.tables]

    def by_team(self) -> list[TeamPlace]:
        """Every team of the round, alphabetically, with its seats (none for a bye)."""
        places: dict[int, TeamPlace] = {}
        for table in self.tables:
            for seat in table.seats:
                opponent = table.seat(3 - seat.seat).team
                place = places.setdefault(seat.team.pk, TeamPlace(seat.team, opponent, []))
                place.seats.append((table, seat))
        for team in self.byes:
            places[team.pk] = TeamPlace(team, None, [])
        return sorted(places.values(), key=lambda p: (p.team.name.casefold(), p.team.code))


@dataclass(frozen=True)
class TeamPlace:
    team: Team
    opponent: Team | None  # None: a bye
    seats: list[tuple[TablePlan, SeatPlan]]


def round_plan(round_: Round) -> RoundPlan:
    """The whole draw of a round in a fixed number of queries."""
    byes = [entry.team for entry in round_.entries.filter(side=RoundEntry.Side.BYE)
            .select_related("team")]
    return RoundPlan(round=round_, matches=_match_plans(round_, round_.matches.all()),
                     byes=byes)


def match_plan(match: Match) -> MatchPlan:
    """One match's two tables, seats and dealers (for its entry screens and match page)."""
    return _match_plans(match.round, Match.objects.filter(pk=match.pk))[0]


def _match_plans(round_: Round, matches) -> list[MatchPlan]:
    matches = list(matches.select_related("home", "away", "group").order_by("number"))
    # Tables and seats in one query each, grouped here: a prefetch would make a query set
    # for each of a big round's 256 matches, which costs more than the rows.
    tables: dict[int, list[Table]] = {}
    seated: dict[int, dict[int, Player]] = {}  # table → seat → who sat there
    if matches:
        match_ids = [match.pk for match in matches]
        for table in Table.objects.filter(match_id__in=match_ids).order_by("position"):
            tables.setdefault(table.match_id, []).append(table)
        for seat in (TableSeat.objects.filter(table__match_id__in=match_ids)
                     .select_related("player")):
            seated.setdefault(seat.table_id, {})[seat.seat] = seat.player
    hands = round_.hands_per_match
    plans = []
    for match in matches:
        # A seat's team is the match's team of its player (the database refuses any other),
        # read once with the match rather than again with each seat.
        of_team = {match.home_id: match.home, match.away_id: match.away}
        table_plans = []
        for table in tables.get(match.pk, ()):
            players = seated.get(table.pk, {})
            seats = tuple(SeatPlan(seat=number, team=of_team[players[number].team_id],
                                   player=players[number]) for number in (1, 2))
            dealer_seats = tuple(
                seating.dealer_seat(hand) for hand in range(1, hands + match.extra_hands + 1)
            )
            table_plans.append(TablePlan(number=table.number, position=table.position,
                                         match=match, seats=seats,
                                         dealer_seats=dealer_seats, table=table))
        plans.append(MatchPlan(match=match, tables=tuple(table_plans)))
    return plans
