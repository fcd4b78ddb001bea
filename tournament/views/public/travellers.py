"""Travellers and players against the field for the public (issue 12, items 2 and 3).

A traveller is every table's result on one box (deal) of a round; the box index lists a
round's boxes. What the public sees of a round in play is the one rule of
``selectors.visibility``; a box's cards only ever once its round is closed, whatever the
rule (cards-mode hands included: their cards are never shown here). The figures come from
``selectors.travellers``, ``selectors.box_summaries`` and ``selectors.field``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from tournament.models import Deal, Round
from tournament.selectors.box_summaries import round_box_summaries
from tournament.selectors.field import field_standings
from tournament.selectors.public import box_cards, public_rounds
from tournament.selectors.rounds import stages_in_order
from tournament.selectors.travellers import box_traveller
from tournament.selectors.visibility import public_view, public_views
from tournament.tables import FieldTable, field_rows
from tournament.views.public.base import public_page, render_public


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
        "cards": box_cards(deal, round_),
        "reader_table": reader_table(request),
    }


@public_page("public_results")
def box_index(request, tournament, pk):
    """The boxes of a round, each with its field's summary and a link to its traveller."""
    round_ = _round(tournament, pk)
    view = public_view(round_, tournament=tournament)
    return render_public(request, tournament, "public/travellers.html", {
        "round": round_, "boxes": round_box_summaries(round_, view=view),
    }, active="rounds", of_round=round_)


@public_page("public_results")
def traveller(request, tournament, pk, deal_pk):
    """One box of a round: every table's result that the public may see."""
    round_ = _round(tournament, pk)
    deal = get_object_or_404(Deal, pk=deal_pk, round=round_)
    deal.round = round_
    return render_public(request, tournament, "public/traveller.html", {
        **box_context(round_, deal, public_view(round_, tournament=tournament), request),
    }, active="rounds", of_round=round_)


@public_page("public_players")
def field_page(request, tournament, pk=None):
    """Players against the field, over a stage or the whole tournament: the results of
    rounds in play only as far as the public may see them (and only those in the field)."""
    stage = get_object_or_404(tournament.stages, pk=pk) if pk is not None else None
    views = public_views(public_rounds(tournament), tournament=tournament)
    standings = field_standings(tournament, stage=stage, views=views)
    return render_public(request, tournament, "public/field.html", {
        "standings": standings, "stage": stage, "stages": stages_in_order(tournament),
        "table": FieldTable(field_rows(standings)),
    }, active="field")
