"""The persons' public pages (issue 55): the rating list, the master points list, their
downloads, and a profile across two events; what the public may not see stays out."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from openpyxl import load_workbook

from tests.tournament.services.test_person_ratings import event
from tests.tournament.views.public_event import page_text
from tournament.models import MasterPointAward, Person, Player, RatingPoint, Tournament
from tournament.services.master_points import set_category
from tournament.services.persons import set_hidden
from tournament.services.ratings import set_rated
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_tournament, make_team, make_user, actor, django_capture_on_commit_callbacks):
    superuser = actor(make_user(superuser=True))
    first, _ = event(make_tournament, make_team, superuser, 1, dt.date(2026, 11, 22),
                     closed=3)
    second, _ = event(make_tournament, make_team, superuser, 2, dt.date(2026, 12, 20))
    with django_capture_on_commit_callbacks(execute=True):
        for tournament, category in ((first, "national"), (second, "club")):
            set_rated(superuser, tournament, True)
            set_category(superuser, tournament, category)
        update_tournament(superuser, first, status=Tournament.Status.FINISHED)
    return superuser, first, second



def text(response) -> str:
    return page_text(response.content.decode())


def test_a_profile_after_two_events(season):
    from tournament.selectors.event_ranking import event_ranking

    _, first, second = season
    ranking = {row.team.code: row.place for row in event_ranking(first).rows}
    winner = next(code for code, place in ranking.items() if place == 1)
    player = Player.objects.get(team__tournament=first, team__code=winner, number=1)
    person = player.person
    points = list(RatingPoint.objects.filter(person=person).order_by("date"))
    assert [p.tournament_id for p in points] == [first.pk, second.pk]
    # Master points by the national scale (40, 30, …): four teams, the top 40 % is one
    # place, so the winners' two players alone earn 40 each; the second event is not
    # finished: nothing yet.
    assert sorted((a.team.code, a.place, a.points) for a in MasterPointAward.objects.all()) \
        == [(winner, 1, Decimal("40.00"))] * 2
    place = 1
    page = Client().get(f"/persons/{person.pk}/")
    assert page.status_code == 200
    shown = text(page)
    assert first.name in shown and second.name in shown
    assert f"{place} of 4" in shown
    for point in points:
        assert f"{point.rating:.1f}" in shown
    assert "<svg" in page.content.decode() and "polyline" in page.content.decode()
    assert "40" in shown.split(first.name, 1)[1]  # the master points of the event
    # The figures over the public's hands, as on the event's own player page: three
    # rounds of four hands at the first event, two at the second.
    own = text(Client().get(f"/t/{first.slug}/players/{player.pk}/"))
    assert re.search(r"Hands\s*12\b", own)
    row = page.content.decode().split(first.name, 1)[1].split("</tr>", 1)[0]
    assert ">12</td>" in row


def test_the_lists_and_their_downloads(season, django_assert_max_num_queries):
    client = Client()
    with django_assert_max_num_queries(8):
        ratings = client.get("/persons/")
    with django_assert_max_num_queries(8):
        masters = client.get("/persons/master-points/")
    assert ratings.status_code == masters.status_code == 200
    persons = Person.objects.filter(players__team__tournament__slug="season-1").distinct()
    assert persons.count() == 8
    assert all(p.name in text(ratings) for p in persons)
    rows = list(csv.reader(io.StringIO(
        client.get("/persons/ratings.csv").content.decode("utf-8-sig"))))
    assert len(rows) == 1 + 8 and "Rating" in rows[0]
    ratings_in_file = [float(row[rows[0].index("Rating")]) for row in rows[1:]]
    assert ratings_in_file == sorted(ratings_in_file, reverse=True)
    book = load_workbook(io.BytesIO(client.get("/persons/master-points.xlsx").content))
    sheet = book.active
    assert sheet.max_row == 1 + MasterPointAward.objects.count()
    assert client.get("/persons/ratings.pdf").status_code == 404
    # Filters by country and federation; a made-up one lists nobody, never an error.
    assert client.get("/persons/?federation=FCG").status_code == 200
    assert "No rated player" in text(client.get("/persons/?country=Atlantis"))
    assert client.get("/persons/?country=%00").status_code == 200


def test_chinese_addresses(season):
    page = Client().get("/zh-hans/persons/")
    assert page.status_code == 200 and "等级分" in text(page)


def test_a_hidden_person_is_absent_from_lists_downloads_and_profile(season):
    superuser, first, _ = season
    person = Player.objects.get(team__tournament=first, team__code="T2", number=1).person
    set_hidden(superuser, person, True)
    client = Client()
    assert person.name not in text(client.get("/persons/"))
    assert person.name not in client.get("/persons/ratings.csv").content.decode("utf-8-sig")
    assert person.name not in client.get("/persons/master-points.csv").content.decode(
        "utf-8-sig")
    assert client.get(f"/persons/{person.pk}/").status_code == 404
    # Their results stay in their events.
    assert person.name in text(client.get(f"/t/{first.slug}/individual/"))


@pytest.mark.parametrize("change", ["players_off", "setup"])
def test_an_event_not_public_shows_nothing_on_profiles(season, change):
    _, first, second = season
    if change == "players_off":
        Tournament.objects.filter(pk=first.pk).update(public_players=False)
    else:
        Tournament.objects.filter(pk=first.pk).update(status=Tournament.Status.SETUP)
    person = Player.objects.get(team__tournament=first, team__code="T1", number=1).person
    shown = text(Client().get(f"/persons/{person.pk}/"))
    assert first.name not in shown and second.name in shown
    point = RatingPoint.objects.get(person=person, tournament=first)
    assert f"{point.rating:.1f}" not in shown
    # With neither event shown, the person is on no list and has no profile.
    Tournament.objects.filter(pk=second.pk).update(public_players=False)
    assert Client().get(f"/persons/{person.pk}/").status_code == 404
    assert person.name not in text(Client().get("/persons/"))


def test_a_director_cannot_set_a_category_or_the_rated_flag(season, make_user, actor):
    from django.core.exceptions import PermissionDenied

    from tournament.models import StaffRole

    _, first, _ = season
    director = make_user()
    StaffRole.objects.create(tournament=first, user=director, role="director")
    with pytest.raises(PermissionDenied):
        set_category(actor(director), first, "world")
    with pytest.raises(PermissionDenied):
        set_rated(actor(director), first, False)
    first.refresh_from_db()
    assert (first.rated, first.category) == (True, "national")


def test_the_api_lists_persons_by_their_person_id(season, django_assert_max_num_queries):
    superuser, first, second = season
    client = Client()
    with django_assert_max_num_queries(6):
        answer = client.get("/api/ratings")
    assert answer.status_code == 200
    items = answer.json()["items"]
    assert [item["rank"] for item in items] == list(range(1, 9))
    assert [item["rating"]["rating"] for item in items] == sorted(
        (item["rating"]["rating"] for item in items), reverse=True)
    persons = set(Person.objects.filter(players__team__tournament=first)
                  .values_list("pk", flat=True))
    assert {item["id"] for item in items} == persons
    detail = client.get(f"/api/persons/{items[0]['id']}").json()
    assert [event["tournament"] for event in detail["events"]] == [second.slug, first.slug]
    assert detail["events"][1]["teams"] == 4
    assert detail["events"][1]["rating_after"]["hands"] == 12
    listed = client.get("/api/persons?federation=fcg&limit=3").json()
    assert listed["count"] == 8 and len(listed["items"]) == 3
    assert client.get("/api/persons?country=%00").status_code == 422
    # A hidden person: off every answer.
    hidden = Person.objects.get(pk=items[0]["id"])
    set_hidden(superuser, hidden, True)
    assert client.get(f"/api/persons/{hidden.pk}").status_code == 404
    assert hidden.pk not in {item["id"] for item in client.get("/api/ratings").json()["items"]}
    assert hidden.pk not in {item["id"] for item in client.get("/api/persons").json()["items"]}
    document = client.get("/api/openapi.json").json()
    assert {"/api/persons", "/api/persons/{person_id}", "/api/ratings"} <= set(
        document["paths"])


def test_an_event_s_player_page_links_to_the_profile(season):
    superuser, first, _ = season
    player = Player.objects.get(team__tournament=first, team__code="T3", number=2)
    page = Client().get(f"/t/{first.slug}/players/{player.pk}/").content.decode()
    assert f'href="/persons/{player.person_id}/"' in page
    set_hidden(superuser, player.person, True)
    page = Client().get(f"/t/{first.slug}/players/{player.pk}/").content.decode()
    assert f"/persons/{player.person_id}/" not in page
