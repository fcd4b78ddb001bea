"""The rules of duplicate Gin Rummy as pure functions and value types.

Nothing in this package imports Django: it is the one home of every rule of the game and
of scoring (RULES.md), used by the web application, the PDFs, the API and the command line
(``python -m scoring``).
"""

from __future__ import annotations

import importlib
from typing import Any

from scoring.errors import RuleError
from scoring.rules import DealScope, DrawRule, Rules

# The card engine builds its lookup tables on first use, not whenever the settings are
# imported (Django imports ``scoring.rules`` at start-up).
_LAZY = {
    "Card": "scoring.cards",
    "parse_card": "scoring.cards",
    "parse_cards": "scoring.cards",
    "Arrangement": "scoring.melds",
    "Meld": "scoring.melds",
    "analyze_eleven": "scoring.melds",
    "arrange": "scoring.melds",
    "deadwood": "scoring.melds",
    "lay_off": "scoring.layoffs",
    "choose_declarer_arrangement": "scoring.layoffs",
    "FalseKnock": "scoring.hand",
    "HandScore": "scoring.hand",
    "Outcome": "scoring.hand",
    "Party": "scoring.hand",
    "score_hand": "scoring.hand",
    "Showdown": "scoring.showdown",
    "settle": "scoring.showdown",
    "Box": "scoring.box",
    "play_box": "scoring.simulate",
}

__all__ = ["DealScope", "DrawRule", "RuleError", "Rules", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
