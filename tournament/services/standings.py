"""The drawing of lots, put on record (RULES.md §9): when a round closes and the drawing of
lots decides a place in its stage's standings after that round, the audit log keeps which
teams it separated and their lots, once per round."""

from __future__ import annotations

from tournament.audit_wording import round_name
from tournament.models import AuditEntry, Round, Stage
from tournament.selectors.standings import stage_tables
from tournament.services.base import Actor, audit

ACTION = "standings.lots"


def record_lots(actor: Actor, round_: Round) -> AuditEntry | None:
    """Record the places decided by lots in the standings after this closed round (call it
    in the closing transaction). Nothing when lots decided nothing or it is on record."""
    stage: Stage = round_.stage
    tournament = stage.tournament
    if round_.status != Round.Status.CLOSED or AuditEntry.objects.filter(
            tournament=tournament, action=ACTION, data__round=round_.pk).exists():
        return None
    data, tables = stage_tables(stage, after_round=round_.number)
    decided = []
    for table in tables:
        lines = table.lines
        for index, line in enumerate(lines):
            if line.separated_by == "lots":
                below = lines[index + 1]
                separation = line.separation
                decided.append({"group": str(table.group) if table.group else "",
                                "above": line.team.code, "below": below.team.code,
                                "rank": line.rank, "text": separation.text,
                                "key": separation.key, "above_value": separation.above,
                                "below_value": separation.below})
    if not decided:
        return None
    return audit(actor, tournament, ACTION, round=round_.pk, stage=stage.pk, lots=decided,
                 stage_name=stage.name, round_name=round_name(round_),
                 seeded=bool(data.seed))
