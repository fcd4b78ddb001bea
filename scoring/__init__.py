"""The rules of duplicate Gin Rummy as pure functions and value types.

Nothing in this package imports Django: it is the one home of every rule of the game and
of scoring (RULES.md), used by the web application, the PDFs, the API and the command line
(``python -m scoring``).
"""

from scoring.errors import RuleError
from scoring.rules import DealScope, DrawRule, Rules, Tiebreak

__all__ = ["DealScope", "DrawRule", "RuleError", "Rules", "Tiebreak"]
