"""The players' approvals of each hand and their signatures for the table (RULES.md §10).

Both players approve every hand (a tap for their seat on the scorer's device, or their PIN
when the tournament asks for one); a new version of a hand needs new approvals. When every
hand at a table is approved by both, both players sign the table.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext

from tournament.models import (
    Approval,
    HandResult,
    Player,
    Table,
    TableSeat,
    TableSignature,
)
from tournament.permissions import Perm, require
from tournament.prepared import insert, prepared_rows
from tournament.services.base import Actor, ServiceError, Stale, audit
from tournament.services.events import within_table
from tournament.services.hands import HandEntry
from tournament.services.locking import lock
from tournament.services.pins import check_pin, counts_wrong_pins
from tournament.services.request_tokens import TokenReused


def approve_hand(actor: Actor, result: HandResult, seat: int, *,
                 pin: str | None = None) -> Approval:
    """A player approves this result of a hand (``approve_version`` of its version)."""
    return approve_version(actor, result.table, result.hand, seat, version=result.version,
                           pin=pin)


@counts_wrong_pins
def approve_version(actor: Actor, table: Table, hand: int, seat: int, *, version: int,
                    request_token=None, pin: str | None = None) -> Approval:
    """A player approves the version of a hand the screen showed: a tap for the seat on the
    scorer's device, or the player's PIN when the tournament asks for one. Refused, with
    what the hand holds now, when another version was saved since (nothing is approved).
    ``request_token``: the same token again answers the approval it made."""
    tournament = table.match.round.stage.tournament
    require(actor.user, tournament, Perm.ENTER_RESULTS)
    if seat not in (1, 2):
        raise ServiceError(gettext("table %(n)s has seats 1 and 2, not %(seat)s")
                           % {"n": table.number, "seat": seat})
    with transaction.atomic():
        table = lock(matches=[table.match_id], tables=[table.pk]).one("tables")
        # The hand's current result and the seat's approval of it in one query: an approval
        # is as many round trips as the scorer's taps, so no dearer than a save.
        found = prepared_rows("approval-of-hand", _current_with_approval,
                              [table.pk, hand, seat])
        result = found[0] if found else None
        if result is None or result.version != version:
            earlier = (Approval.objects.filter(request_token=request_token)
                       .select_related("result").first()
                       if request_token is not None else None)
            if earlier is not None:  # this very approval, sent again after a change
                if (earlier.result.table_id, earlier.result.hand, earlier.seat,
                        earlier.recorded_by_id) != (table.pk, hand, seat, actor.user.pk):
                    raise TokenReused()  # the token of another command
                return earlier
            if result is None:
                raise Stale(gettext("hand %(hand)s has no result to approve; reload the page")
                            % {"hand": hand})
            raise Stale(
                gettext("hand %(hand)s was changed since: it now holds %(words)s (version "
                        "%(version)s, by %(who)s); nothing was approved: look at it again")
                % {"hand": hand, "words": HandEntry.of(result).words,
                   "version": result.version, "who": result.entered_by})
        if result.approved is not None:
            return Approval.objects.get(pk=result.approved)
        method = _check_player(table, seat, pin)
        approval = insert(Approval(result=result, seat=seat, method=method,
                                   recorded_by=actor.user, request_token=request_token))
        audit(actor, tournament, "result.approve", table=table.pk, hand=hand,
              match=table.match_id, seat=seat, version=result.version,
              table_number=table.number, **within_table(
                  table, tournament, approved_by_both=lambda: result.approvals.count() >= 2))
    return approval


def _current_with_approval(table: int, hand: int, seat: int):
    """The hand's current result (one at most: constraint result_one_current), with the
    seat's approval of it as ``approved`` (its key, or None)."""
    return (HandResult.objects.filter(table_id=table, hand=hand, is_current=True)
            .annotate(approved=Subquery(Approval.objects.filter(result=OuterRef("pk"),
                                                                seat=seat).values("pk")[:1]))
            .order_by()[:1])


def seat_player(table: Table, seat: int) -> Player:
    """The player in a seat of a table this round (``TableSeat``: the line-up and RULES.md
    §8)."""
    return TableSeat.objects.select_related("player").get(table=table, seat=seat).player


def _check_player(table: Table, seat: int, pin: str | None) -> str:
    """How the player confirmed: "tap", or "pin" after checking it when the tournament
    asks for PINs (a wrong PIN is counted, and too many lock the player's PIN entry:
    services.pins)."""
    tournament = table.match.round.stage.tournament  # loaded with the locked table
    if not tournament.approvals_need_pin:
        return Approval.Method.TAP
    player = seat_player(table, seat)
    if not player.pin_hash:
        raise ServiceError(gettext("%(player)s (seat %(seat)s) has no PIN yet; the director sets "
                                   "it on the team's page") % {"player": player.name, "seat": seat})
    check_pin(tournament, player, pin, table=table, seat=seat)
    return Approval.Method.PIN


