"""Teams and players: the field, a team's line-ups and matches, a player's figures and
hands over what the public may see."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from ninja import Query, Router

from tournament.api.base import (
    PLAYERS,
    Id,
    PageIn,
    Slug,
    hand_result,
    match_line,
    page,
    player_out,
    player_ref,
    public_tournament,
    round_ref,
    team_ref,
)
from tournament.api.schemas import (
    Error,
    PlayerDetail,
    PlayerPage,
    TeamDetail,
    TeamPage,
    ValidationErrors,
)
from tournament.api.standings import individual_line
from tournament.models import Player, RoundEntry, Team
from tournament.selectors.public import tournament_views
from tournament.selectors.public_standings import public_individual
from tournament.selectors.public_teams import (
    player_matches,
    player_row,
    players_by_team,
    public_teams,
    team_entries,
    team_matches,
)

router = Router(tags=["teams and players"])

NOT_FOUND = {404: Error, 422: ValidationErrors}


def team_out(team: Team) -> dict:
    return {**team_ref(team), "country": team.country,
            "players": [player_out(p) for p in sorted(team.players.all(),
                                                      key=lambda p: (p.number, p.pk))]}


@router.get("/tournaments/{slug}/teams", response={200: TeamPage, **NOT_FOUND})
def team_list(request, slug: Slug, params: Query[PageIn]):
    """Every team with its players, by name."""
    tournament = public_tournament(slug)
    result = page(public_teams(tournament), params)
    result["items"] = [team_out(team) for team in result["items"]]
    return result


@router.get("/tournaments/{slug}/teams/{team_id}", response={200: TeamDetail, **NOT_FOUND})
def team_detail(request, slug: Slug, team_id: Id):
    """A team's players, its line-up (or bye) in every published round and every match
    with its score as far as the public may see it."""
    tournament = public_tournament(slug)
    team = get_object_or_404(Team.objects.prefetch_related("players"), pk=team_id,
                             tournament=tournament)
    _rounds, views = tournament_views(tournament)
    return {
        **team_out(team),
        "rounds": [{"round": round_ref(entry.round), "bye": entry.match_id is None,
                    "match_id": entry.match_id,
                    "players": [player_out(p) for p in (entry.first_player,
                                                        entry.second_player) if p]}
                   for entry in team_entries(team)],
        "matches": [match_line(line) for line in team_matches(team, views)],
    }


def opponents_team(played) -> Team:
    match = played.line.match
    return match.away if played.entry.side == RoundEntry.Side.HOME else match.home


@router.get("/tournaments/{slug}/players", response={200: PlayerPage, **NOT_FOUND})
def player_list(request, slug: Slug, params: Query[PageIn]):
    """Every player, by team code and number in the team. 404 while the player pages are
    not public."""
    tournament = public_tournament(slug, PLAYERS)
    result = page(players_by_team(tournament), params)
    result["items"] = [player_ref(p) for p in result["items"]]
    return result


@router.get("/tournaments/{slug}/players/{player_id}",
            response={200: PlayerDetail, **NOT_FOUND})
def player_detail(request, slug: Slug, player_id: Id):
    """A player's line of the individual standings and every match and hand, as far as the
    public may see them. 404 while the player pages are not public."""
    tournament = public_tournament(slug, PLAYERS)
    player = get_object_or_404(Player.objects.select_related("team"), pk=player_id,
                               team__tournament=tournament)
    _rounds, views = tournament_views(tournament)
    row = player_row(public_individual(tournament, views), player)
    return {
        **player_ref(player), "reserve": player.is_reserve,
        "standing": individual_line(row) if row else None,
        "matches": [{"match": match_line(played.line),
                     "table": played.table.number if played.table else None,
                     "seat": played.seat,
                     "opponent": player_ref(played.opponent, opponents_team(played))
                     if played.opponent else None,
                     "points": played.points,
                     "hands": [{"hand": h.hand, "dealer": h.dealer, "entered": h.entered,
                                "hidden": h.hidden, "points": h.points,
                                "result": hand_result(h.result)} for h in played.hands]}
                    for played in player_matches(player, views)],
    }
