"""Which rounds are played under which rule settings (each round keeps the rules it was
drawn under: a change of a setting applies to rounds drawn after it)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from scoring.rules import Rules
from tournament.models import Round, Tournament


@dataclass(frozen=True)
class RoundsUnderRules:
    rounds: list[Round]
    rules: Rules
    # (setting, the rounds' value, the value rounds drawn now get) where they differ
    differences: list[tuple[str, object, object]]

    @property
    def same_as_now(self) -> bool:
        return not self.differences


def rules_in_use(tournament: Tournament) -> list[RoundsUnderRules]:
    """The tournament's rounds in order, grouped by the rules they keep (one query)."""
    now = tournament.rules
    groups: list[RoundsUnderRules] = []
    rounds = (Round.objects.filter(stage__tournament=tournament).select_related("stage")
              .order_by("stage__order", "number"))
    by_settings: dict[Rules, list[Round]] = {}
    for round_ in rounds:
        by_settings.setdefault(round_.rules, []).append(round_)
    for rules, members in by_settings.items():
        groups.append(RoundsUnderRules(members, rules, _differences(rules, now)))
    return groups


def _differences(rules: Rules, now: Rules) -> list[tuple[str, object, object]]:
    shown = []
    for setting in dataclasses.fields(Rules):
        then, current = getattr(rules, setting.name), getattr(now, setting.name)
        if then != current:
            if isinstance(then, tuple):
                then, current = ", ".join(then), ", ".join(current)
            shown.append((setting.name.replace("_", " "), str(then), str(current)))
    return shown
