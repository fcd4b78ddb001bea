"""What a table's device shows (issue 57, the terminal): which of its tables it opens on,
where each player of a signed table goes next, and a box's traveller once the field has
played it and the tournament's live-results setting lets it be seen. Reads only."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules import DealScope
from tournament.models import (
    Deal,
    Round,
    TableBinding,
    TableSeat,
    TableSignature,
    Tournament,
)
from tournament.selectors.travellers import BoxTraveller, box_traveller
from tournament.selectors.visibility import public_view, result_view

OPEN = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


def _round_order(round_: Round) -> tuple[int, int]:
    return (round_.stage.order, round_.number)


def device_bindings(user) -> list[TableBinding]:
    """The tables this account scores, round by round (drafts never: they are the
    director's alone), in the order the rounds are played."""
    if not user.is_authenticated:
        return []
    bindings = (TableBinding.objects.filter(user=user)
                .exclude(round__status=Round.Status.DRAFT)
                .select_related("table__match__round__stage__tournament", "table__match__home",
                                "table__match__away", "round__stage"))
    return sorted(bindings, key=lambda b: _round_order(b.round))


def signed_by_both(table) -> bool:
    return TableSignature.objects.filter(table=table).count() >= 2


def terminal_table(user, *, done: int | None = None):
    """(table, finished) the device opens on: the table ``done`` names while it is signed
    (its players are told where to go next), else the first table of a round in play
    that is not signed yet, else the last it scored (finished). (None, False) when the
    account scores no table."""
    bindings = device_bindings(user)
    if done is not None:
        for binding in bindings:
            if binding.table_id == done and signed_by_both(binding.table):
                return binding.table, True
    for binding in bindings:
        if binding.round.status in OPEN and not signed_by_both(binding.table):
            return binding.table, False
    if bindings:
        return bindings[-1].table, True
    return None, False


def later_table(user, table):
    """The first table this account scores after ``table``: a later round's, in play and
    not signed yet (None: none yet)."""
    seen = False
    for binding in device_bindings(user):
        if binding.table_id == table.pk:
            seen = True
        elif seen and binding.round.status in OPEN and not signed_by_both(binding.table):
            return binding.table
    return None


@dataclass(frozen=True)
class NextTable:
    seat: int
    player: object
    table: int | None  # the table number in the next round, None: not drawn yet
    seat_there: int | None
    round: Round | None


def next_tables(table, seats) -> list[NextTable]:
    """For each player of the table, their table in the next round published (a round of
    the tournament after this one, not a draft, not closed), or None while there is none."""
    this = _round_order(table.match.round)
    players = [seat.player for seat in seats]
    later = (TableSeat.objects.filter(player__in=players, round__status__in=OPEN)
             .exclude(round=table.match.round)
             .select_related("table", "round__stage"))
    found: dict[int, TableSeat] = {}
    for row in sorted(later, key=lambda r: _round_order(r.round)):
        if _round_order(row.round) > this and row.player_id not in found:
            found[row.player_id] = row
    answer = []
    for seat in seats:
        row = found.get(seat.player.pk)
        answer.append(NextTable(seat=seat.seat, player=seat.player,
                                table=row.table.number if row else None,
                                seat_there=row.seat if row else None,
                                round=row.round if row else None))
    return answer


def shown_travellers(user, table, hands: list[int]) -> dict[int, BoxTraveller]:
    """The travellers of these hands (each approved at this table) that the device may show:
    never under the setting "closed"; under "finished boxes" once every table of the field
    has the box approved by both players; under "live" once every table has entered it.
    Never a box still to be played elsewhere."""
    round_ = table.match.round
    tournament: Tournament = round_.stage.tournament
    if not hands or tournament.live_results == Tournament.LiveResults.CLOSED \
            or round_.status != Round.Status.IN_PLAY:
        return {}
    public = public_view(round_, tournament=tournament)
    entered = result_view(user, round_, own_table=table.pk)
    deal_set = table.match.number if round_.rules.deal_scope == DealScope.MATCH else 1
    shown = {}
    for hand in hands:
        finished = (deal_set, hand) in entered.finished
        if tournament.live_results == Tournament.LiveResults.FINISHED_BOXES:
            finished = finished and public.shows(table.pk, hand)
        if not finished:
            continue
        deal = Deal.objects.filter(round=round_, deal_set=deal_set, hand=hand,
                                   is_current=True).first()
        if deal is not None:
            deal.round = round_
            shown[hand] = box_traveller(deal, view=public)
    return shown
