"""A command a table's screen kept and never sent, discarded by its scorer (issue 51;
entry_queue.js, docs/results.md "When the network drops").

The queue never drops a command by itself: a save or an approval the server could not
take stays on the device until the scorer sends it (again, or to the table the account
was moved to) or discards it, after a confirmation. A discard is recorded here, in the
audit log, once it reaches the server: a referee sees what the device typed and let go,
and at which table. A discard is named by the discarded command's request token: sent
twice, it is recorded once; and a command that had reached the server after all (its
answer lost on the way) is not discarded: it is saved, and the answer says so.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass

from django.db import transaction
from django.utils.translation import gettext

from tournament.converters import LARGEST_ID
from tournament.models import AuditEntry, Round, Table
from tournament.permissions import Perm, has_perm, require
from tournament.services import request_tokens as tokens
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.hands import HandEntry
from tournament.services.locking import lock

DISCARD = "device.discard"
# Why the scorer let it go (the screen's words for it): the account was moved to another
# table, the hand changed on another device meanwhile (Take theirs), the server refused it.
REASONS = ("moved", "stale", "refused", "other")


@dataclass(frozen=True)
class Discarded:
    done: bool  # the command had reached the server: it is saved, nothing was discarded


def record_discarded(actor: Actor, table_id: int, *, command: str, hand: int,
                     request_token, seat: int | None = None, entry: HandEntry | None = None,
                     cards: bool = False, why: str = "other",
                     approvals: int = 0) -> Discarded:
    """Record that this device discarded a command it kept (an ``enter`` or an ``approve``
    of ``hand`` at the table, with its request token) and never sent; ``entry`` is what was
    typed (by its figures), ``cards`` that it was typed by its cards (never recorded),
    ``approvals`` how many approvals of that save went with it. Any account that may enter
    results in the tournament may record it, whatever table it scores now: a discard
    changes nothing but the log."""
    try:
        token = uuid.UUID(str(request_token))
    except ValueError:
        raise ServiceError(gettext("the request has no valid request token; reload the page")
                           ) from None
    table = (Table.objects.select_related("match__round__stage__tournament")
             .filter(pk=table_id).first() if 1 <= table_id <= LARGEST_ID else None)
    round_ = table.match.round if table is not None else None
    if table is None or (round_.status == Round.Status.DRAFT and not has_perm(
            actor.user, round_.stage.tournament, Perm.MANAGE_ROUNDS)):
        raise ServiceError(gettext("there is no table %(id)s") % {"id": table_id})
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.ENTER_RESULTS)
    if command not in (tokens.ENTER, tokens.APPROVE):
        raise ServiceError(gettext("only a save or an approval is kept on a device"))
    if not 1 <= hand <= table.match.hands:
        raise ServiceError(
            gettext("hand %(hand)s is not in this match: it has hands 1 to %(hands)s")
            % {"hand": hand, "hands": table.match.hands})
    if command == tokens.APPROVE and seat not in (1, 2):
        raise ServiceError(gettext("choose seat 1 or 2"))
    with transaction.atomic():
        lock(tables=[table.pk])  # a save with the same token waits, or is seen here
        # Done with this token by this account (here, or at the table it was typed for
        # before the account was moved): it reached the server, nothing is discarded.
        if any((use.kind, use.user_id) == (command, actor.user.pk)
               for use in tokens.uses_of(token)):
            return Discarded(done=True)
        if AuditEntry.objects.filter(tournament=tournament, action=DISCARD,
                                     data__request_token=str(token)).exists():
            return Discarded(done=False)  # this discard, sent again
        audit(actor, tournament, DISCARD, announce=False,  # nothing public changed
              table=table.pk, match=table.match_id, round=round_.pk,
              table_number=table.number, hand=hand, command=command,
              seat=seat if command == tokens.APPROVE else None,
              entry=asdict(entry) if _describable(entry) else None,
              cards=bool(cards) and command == tokens.ENTER,
              why=why if why in REASONS else "other",
              approvals=max(0, min(int(approvals), 99)) if command == tokens.ENTER else 0,
              request_token=str(token))
    return Discarded(done=False)


def _describable(entry: HandEntry | None) -> bool:
    """Whether the audit sentence can say the entry ("knock by seat 1 4 vs 12"): every
    figure its outcome needs was typed."""
    if entry is None:
        return False
    if entry.outcome == "draw":
        return True
    needed = [entry.declarer_seat, entry.opponent_deadwood]
    if entry.outcome == "knock":
        needed.append(entry.declarer_deadwood)
    return entry.outcome in ("knock", "gin", "big_gin") and None not in needed
