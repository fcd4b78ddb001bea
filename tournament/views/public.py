"""Pages anyone may see."""

from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from tournament.models import Round, Tournament
from tournament.selectors.draw import round_plan
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
    rounds = (Round.objects.filter(stage__tournament=tournament)
              .exclude(status=Round.Status.DRAFT).select_related("stage"))
    with timezone.override(tournament.time_zone):
        return render(request, "public/tournament.html", {
            "tournament": tournament, "team_table": teams, "rounds": rounds,
        })


def round_draw(request, slug, pk):
    """A published round's draw, by table or by team; drafts stay with the directors."""
    tournament = public_tournament(request, slug)
    round_ = get_object_or_404(
        Round.objects.select_related("stage").exclude(status=Round.Status.DRAFT),
        pk=pk, stage__tournament=tournament,
    )
    by_team = request.GET.get("by") == "team"
    with timezone.override(tournament.time_zone):
        return render(request, "public/round.html", {
            "tournament": tournament, "round": round_, "plan": round_plan(round_),
            "by_team": by_team,
        })
