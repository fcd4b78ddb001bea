"""The audit log's sentences, written when an entry is shown, in the reader's language.

An audit entry keeps what was done (``AuditEntry.action``) and what it was done to
(``AuditEntry.data``: ids for the tournament file's natural keys, and the names, numbers
and codes the sentence needs, as they were at that moment). The sentence is not stored:
``sentence(entry)`` writes it from the action and the data with the translated phrases
of the wording modules, so the same entry reads in English to one director and in Chinese
to another (as pretix does). ``WORDING`` has one function for every action a service
records; a test walks every ``audit(...)`` call and fails on an action without one.

The package, one module a subject, each registering its wordings with ``words_for``
(``base``), all imported here before any sentence is written:

- ``base``: the registry, the data the services build (``round_name``, ``match_name``,
  ``phrase``) and the words the sentences share (``say``, ``round_words``, ``listed``, …);
- ``tournaments``: the tournament's set-up, its staff and accounts;
- ``teams``: the teams, their players and PINs;
- ``stages``: the stages, their seeding and the standings;
- ``rounds``: the draw and the rounds' course;
- ``deals``: the deal keys, the deals and their printouts;
- ``results``: the devices, the hands, approvals, signatures and sign-offs;
- ``penalties``: the penalties.

Every word is translated through this package's ``gettext`` (``base.gettext`` looks it up
here when called).

Entries recorded before this (their English sentence stored in
``AuditEntry.recorded_summary``) are shown as they were recorded, marked as such.

Parts of a sentence made deeper in the services (a draw's notes, what a penalty changed,
a swap's warnings) are stored as *phrases*: ``phrase(gettext_noop("…%(x)s…"), x=…)``, an
English template with named values, translated when shown (``say``). Their templates
are marked with ``gettext_noop`` where they are made, so the catalogue has them.

The data keys that hold ids (``exchange.common.AUDIT_REFERENCES``: round, match, table,
team, teams, player, stage, …) are never used here: a row may be gone, and an imported
file maps them to other ids. The words come from keys of their own (``round_name``,
``table_number``, ``team_code``, …).
"""

from __future__ import annotations

import logging

from django.utils.translation import gettext

# The wording modules register their actions' wordings when imported: all of them, here.
from tournament.audit_wording import (  # noqa: F401
    deals,
    penalties,
    results,
    rounds,
    stages,
    teams,
    tournaments,
)
from tournament.audit_wording.base import (
    SYSTEM,
    WORDING,
    Entry,
    Wording,
    WordingError,
    listed,
    match_name,
    phrase,
    round_label,
    round_name,
    round_words,
    say,
    unworded,
    words_for,
)
from tournament.audit_wording.deals import printout_names
from tournament.audit_wording.penalties import penalty_words
from tournament.audit_wording.results import hand_entry_words

__all__ = [
    "SYSTEM", "WORDING", "Entry", "Wording", "WordingError", "actor_words", "check_wording",
    "gettext", "hand_entry_words", "listed", "match_name", "penalty_words", "phrase",
    "printout_names", "round_label", "round_name", "round_words", "say", "sentence",
    "words_for",
]

logger = logging.getLogger(__name__)


def sentence(entry, *, strict: bool = False) -> str:
    """The entry's sentence in the active language: the one it was recorded with when it
    has one (an entry made before sentences were written when shown), else written from
    its action and data. An action without wording, or data its wording cannot use (a
    hand-edited file), gives the action's name and the data rather than an error; with
    ``strict`` it raises ``WordingError`` (the test settings check every new entry so)."""
    if entry.recorded_summary:
        return entry.recorded_summary
    data = entry.data if isinstance(entry.data, dict) else {}
    write = WORDING.get(entry.action)
    try:
        if write is None:
            raise WordingError(f"no wording for the action {entry.action!r}")
        return write(Entry(who=actor_words(entry), data=data, ip=entry.ip_address))
    except Exception as error:
        if strict:
            if isinstance(error, WordingError):
                raise
            raise WordingError(f"the wording of {entry.action!r} cannot use the data "
                               f"{data!r}: {error!r}") from error
        logger.warning("audit entry %s (%s) has no sentence: %r", entry.pk, entry.action,
                       error)
        return unworded(entry.action, data)


def actor_words(entry) -> str:
    """Who made the entry: the name kept with it; "system" (no person) translated."""
    if entry.actor_name == SYSTEM and entry.actor_id is None:
        return gettext("system")
    return entry.actor_name


def check_wording(entry) -> None:
    """Raise ``WordingError`` when an entry's sentence cannot be written (the tests'
    settings call it for every new entry: ``AUDIT_WORDING_CHECK``)."""
    sentence(entry, strict=True)
