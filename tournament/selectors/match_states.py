"""What a match's state (``tournament.states``) is worked out from, read for many matches
in one query: the public pages, the API and the PDFs ask it of the public's lines
(``selectors.public.match_lines``), the staff's match page of one match."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import (
    Case,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from scoring import seating
from tournament import states
from tournament.models import Approval, HandResult, Match, Round, TableSignature, TeamResult


@dataclass(frozen=True)
class PlayCounts:
    entered: int = 0  # current results, both tables
    approvals: int = 0  # approvals of current results: two a hand when all approved
    signatures: int = 0  # of the four players
    void: bool = False  # a team withdrew from the group stage: the result is cleared


def _counted(rows, key: str) -> Coalesce:
    """How many of ``rows`` (filtered on the outer match) there are, 0 for none."""
    return Coalesce(Subquery(rows.order_by().values(key).annotate(n=Count("pk")).values("n"),
                             output_field=IntegerField()), 0)


def play_counts(match_ids) -> dict[int, PlayCounts]:
    """Match pk → its counts (one query, none without matches): three counts of each
    match's rows in the match's own row, so that the pages that read the entered results
    alone before read no more. A decided match's approvals and signatures are 0: its
    state does not depend on them (``state_from``)."""
    ids = list(match_ids)
    if not ids:
        return {}
    match = OuterRef("pk")
    # The approvals and signatures tell how far a match in play has got; once it is
    # decided (forfeited, signed off, or its round closed) its state says no more, and
    # they are not counted: a whole event's 3,840 matches counted 123,000 approvals,
    # two fifths of a second (issue 59). PostgreSQL and SQLite evaluate a CASE lazily.
    in_play = Q(forfeited_by__isnull=True, signed_off_at__isnull=True) & ~Q(
        round__status=Round.Status.CLOSED)
    rows = Match.objects.filter(pk__in=ids).order_by().annotate(
        entered=_counted(HandResult.objects.filter(table__match=match, is_current=True),
                         "table__match"),
        approvals=Case(When(in_play, then=_counted(
            Approval.objects.filter(result__table__match=match, result__is_current=True),
            "result__table__match")), default=Value(0)),
        signatures=Case(When(in_play, then=_counted(
            TableSignature.objects.filter(table__match=match), "table__match")),
            default=Value(0)),
        void=Exists(TeamResult.objects.filter(match=match, void=True)),
    ).values_list("pk", "entered", "approvals", "signatures", "void")
    return {pk: PlayCounts(*values) for pk, *values in rows}


def state_from(match: Match, round_status: str, counts: PlayCounts, *,
               void: bool | None = None) -> str:
    """The code of the match's state from its counts (``void`` when the caller read it
    from the result rows itself)."""
    to_enter = seating.TABLES_PER_MATCH * match.hands
    return states.match_state(
        round_status=round_status, forfeited=match.forfeited_by_id is not None,
        void=counts.void if void is None else void,
        signed_off=match.signed_off_at is not None, entered=counts.entered,
        to_enter=to_enter, all_approved=counts.approvals >= 2 * to_enter,
        signatures=counts.signatures)


def state_of_match(match: Match) -> str:
    """One match's state (one query; its round read)."""
    return state_from(match, match.round.status,
                      play_counts([match.pk]).get(match.pk, PlayCounts()))


def state_of_table(match: Match, sheet) -> str:
    """A table's state from its sheet (``selectors.results.table_sheet``, as its device
    sees it: every hand of its own table) and its match (one query: whether the match is
    void). Its players' two signatures make it ``awaiting_sign_off``: the table is done,
    the match waits for the referee (and the other table)."""
    void = TeamResult.objects.filter(match=match, void=True).exists()
    return states.match_state(
        round_status=match.round.status, forfeited=match.forfeited_by_id is not None,
        void=void, signed_off=match.signed_off_at is not None, entered=sheet.entered,
        to_enter=len(sheet.rows), all_approved=sheet.ready_to_sign,
        signatures=len(sheet.signed), signers=2)
