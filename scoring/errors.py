"""Domain errors of the rules engine."""

from __future__ import annotations

from typing import Any


def gettext_noop(message: str) -> str:
    """Mark a message for translation and return it unchanged.

    ``scoring`` words its errors in English and imports nothing of Django; the name is the
    one Django's ``makemessages`` looks for, so the application's catalogue collects these
    messages and translates them when it shows an error (``tournament.wording``).
    """
    return message


class Phrase(str):
    """A parameter of a message that is itself a marked message (``Phrase(gettext_noop(
    "the knocker's deadwood"))``): the application translates it with the template. Other
    parameters (numbers, cards, names, codes such as "knock") stay as they are."""

    __slots__ = ()


class RuleError(ValueError):
    """Input that breaks a rule of the game, with a message a person can act on.

    ``RuleError(gettext_noop("a table has seats 1 and 2, not {seat}"), seat=3)``: the
    message is the English template formatted with the parameters (``str(error)``), and
    ``template`` and ``params`` keep the parts, for a page to translate the template and
    format it in the reader's language. A message without parameters is its own template.
    """

    # The input the error is about, by the name of the engine's argument that carries it
    # ("opponent_deadwood", "declarer_cards", …): a form or an API shows the message there.
    field: str | None = None

    def __init__(self, message: object = "", /, **params: Any) -> None:
        self.template: str | None = message if isinstance(message, str) else None
        self.params: dict[str, Any] = params
        text = message.format(**params) if params and isinstance(message, str) else message
        super().__init__(text)

    def about(self, field: str) -> RuleError:
        """The same error, saying which input it concerns (unless it says so already)."""
        if self.field is None:
            self.field = field
        return self

    def __reduce__(self):  # pickles with its parts, the English message as it was
        return _rebuild, (type(self), self.template if self.template is not None
                          else self.args[0], self.params, self.field)


def _rebuild(cls: type[RuleError], message: object, params: dict[str, Any],
             field: str | None = None) -> RuleError:
    error = cls(message, **params)
    error.field = field
    return error
