"""The public front of a tournament: the list of tournaments, a tournament's home page,
its rounds, the deal commitments and the hand records of closed rounds."""

from django.db import connection
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django_htmx.http import HTMX_STOP_POLLING, HttpResponseClientRefresh

from scoring.deals import deal_from_text
from tournament import demo, first_start
from tournament.models import Round
from tournament.public_cache import cache_public
from tournament.selectors.bulletin import bulletin_days
from tournament.selectors.draw import round_plan
from tournament.selectors.event_ranking import event_ranking
from tournament.selectors.hand_records import deals_of_round, played_hands
from tournament.selectors.keys import deal_keys, key_commitments
from tournament.selectors.public import (
    current_round,
    last_closed,
    latest_results,
    tournament_views,
)
from tournament.selectors.public_standings import leaders
from tournament.selectors.tournaments import listed_tournaments
from tournament.views.public.base import public_page, render_public
from tournament.views.public.standings import begun_knockout


@cache_public()
def home(request):
    tournaments = listed_tournaments()
    build = first_start.progress()  # the first start's demo, being built or failed
    if build is not None and not build.building and any(
            t.slug == demo.SLUG for t in tournaments):
        build = None  # built after all (manage.py demo)
    return render(request, "public/home.html", {"tournaments": tournaments,
                                                "demo_build": build,
                                                "demo_build_blocks": _one_writer()})


@never_cache
def demo_build(request):
    """The demo's build as the home page shows it, asked for every few seconds (htmx):
    the page is loaded again once the demo is there; polling stops (286) on a failure.
    Without htmx: the home page while there is a build to show, else nothing here."""
    build = first_start.progress()
    if not request.htmx:
        if build is None:
            raise Http404
        return redirect("public:home")
    if build is None:
        return HttpResponseClientRefresh()
    return render(request, "public/includes/demo_build_body.html", {
        "demo_build": build, "demo_build_blocks": _one_writer()},
        status=200 if build.building else HTMX_STOP_POLLING)


def _one_writer() -> bool:
    """SQLite: a write waits for the build's transaction."""
    return connection.vendor == "sqlite"


LATEST_RESULTS = 10


@public_page()
def tournament_page(request, tournament):
    """Dates, venue, the deal commitments, the current round with its latest results, and
    the leaders."""
    rounds, views = tournament_views(tournament)
    current = current_round(rounds)
    closed = last_closed(rounds)
    shown = list(dict.fromkeys(r for r in (current, closed) if r is not None))
    # A summary, not every match: the latest signed off of each round shown (the round
    # page has them all), so the page stays small for a 256-match round.
    results = latest_results(shown, views, most=LATEST_RESULTS)
    # Once the knockout that ends the event has begun, its ranking replaces the leaders.
    knockout = begun_knockout(tournament, rounds) if tournament.public_standings else None
    ranking = event_ranking(tournament, views) if knockout is not None else None
    return render_public(request, tournament, "public/tournament.html", {
        "rounds": rounds, "current": current, "results": results, "ranking": ranking,
        "leaders": leaders(tournament, views)
        if tournament.public_standings and ranking is None else None,
        "deal_keys": key_commitments(tournament),
        "bulletin_days": bulletin_days(tournament, rounds),
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


# More than this many boxes (a reserve deal shares its box), or results, and the records
# are split: an index of the boxes and a page for each (one page of a 512-table round was
# 1.3 MB, of 2,048 deals 5.7 MB).
HANDFUL_OF_DEALS = 8
MOST_RESULTS_ON_ONE_PAGE = 256


@public_page()
def hand_records(request, tournament, pk):
    """Every deal of a closed round with its cards; nothing before the round closes. Each
    table's result on it too, while the tournament's results are public. A big round
    gets an index of its boxes, each box on a page of its own (``?box=<deal>``)."""
    round_ = get_object_or_404(Round.objects.select_related("stage"),
                               pk=pk, stage__tournament=tournament, status=Round.Status.CLOSED)
    deals = deals_of_round(round_)
    box = request.GET.get("box")
    boxes = len({(deal.deal_set, deal.hand) for deal in deals})
    # The index of a round of many boxes needs no plan; everything else reads it.
    plan = round_plan(round_) if tournament.public_results and (
        box is not None or boxes <= HANDFUL_OF_DEALS) else None
    if box is not None:
        wanted = int(box) if box.isdigit() else None
        deals = [deal for deal in deals if deal.pk == wanted]
        if not deals:
            raise Http404("no such box in this round")
    elif boxes > HANDFUL_OF_DEALS or (
            plan is not None and len(plan.tables) * boxes > MOST_RESULTS_ON_ONE_PAGE):
        return render_public(request, tournament, "public/hand_record_index.html", {
            "round": round_, "sets": _by_set(deals),
        }, active="rounds", of_round=round_)
    played = {} if plan is None else played_hands(
        round_, plan, deals if box is not None else None)
    return render_public(request, tournament, "public/hand_records.html", {
        "round": round_, "box": box is not None,
        "deals": [(deal, deal_from_text(deal.cards), played.get(deal.pk, []))
                  for deal in deals],
    }, active="rounds", of_round=round_)


def _by_set(deals: list) -> list[tuple[int, list]]:
    """The index's rows: each deal set with its deals in hand order."""
    sets: dict[int, list] = {}
    for deal in deals:
        sets.setdefault(deal.deal_set, []).append(deal)
    return list(sets.items())
