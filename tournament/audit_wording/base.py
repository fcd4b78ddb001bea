"""What every audit sentence is written with: the registry of wordings (``words_for``,
``WORDING``), the entry a wording reads (``Entry``), the data the services store for it
(``round_name``, ``match_name``, ``phrase``) and the words shared by the sentences (a
round's name, a list, a stored phrase, a reason)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import pgettext

from scoring.pairing import round_slots
from tournament.wording import knockout_round_name

# Stored by ``Actor.name`` for an entry made by no person (a command, the system).
SYSTEM = "system"


# Building the data (used by the services) -------------------------------------------------

def round_name(round_) -> dict:
    """What names a round in an entry's data: its stage's name, its number, and in a
    knockout's bracket the slots it starts from (its name: "Final", "Quarter-finals")."""
    rounds = round_.stage.bracket_rounds
    slots = (round_slots(round_.number, rounds)
             if rounds is not None and 1 <= round_.number <= rounds else None)
    return {"stage": round_.stage.name, "number": round_.number, "slots": slots}


def match_name(match) -> dict:
    """A match in an entry's data: its number and its teams' codes."""
    return {"number": match.number, "home": match.home.code, "away": match.away.code}


def phrase(template: str, **params: Any) -> dict:
    """A part of a sentence kept in an entry's data: an English template marked with
    ``gettext_noop`` where it is made, and its values (texts, numbers, a ``round_name``,
    other phrases, or lists of them, which are listed)."""
    return {"text": template, "params": params}


# Showing ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """What a wording function reads: who did it, the entry's data and its address."""

    who: str
    data: Mapping[str, Any]
    ip: str | None = None

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


Wording = Callable[[Entry], str]
WORDING: dict[str, Wording] = {}


def words_for(*actions: str) -> Callable[[Wording], Wording]:
    """Register the decorated function as the wording of these actions (``WORDING``)."""
    def register(function: Wording) -> Wording:
        for action in actions:
            WORDING[action] = function
        return function
    return register


class WordingError(Exception):
    """An entry whose data its action's wording cannot write a sentence from."""


def gettext(message: str) -> str:
    """``django.utils.translation.gettext``, looked up on the package when called: every
    wording translates through ``tournament.audit_wording.gettext``, so that replacing it
    there (the tests mark the translated words so) reaches the sentences of every module."""
    return sys.modules[__package__].gettext(message)


def unworded(action: str, data: Mapping) -> str:
    """An entry no wording can write: its action's name and its data."""
    values = ", ".join(f"{key} {_value(value)}" for key, value in sorted(data.items()))
    return (gettext("%(action)s: %(values)s") % {"action": action, "values": values}
            if values else action)


def _value(value: Any) -> str:
    if isinstance(value, dict) and "text" in value and "params" in value:
        return say(value)
    if isinstance(value, dict) and {"stage", "number"} <= set(value):
        return round_words(value)
    if isinstance(value, (list, tuple)):
        return listed(_value(item) for item in value)
    if value is None:
        return "—"
    return str(value)


def say(stored: Mapping) -> str:
    """A stored phrase in the active language, its values filled in."""
    params = {name: _value(value) for name, value in (stored.get("params") or {}).items()}
    template = gettext(stored["text"])
    try:
        return template % params if params else template
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
        return stored["text"] % params if params else stored["text"]


def listed(items) -> str:
    return pgettext("list separator", ", ").join(items)


def round_label(ref: Mapping) -> str:
    """"Round 3", or a bracket round's name ("Final")."""
    if ref.get("slots"):
        return knockout_round_name(ref["slots"])
    return gettext("Round %(n)d") % {"n": ref["number"]}


def round_words(ref: Mapping) -> str:
    """"Swiss, Round 3": the round as the rest of the site names it."""
    return gettext("%(stage)s, %(round)s") % {"stage": ref["stage"], "round": round_label(ref)}


def match_words(ref: Mapping) -> str:
    """"match 3 (T1 – T2)", from a ``match_name``."""
    return gettext("match %(number)s (%(home)s – %(away)s)") % ref


def reason_words(reason: str) -> str:
    return gettext("; reason: %(reason)s") % {"reason": reason}


def or_unknown(value) -> str:
    return value or gettext("unknown")
