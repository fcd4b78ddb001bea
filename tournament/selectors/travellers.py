"""A box's traveller (issue 12, RULES.md §14): every table's current result on one deal,
sorted, with the frequencies, each seat's datum and who held which cards (who sat where:
``TableSeat``; which seat deals: ``scoring.seating``). Which results count:
``selectors.field_results``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring import seating
from scoring.field import TRIM_FROM, TableResult, Traveller, traveller
from tournament.models import Deal, Player, TableSeat, Team
from tournament.selectors.field_results import Played, deals_per_match, played_results, two_places
from tournament.selectors.penalties import withdrawn_teams


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


def _partial(model, **values):
    """A row of ``model`` with these fields only (the others deferred: read on use), as
    the ORM makes one (``Model.from_db`` takes the values in the fields' order)."""
    names = [field.attname for field in model._meta.concrete_fields if field.attname in values]
    return model.from_db(None, names, [values[name] for name in names])


def seat_holders(round_ids: Iterable[int] = (), *, match_ids: Iterable[int] = ()
                 ) -> dict[tuple[int, int], dict[int, SeatHolder]]:
    """(match pk, table position) → seat → who sat there with their team (``TableSeat``),
    for the tables of these rounds' matches or of these matches (one query)."""
    seats = TableSeat.objects.filter(table__match__isnull=False)
    seats = (seats.filter(round_id__in=list(round_ids)) if round_ids
             else seats.filter(table__match_id__in=list(match_ids)))
    holders: dict[tuple[int, int], dict[int, SeatHolder]] = defaultdict(dict)
    # Each player and each team made once, with the fields the travellers show (a team
    # holds two seats of each table, a player one seat of each of their tables): a box of
    # a 512-team round otherwise made 3,072 objects for 2,048 seats.
    teams: dict[int, Team] = {}
    players: dict[int, Player] = {}
    for seat, match_id, position, player_id, player_name, number, reserve, team_id, code, \
            name, other_name in seats.values_list(
                "seat", "table__match_id", "table__position", "player_id", "player__name",
                "player__number", "player__is_reserve", "player__team_id",
                "player__team__code", "player__team__name", "player__team__other_name"):
        team = teams.get(team_id)
        if team is None:
            team = teams[team_id] = _partial(Team, id=team_id, name=name, code=code,
                                             other_name=other_name)
        player = players.get(player_id)
        if player is None:
            player = players[player_id] = _partial(Player, id=player_id, team_id=team_id,
                                                   name=player_name, number=number,
                                                   is_reserve=reserve)
        holders[match_id, position][seat] = SeatHolder(team, player)
    return holders


def box_traveller(deal: Deal, *, view=None) -> BoxTraveller:
    """Every table's current result on ``deal`` that the reader may see (four queries:
    the results, who sat where, the withdrawn teams; the deal's round is read with it)."""
    round_ = deal.round
    played = played_results(view=None, deal=deal)
    shown = [p for p in played if view is None or view.shows(p.table_id, p.hand)]
    out = withdrawn_teams(round_.stage) if shown else set()
    holders = seat_holders([round_.pk]) if shown else {}
    counted = [p.result() for p in shown if not p.involves(out)]
    summary = traveller(counted)
    datum = summary.dealer_datum
    rows = []
    for p in shown:
        seats = holders.get((p.match_id, p.position), {})
        dealing = seating.dealer_seat(p.hand)
        result = p.result()
        rows.append(TravellerRow(
            played=p, result=result, dealer=seats.get(dealing),
            non_dealer=seats.get(3 - dealing),
            counted=not p.involves(out),
            versus=None if datum is None else result.dealer_points - datum))
    rows.sort(key=lambda row: (-row.dealer_points, row.table))
    return BoxTraveller(deal=deal, rows=rows, summary=summary,
                        hidden=len(played) - len(shown), per_match=deals_per_match(round_))
