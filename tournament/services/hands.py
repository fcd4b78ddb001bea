"""A hand as the scorer enters it, and what the engine makes of it (RULES.md §6, §7).

Points always come from ``scoring.hand``; nothing here adds up a hand by itself. This
module only turns the engine's refusals into messages placed next to the right field.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from scoring.errors import RuleError
from scoring.hand import FalseKnock, HandScore, Party, score_hand
from tournament.models import HandResult
from tournament.services.base import ServiceError
from tournament.wording import rule_message


@dataclass(frozen=True)
class HandEntry:
    """What a scorer types for one hand. Seats are the table's seats 1 and 2."""

    outcome: str
    declarer_seat: int | None = None
    declarer_deadwood: int | None = None
    opponent_deadwood: int | None = None
    false_knock_seat: int | None = None
    false_knock_deadwood: int | None = None

    @property
    def words(self) -> str:
        """The entry as a referee would say it: "knock 4 vs 12", "gin vs 30", "draw"."""
        if self.outcome == "draw":
            text = "draw"
        elif self.outcome in ("gin", "big_gin"):
            label = "Big Gin" if self.outcome == "big_gin" else "gin"
            text = f"{label} by seat {self.declarer_seat} vs {self.opponent_deadwood}"
        else:
            text = (f"{self.outcome} by seat {self.declarer_seat} "
                    f"{self.declarer_deadwood} vs {self.opponent_deadwood}")
        if self.false_knock_seat:
            text += f", false knock by seat {self.false_knock_seat} at {self.false_knock_deadwood}"
        return text

    @classmethod
    def of(cls, result: HandResult) -> HandEntry:
        outcome = "knock" if result.outcome == "undercut" else result.outcome
        return cls(outcome, result.declarer_seat, result.declarer_deadwood,
                   result.opponent_deadwood, result.false_knock_seat,
                   result.false_knock_deadwood)


def score_entry(entry: HandEntry, rules) -> HandScore:
    """The engine's score of an entry, with every slip reported as a ServiceError naming
    the field when there is one."""
    errors: dict[str, list[str]] = {}
    if entry.outcome != "draw" and entry.declarer_seat not in (1, 2):
        errors["declarer_seat"] = [gettext("choose the seat that declared: 1 or 2")]
    if entry.outcome == "draw" and entry.declarer_seat is not None:
        errors["declarer_seat"] = [gettext("a draw has no declarer")]
    if entry.false_knock_seat is not None and entry.false_knock_seat not in (1, 2):
        errors["false_knock_seat"] = [gettext("a false knock is by seat 1 or seat 2")]
    if (entry.false_knock_seat is None) != (entry.false_knock_deadwood is None):
        errors["false_knock_deadwood"] = [
            gettext("a false knock needs both the seat and the deadwood")]
    if errors:
        raise ServiceError("; ".join(m for ms in errors.values() for m in ms),
                           field_errors=errors)
    false_knock = None
    if entry.false_knock_seat is not None:
        by = (Party.DECLARER if entry.false_knock_seat == entry.declarer_seat
              else Party.OPPONENT)
        false_knock = FalseKnock(by=by, deadwood=entry.false_knock_deadwood)
    try:
        return score_hand(entry.outcome, entry.declarer_deadwood, entry.opponent_deadwood,
                          rules=rules, false_knock=false_knock)
    except RuleError as error:
        message = rule_message(error)
        raise ServiceError(message, field_errors={error.field or "outcome": [message]}) from None


def seat_points(score: HandScore, declarer_seat: int | None) -> tuple[int, int]:
    if declarer_seat is None:
        return 0, 0
    mine, theirs = score.declarer_points, score.opponent_points
    return (mine, theirs) if declarer_seat == 1 else (theirs, mine)
