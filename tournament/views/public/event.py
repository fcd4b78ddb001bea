"""The public front of a tournament: the list of tournaments, a tournament's home page,
its rounds, the deal commitments and the hand records of closed rounds."""

from dataclasses import dataclass

from django.shortcuts import get_object_or_404, render

from scoring.deals import deal_from_text
from tournament.models import DealKey, HandResult, Match, Round, Tournament
from tournament.selectors.draw import SeatPlan, round_plan
from tournament.selectors.keys import deal_keys
from tournament.selectors.public import (
    current_round,
    last_closed,
    leaders,
    match_lines,
    tournament_views,
)
from tournament.public_cache import cache_public
from tournament.views.public.base import public_page, render_public
from tournament.wording import hand_line


@cache_public()
def home(request):
    tournaments = (Tournament.objects.exclude(status=Tournament.Status.SETUP)
                   .prefetch_related("deal_keys"))
    return render(request, "public/home.html", {"tournaments": tournaments})


@public_page()
def tournament_page(request, tournament):
    """Dates, venue, the deal commitments, the current round with its latest results, and
    the leaders."""
    rounds, views = tournament_views(tournament)
    current = current_round(rounds)
    closed = last_closed(rounds)
    shown = [r for r in (current, closed) if r is not None]
    lines = match_lines(Match.objects.filter(round__in=[r.pk for r in shown]), views) \
        if shown else []
    results = [(round_, [line for line in lines if line.match.round_id == round_.pk])
               for round_ in dict.fromkeys(shown)]
    return render_public(request, tournament, "public/tournament.html", {
        "rounds": rounds, "current": current, "results": results,
        "leaders": leaders(tournament, views) if tournament.public_standings else None,
        "deal_keys": DealKey.objects.filter(tournament=tournament).order_by("number"),
    }, active="home")


@public_page()
def round_list(request, tournament):
    """Every stage's published rounds: the draw, the results, the hand records."""
    rounds, _views = tournament_views(tournament)
    stages: dict = {}
    for round_ in rounds:
        stages.setdefault(round_.stage, []).append(round_)
    return render_public(request, tournament, "public/rounds.html", {
        "stages": list(stages.items()),
    }, active="rounds")


@public_page()
def deal_check(request, tournament):
    """Every key's commitment published before its deals and, once revealed, the key that
    matches it with the commands that re-create what it dealt."""
    return render_public(request, tournament, "public/deal_check.html", {
        "keys": deal_keys(tournament),
    }, active="deals")


@dataclass(frozen=True)
class PlayedHand:
    """One table's result on a deal, from the dealer's and the non-dealer's side."""

    table: int
    dealer: SeatPlan
    non_dealer: SeatPlan
    dealer_points: int
    non_dealer_points: int
    explanation: str


@public_page()
def hand_records(request, tournament, pk):
    """Every deal of a closed round with its cards; nothing before the round closes. Each
    table's result on it too, while the tournament's results are public."""
    round_ = get_object_or_404(Round.objects.select_related("stage"),
                               pk=pk, stage__tournament=tournament, status=Round.Status.CLOSED)
    played: dict[int | None, list] = {}
    if tournament.public_results:
        plan = round_plan(round_)
        tables = {t.number: t for t in plan.tables}
        # Each result counts on the deal it was played on (a reserve deal replaces one only
        # for the tables that had not played it yet).
        results = HandResult.objects.filter(table__round=round_, is_current=True) \
            .select_related("table")
        for result in sorted(results, key=lambda r: (r.hand, r.table.number)):
            table = tables[result.table.number]
            dealer, non_dealer = table.dealer(result.hand), table.non_dealer(result.hand)
            played.setdefault(result.deal_id, []).append(PlayedHand(
                table=table.number, dealer=dealer, non_dealer=non_dealer,
                dealer_points=result.points(dealer.seat),
                non_dealer_points=result.points(non_dealer.seat),
                explanation=hand_line(result, round_)))
    deals = [(deal, deal_from_text(deal.cards), played.get(deal.pk, []))
             for deal in round_.deals.order_by("deal_set", "hand", "reserve")]
    return render_public(request, tournament, "public/hand_records.html", {
        "round": round_, "deals": deals,
    }, active="rounds")
