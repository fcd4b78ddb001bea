"""The comparison with the field for the staff (issue 12, items 2 to 4): players against the
field with provisional hands for referees and directors, and a box's traveller with every
result entered, for the referees checking a result (never its cards before the close)."""

from django.shortcuts import get_object_or_404, render

from tournament.models import Deal, Round
from tournament.permissions import Perm, has_perm
from tournament.selectors.field import field_standings
from tournament.selectors.rounds import stages_in_order
from tournament.tables import FieldTable, field_rows
from tournament.views.access import staff_view
from tournament.views.public.travellers import box_context


@staff_view(Perm.VIEW_STAFF_AREA)
def field_page(request, tournament, pk=None):
    """Referees and directors see the rounds in play too, provisional hands marked; a
    scorer sees the official hands of closed rounds (nothing of a box still in play)."""
    stage = get_object_or_404(tournament.stages, pk=pk) if pk is not None else None
    referee = has_perm(request.user, tournament, Perm.SIGN_OFF)
    standings = field_standings(tournament, stage=stage, closed_only=not referee,
                                official_only=not referee)
    return render(request, "director/field.html", {
        "tournament": tournament, "standings": standings, "stage": stage,
        "stages": stages_in_order(tournament),
        "table": FieldTable(field_rows(standings)),
    })


@staff_view(Perm.SIGN_OFF)
def traveller(request, tournament, pk, deal_pk):
    """Every table's current result on a box, as entered (referees and directors)."""
    round_ = get_object_or_404(Round.objects.select_related("stage__tournament")
                               .exclude(status=Round.Status.DRAFT),
                               pk=pk, stage__tournament=tournament)
    deal = get_object_or_404(Deal, pk=deal_pk, round=round_)
    deal.round = round_
    return render(request, "director/field_traveller.html", {
        "tournament": tournament, "staff_links": True,
        **box_context(round_, deal, None, request),
    })
