"""Travellers: a round's boxes with each one's summary, and one box with every table's
result the public may see; its cards only once the round is closed
(``selectors.public.box_cards``). 404 while the tournament's results are not public."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from ninja import Router

from tournament.api.base import (
    RESULTS,
    Id,
    Slug,
    player_ref,
    public_tournament,
    round_ref,
    team_ref,
    two_places,
)
from tournament.api.schemas import BoxIndexOut, Error, TravellerOut, ValidationErrors
from tournament.models import Deal, Round
from tournament.selectors.box_summaries import round_box_summaries
from tournament.selectors.public import box_cards
from tournament.selectors.travellers import box_traveller
from tournament.selectors.visibility import public_view

router = Router(tags=["travellers"])

NOT_FOUND = {404: Error, 422: ValidationErrors}


def _round(tournament, round_id) -> Round:
    round_ = get_object_or_404(
        Round.objects.select_related("stage").exclude(status=Round.Status.DRAFT),
        pk=round_id, stage__tournament=tournament)
    round_.stage.tournament = tournament
    return round_


def box_ref(deal: Deal) -> dict:
    return {"id": deal.pk, "deal_set": deal.deal_set, "hand": deal.hand,
            "reserve": deal.reserve, "current": deal.is_current}


def holder(seat) -> dict | None:
    if seat is None:
        return None
    return {"team": team_ref(seat.team),
            "player": player_ref(seat.player, seat.team) if seat.player else None}


@router.get("/tournaments/{slug}/rounds/{round_id}/boxes",
            response={200: BoxIndexOut, **NOT_FOUND})
def box_index(request, slug: Slug, round_id: Id):
    """The boxes (deals) of a round, replaced ones too, each with the summary of the
    results the public may see."""
    tournament = public_tournament(slug, RESULTS)
    round_ = _round(tournament, round_id)
    boxes = round_box_summaries(round_, view=public_view(round_, tournament=tournament))
    return {"round": round_ref(round_), "boxes": [
        {**box_ref(box.deal), "tables": box.summary.tables,
         "balance": two_places(box.balance), "dealer_datum": two_places(box.dealer_datum),
         "provisional": box.provisional, "favoured": box.favoured} for box in boxes]}


@router.get("/tournaments/{slug}/rounds/{round_id}/boxes/{box_id}",
            response={200: TravellerOut, **NOT_FOUND})
def traveller(request, slug: Slug, round_id: Id, box_id: Id):
    """One box: every table's result on it that the public may see, best for the dealer
    cards first, with the field's datum; the cards once the round is closed."""
    tournament = public_tournament(slug, RESULTS)
    round_ = _round(tournament, round_id)
    deal = get_object_or_404(Deal, pk=box_id, round=round_)
    deal.round = round_
    box = box_traveller(deal, view=public_view(round_, tournament=tournament))
    cards = box_cards(deal, round_)
    return {
        "round": round_ref(round_), "box": box_ref(deal), "per_match": box.per_match,
        "hidden": box.hidden, "provisional": box.provisional, "tables": box.summary.tables,
        "dealer_datum": two_places(box.dealer_datum),
        "non_dealer_datum": two_places(box.non_dealer_datum), "trimmed": box.trimmed,
        "outcomes": dict(box.outcomes),
        "points": {str(points): tables for points, tables in box.summary.points.items()},
        "rows": [{"table": row.table, "hand": row.played.hand, "dealer": holder(row.dealer),
                  "non_dealer": holder(row.non_dealer), "outcome": row.played.outcome,
                  "dealer_points": row.dealer_points,
                  "non_dealer_points": row.non_dealer_points,
                  "explanation": row.played.explanation, "counted": row.counted,
                  "versus": two_places(row.versus_shown),
                  "provisional": row.played.provisional} for row in box.rows],
        "cards": None if cards is None else {
            "dealer": [str(c) for c in cards.dealer],
            "non_dealer": [str(c) for c in cards.non_dealer],
            "stock": [str(c) for c in cards.stock]},
    }
