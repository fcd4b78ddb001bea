"""What a stage knows about its teams so far: points, opponents, byes (for pairing)."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.match import bye_result, match_points
from tournament.models import Match, RoundEntry, Stage


@dataclass
class TeamRecord:
    team_id: int
    position: int
    match_points: int = 0
    small_points: int = 0
    wins: int = 0
    byes: int = 0
    home_matches: int = 0
    opponents: set[int] = field(default_factory=set)


def team_records(stage: Stage) -> dict[int, TeamRecord]:
    """Every entered team's record over the official results of the stage's rounds, each
    counted by the rules of its own round."""
    rules = {round_.pk: round_.rules for round_ in stage.rounds.all()}
    records = {
        entry.team_id: TeamRecord(team_id=entry.team_id, position=entry.position)
        for entry in stage.entries.all()
    }
    matches = Match.objects.filter(round__stage=stage).values_list(
        "round_id", "home_id", "away_id", "home_total", "away_total", "signed_off_at"
    )
    for round_id, home, away, home_total, away_total, signed_off_at in matches:
        for team, opponent, is_home in ((home, away, True), (away, home, False)):
            record = records.get(team)
            if record is None:
                continue
            record.opponents.add(opponent)
            record.home_matches += is_home
            if signed_off_at is None:
                continue
            own, other = (home_total, away_total) if is_home else (away_total, home_total)
            points = match_points(own, other, rules[round_id])
            record.match_points += points
            record.small_points += own
            record.wins += own > other
    byes = RoundEntry.objects.filter(round__stage=stage, side=RoundEntry.Side.BYE)
    for round_id, team in byes.values_list("round_id", "team_id"):
        if team in records:
            bye_match_points, bye_small_points = bye_result(rules[round_id])
            records[team].byes += 1
            records[team].match_points += bye_match_points
            records[team].small_points += bye_small_points
    return records


def ranked(records: dict[int, TeamRecord]) -> list[TeamRecord]:
    """Provisional order for pairing: match points, small points, then the entry number.

    The full tiebreak chain of the standings (RULES.md §9) is the standings' job; pairing
    only needs a stable order inside each score group.
    """
    return sorted(records.values(),
                  key=lambda r: (-r.match_points, -r.small_points, r.position))
