"""Individual standings as the staff pages read them (issue 11, item 7; RULES.md §12).

The counting is ``scoring.individual``; this module reads the current version of every
hand of a stage (or of the whole tournament) with the round's line-ups, and hands them to
``scoring.individual.table_lines``, which gives each hand to the two players in its seats
(who sits in which seat and who holds the dealer's cards come from ``scoring.seating``).

Which hands count, like the team standings (``selectors.standings``):

- a hand of a match not signed off yet (or being corrected) is provisional: it counts and
  marks its players' lines, or is left out with ``official_only`` (what a scorer sees);
- a forfeited match counts no hand (it is decided by the default, not by play);
- a match whose result rows are void (a team withdrawn from a group stage: every result
  involving it is cleared) counts no hand either.

Three queries (hands, line-ups, players), whatever the size of the event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import ExpressionWrapper, IntegerField, Q

from scoring.individual import PlayerLine, rank_lines, table_lines
from tournament.models import HandResult, Player, RoundEntry, Stage, Team, TeamResult, Tournament

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
               shows: Callable[[int, int, int], bool] | None = None) -> IndividualStandings:
    """Every player's line over the counted hands of ``stage`` (every stage when None),
    ranked by points, then points per hand; ``minimum_hands`` leaves out players with
    fewer hands, ranking those shown (three queries). ``shows(round id, table id, hand)``
    leaves out the hands it refuses (the public's view, ``selectors.visibility``)."""
    where = {"round__stage": stage} if stage is not None else {
        "round__stage__tournament": tournament}
    # Matches with a void row, read once (a subquery per hand would be read per hand).
    void = TeamResult.objects.filter(void=True, match__isnull=False, **where).values("match_id")
    hands = (HandResult.objects
             .filter(is_current=True, table__match__forfeited_by__isnull=True,
                     **{f"table__{key}": value for key, value in where.items()})
             .exclude(table__match_id__in=void)
             # 1 or 0 (true or false on PostgreSQL): no conversion per hand on SQLite.
             .annotate(official=ExpressionWrapper(Q(table__match__signed_off_at__isnull=False),
                                                  output_field=IntegerField()))
             .order_by())
    if official_only:
        hands = hands.filter(table__match__signed_off_at__isnull=False)
    lineups: dict[int, dict[str, tuple[int, int]]] = {}
    for match, side, first, second in (RoundEntry.objects.filter(match__isnull=False, **where)
                                       .values_list("match_id", "side", "first_player_id",
                                                    "second_player_id")):
        lineups.setdefault(match, {})[side] = (first, second)
    columns = ["table__match_id", "table__position", "hand", "seat1_points", "seat2_points",
               "outcome", "declarer_seat", "false_knock_seat", "official"]

    def counted():
        if shows is None:
            rows = hands.values_list(*columns)
        else:
            rows = (row[:-2] for row in hands.values_list(*columns, "table__round_id",
                                                          "table_id")
                    if shows(row[-2], row[-1], row[2]))
        for match, position, hand, one, two, outcome, declarer, false_knock, official \
                in rows:
            sides = lineups.get(match)
            if sides is None or len(sides) != 2:
                continue  # a match without both line-ups (never written so by the draw)
            yield (match, position, hand, one, two, outcome, declarer, false_knock,
                   not official)

    everyone = table_lines(counted(), lineups)
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
