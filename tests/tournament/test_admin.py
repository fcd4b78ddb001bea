"""The admin pages open for a superuser and never show a PIN hash."""

import pytest
from django.urls import reverse

from tournament.models import Player


@pytest.mark.parametrize("model", ["tournament", "team", "player", "stage", "round", "match",
                                   "handresult", "auditentry", "staffrole"])
def test_admin_lists_open(client, admin_user, tournament, make_team, model):
    make_team(tournament)
    client.force_login(admin_user)
    assert client.get(reverse(f"admin:tournament_{model}_changelist")).status_code == 200


def test_player_page_has_no_pin_field(client, admin_user, tournament, make_team):
    team = make_team(tournament)
    client.force_login(admin_user)
    player = Player.objects.filter(team=team).first()
    page = client.get(reverse("admin:tournament_player_change", args=[player.pk]))
    assert page.status_code == 200 and "pin_hash" not in page.content.decode()
