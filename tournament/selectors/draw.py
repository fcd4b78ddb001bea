"""The draw of a round as pages and printouts show it: tables, seats, who deals each hand.

Who sat in each seat is stored (``TableSeat``, written with the line-ups from
``scoring.seating``, RULES.md §8) and which seat deals each hand is ``scoring.seating``'s;
nothing here decides them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db.models import F

from scoring import seating
from tournament.models import Match, Player, Round, RoundEntry, Table, Team


@dataclass(frozen=True)
class SeatPlan:
    seat: int  # 1 or 2 at the table
    team: Team
    player: Player


# Worked out once per order of dealers (a round's 512 tables share one or two).
@lru_cache(maxsize=64)
def _hands_dealt_by(dealer_seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(hand for hand, dealer in enumerate(dealer_seats, 1) if dealer == seat)


@lru_cache(maxsize=64)
def _hands_written(dealer_seats: tuple[int, ...], seat: int) -> str:
    return ", ".join(map(str, _hands_dealt_by(dealer_seats, seat)))


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
        return _hands_dealt_by(self.dealer_seats, seat)

    @property
    def seats_with_deals(self) -> list[tuple[SeatPlan, str]]:
        """Each seat with the hands it deals, written out ("1, 3, 5, 7")."""
        return [(seat, _hands_written(self.dealer_seats, seat.seat)) for seat in self.seats]

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
    chosen = matches.order_by().values("pk")  # the matches, as a subquery
    matches = list(matches.select_related("home", "away", "group").order_by("number"))
    # Tables and seats in one query each, grouped here: a prefetch would make a query set
    # for each of a big round's 256 matches, which costs more than the rows (and a list of
    # their keys costs Django more than the subquery). Each seat is its player, with the
    # table and seat the player sat at (a player sits once a round): no model of its own for
    # each of a round's 1,024 seats.
    tables: dict[int, list[Table]] = {}
    seated: dict[int, dict[int, Player]] = {}  # table → seat → who sat there
    if matches:
        for table in Table.objects.filter(match__in=chosen).order_by("position"):
            tables.setdefault(table.match_id, []).append(table)
        for player in (Player.objects.filter(seats__table__match__in=chosen).order_by()
                       .annotate(seated_at=F("seats__table_id"), seated_in=F("seats__seat"))):
            seated.setdefault(player.seated_at, {})[player.seated_in] = player
    hands = round_.hands_per_match
    dealers: dict[int, tuple[int, ...]] = {}  # hands (extra ones too) → the dealer's seats
    plans = []
    for match in matches:
        # A seat's team is the match's team of its player (the database refuses any other),
        # read once with the match rather than again with each seat.
        of_team = {match.home_id: match.home, match.away_id: match.away}
        its_hands = hands + match.extra_hands
        dealer_seats = dealers.get(its_hands)
        if dealer_seats is None:
            dealer_seats = dealers[its_hands] = tuple(
                seating.dealer_seat(hand) for hand in range(1, its_hands + 1))
        table_plans = []
        for table in tables.get(match.pk, ()):
            players = seated.get(table.pk, {})
            seats = tuple(SeatPlan(seat=number, team=of_team[players[number].team_id],
                                   player=players[number]) for number in (1, 2))
            table_plans.append(TablePlan(number=table.number, position=table.position,
                                         match=match, seats=seats,
                                         dealer_seats=dealer_seats, table=table))
        plans.append(MatchPlan(match=match, tables=tuple(table_plans)))
    return plans
