"""Teams, players and penalties on the public site."""

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from tournament.models import Player, Round, Team
from tournament.selectors.penalties import penalty_list
from tournament.selectors.public import tournament_views
from tournament.selectors.public_standings import public_individual
from tournament.selectors.public_teams import (
    player_matches,
    player_row,
    public_teams,
    team_entries,
    team_matches,
)
from tournament.views.public.base import public_page, render_public


@public_page()
def team_list(request, tournament):
    return render_public(request, tournament, "public/teams.html",
                         {"teams": public_teams(tournament)},
                         active="teams")


@public_page()
def team_page(request, tournament, pk):
    """A team's players, its line-up in every round, every match and its penalties."""
    # The players with their persons in one query (a person's name in the other script).
    players = Prefetch("players", queryset=Player.objects.select_related("person"))
    team = get_object_or_404(Team.objects.prefetch_related(players), pk=pk,
                             tournament=tournament)
    _rounds, views = tournament_views(tournament)
    return render_public(request, tournament, "public/team.html", {
        "team": team, "entries": team_entries(team), "lines": team_matches(team, views),
        "penalties": penalty_list(tournament, team=team) if tournament.public_penalties
        else [],
    }, active="teams")


@public_page("public_players")
def player_page(request, tournament, pk):
    """A player's figures over the hands the public may see, and every match and hand."""
    player = get_object_or_404(Player.objects.select_related("team", "person"), pk=pk,
                               team__tournament=tournament)
    rounds, views = tournament_views(tournament)
    standings = public_individual(tournament, views)
    return render_public(request, tournament, "public/player.html", {
        "player": player, "row": player_row(standings, player), "standings": standings,
        "matches": player_matches(player, views),
        "in_play": any(r.status == Round.Status.IN_PLAY for r in rounds),
    }, active="players")


@public_page("public_penalties")
def penalties(request, tournament):
    """Every penalty of the tournament with its reason; an undone one struck through."""
    return render_public(request, tournament, "public/penalties.html", {
        "penalties": penalty_list(tournament),
    }, active="penalties")
