"""The writes at the table as commands (issue 21; DESIGN.md, "services"): enter a hand (by
its figures or its cards; a correction is an entry with a reason), approve it, sign a
table, sign a match off. Each is one call taking ids, the command's value, the request
token and what the person was shown:

- an entry names the version of the hand its form showed (``seen_version``);
- an approval names the version it approves;
- a signature names the table's revision, a sign-off the match's: every save and approval
  at a table moves both on, a signature and a sign-off the match's.

When what was shown has moved on, the command does nothing and says what changed. The same
request token again answers with what the first did (a double tap, a resent request, a
device's queue sent again after a dropped network), never does it twice; a token is one
command's (its kind, account and target): used for anything else it is refused
(``services.request_tokens``). The pages, the JSON API and any later door are adapters of a
few lines over these functions; the table a scorer account may use is checked here too
(``services.devices``), and a table or match of a draft round is, to whoever may not see
the draw yet, no table at all: refused as one that does not exist, the round unnamed.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from tournament.models import (
    Approval,
    CommandReceipt,
    HandResult,
    Match,
    Round,
    Table,
    TableSignature,
)
from tournament.permissions import Perm, has_perm
from tournament.prepared import prepared_rows
from tournament.services import request_tokens as tokens
from tournament.services.approvals import approve_version, sign_table
from tournament.services.base import Actor, ServiceError
from tournament.services.cards import CardsEntry, settle_cards
from tournament.services.devices import check_table_for
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.locking import lock
from tournament.services.rounds import close_reopened_round
from tournament.services.signoff import sign_off_match


@dataclass(frozen=True)
class Entered:
    result: HandResult
    settled: object | None = None  # the cards' showdown, in cards mode


def _token(request_token) -> uuid.UUID:
    try:
        return uuid.UUID(str(request_token))
    except ValueError:
        raise ServiceError(gettext("the request has no valid request token; reload the page"),
                           field_errors={"request_token": [gettext("not a request token")]}
                           ) from None


def _table(actor: Actor, table_id: int) -> Table:
    """The table a command names, with its match, round, stage and tournament (in SQL built
    once per connection: every command reads one); a draft round's is no table to whoever
    may not see the draw (the entry page's 404)."""
    try:
        found = prepared_rows("command-table", _table_query, [int(table_id)])
    except (ValueError, TypeError):
        found = []
    if not found or _hidden_draft(actor, found[0].match.round):
        raise ServiceError(gettext("there is no table %(id)s") % {"id": table_id})
    return found[0]


def _table_query(pk: int):
    return (Table.objects.select_related("match__round__stage__tournament")
            .filter(pk=pk).order_by())


def _hidden_draft(actor: Actor, round_: Round) -> bool:
    """A draft round is unpublished: only those who manage the rounds see its tables."""
    return round_.status == Round.Status.DRAFT and not has_perm(
        actor.user, round_.stage.tournament, Perm.MANAGE_ROUNDS)


def _once(actor: Actor, token: uuid.UUID, kind: str, target: tuple, command, *,
          checked: bool = False):
    """The command, unless its token was used for another (``TokenReused``; ``checked``:
    the command reads it itself): the same command again is left to the service, which
    answers what the first did. Two requests racing with one token for different targets
    of a kind meet at the token's unique column: the one that loses finds the other's row,
    and is refused as a reuse (the service's transaction has rolled back by then, on
    PostgreSQL too)."""
    if not checked:
        tokens.check_token(token, kind, actor.user, target)
    try:
        return command()
    except IntegrityError:
        if not tokens.check_token(token, kind, actor.user, target):
            raise  # not the token's: a fault to see
        return command()  # this very command landed meanwhile: its answer


def enter(actor: Actor, table_id: int, hand: int, value: HandEntry | CardsEntry, *,
          seen_version: int, request_token, reason: str = "") -> Entered:
    """Save a hand's result, a new version of it (a correction after sign-off: with a
    reason). By the cards, the engine works out the counts first, by the rules alone."""
    token = _token(request_token)
    table = _table(actor, table_id)
    check_table_for(actor, table)
    settled, cards = None, None
    if isinstance(value, CardsEntry):
        settled = settle_cards(value, table.match.round.rules)
        value, cards = settled.entry, settled.record
    result = _once(actor, token, tokens.ENTER, tokens.target(
        tokens.ENTER, table=table.pk, hand=hand), lambda: record_hand_result(
        actor, table, hand, value, seen_version=seen_version, request_token=token,
        reason=reason, cards=cards))
    return Entered(result, settled)


def approve(actor: Actor, table_id: int, hand: int, seat: int, *, version: int,
            request_token, pin: str | None = None) -> Approval:
    """A player approves the version of the hand the screen showed: refused, with what the
    hand holds now, when another version has been saved since. Not inside a transaction of
    its own: a wrong PIN is counted even though the approval is refused (services.pins)."""
    token = _token(request_token)
    table = _table(actor, table_id)
    check_table_for(actor, table)
    return _once(actor, token, tokens.APPROVE, tokens.target(
        tokens.APPROVE, table=table.pk, hand=hand, seat=seat), lambda: approve_version(
        actor, table, hand, seat, version=version, request_token=token, pin=pin))


def sign(actor: Actor, table_id: int, seat: int, *, revision: int, request_token,
         pin: str | None = None) -> TableSignature:
    """A player signs the table as the screen showed it (its revision)."""
    token = _token(request_token)
    table = _table(actor, table_id)
    check_table_for(actor, table)
    return _once(actor, token, tokens.SIGN, tokens.target(
        tokens.SIGN, table=table.pk, seat=seat), lambda: sign_table(
        actor, table, seat, pin=pin, revision=revision, request_token=token))


def sign_off(actor: Actor, match_id: int, *, revision: int, request_token) -> Match:
    """The referee signs the match off as the match page showed it (its revision: the
    match's and its tables', ``services.locking.shown_revision``). A sign-off leaves no row
    of its own: its request token is kept on a receipt, in the same transaction, read
    with the match locked (the same sign-off sent twice at once answers the first)."""
    token = _token(request_token)
    try:
        match = Match.objects.select_related("round__stage__tournament", "home", "away").get(
            pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        match = None
    if match is None or _hidden_draft(actor, match.round):
        raise ServiceError(gettext("there is no match %(id)s") % {"id": match_id})
    target = tokens.target(tokens.SIGN_OFF, match=match.pk)
    signed = _once(actor, token, tokens.SIGN_OFF, target,
                   lambda: _sign_off_once(actor, match, revision, token, target), checked=True)
    if match.round.closed_at is not None:
        # A round re-opened for this match's extra hands closes again (services.rounds).
        close_reopened_round(actor, match.round)
    return signed


def _sign_off_once(actor: Actor, match: Match, revision: int, token: uuid.UUID,
                   target: tuple) -> Match:
    with transaction.atomic():
        lock(matches=[match.pk])
        if tokens.check_token(token, tokens.SIGN_OFF, actor.user, target):
            return Match.objects.get(pk=match.pk)
        match = sign_off_match(actor, match, revision=revision)
        CommandReceipt.objects.create(
            request_token=token, action=CommandReceipt.Action.SIGN_OFF,
            tournament_id=match.round.stage.tournament_id, match=match, user=actor.user)
    return match
