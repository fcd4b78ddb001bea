"""Pages anyone may see."""

from django.shortcuts import render
from django.utils import timezone

from tournament.models import Tournament
from tournament.tables import TeamTable
from tournament.views.access import public_tournament
from tournament.views.listing import show_table


def home(request):
    tournaments = Tournament.objects.exclude(status=Tournament.Status.SETUP)
    return render(request, "public/home.html", {"tournaments": tournaments})


def tournament_page(request, slug):
    tournament = public_tournament(request, slug)
    teams = TeamTable(tournament.teams.prefetch_related("players"))
    show_table(request, teams)
    with timezone.override(tournament.time_zone):
        return render(request, "public/tournament.html", {
            "tournament": tournament, "team_table": teams,
        })
