"""The drawing of lots, put on record (RULES.md §9): when a round closes and the drawing of
lots decides a place in its stage's standings after that round, the audit log keeps which
teams it separated and their lots, once per round."""

from __future__ import annotations

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
                decided.append({"group": str(table.group) if table.group else "",
                                "above": line.team.code, "below": below.team.code,
                                "rank": line.rank, "text": line.separation.text})
    if not decided:
        return None
    places = "; ".join(f"{d['group'] + ': ' if d['group'] else ''}{d['above']} "
                       f"(place {d['rank']}) above {d['below']}, {d['text']}"
                       for d in decided)
    return audit(actor, tournament, ACTION,
                 f"Drawing of lots in the standings of {stage.name} after {round_.label}: "
                 f"{places} ("
                 + ("seeded from deal key 1, checkable once it is revealed" if data.seed
                    else "no deal key yet: an empty seed") + ")",
                 round=round_.pk, stage=stage.pk, lots=decided)
