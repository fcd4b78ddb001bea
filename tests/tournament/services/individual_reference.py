"""``selectors.individual.individual`` as it was before issue 28, kept to test the one that
adds up the seats' tallies against: every current hand of the event read and counted one by
one (``scoring.individual.table_lines``), the public's view asked of every hand. Slow and
obviously right."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import ExpressionWrapper, IntegerField, Q

from scoring.individual import rank_lines, table_lines
from scoring.seating import player_in_seat
from tournament.models import HandResult, Player, RoundEntry, Stage, TeamResult, Tournament
from tournament.selectors.individual import IndividualRow, IndividualStandings


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
            yield ((match, position), hand, one, two, outcome, declarer, false_knock,
                   not official)

    # Who sat where from the line-ups by ``scoring.seating`` (not as stored: the stored
    # seats are what this checks).
    seats = {(match, position): tuple(player_in_seat(position, seat, sides)
                                      for seat in (1, 2))
             for match, sides in lineups.items() if len(sides) == 2 for position in (1, 2)}
    everyone = table_lines(counted(), seats)
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
