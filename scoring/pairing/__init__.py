"""Who meets whom: pure pairing rules for group, Swiss and knockout stages (RULES.md §11).

No Django here; ``tournament.services.draw`` gathers the inputs and saves the answers.
"""

from scoring.pairing.berger import berger_rounds
from scoring.pairing.groups import snake_groups
from scoring.pairing.knockout import (
    bracket_order,
    bracket_rounds,
    bracket_size,
    cross_groups,
    next_round,
    round_slots,
    seeded_bracket,
    third_place_match,
)
from scoring.pairing.schedule import (
    SwapConflict,
    round_robin,
    swap_conflicts,
    swap_in_bracket,
    swap_in_schedule,
)
from scoring.pairing.swiss import SwissPairing, SwissTeam, swiss_pairing

__all__ = [
    "SwapConflict",
    "SwissPairing",
    "SwissTeam",
    "berger_rounds",
    "bracket_order",
    "bracket_rounds",
    "bracket_size",
    "cross_groups",
    "next_round",
    "round_robin",
    "round_slots",
    "seeded_bracket",
    "snake_groups",
    "swap_conflicts",
    "swap_in_bracket",
    "swap_in_schedule",
    "swiss_pairing",
    "third_place_match",
]
