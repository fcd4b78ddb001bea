"""Tournaments: the list (never one in set-up) and one tournament with its stages and the
commitments of its deal keys."""

from __future__ import annotations

from ninja import Query, Router

from tournament.api.base import PageIn, Slug, names_out, page, public_tournament, stage_ref
from tournament.api.schemas import Error, TournamentDetail, TournamentPage, ValidationErrors
from tournament.models import Tournament
from tournament.selectors.keys import deal_keys
from tournament.selectors.rounds import stages_in_order
from tournament.selectors.tournaments import listed_tournaments

router = Router(tags=["tournaments"])


def summary(tournament: Tournament) -> dict:
    return {"slug": tournament.slug, **names_out(tournament),
            "starts_on": tournament.starts_on, "ends_on": tournament.ends_on,
            "venue": tournament.venue, "status": tournament.status}


@router.get("/tournaments", response={200: TournamentPage, 422: ValidationErrors})
def tournament_list(request, params: Query[PageIn]):
    """Every public tournament, the latest first (then by slug)."""
    result = page(listed_tournaments(paged=True), params)
    result["items"] = [summary(t) for t in result["items"]]
    return result


@router.get("/tournaments/{slug}", response={200: TournamentDetail, 404: Error,
                                             422: ValidationErrors})
def tournament_detail(request, slug: Slug):
    """A tournament: dates, venue, which parts are public, its stages and the deal keys'
    commitments (a key itself only once revealed)."""
    tournament = public_tournament(slug)
    keys = deal_keys(tournament)
    return {
        **summary(tournament), "time_zone": tournament.time_zone,
        "live_results": tournament.live_results,
        "hands_per_match": tournament.hands_per_match,
        "public": {"standings": tournament.public_standings,
                   "results": tournament.public_results,
                   "players": tournament.public_players,
                   "penalties": tournament.public_penalties},
        "stages": [stage_ref(s) for s in stages_in_order(tournament)],
        "deal_keys": [{"number": record.key.number, "commitment": record.key.commitment,
                       "revealed": record.key.is_revealed,
                       "key": record.key.key_hex if record.key.is_revealed else None,
                       "verified": record.verified} for record in keys],
    }
