"""Travellers and players against the field for the public (issue 12, items 2 and 3).

A traveller is every table's result on one box (deal) of a round; the box index lists a
round's boxes. What the public sees of a round in play is the one rule of
``selectors.visibility``; a box's cards only ever once its round is closed, whatever the
rule (cards-mode hands included: their cards are never shown here). The figures come from
``selectors.field``.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from scoring.deals import deal_from_text
from tournament.models import Deal, Round
from tournament.selectors.field import box_traveller, field_standings, round_boxes
from tournament.selectors.visibility import public_view, public_views
from tournament.views.access import public_tournament


def _switched_on(tournament, switch: str) -> None:
    """A page the tournament's settings keep from the public (the staff have theirs)."""
    if not getattr(tournament, switch):
        raise Http404("not public in this tournament")


def _round(tournament, pk) -> Round:
    return get_object_or_404(
        Round.objects.select_related("stage__tournament").exclude(status=Round.Status.DRAFT),
        pk=pk, stage__tournament=tournament)


def reader_table(request) -> int | None:
    """The reader's table (``?table=N``), highlighted on the traveller."""
    value = request.GET.get("table", "")
    return int(value) if value.isdigit() and len(value) < 7 else None


def box_context(round_: Round, deal: Deal, view, request) -> dict:
    """What a traveller page shows (the public's and the referees')."""
    return {
        "round": round_, "deal": deal, "box": box_traveller(deal, view=view),
        # The cards only once the round is closed, whoever reads the page.
        "cards": deal_from_text(deal.cards) if round_.status == Round.Status.CLOSED else None,
        "reader_table": reader_table(request),
    }


def box_index(request, slug, pk):
    """The boxes of a round, each with its field's summary and a link to its traveller."""
    tournament = public_tournament(request, slug)
    _switched_on(tournament, "public_results")
    round_ = _round(tournament, pk)
    view = public_view(round_, tournament=tournament)
    with timezone.override(tournament.time_zone):
        return render(request, "public/travellers.html", {
            "tournament": tournament, "round": round_,
            "boxes": round_boxes(round_, view=view),
        })


def traveller(request, slug, pk, deal_pk):
    """One box of a round: every table's result that the public may see."""
    tournament = public_tournament(request, slug)
    _switched_on(tournament, "public_results")
    round_ = _round(tournament, pk)
    deal = get_object_or_404(Deal, pk=deal_pk, round=round_)
    deal.round = round_
    with timezone.override(tournament.time_zone):
        return render(request, "public/traveller.html", {
            "tournament": tournament,
            **box_context(round_, deal, public_view(round_, tournament=tournament), request),
        })


def field_page(request, slug, pk=None):
    """Players against the field, over a stage or the whole tournament: the results of
    rounds in play only as far as the public may see them (and only those in the field)."""
    tournament = public_tournament(request, slug)
    _switched_on(tournament, "public_players")
    stage = get_object_or_404(tournament.stages, pk=pk) if pk is not None else None
    rounds = (Round.objects.filter(stage__tournament=tournament)
              .exclude(status=Round.Status.DRAFT).select_related("stage"))
    views = public_views(rounds, tournament=tournament)
    standings = field_standings(tournament, stage=stage, shows=views.shows)
    return render(request, "public/field.html", {
        "tournament": tournament, "standings": standings, "stage": stage,
        "stages": tournament.stages.order_by("order"),
    })
