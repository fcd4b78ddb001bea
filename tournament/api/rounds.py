"""Rounds (drafts stay with the directors) with their matches, and one match hand by hand,
as far as the public's view of the round allows (``selectors.visibility``)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from ninja import Query, Router

from tournament.api.base import (
    RESULTS,
    Id,
    PageIn,
    Slug,
    hand_result,
    match_line,
    page,
    player_ref,
    public_tournament,
    round_ref,
    team_ref,
)
from tournament.api.schemas import (
    Error,
    MatchDetail,
    RoundDetail,
    RoundPage,
    ValidationErrors,
)
from tournament.models import Match, Round
from tournament.selectors.public import (
    line_of_match,
    match_counts,
    match_sheet,
    public_rounds,
    round_byes,
    round_lines,
)
from tournament.selectors.visibility import public_views

router = Router(tags=["rounds and matches"])

NOT_FOUND = {404: Error, 422: ValidationErrors}


def round_summary(round_: Round, matches: int) -> dict:
    return {**round_ref(round_), "hands_per_match": round_.hands_per_match,
            "match_count": matches}


@router.get("/tournaments/{slug}/rounds", response={200: RoundPage, **NOT_FOUND})
def round_list(request, slug: Slug, params: Query[PageIn]):
    """Every published round, by stage and number."""
    tournament = public_tournament(slug)
    result = page(public_rounds(tournament, paged=True), params)
    counts = match_counts(result["items"])
    result["items"] = [round_summary(r, counts.get(r.pk, 0)) for r in result["items"]]
    return result


@router.get("/tournaments/{slug}/rounds/{round_id}", response={200: RoundDetail, **NOT_FOUND})
def round_detail(request, slug: Slug, round_id: Id):
    """A round: every match with its state and, as far as the public may see it, its score
    and match points; the teams with a bye."""
    tournament = public_tournament(slug)
    round_ = get_object_or_404(public_rounds(tournament), pk=round_id)
    round_.stage.tournament = tournament
    views = public_views([round_], tournament=tournament)
    lines = round_lines(round_, views)
    return {**round_summary(round_, len(lines)), "provisional": views.provisional(round_.pk),
            "matches": [match_line(line) for line in lines],
            "byes": [team_ref(team) for team in round_byes(round_)]}


@router.get("/tournaments/{slug}/matches/{match_id}", response={200: MatchDetail, **NOT_FOUND})
def match_detail(request, slug: Slug, match_id: Id):
    """A match's two tables hand by hand: who held the dealer's cards at each table, each
    result the public may see, and the swing for the home team. 404 while the
    tournament's results are not public."""
    tournament = public_tournament(slug, RESULTS)
    match = get_object_or_404(
        Match.objects.select_related("round__stage", "home", "away", "group")
        .exclude(round__status=Round.Status.DRAFT),
        pk=match_id, round__stage__tournament=tournament)
    match.round.stage.tournament = tournament
    views = public_views([match.round], tournament=tournament)
    line = line_of_match(match, views)
    sheet = match_sheet(match, views.of(match.round_id))
    return {
        **match_line(line), "round": round_ref(match.round),
        "tables": [{"number": table.number, "position": table.position,
                    "seats": [{"seat": seat.seat, "team": team_ref(seat.team),
                               "player": player_ref(seat.player, seat.team)
                               if seat.player else None} for seat in table.seats]}
                   for table in sheet.plan.tables],
        "hands": [{"hand": hand.hand, "swing": hand.swing, "provisional": hand.provisional,
                   "tables": [{"table": t.table.number, "dealer_seat": t.dealer.seat,
                               "entered": t.entered, "hidden": t.hidden,
                               "approved": t.approved, "box": t.deal_id,
                               "home_points": t.home_points,
                               "result": hand_result(t.result)} for t in hand.tables]}
                  for hand in sheet.hands],
    }
