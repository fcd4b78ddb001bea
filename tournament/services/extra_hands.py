"""A tied knockout match plays on with extra hands (RULES.md §11).

A knockout match cannot be signed off level. When every hand at both tables is entered and
the teams are level, the referee adds the tournament's "extra hands for a tied knockout
match"; if the round's deals were made here, the deals for those hands are made at once
(the same boxes for every tied match of a field-wide deal set). This repeats until the match
is decided.

A tied match of a closed round (a referee corrected it into a tie after the close) re-opens
its round (issue 49): the round is in play again, so the new boxes are a round in play's
for every rule of secrecy (no card shown but to a director, results as the live-results
setting says), until the match is signed off again; then the round closes by itself
(``services.rounds.close_reopened_round``) and the cards appear like any closed box's. A
re-opened round is one in play whose ``closed_at`` is set.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from scoring.deals import deal_set_of
from scoring.match import plays_extra_hands
from tournament.audit_wording import match_name, round_name
from tournament.models import Match, Round
from tournament.permissions import Perm, require
from tournament.selectors.results import all_hands_entered, is_knockout, match_totals
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.deals import make_missing_deals
from tournament.services.locking import checkpoint, lock


def add_extra_hands(actor: Actor, match: Match) -> Match:
    """A knockout match that ends level goes on with more boxes (RULES.md §11: the setting
    "extra hands for a tied knockout match", one pair at a time by default)."""
    tournament = match.round.stage.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    with transaction.atomic():
        # The round too: the new hands' deals may be shared by every match of the round,
        # so two tied matches adding hands at once make them once, one after the other.
        locked = lock(rounds=[match.round_id], matches=[match])
        round_, match = locked.one("rounds"), locked.one("matches")
        match.round = round_
        if not is_knockout(match):
            raise ServiceError(gettext("only a knockout match is played on after a tie"))
        # In play, or being corrected after its round was closed.
        if (round_.status not in (Round.Status.IN_PLAY, Round.Status.CLOSED)
                or match.signed_off_at is not None or match.forfeited_by_id is not None):
            raise ServiceError(
                gettext("match %(number)s is not being played") % {"number": match.number})
        if not all_hands_entered(match):
            raise ServiceError(
                gettext("match %(number)s has hands without a result yet")
                % {"number": match.number})
        home, away = match_totals(match)
        if not plays_extra_hands(knockout=True, home_total=home, away_total=away):
            raise ServiceError(
                gettext("match %(number)s is not tied (%(home)s – %(away)s)")
                % {"number": match.number, "home": home, "away": away})
        checkpoint("match.extra_hands")
        reopened = round_.status == Round.Status.CLOSED
        if reopened:
            round_.status = Round.Status.IN_PLAY
            round_.save(update_fields=["status"])
        extra = round_.rules.knockout_tiebreak_hands
        match.extra_hands += extra
        match.revision += 1  # what the pages showed is out of date
        match.save(update_fields=["extra_hands", "revision"])
        made = _deal_extra_hands(actor, round_, match)
        audit(actor, tournament, "match.extra_hands", match=match.pk,
              match_name=match_name(match), totals=[home, away], extra=extra,
              hands=match.hands, made=made, reopened=reopened,
              round_name=round_name(round_))
    return match


def _deal_extra_hands(actor: Actor, round_: Round, match: Match) -> int:
    """When the round's deals were made here, make the deals the new hands need."""
    if not round_.deals.exists():
        return 0
    return make_missing_deals(actor, round_, deal_set_of(round_.rules, match.number), match.hands)
