"""Team standings (overall, a stage, a group; "after round N") and the individual
standings, as the public pages read them (``selectors.public``): closed rounds, and of a
round in play what the tournament's live-results setting lets the public see."""

from __future__ import annotations

from fractions import Fraction

from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema
from pydantic import Field

from scoring.placings import OUT_IN_ROUND
from tournament.api.base import (
    PLAYERS,
    STANDINGS,
    Id,
    PageIn,
    Slug,
    page,
    player_ref,
    public_tournament,
    round_ref,
    stage_ref,
    team_ref,
)
from tournament.api.schemas import (
    Error,
    FinalRankingOut,
    IndividualOut,
    StandingsOut,
    ValidationErrors,
)
from tournament.selectors.event_ranking import event_ranking
from tournament.selectors.individual import IndividualRow
from tournament.selectors.public import tournament_views
from tournament.selectors.public_standings import (
    PublicStandings,
    public_individual,
    public_standings,
    stage_groups,
)
from tournament.selectors.standings import StandingsLine, last_stage_played

router = Router(tags=["standings"])

NOT_FOUND = {404: Error, 422: ValidationErrors}


class AfterIn(Schema):
    after: int | None = Field(None, ge=1, le=1000,
                              description="the table after this round (a round counted); "
                                          "any other number gives every round counted")


def value(item) -> int | str:
    if isinstance(item, bool):
        return int(item)
    if isinstance(item, int):
        return item
    if isinstance(item, Fraction) and item.denominator == 1:
        return item.numerator
    return str(item)


def line_out(line: StandingsLine) -> dict:
    totals, separation = line.totals, line.separation
    return {
        "rank": line.rank, "team": team_ref(line.team), "played": totals.played,
        "wins": totals.wins, "match_points": totals.match_points,
        "small_points": totals.small_points, "gins": totals.gins, "byes": totals.byes,
        "penalty_match_points": totals.penalty_match_points,
        "penalty_small_points": totals.penalty_small_points,
        "provisional": totals.provisional, "tied_with_next": line.tied_with_next,
        "separated_by": None if separation is None else {
            "key": separation.key, "above": value(separation.above),
            "below": value(separation.below), "text": separation.text},
    }


def standings_out(standings: PublicStandings | None) -> dict:
    if standings is None:
        return {"stage": None, "after": None, "last_round": None, "rounds": [],
                "in_play": None, "live": False, "partly": False, "counted_in_play": 0,
                "matches_in_play": 0, "provisional": False, "tiebreaks": [], "groups": [],
                "tables": []}
    return {
        "stage": stage_ref(standings.stage), "after": standings.after,
        "last_round": standings.last_round, "rounds": standings.rounds,
        "in_play": round_ref(standings.in_play) if standings.in_play else None,
        "live": standings.live, "partly": standings.partly,
        "counted_in_play": standings.counted_in_play,
        "matches_in_play": standings.matches_in_play,
        "provisional": standings.provisional,
        "tiebreaks": list(standings.data.tiebreaks),
        "groups": [{"id": g.pk, "name": g.name} for g in stage_groups(standings)],
        "tables": [{"title": table.title,
                    "group": {"id": table.group.pk, "name": table.group.name}
                    if table.group else None,
                    "provisional": table.provisional,
                    "lines": [line_out(line) for line in table.lines],
                    "withdrawn": [team_ref(team) for team in table.withdrawn]}
                   for table in standings.tables],
    }


def _standings(tournament, stage, group=None, after=None):
    stage.tournament = tournament
    _rounds, views = tournament_views(tournament)
    return public_standings(stage, views, group=group, after=after)


@router.get("/tournaments/{slug}/standings", response={200: StandingsOut, **NOT_FOUND})
def overall_standings(request, slug: Slug, params: Query[AfterIn]):
    """The overall standings: those of the last stage with a round started (stages are
    never added up). ``stage`` is null before the first round starts."""
    tournament = public_tournament(slug, STANDINGS)
    stage = last_stage_played(tournament)
    if stage is None:
        return standings_out(None)
    return standings_out(_standings(tournament, stage, after=params.after))


