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


# Read-only: tournament data changes only through the services -----------------------------

def _tournament_admins():
    from django.contrib import admin

    return [(model, model_admin) for model, model_admin in admin.site._registry.items()
            if model._meta.app_label == "tournament"]


def test_every_tournament_model_in_the_admin_is_read_only(rf, admin_user):
    request = rf.get("/admin/")
    request.user = admin_user
    admins = _tournament_admins()
    assert len(admins) >= 9
    for model, model_admin in admins:
        name = model._meta.model_name
        assert model_admin.has_view_permission(request), name
        assert not model_admin.has_add_permission(request), name
        # A person and a master point scale (no tournament's) are changed here by a
        # superuser, each through its service.
        assert model_admin.has_change_permission(request) == (
            name in ("person", "masterpointscale")), name
        assert not model_admin.has_delete_permission(request), name
        assert "delete_selected" not in model_admin.get_actions(request), name
        for inline in model_admin.get_inline_instances(request):
            assert not inline.has_add_permission(request, None), name
            assert not inline.has_change_permission(request), name
            assert not inline.has_delete_permission(request), name


def test_a_superuser_cannot_add_change_or_delete_a_tournament(client, admin_user, tournament):
    client.force_login(admin_user)
    change = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    page = client.get(change)
    assert page.status_code == 200  # to read
    assert 'name="_save"' not in page.content.decode()
    posted = {"name": "Renamed", "slug": tournament.slug, "starts_on": "2026-11-20",
              "ends_on": "2026-11-22", "status": "running"}
    assert client.post(change, posted).status_code == 403
    assert client.get(reverse("admin:tournament_tournament_add")).status_code == 403
    delete = reverse("admin:tournament_tournament_delete", args=[tournament.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "World Cup"


def test_a_superuser_cannot_revert_a_team_to_an_old_version(client, admin_user, tournament,
                                                            make_team):
    team = make_team(tournament, name="Before")
    team.name = "After"
    team.save()
    old = team.history.order_by("history_date").first()
    client.force_login(admin_user)
    url = reverse("admin:tournament_team_simple_history", args=[team.pk, old.history_id])
    assert client.get(url).status_code == 200  # to read
    posted = {"tournament": tournament.pk, "name": "Before", "code": team.code, "country": "",
              "seed": ""}
    assert client.post(url, posted).status_code == 403
    team.refresh_from_db()
    assert team.name == "After"


def test_user_accounts_stay_editable(client, admin_user, make_user):
    user = make_user("li")
    client.force_login(admin_user)
    assert client.get(reverse("admin:auth_user_add")).status_code == 200
    page = client.get(reverse("admin:auth_user_change", args=[user.pk]))
    assert 'name="_save"' in page.content.decode()


def test_a_superuser_edits_a_person_through_the_service(client, admin_user, tournament,
                                                       make_team):
    from tournament.models import AuditEntry, Person

    team = make_team(tournament)
    person = team.players.get(number=1).person
    Person.objects.create(name="Taken", federation="FCG", federation_id="7")
    client.force_login(admin_user)
    change = reverse("admin:tournament_person_change", args=[person.pk])
    values = {"name": person.name, "other_name": "李伟", "federation": "FCG",
              "federation_id": "7", "country": "China",
              "players-TOTAL_FORMS": "1", "players-INITIAL_FORMS": "1",
              "players-MIN_NUM_FORMS": "0", "players-MAX_NUM_FORMS": "1000"}
    refused = client.post(change, values)
    assert refused.status_code == 200  # the form again, with what was typed
    assert "already exists" in refused.content.decode()
    assert "李伟" in refused.content.decode()
    assert client.post(change, {**values, "federation_id": "8"}).status_code == 302
    person.refresh_from_db()
    assert (person.other_name, person.federation_id) == ("李伟", "8")
    assert AuditEntry.objects.filter(action="person.edit", data__person=person.pk).exists()


def test_a_master_point_scale_is_edited_through_its_service(client, admin_user):
    from tournament.models import AuditEntry, MasterPointScale

    # Made by migration 0024 (and again here: a transactional test's flush empties it).
    scale, _made = MasterPointScale.objects.update_or_create(
        category="club", defaults={"points": [10, 7, 5, 4, 3, 2, 1], "share_of_field": 40})
    client.force_login(admin_user)
    change = reverse("admin:tournament_masterpointscale_change", args=[scale.pk])
    refused = client.post(change, {"points": "[5, 7]", "share_of_field": "40"})
    assert refused.status_code == 200 and "earns more than place 1" in refused.content.decode()
    assert MasterPointScale.objects.get(pk=scale.pk).points == [10, 7, 5, 4, 3, 2, 1]
    done = client.post(change, {"points": "[12, 6, 3]", "share_of_field": "50"})
    assert done.status_code == 302
    scale.refresh_from_db()
    assert (scale.points, scale.share_of_field) == ([12, 6, 3], 50)
    assert AuditEntry.objects.filter(action="ratings.scale").exists()
