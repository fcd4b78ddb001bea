"""``demo --live`` (issue 14, item 1): the demo with its final round in play, entered in
part, its key still secret; the rest of the demo is tested in tests/tournament/test_demo.py."""

from django.test import Client
from django.urls import reverse

from tournament.demo import SLUG
from tournament.models import DealKey, HandResult, Round, Stage, Tournament
from tournament.selectors.integrity import check_standings


def test_live_leaves_the_final_round_in_play(live_demo, db):
    tournament = Tournament.objects.get(pk=live_demo.pk)
    assert tournament.status == Tournament.Status.RUNNING
    in_play = Round.objects.get(stage__tournament=tournament, status=Round.Status.IN_PLAY)
    assert in_play.stage.kind == Stage.Kind.KNOCKOUT and in_play.number == 3
    assert in_play.matches.count() == 2  # the final and the match for third place
    assert not in_play.matches.exclude(signed_off_at=None).exists()
    entered = HandResult.objects.filter(table__round=in_play, is_current=True)
    assert entered.exists() and entered.filter(approvals=None).exists()
    assert DealKey.objects.get(tournament=tournament).revealed_at is None
    assert check_standings(tournament).ok
    client = Client()
    response = client.get(reverse("public:round", args=[SLUG, in_play.pk]))
    assert response.status_code == 200
