"""Entering hands: every save is a new version of the table's hand (RULES.md §10).

The FCG procedure: staff record each hand, both players approve it
(``services.approvals``), at the end both players of each table sign, and the referee signs
the match off (``services.signoff``). A result is never overwritten: the database keeps one
current version per table and hand, the form carries the version it showed, and a request
token makes a re-sent form harmless.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from scoring.deals import deal_set_of
from tournament.audit_wording import round_name
from tournament.models import Deal, HandResult, Round, Table, TableSignature
from tournament.permissions import Perm, has_perm, require
from tournament.prepared import delete, insert, prepared_rows, update
from tournament.selectors.results import is_correction
from tournament.services.base import Actor, ServiceError, Stale, audit
from tournament.services.cards import box_conflict
from tournament.services.events import within_table
from tournament.services.hands import HandEntry, score_entry, seat_points
from tournament.services.locking import checkpoint, lock
from tournament.services.request_tokens import TokenReused
from tournament.services.signoff import correction_reason, reopen
from tournament.services.team_results import write_match_results


class StaleResult(Stale):
    """Someone saved this hand since the form was opened; ``current`` is what is stored."""

    def __init__(self, current: HandResult | None):
        what = f"{HandEntry.of(current).words} (version {current.version}, by " \
               f"{current.entered_by})" if current else "nothing"
        super().__init__(f"this hand was changed meanwhile; it now holds {what}. "
                         "Check it and save again if yours is right.")
        self.current = current


def played_deal(table: Table, hand: int, current: HandResult | None) -> Deal | None:
    """The deal a table played a hand on: the one its first result recorded (a later
    version is the same play, corrected), else the deal current for its set and hand now.
    None when the round's deals were not made here."""
    if current is not None:
        return current.deal
    round_ = table.match.round
    # One current deal a set and hand (constraint deal_one_current); every first save of a
    # hand asks, so its SQL is built once per connection (tournament.prepared).
    found = prepared_rows("played-deal", _current_deal, [
        round_.pk, hand, deal_set_of(round_.rules, table.match.number)])
    return found[0] if found else None


def _hand_or_token(token: uuid.UUID, table: int, hand: int):
    return HandResult.objects.filter(
        Q(request_token=token) | Q(table_id=table, hand=hand, is_current=True)).order_by()


def _current_deal(round_: int, hand: int, deal_set: int):
    return Deal.objects.filter(round_id=round_, hand=hand, deal_set=deal_set,
                               is_current=True).order_by()


