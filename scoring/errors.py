"""Domain errors of the rules engine."""


class RuleError(ValueError):
    """Input that breaks a rule of the game, with a message a person can act on."""
