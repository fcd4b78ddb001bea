"""Desk entry (issue 24): a director or referee types a match, or a box across the field,
from the paper scorecards. Each row is the same ``services.commands.enter`` as at the table;
what is the desk's own is the players' signatures on paper, recorded here by a referee in one
audited action, after which the match is signed off as any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext

from tournament.audit_wording import match_name
from tournament.models import Approval, HandResult, Match, Round, Table, TableSignature
from tournament.permissions import Perm, require
from tournament.services import commands
from tournament.services.approvals import latest_change, listed
from tournament.services.base import Actor, ServiceError, Stale, audit
from tournament.services.hands import HandEntry
from tournament.services.locking import lock, shown_revision


@dataclass(frozen=True)
class DeskEntered:
    """A line saved at the desk, and the match's revision (``shown_revision``) just before
    and just after the save, both read under the match's lock: the desk page moves the
    revision it holds from the one to the other only when it holds the first, so that its
    own saves never make the paper signatures stale while another device's change still
    does (a line sent twice saved nothing the second time: both are the same)."""

    result: HandResult
    revision_before: int
    revision_after: int


def enter_line(actor: Actor, table: Table, hand: int, entry: HandEntry, *, seen_version: int,
               request_token) -> DeskEntered:
    """Save one typed line as the table's enter command (``commands.enter``), between two
    reads of the match's revision, under the match's lock, taken first as the save itself
    takes it (then its table: the same order, docs/invariants.md). Every save, approval,
    signature and sign-off at the match locks the match before it moves a revision, so
    nothing else lands between the two reads."""
    with transaction.atomic():
        lock(matches=[table.match_id])
        before = _revision(table.match_id)
        entered = commands.enter(actor, table.pk, hand, entry, seen_version=seen_version,
                                 request_token=request_token)
        after = _revision(table.match_id)
    return DeskEntered(entered.result, before, after)


def _revision(match_id: int) -> int:
    """The match's ``shown_revision`` (its own plus its tables'), in one query."""
    own, tables = (Match.objects.filter(pk=match_id)
                   .annotate(tables_revision=Sum("tables__revision"))
                   .values_list("revision", "tables_revision").get())
    return own + (tables or 0)


@dataclass(frozen=True)
class OnPaper:
    match: Match
    approvals: int  # approvals recorded now (those given at the table stay as they were)
    signatures: int


def approve_on_paper(actor: Actor, match: Match, *, revision: int | None = None) -> OnPaper:
    """The players approved every hand and signed both tables on the paper scorecard: a
    referee records it for the match, for every seat that has not approved or signed on a
    device. ``revision``: the match's revision the page showed (refused when a hand was
    saved, approved or signed since: the referee looks at the scorecard again)."""
    tournament = match.round.stage.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    table_ids = Table.objects.filter(match_id=match.pk).values_list("pk", flat=True)
    with transaction.atomic():
        locked = lock(matches=[match], tables=table_ids)
        match = locked.one("matches")
        tables = sorted(locked.tables.values(), key=lambda t: t.position)
        if revision is not None and shown_revision(match, tables) != revision:
            raise Stale(
                gettext("match %(number)s changed since this page was shown: %(what)s; "
                        "nothing was recorded: look at it again")
                % {"number": match.number, "what": latest_change(*tables, not_by=actor.user)})
        if match.signed_off_at is not None:
            raise ServiceError(
                gettext("match %(number)s is signed off already") % {"number": match.number})
        if match.forfeited_by_id is not None:
            raise ServiceError(gettext("match %(number)s was forfeited: it has no scorecard "
                                       "to approve") % {"number": match.number})
        if match.round.status not in (Round.Status.IN_PLAY, Round.Status.CLOSED):
            raise ServiceError(gettext("%(round)s is not in play") % {"round": match.round})
        results = list(HandResult.objects.filter(table__in=tables, is_current=True)
                       .prefetch_related("approvals"))
        entered = {(r.table_id, r.hand) for r in results}
        missing = [gettext("table %(n)s: hand %(hand)s has no result")
                   % {"n": table.number, "hand": hand}
                   for table in tables for hand in range(1, match.hands + 1)
                   if (table.pk, hand) not in entered]
        if missing:
            raise ServiceError(gettext("the scorecards are not all typed in: %(missing)s")
                               % {"missing": listed(missing)})
        approvals = [Approval(result=result, seat=seat, method=Approval.Method.PAPER,
                              recorded_by=actor.user)
                     for result in results for seat in (1, 2)
                     if seat not in {a.seat for a in result.approvals.all()}]
        signed = set(TableSignature.objects.filter(table__in=tables)
                     .values_list("table_id", "seat"))
        signatures = [TableSignature(table=table, seat=seat, method=Approval.Method.PAPER,
                                     recorded_by=actor.user)
                      for table in tables for seat in (1, 2) if (table.pk, seat) not in signed]
        if not approvals and not signatures:
            raise ServiceError(gettext("match %(number)s: every hand is approved and both "
                                       "tables are signed already; sign it off")
                               % {"number": match.number})
        # Row by row: the database moves the tables' and the match's revisions on with each.
        Approval.objects.bulk_create(approvals)
        TableSignature.objects.bulk_create(signatures)
        audit(actor, tournament, "match.approve_on_paper", match=match.pk,
              approvals=len(approvals), signatures=len(signatures),
              match_name=match_name(match))
    return OnPaper(match=match, approvals=len(approvals), signatures=len(signatures))