def record_hand_result(
    actor: Actor, table: Table, hand: int, entry: HandEntry, *,
    seen_version: int, request_token: uuid.UUID | str, reason: str = "",
    cards: dict | None = None,
) -> HandResult:
    """Save a new version of a hand's result.

    ``seen_version`` is the version the scorer's form showed (0 for none): if another
    version was saved since, nothing is saved and the scorer is shown what is stored. The
    same ``request_token`` twice (a double click, a re-sent form) returns the first save.
    After sign-off only a referee may change a result, with a reason; that clears the
    sign-off and the players' signatures until they are given again.
    """
    tournament = table.match.round.stage.tournament
    require(actor.user, tournament, Perm.ENTER_RESULTS)
    try:
        token = uuid.UUID(str(request_token))
    except ValueError:
        raise ServiceError(
            gettext("the form has no valid request token; reload the page")) from None
    with transaction.atomic():
        # The match, then the table: a sign-off locks the same match, so it comes wholly
        # before or after this save; saves at other matches go on in parallel.
        locked = lock(matches=[table.match_id], tables=[table.pk])
        match, table = locked.one("matches"), locked.one("tables")
        table.match = match
        round_ = match.round
        # One query finds both a save of this very form and the hand's current version.
        found = prepared_rows("hand-or-token", _hand_or_token, [token, table.pk, hand])
        earlier = next((r for r in found if r.request_token == token), None)
        current = next((r for r in found if r.is_current and r.table_id == table.pk
                        and r.hand == hand), None)
        if earlier is not None:  # this very form again, or its token on another command
            if (earlier.table_id, earlier.hand, earlier.entered_by_id) != (
                    table.pk, hand, actor.user.pk):
                raise TokenReused()
            return earlier
        correcting = is_correction(match)
        _check_not_forfeited(match)
        _check_can_enter(actor, round_, correcting)
        if correcting:
            reason = correction_reason(reason)
        if not 1 <= hand <= match.hands:
            raise ServiceError(
                gettext("hand %(hand)s is not in this match: it has hands 1 to %(hands)s")
                % {"hand": hand, "hands": match.hands},
                field_errors={"hand": [gettext("no such hand")]})
        score = score_entry(entry, round_.rules)
        if (current.version if current else 0) != seen_version:
            raise StaleResult(current)
        checkpoint("hand.save")
        # The current version is always the latest: versions are never thrown away.
        version = (current.version if current else 0) + 1
        if current is not None:
            current.is_current = False
            update(current, ["is_current"])
        seat1, seat2 = seat_points(score, entry.declarer_seat)
        deal = played_deal(table, hand, current)
        result = insert(HandResult(
            table=table, hand=hand, deal=deal, version=version, outcome=score.outcome.value,
            declarer_seat=entry.declarer_seat,
            declarer_deadwood=score.declarer_deadwood, opponent_deadwood=score.opponent_deadwood,
            false_knock_seat=entry.false_knock_seat,
            false_knock_deadwood=entry.false_knock_deadwood,
            seat1_points=seat1, seat2_points=seat2, explanation=score.explanation,
            cards=cards, box_conflict=box_conflict(deal, cards, round_.rules),
            entered_by=actor.user, ip_address=actor.ip, device=actor.device,
            reason=reason, request_token=token,
        ))
        cleared = delete(TableSignature, table_id=table.pk)
        if correcting:
            reopen(match)
        write_match_results(match, hands_of=table)
        audit(actor, tournament, "result.correct" if correcting else
              ("result.change" if current else "result.enter"),
              table=table.pk, hand=hand, version=result.version, match=match.pk,
              table_number=table.number, entry=asdict(entry),
              before=asdict(HandEntry.of(current)) if current is not None else None,
              score=_explained(score, round_.rules), reason=reason, cleared=cleared,
              # A correction after sign-off reopens the match: every page built again.
              **({} if correcting else within_table(
                  table, tournament, approved_by_both=lambda: current is not None
                  and current.approvals.count() >= 2)))
    return result


def check_may_enter(actor: Actor, table: Table) -> None:
    """Results, and previews of them, are for a round in play, or a referee's correction
    after sign-off; nothing else (raises ServiceError or PermissionDenied)."""
    require(actor.user, table.match.round.stage.tournament, Perm.ENTER_RESULTS)
    _check_not_forfeited(table.match)
    _check_can_enter(actor, table.match.round, is_correction(table.match))


def _check_not_forfeited(match) -> None:
    """A forfeited match is decided by the default (services.penalties): no hands."""
    if match.forfeited_by_id is not None:
        team = match.home if match.forfeited_by_id == match.home_id else match.away
        raise ServiceError(
            gettext("match %(number)s was forfeited by %(team)s; no hands are entered in it "
                    "(undo the default on the penalties page if it was a mistake)")
            % {"number": match.number, "team": team.code})


def _check_can_enter(actor: Actor, round_: Round, correcting: bool) -> None:
    tournament = round_.stage.tournament
    if correcting:
        if not has_perm(actor.user, tournament, Perm.CORRECT_SIGNED_RESULT):
            raise ServiceError(gettext("this match is signed off; only a referee can correct it"))
        return
    if round_.status != Round.Status.IN_PLAY:
        raise ServiceError(
            gettext("%(round)s is %(status)s; results are entered only while it is in play")
            % {"round": round_, "status": round_.get_status_display().lower()})


def _explained(score, rules) -> dict:
    """What the audit entry needs to explain the score again in the reader's language
    (``scoring.explain``: "Knock 4 vs 12: 15 + 8 = 23")."""
    return {"outcome": str(score.outcome.value), "declarer_deadwood": score.declarer_deadwood,
            "opponent_deadwood": score.opponent_deadwood, "points": score.declarer_points,
            "draw_rule": str(rules.draw_rule.value),
            "false_knock_deadwood": score.false_knock.deadwood if score.false_knock else None}


def note_scoring_device(actor: Actor, table: Table) -> None:
    """A scorer's device takes a table for the round (it then sees that table's results):
    recorded, so that one account scoring two tables of a round shows in the audit log."""
    audit(actor, table.match.round.stage.tournament, "result.device",
          table=table.pk, match=table.match_id, device=actor.device,
          table_number=table.number, round_name=round_name(table.match.round))


def new_request_token() -> str:
    return str(uuid.uuid4())