def latest_change(*tables: Table, not_by=None) -> str:
    """The latest save or approval at these tables, in words: "hand 3 was saved (gin by
    seat 2, version 2)", "seat 2 approved hand 3". ``not_by``: a user whose own changes are
    passed over when someone else made one (the desk names another device's change, not
    the lines it typed itself)."""
    results = HandResult.objects.filter(table__in=tables)
    approvals = Approval.objects.filter(result__table__in=tables)
    if not_by is not None:
        others = (results.exclude(entered_by=not_by), approvals.exclude(recorded_by=not_by))
        if others[0].exists() or others[1].exists():
            results, approvals = others
    result = results.select_related("table").order_by("-entered_at", "-pk").first()
    approval = approvals.select_related("result__table").order_by("-approved_at", "-pk").first()
    several = len(tables) > 1
    if approval is not None and (result is None or approval.approved_at >= result.entered_at):
        where = approval.result.table.number
        return (gettext("seat %(seat)s approved hand %(hand)s at table %(table)s") if several
                else gettext("seat %(seat)s approved hand %(hand)s")) % {
            "seat": approval.seat, "hand": approval.result.hand, "table": where}
    if result is not None:
        return (gettext("hand %(hand)s at table %(table)s was saved (%(words)s, version "
                        "%(version)s)") if several else
                gettext("hand %(hand)s was saved (%(words)s, version %(version)s)")) % {
            "hand": result.hand, "table": result.table.number,
            "words": HandEntry.of(result).words, "version": result.version}
    return gettext("a signature was given or cleared")


def missing_at(table: Table) -> list[str]:
    """What a table still lacks before its players may sign: results and approvals."""
    hands = table.match.hands
    current = {r.hand: r for r in HandResult.objects.filter(table=table, is_current=True)
               .order_by().prefetch_related("approvals")}
    missing = []
    for hand in range(1, hands + 1):
        result = current.get(hand)
        if result is None:
            missing.append(gettext("table %(n)s: hand %(hand)s has no result")
                           % {"n": table.number, "hand": hand})
            continue
        approved = {a.seat for a in result.approvals.all()}
        for seat in (1, 2):
            if seat not in approved:
                missing.append(gettext("table %(n)s: hand %(hand)s is not approved by seat "
                                       "%(seat)s") % {"n": table.number, "hand": hand,
                                                      "seat": seat})
    return missing


def listed(missing: list[str], most: int = 4) -> str:
    return "; ".join(missing[:most]) + ("; …" if len(missing) > most else "")


@counts_wrong_pins
def sign_table(actor: Actor, table: Table, seat: int, *, pin: str | None = None,
               revision: int | None = None, request_token=None) -> TableSignature:
    """A player signs the table's results at the end of the match; ``revision``: the
    table's revision the screen showed (refused when a hand was saved or approved since).
    ``request_token``: the same token again answers the signature it made."""
    tournament = table.match.round.stage.tournament
    require(actor.user, tournament, Perm.ENTER_RESULTS)
    if seat not in (1, 2):
        raise ServiceError(gettext("table %(n)s has seats 1 and 2, not %(seat)s")
                           % {"n": table.number, "seat": seat})
    with transaction.atomic():
        table = lock(matches=[table.match_id], tables=[table.pk]).one("tables")
        existing = prepared_rows("signature-of-seat", _signature, [table.pk, seat])
        if existing:
            return existing[0]
        if revision is not None and table.revision != revision:
            raise Stale(
                gettext("table %(n)s changed since this screen was shown: %(what)s; nothing "
                        "was signed: look at the table again")
                % {"n": table.number, "what": latest_change(table)})
        if not ready_to_sign(table):
            raise ServiceError(gettext("not ready to sign: %(missing)s")
                               % {"missing": listed(missing_at(table))})
        method = _check_player(table, seat, pin)
        # The table's lock keeps a second signature of the seat out: no get_or_create.
        signature = insert(TableSignature(table=table, seat=seat, method=method,
                                          recorded_by=actor.user, request_token=request_token))
        audit(actor, tournament, "result.sign", table=table.pk, match=table.match_id,
              seat=seat, table_number=table.number,
              **within_table(table, tournament))
    return signature


def _signature(table: int, seat: int):
    return TableSignature.objects.filter(table_id=table, seat=seat).order_by()


def ready_to_sign(table: Table) -> bool:
    """Every hand of the match has a current result approved by both seats (one query;
    ``missing_at`` says what is missing when not): as many current results as the match
    has hands, and twice as many approvals of them (a result has one approval a seat)."""
    rows = prepared_rows("approved-seats", _approved_seats, [table.pk])
    hands = table.match.hands
    return (len({hand for hand, _seat in rows}) == hands
            and sum(seat in (1, 2) for _hand, seat in rows) == 2 * hands)


def _approved_seats(table: int):
    """Each current result's hand with the seat of each of its approvals (None: none)."""
    return (HandResult.objects.filter(table_id=table, is_current=True).order_by()
            .values_list("hand", "approvals__seat"))
