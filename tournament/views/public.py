"""Pages anyone may see."""

from dataclasses import dataclass

from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from scoring.deals import deal_from_text
from tournament.models import DealKey, HandResult, Round, Tournament
from tournament.selectors.draw import SeatPlan, round_plan
from tournament.selectors.keys import deal_keys
from tournament.tables import TeamTable
from tournament.views.access import public_tournament
from tournament.views.listing import show_table


def home(request):
    tournaments = (Tournament.objects.exclude(status=Tournament.Status.SETUP)
                   .prefetch_related("deal_keys"))
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
            "deal_keys": DealKey.objects.filter(tournament=tournament).order_by("number"),
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


def deal_check(request, slug):
    """Every key's commitment published before its deals and, once revealed, the key that
    matches it with the commands that re-create what it dealt."""
    tournament = public_tournament(request, slug)
    with timezone.override(tournament.time_zone):
        return render(request, "public/deal_check.html", {
            "tournament": tournament, "keys": deal_keys(tournament),
        })


@dataclass(frozen=True)
class PlayedHand:
    """One table's result on a deal, from the dealer's and the non-dealer's side."""

    table: int
    dealer: SeatPlan
    non_dealer: SeatPlan
    dealer_points: int
    non_dealer_points: int
    explanation: str


def hand_records(request, slug, pk):
    """Every deal of a closed round with its cards; nothing before the round closes."""
    tournament = public_tournament(request, slug)
    round_ = get_object_or_404(Round.objects.select_related("stage"),
                               pk=pk, stage__tournament=tournament, status=Round.Status.CLOSED)
    plan = round_plan(round_)
    tables = {t.number: t for t in plan.tables}
    # Each result counts on the deal it was played on (a reserve deal replaces one only for
    # the tables that had not played it yet).
    played: dict[int | None, list] = {}
    results = HandResult.objects.filter(table__round=round_, is_current=True).select_related(
        "table")
    for result in sorted(results, key=lambda r: (r.hand, r.table.number)):
        table = tables[result.table.number]
        dealer, non_dealer = table.dealer(result.hand), table.non_dealer(result.hand)
        played.setdefault(result.deal_id, []).append(PlayedHand(
            table=table.number, dealer=dealer, non_dealer=non_dealer,
            dealer_points=result.points(dealer.seat),
            non_dealer_points=result.points(non_dealer.seat),
            explanation=result.explanation))
    deals = [(deal, deal_from_text(deal.cards), played.get(deal.pk, []))
             for deal in round_.deals.order_by("deal_set", "hand", "reserve")]
    return render(request, "public/hand_records.html", {
        "tournament": tournament, "round": round_, "deals": deals,
    })
