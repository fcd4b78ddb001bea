"""What the pairing knows about a stage's teams: their order, points, opponents, byes.

The order and the points are the stage's standings (``selectors.standings``, ranked by
``scoring.standings``) over the official results: match points, small points, then the
tournament's tiebreak chain without the drawing of lots, so that teams still tied keep
their entry order (round 1 of a Swiss stage is paired by seed). What only the pairing needs
(opponents met, byes, home matches) is gathered here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournament.models import Match, RoundEntry, Stage
from tournament.selectors.standings import stage_standings


@dataclass
class TeamRecord:
    team_id: int
    position: int
    rank: int = 0  # place in the pairing order, 1 first
    match_points: int = 0
    small_points: int = 0
    wins: int = 0
    byes: int = 0
    home_matches: int = 0
    opponents: set[int] = field(default_factory=set)


def team_records(stage: Stage) -> dict[int, TeamRecord]:
    """Every entered team's record over the official results of the stage's rounds, each
    counted by the rules of its own round, in the standings' order."""
    table = stage_standings(stage, official_only=True, lots=False)
    positions = dict(stage.entries.values_list("team_id", "position"))
    records = {
        line.team.pk: TeamRecord(team_id=line.team.pk, position=positions[line.team.pk],
                                 rank=rank, match_points=line.match_points,
                                 small_points=line.small_points, wins=line.wins)
        for rank, line in enumerate(table.lines, 1)
    }
    # A team out of the table (withdrawn from a group stage) still has its record, last.
    for team, position in sorted(positions.items(), key=lambda item: item[1]):
        if team not in records:
            records[team] = TeamRecord(team_id=team, position=position, rank=len(records) + 1)
    for home, away in Match.objects.filter(round__stage=stage).values_list("home_id",
                                                                           "away_id"):
        for team, opponent, is_home in ((home, away, True), (away, home, False)):
            record = records.get(team)
            if record is not None:
                record.opponents.add(opponent)
                record.home_matches += is_home
    byes = RoundEntry.objects.filter(round__stage=stage, side=RoundEntry.Side.BYE)
    for team in byes.values_list("team_id", flat=True):
        if team in records:
            records[team].byes += 1
    return records


def ranked(records: dict[int, TeamRecord]) -> list[TeamRecord]:
    """The records in the standings' order (``team_records`` ranks them)."""
    return sorted(records.values(), key=lambda r: r.rank)
