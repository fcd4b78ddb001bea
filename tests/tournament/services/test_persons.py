"""The person behind every player (issue 52; services/persons.py, docs/roles.md): linked
across events only by a federation and its id, made otherwise; a director never changes a
person another event shares; a superuser edits, merges and unlinks."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from tournament.exchange.export import export_tournament
from tournament.exchange.import_ import import_tournament
from tournament.models import AuditEntry, Person, Player
from tournament.services.base import ServiceError
from tournament.services.persons import edit_person, merge_persons, unlink_player
from tournament.services.team_import import import_teams
from tournament.services.teams import (
    create_team,
    delete_team,
    parse_team_entry,
    team_entry_fields,
    update_team,
)

pytestmark = pytest.mark.django_db


def entry(code, first="Li Wei", first_id="", second="Anna Berg", second_id="", **more):
    return parse_team_entry({"code": code, "name": f"Team {code}", "player1": first,
                             "player1_id": first_id, "player2": second,
                             "player2_id": second_id, **more})


@pytest.fixture
def director(make_user, actor):
    return actor(make_user(superuser=False))


@pytest.fixture
def two_events(make_tournament, make_user, actor):
    from tournament.models import StaffRole

    first = make_tournament(federation="FCG")
    second = make_tournament(federation="FCG")
    directors = []
    for event in (first, second):
        user = make_user()
        StaffRole.objects.create(tournament=event, user=user, role="director")
        directors.append(actor(user))
    return first, second, directors


def test_a_player_with_the_federations_id_is_the_same_person_at_every_event(two_events):
    first, second, (one, two) = two_events
    a = create_team(one, first, entry("CHN", first_id="123"))
    b = create_team(two, second, entry("CHN", first="LI Wei", first_id="123"))
    li_a, li_b = (team.players.get(number=1) for team in (a, b))
    assert li_a.person_id == li_b.person_id
    person = li_a.person
    assert (person.name, person.federation, person.federation_id) == ("Li Wei", "FCG", "123")
    assert li_b.name == "LI Wei"  # the name as this event entered it
    # Linking is audited in the tournament that linked, with what linked it.
    [link] = AuditEntry.objects.filter(action="player.person_link")
    assert link.tournament_id == second.pk
    assert link.data["federation_id"] == "123" and link.data["person"] == person.pk
    assert "FCG id 123" in link.summary
    # Players without an id, or events without a federation, are persons of their own.
    assert li_a.team.players.get(number=2).person_id != b.players.get(number=2).person_id


def test_without_a_federation_the_same_id_makes_two_persons(make_tournament, make_user, actor):
    from tournament.models import StaffRole

    events = [make_tournament(), make_tournament()]
    players = []
    for event in events:
        user = make_user()
        StaffRole.objects.create(tournament=event, user=user, role="director")
        team = create_team(actor(user), event, entry("ESP", first_id="77"))
        players.append(team.players.get(number=1))
    assert players[0].person_id != players[1].person_id
    assert not AuditEntry.objects.filter(action="player.person_link").exists()


def test_a_director_changes_a_persons_record_only_when_it_is_their_players_alone(two_events):
    first, second, (one, two) = two_events
    a = create_team(one, first, entry("CHN", first_id="123", second="Anna Berg"))
    create_team(two, second, entry("CHN", first_id="123"))
    fields = team_entry_fields(a)
    update_team(one, a, parse_team_entry({**fields, "player1": "Li W.",
                                          "player2": "Anna Berg-Lund"}))
    li, anna = (a.players.get(number=n) for n in (1, 2))
    assert li.name == "Li W." and li.person.name == "Li Wei"  # shared: left as it was
    assert anna.person.name == "Anna Berg-Lund"  # hers alone: follows her entry
    # A new id links her again and her old person, hers alone, goes.
    old = anna.person_id
    update_team(one, a, parse_team_entry({**team_entry_fields(a), "player2_id": "555"}))
    anna.refresh_from_db()
    assert anna.person.federation_id == "555" and not Person.objects.filter(pk=old).exists()


def test_deleting_a_team_drops_its_own_persons_and_keeps_the_registered(two_events):
    first, _second, (one, _two) = two_events
    team = create_team(one, first, entry("CHN", first_id="123"))
    persons = dict(team.players.values_list("number", "person_id"))
    delete_team(one, team)
    assert Person.objects.filter(pk=persons[1]).exists()  # FCG 123 comes back next event
    assert not Person.objects.filter(pk=persons[2]).exists()


def test_the_team_csv_links_by_id_too(two_events):
    first, second, (one, two) = two_events
    create_team(one, first, entry("CHN", first_id="123"))
    data = (b"code,name,player1,player1_id,player2\n"
            b"KOR,Seoul,Kim Min,123,Park Ji\n")
    report = import_teams(two, second, data, dry_run=False)
    assert report.imported
    kim = Player.objects.get(team__tournament=second, name="Kim Min")
    assert kim.person.name == "Li Wei"
    assert AuditEntry.objects.filter(tournament=second, action="player.person_link").exists()


def test_the_database_refuses_a_player_without_a_person(tournament, make_team):
    from django.db import IntegrityError, transaction

    team = make_team(tournament)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(team=team, number=1).update(person=None)


def test_only_a_superuser_edits_merges_and_unlinks(two_events, make_user, actor):
    first, second, (one, two) = two_events
    a = create_team(one, first, entry("CHN", first_id="123"))
    b = create_team(two, second, entry("CHN", first="Li Wei", first_id=""))
    li_a, li_b = (team.players.get(number=1) for team in (a, b))
    for call in (lambda: edit_person(one, li_a.person, other_name="李伟"),
                 lambda: merge_persons(two, li_a.person, [li_b.person]),
                 lambda: unlink_player(one, li_a)):
        with pytest.raises(PermissionDenied):
            call()
    root = actor(make_user(superuser=True))
    edit_person(root, li_a.person, other_name="李伟", country="China")
    with pytest.raises(ServiceError, match="merge the two instead"):
        edit_person(root, li_b.person, federation="FCG", federation_id="123")
    merge_persons(root, li_a.person, [li_b.person])
    li_b.refresh_from_db()
    assert li_b.person_id == li_a.person_id and li_b.person.other_name == "李伟"
    mine = unlink_player(root, li_b)
    li_b.refresh_from_db()
    assert li_b.person_id == mine.pk != li_a.person_id
    assert AuditEntry.objects.filter(tournament=second,
                                     action="player.person_unlink").exists()


def test_no_director_reaches_the_persons_in_the_admin(two_events, make_user):
    first, _second, (one, _two) = two_events
    create_team(one, first, entry("CHN", first_id="123"))
    staff = make_user()
    staff.is_staff = True  # may open the admin, is no superuser
    staff.save()
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/tournament/person/").status_code in (302, 403)
    root = make_user(superuser=True)
    client.force_login(root)
    page = client.get("/admin/tournament/person/")
    assert page.status_code == 200 and "Li Wei" in page.content.decode()


def test_the_persons_record_shows_who_linked_it_and_a_superuser_unlinks(two_events,
                                                                         make_user):
    first, second, (one, two) = two_events
    create_team(one, first, entry("CHN", first_id="123"))
    linked = create_team(two, second, entry("KOR", first="Kim Min", first_id="123"))
    kim = linked.players.get(number=1)
    client = Client()
    client.force_login(make_user(superuser=True))
    record = client.get(f"/admin/tournament/person/{kim.person_id}/change/").content.decode()
    assert "Kim Min (KOR) as the person with FCG id 123" in record
    assert "Li Wei" in record and "Kim Min" in record  # the players, event by event
    answer = client.post("/admin/tournament/player/", {
        "action": "unlink", "_selected_action": [kim.pk]})
    assert answer.status_code == 302
    kim.refresh_from_db()
    assert kim.person.name == "Kim Min" and kim.person.federation_id == ""


def test_the_tournament_file_carries_persons_and_links_by_federation_and_id(two_events):
    first, _second, (one, _two) = two_events
    team = create_team(one, first, entry("CHN", first_id="123"))
    li = team.players.get(number=1)
    document = export_tournament(first, secrets=True)
    assert document["tournament"]["federation"] == "FCG"
    [filed] = [p for t in document["teams"] for p in t["players"] if p["number"] == 1]
    assert filed["person"] == {"name": "Li Wei", "other_name": "", "federation": "FCG",
                               "federation_id": "123", "country": ""}
    # Imported elsewhere on this server: the same person (never changed by the file),
    # audited; the player without an id gets a new person.
    filed["person"]["name"] = "Someone Else"
    people = {p["username"]: p["username"] for p in document["people"]}
    copy_ = import_tournament(document, slug="copy", map_users=people)
    li_copy = Player.objects.get(team__tournament=copy_, number=1)
    assert li_copy.person_id == li.person_id
    assert Person.objects.get(pk=li.person_id).name == "Li Wei"
    assert AuditEntry.objects.filter(tournament=copy_, action="player.person_link").exists()
    anna = Player.objects.get(team__tournament=copy_, number=2)
    assert anna.person_id != team.players.get(number=2).person_id
