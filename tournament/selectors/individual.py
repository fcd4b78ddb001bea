"""Individual standings as the staff pages read them (issue 11, item 7; RULES.md §12).

The counting is ``scoring.individual``. What each seat of a table made of its hands is
kept as the seat's tally (``SeatTally``, rewritten with every hand saved:
``services.team_results``), so the standings read a tally a seat and round, not every hand:
``scoring.individual.tally_lines`` adds up the tallies of the seats each player sat in (who
sat in which seat is stored: ``TableSeat``). Where the public may see only some hands of a
round in play (``selectors.visibility``), that round's hands are read one by one and counted
by ``scoring.individual.table_lines``, as before.

Which hands count, like the team standings (``selectors.standings``):

- a hand of a match not signed off yet (or being corrected) is provisional: it counts and
  marks its players' lines, or is left out with ``official_only`` (what a scorer sees);
- a forfeited match counts no hand (it is decided by the default, not by play);
- a match whose result rows are void (a team withdrawn from a group stage: every result
  involving it is cleared) counts no hand either.

The database adds the tallies up per player (and per signed-off or not), each tally joined
to its seat's player (``TableSeat``), so that 2,048 sums come back for the last day of a
512-team event instead of its 15,360 tallies. Two queries (the sums, the players), two more
for the public while it sees a round only in part (its seats and hands), whatever the size
of the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import (
    ExpressionWrapper,
    F,
    FilteredRelation,
    IntegerField,
    Q,
    Sum,
)

from scoring.individual import PlayerLine, Tally, rank_lines, table_lines, tally_lines
from tournament.models import (
    HandResult,
    Player,
    SeatTally,
    Stage,
    TableSeat,
    Team,
    TeamResult,
    Tournament,
)
from tournament.selectors.visibility import PublicViews

CENT = Decimal("0.01")


@dataclass(frozen=True)
class IndividualRow:
    rank: int
    player: Player
    team: Team
    line: PlayerLine

    @property
    def per_hand(self) -> Decimal:
        """Points per hand to two decimals (half up), from the exact fraction."""
        exact = self.line.per_hand
        value = Decimal(exact.numerator) / Decimal(exact.denominator)
        return value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class IndividualStandings:
    tournament: Tournament
    stage: Stage | None  # None: every stage of the tournament
    rows: list[IndividualRow]
    official_only: bool
    minimum_hands: int
    players: int  # players with at least one hand, before the minimum

    @property
    def provisional(self) -> bool:
        return any(row.line.provisional for row in self.rows)


def individual(tournament: Tournament, *, stage: Stage | None = None,
               official_only: bool = False, minimum_hands: int = 0,
               views: PublicViews | None = None) -> IndividualStandings:
    """Every player's line over the counted hands of ``stage`` (every stage when None),
    ranked by points, then points per hand; ``minimum_hands`` leaves out players with
    fewer hands, ranking those shown. ``views`` (the public's, ``selectors.visibility``)
    leaves out the hands it does not show."""
    where = {"round__stage": stage} if stage is not None else {
        "round__stage__tournament": tournament}
    # Matches with a void row, read once (a subquery per row would be read per row).
    void = TeamResult.objects.filter(void=True, match__isnull=False, **where).values("match_id")
    # 1 or 0 (true or false on PostgreSQL): no conversion per row on SQLite.
    official = ExpressionWrapper(Q(table__match__signed_off_at__isnull=False),
                                 output_field=IntegerField())
    tallies = (SeatTally.objects
               .filter(table__match__forfeited_by__isnull=True,
                       **{f"table__{key}": value for key, value in where.items()})
               .exclude(table__match_id__in=void).annotate(official=official).order_by())
    shown_whole, shown_in_part = None, []
    if views is not None:
        # A round the views do not name shows nothing (a draft).
        shown_whole = [r for r, view in views.by_round.items() if view.everything]
        shown_in_part = [r for r, view in views.by_round.items() if not view.everything]
        tallies = tallies.filter(table__round_id__in=shown_whole)
    if official_only:
        tallies = tallies.filter(table__match__signed_off_at__isnull=False)
    everyone = tally_lines((player, Tally(*figures), not official_)
                           for player, official_, *figures in _summed(tallies))
    if shown_in_part:
        seats: dict[int, dict[int, int]] = {}
        for table, seat, player in (
                TableSeat.objects.filter(round_id__in=shown_in_part, **where)
                .order_by().values_list("table_id", "seat", "player_id")):
            seats.setdefault(table, {})[seat] = player
        _add_hands_shown(everyone, {table: (pair[1], pair[2]) for table, pair in seats.items()
                                    if len(pair) == 2},
                         views, where, void, official_only, shown_in_part)
    lines = rank_lines(everyone.values(), minimum_hands=minimum_hands)
    players = {player.pk: player for player in
               Player.objects.filter(team__tournament=tournament).select_related("team")}
    rows = [IndividualRow(line.rank, players[line.player], players[line.player].team, line)
            for line in lines]
    # Players sharing a rank: by team code, then their number in the team.
    rows.sort(key=lambda row: (row.rank, row.team.code, row.player.number))
    return IndividualStandings(tournament=tournament, stage=stage, rows=rows,
                               official_only=official_only, minimum_hands=minimum_hands,
                               players=len(everyone))


def _summed(tallies):
    """(player, official, every figure of ``SeatTally.FIGURES`` added up) of these seat
    tallies, per player and per signed-off or not; the player of a tally is its seat's
    (``TableSeat``). A seat without its player (never written so by the draw) counts
    nothing."""
    return (tallies.annotate(sat=FilteredRelation("table__seats",
                                                  condition=Q(table__seats__seat=F("seat"))))
            .filter(sat__isnull=False)
            .annotate(player=F("sat__player_id"))
            .values("player", "official")
            .annotate(**{f"sum_{name}": Sum(name) for name in SeatTally.FIGURES})
            .order_by().values_list("player", "official",
                                    *(f"sum_{name}" for name in SeatTally.FIGURES)))


def _add_hands_shown(lines: dict[int, PlayerLine], seats, views: PublicViews, where: dict,
                     void, official_only: bool, rounds: list[int]) -> None:
    """Count into ``lines`` the hands the public sees of ``rounds``, which it sees in part
    (rounds in play), one by one (one query); ``seats[table]``: the players in its seats 1
    and 2."""
    hands = (HandResult.objects
             .filter(is_current=True, table__match__forfeited_by__isnull=True,
                     **{f"table__{key}": value for key, value in where.items()})
             .filter(table__round_id__in=rounds)
             .exclude(table__match_id__in=void)
             .annotate(official=ExpressionWrapper(Q(table__match__signed_off_at__isnull=False),
                                                  output_field=IntegerField()))
             .order_by())
    if official_only:
        hands = hands.filter(table__match__signed_off_at__isnull=False)

    def counted():
        for (hand, one, two, outcome, declarer, false_knock, official, round_id,
             table) in hands.values_list(
                "hand", "seat1_points", "seat2_points", "outcome", "declarer_seat",
                "false_knock_seat", "official", "table__round_id", "table_id"):
            if table not in seats or not views.shows(round_id, table, hand):
                continue
            yield (table, hand, one, two, outcome, declarer, false_knock, not official)

    for player, line in table_lines(counted(), seats).items():
        parts = [(player, Tally.of(line), line.provisional)]
        if player in lines:  # the player's line of the rounds counted by their tallies
            parts.append((player, Tally.of(lines[player]), lines[player].provisional))
        lines[player] = tally_lines(parts)[player]
