"""A round's results and draw, and a match's two tables hand by hand, as the public sees
them (``selectors.visibility.public_view`` decides what of a round in play shows)."""

from django.shortcuts import get_object_or_404

from tournament.models import Match, Round
from tournament.selectors.draw import round_plan
from tournament.selectors.penalties import match_penalties
from tournament.selectors.public import line_of_match, match_sheet, round_byes, round_lines
from tournament.selectors.visibility import public_views
from tournament.views.public.base import public_page, render_public

DRAW_VIEWS = ("table", "team")


@public_page()
def round_draw(request, tournament, pk):
    """A published round: every match with its state and, as far as the public may see
    them, its score and match points; or its draw, by table or by team. Drafts stay with
    the directors."""
    round_ = get_object_or_404(
        Round.objects.select_related("stage").exclude(status=Round.Status.DRAFT),
        pk=pk, stage__tournament=tournament,
    )
    by = request.GET.get("by")
    context = {"round": round_, "by": by if by in DRAW_VIEWS else "results"}
    if by in DRAW_VIEWS:
        context.update(plan=round_plan(round_), by_team=by == "team")
    else:
        views = public_views([round_], tournament=tournament)
        context.update(
            lines=round_lines(round_, views), view=views.of(round_.pk),
            byes=round_byes(round_))
    return render_public(request, tournament, "public/round.html", context, active="rounds",
                         of_round=round_)


@public_page("public_results")
def match_page(request, tournament, pk):
    """Both tables of a match side by side, hand by hand: who held the dealer's cards, what
    each table made of them, and the swing for the home team."""
    match = get_object_or_404(
        Match.objects.select_related("round__stage", "home", "away", "group")
        .exclude(round__status=Round.Status.DRAFT),
        pk=pk, round__stage__tournament=tournament)
    match.round.stage.tournament = tournament
    views = public_views([match.round], tournament=tournament)
    view = views.of(match.round_id)
    line = line_of_match(match, views)
    sheet = match_sheet(match, view)
    return render_public(request, tournament, "public/match.html", {
        "match": match, "round": match.round, "line": line, "sheet": sheet,
        # "(false knock at 23)" explained below the table, when a result shown says it.
        "false_knock_note": any(cell.result is not None
                                and cell.result.false_knock_deadwood is not None
                                for hand in sheet.hands for cell in hand.tables),
        "penalties": [p for p in match_penalties(match) if p.is_active]
        if tournament.public_penalties else [],
    }, active="rounds", of_round=match.round, of_match=match)
