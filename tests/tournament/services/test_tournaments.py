import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from tournament.models import AuditEntry, Role, StaffRole
from tournament.services import ServiceError
from tournament.services.tournaments import create_tournament, update_tournament

VALUES = {"name": "Asia Open", "slug": "asia-open", "starts_on": dt.date(2026, 5, 1),
          "ends_on": dt.date(2026, 5, 3)}


def test_superuser_creates_a_tournament_with_rule_book_defaults(admin_user, actor):
    tournament = create_tournament(actor(admin_user), **VALUES)
    assert tournament.knock_limit == 10 and tournament.hands_per_match == 8
    commitment = tournament.deal_keys.get().commitment
    assert AuditEntry.objects.get(tournament=tournament, action="tournament.create").summary == (
        f"root created the tournament Asia Open; deal commitment {commitment}")


def test_creator_with_the_permission_becomes_director(make_user, actor):
    from django.contrib.auth.models import Permission

    user = make_user("organiser")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    user = type(user).objects.get(pk=user.pk)
    tournament = create_tournament(actor(user), **VALUES)
    assert StaffRole.objects.get(tournament=tournament, user=user).role == Role.DIRECTOR


def test_plain_users_cannot_create(make_user, actor):
    with pytest.raises(PermissionDenied):
        create_tournament(actor(make_user()), **VALUES)


def test_taken_slug_is_a_clear_error(admin_user, actor, tournament):
    with pytest.raises(ServiceError, match="already taken"):
        create_tournament(actor(admin_user), **{**VALUES, "slug": tournament.slug})


@pytest.mark.parametrize(("changes", "message"), [
    ({"ends_on": dt.date(2026, 1, 1)}, "last day cannot be before"),
    ({"match_points_tie": 5}, "match points must rank win > tie > loss"),
    ({"knock_limit": 0}, "knock limit"),
    ({"tiebreak_order": "wins,wins"}, "only once"),
    ({"tiebreak_order": "coin_toss"}, "unknown tiebreak 'coin_toss'"),
])
def test_bad_settings_are_refused_and_nothing_changes(admin_user, actor, tournament, changes,
                                                      message):
    with pytest.raises(ServiceError, match=message):
        update_tournament(actor(admin_user), tournament, **changes)
    tournament.refresh_from_db()
    assert tournament.knock_limit == 10 and tournament.match_points_tie == 2
    assert not AuditEntry.objects.exists()


def test_update_is_audited_in_words(admin_user, actor, tournament):
    update_tournament(actor(admin_user), tournament, knock_limit=7, venue="Beijing")
    entry = AuditEntry.objects.get(action="tournament.update")
    assert entry.summary == "root changed venue Shanghai → Beijing, knock limit 10 → 7"
    assert entry.ip_address == "10.0.0.7"


def test_a_changed_choice_is_named_by_its_label_in_the_readers_language(admin_user, actor,
                                                                       tournament):
    update_tournament(actor(admin_user), tournament, status="finished", public_penalties=False)
    entry = AuditEntry.objects.get(action="tournament.update")
    assert "status Running → Finished" in entry.summary
    assert "yes → no" in entry.summary
    with translation.override("zh-hans"):
        chinese = entry.summary
    assert "running" not in chinese and "进行中 → 已结束" in chinese and "是 → 否" in chinese


def test_unchanged_update_writes_nothing(admin_user, actor, tournament):
    update_tournament(actor(admin_user), tournament, knock_limit=10)
    assert not AuditEntry.objects.exists()


def test_referee_cannot_change_settings(staff_user, actor, tournament):
    with pytest.raises(PermissionDenied):
        update_tournament(actor(staff_user(tournament, Role.REFEREE)), tournament, knock_limit=5)


def test_opening_the_public_pages_sets_running_once_and_audits_it(tournament, staff_user,
                                                                   actor):
    from tournament.models import Tournament
    from tournament.services.tournaments import open_to_public

    tournament.status = Tournament.Status.SETUP
    tournament.save()
    director = actor(staff_user(tournament, Role.DIRECTOR, username="lin"))
    with pytest.raises(PermissionDenied):
        open_to_public(actor(staff_user(tournament, Role.SCORER, username="li")), tournament)
    assert open_to_public(director, tournament).status == Tournament.Status.RUNNING
    assert open_to_public(director, tournament).status == Tournament.Status.RUNNING
    entry = AuditEntry.objects.get(action="tournament.open")
    assert entry.data["changes"] == {"status": ["setup", "running"]}
    # A finished tournament stays finished.
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    assert open_to_public(director, tournament).status == Tournament.Status.FINISHED
    assert AuditEntry.objects.filter(action="tournament.open").count() == 1
