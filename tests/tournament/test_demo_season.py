"""``manage.py demo --season`` (issue 55, item 4): an earlier event of the same persons,
played to the end, and both events rated with a category, so that a new user sees persons
with a rating history and master points; ``--replace`` takes the earlier event too."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.demo import REFEREE, SCORER, SLUG, Built, Demo, build_demo
from tournament.demo_accounts import SEASON_SLUG, is_demo
from tournament.models import (
    AuditEntry,
    DealKey,
    HandResult,
    MasterPointAward,
    MasterPointScale,
    Person,
    PersonRating,
    Player,
    RatingPoint,
    RatingState,
    Round,
    StaffRole,
    Tournament,
)
from tournament.selectors.event_ranking import event_ranking


@pytest.mark.slow
@pytest.mark.django_db
def test_the_season_gives_the_persons_two_rated_events_and_master_points(admin_user):
    out = io.StringIO()
    call_command("demo", "--season", "--seed", "5", stdout=out)
    assert "Demo tournament built" in out.getvalue()
    assert "The season: Vienna Autumn Open, /t/demo-open/" in out.getvalue()
    cup, earlier = Tournament.objects.get(slug=SLUG), Tournament.objects.get(slug=SEASON_SLUG)

    # The earlier event: four weeks before, played to the end through the same services.
    assert earlier.ends_on == cup.starts_on - dt.timedelta(days=27)
    assert earlier.status == cup.status == Tournament.Status.FINISHED
    assert is_demo(earlier)
    assert not Round.objects.filter(stage__tournament=earlier).exclude(
        status=Round.Status.CLOSED).exists()
    assert Round.objects.filter(stage__tournament=earlier).count() == 4
    played = HandResult.objects.filter(table__round__stage__tournament=earlier,
                                       is_current=True)
    assert played.count() == 4 * 8 * 2 * cup.hands_per_match  # every hand, no forfeit
    assert not played.filter(deal=None).exists()
    assert DealKey.objects.get(tournament=earlier).revealed_at is not None
    assert DealKey.objects.get(tournament=earlier).key_hex != \
        DealKey.objects.get(tournament=cup).key_hex
    # Its director ran it alone: deleting the cup still retires the demo's other accounts.
    assert list(StaffRole.objects.filter(tournament=earlier).values_list(
        "user__username", flat=True)) == ["demo-director"]

    # The same persons at both, by the demo's federation and ids.
    def persons(tournament):
        return set(Player.objects.filter(team__tournament=tournament).values_list(
            "person_id", flat=True))

    assert persons(cup) == persons(earlier) and len(persons(cup)) == 33
    assert cup.federation == earlier.federation == "DEMO"

    # Both rated with a category, by the superuser, audited.
    assert (cup.rated, cup.category) == (True, "international")
    assert (earlier.rated, earlier.category) == (True, "national")
    rated = AuditEntry.objects.filter(action="tournament.rated")
    assert {(entry.tournament_id, entry.actor_id) for entry in rated} == {
        (cup.pk, admin_user.pk), (earlier.pk, admin_user.pk)}

    # The ratings and master points are up to date: the champions' first player has a
    # point after each event, a rating (the latest point) and the cup's first place.
    assert RatingState.objects.get().stale_since is None
    champion = event_ranking(cup).rows[0].team
    assert event_ranking(cup).rows[0].place == 1
    person = champion.players.get(number=1).person
    points = list(RatingPoint.objects.filter(person=person).order_by("date"))
    assert [(p.tournament_id, p.date) for p in points] == [
        (earlier.pk, earlier.ends_on), (cup.pk, cup.ends_on)]
    assert points[1].hands > points[0].hands > 0
    rating = PersonRating.objects.get(person=person)
    assert (rating.rating, rating.last_played) == (points[1].rating, cup.ends_on)
    scale = MasterPointScale.objects.get(category="international")
    award = MasterPointAward.objects.get(person=person, tournament=cup)
    assert (award.place, award.points) == (1, scale.points[0])
    # Everyone who played has two points of history, but the team that withdrew from the
    # cup's groups (its hands there count for nobody); the reserve never played.
    assert RatingPoint.objects.filter(tournament=earlier).count() == 32
    assert set(RatingPoint.objects.filter(tournament=earlier).exclude(
        person__rating_points__tournament=cup).values_list(
        "person__players__team__code", flat=True)) == {"ISR"}
    # The earlier event's winners have its awards on the national scale.
    winners = event_ranking(earlier).rows[0].team
    assert sorted(MasterPointAward.objects.filter(tournament=earlier, place=1).values_list(
        "team_id", "points")) == 2 * [(winners.pk, MasterPointScale.objects.get(
            category="national").points[0])]

    # The earlier event's public pages.
    client = Client()
    for name in ("tournament", "standings", "rounds"):
        assert client.get(reverse(f"public:{name}", args=[SEASON_SLUG])).status_code == 200


def fake_builds(monkeypatch):
    """Both events set up with their teams but not played: what --replace does with them
    is the subject here (the play is the test above's)."""
    from tournament.demo.season import SeasonEvent

    def build(demo, slug):
        from tournament.services.tournaments import create_tournament

        demo.accounts()
        day = dt.date(2025, 10, 17) if slug == SLUG else dt.date(2025, 9, 20)
        tournament = create_tournament(demo.director, name=slug.title(), slug=slug,
                                       starts_on=day, ends_on=day, **demo.federation())
        built = Built(tournament)
        if slug == SLUG:
            demo.staff(tournament, built)
        demo.register_teams(tournament)
        return built

    monkeypatch.setattr(Demo, "build", lambda demo: build(demo, SLUG))
    monkeypatch.setattr(SeasonEvent, "build", lambda demo: build(demo, SEASON_SLUG))


@pytest.mark.django_db
def test_replace_deletes_the_season_as_a_superuser_and_its_persons(monkeypatch, make_user):
    fake_builds(monkeypatch)
    with pytest.raises(Exception, match="no superuser"):
        build_demo(5, season=True)
    assert not Tournament.objects.exists()
    admin = make_user("admin", superuser=True)
    built = build_demo(5, season=True)
    assert built.season.tournament.slug == SEASON_SLUG
    assert Tournament.objects.filter(rated=True).count() == 2
    demo_persons = Person.objects.filter(federation="DEMO")
    assert demo_persons.count() == 33
    with pytest.raises(Exception, match="'demo' exists already"):
        build_demo(5, season=True)

    # Without --season, --replace takes both (rated: deleted by the superuser) and the
    # demo's persons left with no player; the accounts are retired, then back.
    build_demo(5, replace=True)
    deleted = AuditEntry.objects.filter(action="tournament.delete")
    assert sorted(deleted.values_list("data__slug", "actor_id")) == [
        (SLUG, admin.pk), (SEASON_SLUG, admin.pk)]
    retired = [name for entry in deleted for name in entry.data["retired"]]
    assert {REFEREE, SCORER} <= set(retired)
    assert list(Tournament.objects.values_list("slug", "rated", "federation")) == [
        (SLUG, False, "")]
    assert not demo_persons.exists()
    # The demo alone: in the way of --season, replaced by it with --replace.
    with pytest.raises(Exception, match="'demo' exists already"):
        build_demo(5, season=True)
    build_demo(5, season=True, replace=True)
    assert Tournament.objects.filter(rated=True).count() == 2
    assert demo_persons.count() == 33


@pytest.mark.django_db
def test_a_tournament_of_its_own_called_demo_open_is_never_touched(monkeypatch, make_user,
                                                                  make_tournament):
    fake_builds(monkeypatch)
    make_user("admin", superuser=True)
    theirs = make_tournament(name="Club Open", slug=SEASON_SLUG)
    with pytest.raises(RuntimeError, match="'demo-open' is in the way"):
        build_demo(5, season=True, replace=True)
    build_demo(5)
    build_demo(5, replace=True)
    assert Tournament.objects.get(slug=SEASON_SLUG).pk == theirs.pk
    assert not AuditEntry.objects.filter(action="tournament.delete",
                                         data__slug=SEASON_SLUG).exists()