@router.get("/tournaments/{slug}/stages/{stage_id}/standings",
            response={200: StandingsOut, **NOT_FOUND})
def stage_standings(request, slug: Slug, stage_id: Id, params: Query[AfterIn]):
    """A stage's standings: one table per group in a group stage."""
    tournament = public_tournament(slug, STANDINGS)
    stage = get_object_or_404(tournament.stages, pk=stage_id)
    return standings_out(_standings(tournament, stage, after=params.after))


@router.get("/tournaments/{slug}/stages/{stage_id}/groups/{group_id}/standings",
            response={200: StandingsOut, **NOT_FOUND})
def group_standings(request, slug: Slug, stage_id: Id, group_id: Id, params: Query[AfterIn]):
    """One group's table of a group stage."""
    tournament = public_tournament(slug, STANDINGS)
    stage = get_object_or_404(tournament.stages, pk=stage_id)
    group = get_object_or_404(stage.groups, pk=group_id)
    return standings_out(_standings(tournament, stage, group, after=params.after))


@router.get("/tournaments/{slug}/final-ranking", response={200: FinalRankingOut, **NOT_FOUND})
def final_ranking(request, slug: Slug):
    """The event's ranking, every team once in place order: the places its knockout has
    decided (``final`` once all are), the teams still playing (``place`` null), teams out
    in a round whose other matches are still open (``place`` null, ``decided_by``
    "out_in_round"), the teams that did not qualify, then the teams withdrawn after a
    group-stage default (``place`` null). Before the knockout begins every team is still
    playing; an event without a knockout ranks by its last stage's standings once it is
    over. Only results the public may see decide a place."""
    tournament = public_tournament(slug, STANDINGS)
    _rounds, views = tournament_views(tournament)
    ranking = event_ranking(tournament, views)
    return {"final": ranking.is_final, "items": [{
        "place": row.place, "team": team_ref(row.team), "decided_by": row.decided_by,
        "round": row.round if row.decided_by == OUT_IN_ROUND else None,
        "label": row.label} for row in ranking.rows]}


class IndividualIn(PageIn):
    stage: int | None = Field(None, ge=1, le=2_147_483_647,
                              description="one stage's hands (every stage when absent)")
    min: int = Field(0, ge=0, le=10_000, description="players with at least this many hands")


def individual_line(row: IndividualRow) -> dict:
    line = row.line
    return {"rank": row.rank, "player": player_ref(row.player, row.team), "hands": line.hands,
            "points": line.points, "per_hand": str(row.per_hand), "gins": line.gins,
            "big_gins": line.big_gins, "knocks": line.knocks,
            "undercuts_won": line.undercuts_won, "undercuts_suffered": line.undercuts_suffered,
            "false_knocks": line.false_knocks, "draws": line.draws,
            "provisional": line.provisional}


@router.get("/tournaments/{slug}/individual", response={200: IndividualOut, **NOT_FOUND})
def individual_standings(request, slug: Slug, params: Query[IndividualIn]):
    """Every player's points and figures over the hands the public may see, ranked by
    points, then points per hand. 404 while the player pages are not public."""
    tournament = public_tournament(slug, PLAYERS)
    stage = (get_object_or_404(tournament.stages, pk=params.stage)
             if params.stage is not None else None)
    _rounds, views = tournament_views(tournament)
    standings = public_individual(tournament, views, stage=stage, minimum_hands=params.min)
    result = page(standings.rows, params)
    return {"stage": stage_ref(stage) if stage else None,
            "minimum_hands": standings.minimum_hands, "players": standings.players,
            "provisional": standings.provisional,
            **result, "items": [individual_line(row) for row in result["items"]]}
