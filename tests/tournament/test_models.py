"""The database refuses what the application must never store, whatever the code does."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from scoring import Rules
from tournament.models import Person, Player, StaffRole, Team, Tournament


def breaks(callable_, *args, **kwargs):
    with pytest.raises(IntegrityError), transaction.atomic():
        callable_(*args, **kwargs)


def test_rules_default_to_the_rule_book(tournament):
    assert tournament.rules == Rules()
    assert tournament.rules.tiebreaks == ("head_to_head", "wins", "gins", "lots")


def test_rules_follow_the_settings(tournament):
    tournament.knock_limit = 7
    tournament.tiebreak_order = "wins,lots"
    assert tournament.rules.knock_limit == 7
    assert tournament.rules.tiebreaks == ("wins", "lots")


@pytest.mark.parametrize("changes", [
    {"ends_on": dt.date(2026, 11, 1)},
    {"hands_per_match": 0},
    {"knock_limit": 100},
    {"match_points_tie": 3},
    {"match_points_loss": 2},
    {"match_points_forfeit_loss": 5},
    {"status": "paused"},
])
def test_tournament_constraints(tournament, changes):
    for name, value in changes.items():
        setattr(tournament, name, value)
    breaks(tournament.save)


def test_slug_is_unique(tournament):
    breaks(Tournament.objects.create, name="Copy", slug=tournament.slug,
           starts_on=tournament.starts_on, ends_on=tournament.ends_on)


def test_team_code_name_and_seed_are_unique_per_tournament(tournament, make_tournament,
                                                           make_team):
    make_team(tournament, code="CHN", name="China", seed="1")
    breaks(Team.objects.create, tournament=tournament, code="CHN", name="Other")
    breaks(Team.objects.create, tournament=tournament, code="CN2", name="CHINA")
    breaks(Team.objects.create, tournament=tournament, code="CN3", name="Third", seed=1)
    breaks(Team.objects.create, tournament=tournament, code="CN4", name="Fourth", seed=0)
    other = make_tournament()
    Team.objects.create(tournament=other, code="CHN", name="China", seed=1)  # another event


def test_two_players_and_one_reserve_at_most(tournament, make_team):
    team = make_team(tournament)
    person = Person.objects.create(name="Anyone")  # every player is a person (issue 52)
    breaks(Player.objects.create, team=team, name="Third", number=3, is_reserve=False,
           person=person)
    breaks(Player.objects.create, team=team, name="Dup", number=1, is_reserve=False,
           person=person)
    breaks(Player.objects.create, team=team, name="Res", number=1, is_reserve=True,
           person=person)
    Player.objects.create(team=team, name="Reserve", number=3, is_reserve=True, person=person)
    breaks(Player.objects.create, team=team, name="Reserve 2", number=3, is_reserve=True,
           person=person)
    breaks(Player.objects.create, team=team, name="Nobody", number=3, is_reserve=True)


@pytest.mark.django_db
def test_two_persons_never_share_a_federation_and_id():
    Person.objects.create(name="Li Wei", federation="FCG", federation_id="123")
    breaks(Person.objects.create, name="Someone else", federation="FCG", federation_id="123")
    # An id alone, or the same id in another federation, tells nobody apart.
    Person.objects.create(name="Li Wei", federation_id="123")
    Person.objects.create(name="Li Wei", federation_id="123")
    Person.objects.create(name="Li Wei", federation="CGA", federation_id="123")


def test_one_role_per_user_and_only_referees_are_chief(tournament, make_user):
    user = make_user()
    StaffRole.objects.create(tournament=tournament, user=user, role="scorer")
    breaks(StaffRole.objects.create, tournament=tournament, user=user, role="referee")
    breaks(StaffRole.objects.create, tournament=tournament, user=make_user(), role="scorer",
           is_chief_referee=True)
    breaks(StaffRole.objects.create, tournament=tournament, user=make_user(), role="king")


def test_field_history_is_kept(tournament):
    tournament.venue = "Beijing"
    tournament.save()
    assert [h.venue for h in tournament.history.order_by("history_id")] == ["Shanghai", "Beijing"]


def test_an_import_keeps_its_times_in_its_own_thread_only(tournament):
    """An import writes the file's times (keeping_given_times); a scorer's save in another
    thread of the same process meanwhile still gets the time of now."""
    import datetime as dt
    import threading

    from tournament.models import AuditEntry
    from tournament.models.fields import keeping_given_times

    given = dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    seen = {}

    def elsewhere():
        entry = AuditEntry(tournament=tournament, actor_name="scorer", action="x", summary="")
        entry.created_at = None
        seen["pre_save"] = AuditEntry._meta.get_field("created_at").pre_save(entry, True)

    with keeping_given_times():
        kept = AuditEntry.objects.create(tournament=tournament, actor_name="import",
                                         action="x", summary="", created_at=given)
        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
    assert kept.created_at == given
    assert seen["pre_save"] is not None and seen["pre_save"] > given
    later = AuditEntry.objects.create(tournament=tournament, actor_name="x", action="x",
                                      summary="", created_at=given)
    assert later.created_at > given


@pytest.mark.django_db
def test_each_save_of_a_tracked_model_keeps_its_history_and_the_manager_class_is_made_once(
        tournament):
    assert type(Team.history) is type(Team.history)  # the class is made once
    team = Team.objects.create(tournament=tournament, code="H1", name="History")
    team.name = "History, renamed"
    team.save()
    assert [(h.history_type, h.name) for h in team.history.order_by("history_id")] == [
        ("+", "History"), ("~", "History, renamed")]
    assert [h.name for h in tournament.history.all()] == ["World Cup"]
