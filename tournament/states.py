"""The one vocabulary of states (issue 56): what a match, a table and a round is in, each
state with one code and one word, used by every page, the API and the PDFs, and listed in
docs/results.md ("States").

Before it, an untouched match of a round in play was "provisional" on the staff round page,
"playing" on the progress page and "not started" on the public page: three words worked
out in three places. Now every door asks ``match_state`` (from the counts the selectors
read) and prints ``word`` of what it answers; a page may add a detail after the word (the
results entered so far, the team that defaulted), never another word.

A round's states are ``Round.Status`` (draft, published, in play, closed): its labels are
their words, its codes the API's ``status``. A match of a round not started yet is
``waiting`` like an untouched match of a round in play; the round's word says which.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournament.models import Round


@dataclass(frozen=True)
class State:
    code: str
    word: Promise  # what every door shows, in the reader's language
    meaning: Promise  # a sentence for a title or the docs


WAITING = "waiting"
PLAYING = "playing"
AWAITING_APPROVAL = "awaiting_approval"
AWAITING_SIGNATURES = "awaiting_signatures"
AWAITING_SIGN_OFF = "awaiting_sign_off"
OFFICIAL = "official"
CORRECTING = "correcting"
FORFEITED = "forfeited"
VOID = "void"

# In the order a match goes through them; the last three end it some other way.
MATCH_STATES: dict[str, State] = {state.code: state for state in (
    State(WAITING, _("not started"), _("No result entered yet.")),
    State(PLAYING, _("in play"), _("Some results entered, not every hand yet.")),
    State(AWAITING_APPROVAL, _("awaiting approval"),
          _("Every hand entered; some still to be approved by both players.")),
    State(AWAITING_SIGNATURES, _("awaiting signatures"),
          _("Every hand approved; a player has still to sign a table.")),
    State(AWAITING_SIGN_OFF, _("awaiting sign-off"),
          _("Every player signed; a referee has still to sign the match off.")),
    State(OFFICIAL, _("official"),
          _("Signed off by a referee: the result counts in the standings.")),
    State(CORRECTING, _("being corrected"),
          _("Its round is closed and a referee is correcting a result: provisional until "
            "it is signed off again.")),
    State(FORFEITED, _("forfeited"),
          _("Decided by a team's default, without play or sign-off.")),
    State(VOID, _("void"),
          _("A team withdrew from the group stage: the result is cleared for both teams.")),
)}

# A match with results entered and not cleared (what a page may have to hold back).
HAS_RESULTS = frozenset({PLAYING, AWAITING_APPROVAL, AWAITING_SIGNATURES, AWAITING_SIGN_OFF,
                         OFFICIAL})

# The API's ``state`` of its first version, kept for the clients that read it: the three
# steps after every hand is entered were one, ``complete``.
FIRST_API_STATE = {AWAITING_APPROVAL: "complete", AWAITING_SIGNATURES: "complete",
                   AWAITING_SIGN_OFF: "complete"}


def match_state(*, round_status: str, forfeited: bool, void: bool, signed_off: bool,
                entered: int, to_enter: int, all_approved: bool, signatures: int,
                signers: int = 4) -> str:
    """The code of a match's state (or, with ``signers=2`` and its own counts, a
    table's): what decided it first, then how far its hands have got. ``entered``: the
    current results (of ``to_enter``, both tables); ``all_approved``: every hand approved by
    both players; ``signatures``: of ``signers``."""
    if forfeited:
        return FORFEITED
    if void:
        return VOID
    if signed_off:
        return OFFICIAL
    if round_status == Round.Status.CLOSED:
        return CORRECTING
    if signatures >= signers:
        return AWAITING_SIGN_OFF
    if entered >= to_enter and all_approved:
        return AWAITING_SIGNATURES
    if entered >= to_enter:
        return AWAITING_APPROVAL
    return PLAYING if entered else WAITING


def word(code: str) -> str:
    """The word of a match's or table's state, in the active language."""
    return str(MATCH_STATES[code].word)


def meaning(code: str) -> str:
    """What the state means, a sentence in the active language (a single match's page says
    it beside the word)."""
    return str(MATCH_STATES[code].meaning)

