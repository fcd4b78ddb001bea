"""Each role against each protected page, as a table written out by hand."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tournament.models import Role, Tournament
from tournament.permissions import Perm, has_perm, require
from tournament.services.teams import create_team, parse_team_entry

ROLES = ("anonymous", "no_role", "scorer", "referee", "chief_referee", "director",
         "other_director", "superuser")
STAFF = {"scorer", "referee", "chief_referee", "director", "superuser"}
REFEREES = {"referee", "chief_referee", "director", "superuser"}
DIRECTORS = {"director", "superuser"}

# (url name, what else the URL names, roles that get the page)
PAGES = [
    ("director:dashboard", None, STAFF),
    ("director:tournament_edit", None, DIRECTORS),
    ("director:team_list", None, DIRECTORS),
    ("director:team_create", None, DIRECTORS),
    ("director:team_import", None, DIRECTORS),
    ("director:team_edit", "team", DIRECTORS),
    ("director:team_delete", "team", DIRECTORS),
    ("director:team_pins", "team", DIRECTORS),
    ("director:staff", None, DIRECTORS),
    ("director:audit", None, REFEREES),
    ("director:stage_list", None, DIRECTORS),
    ("director:stage_detail", "stage", DIRECTORS),
    ("director:round_detail", "round", DIRECTORS),
    ("director:round_lineup", "lineup", DIRECTORS),
    ("director:round_pdf", "printout", DIRECTORS),
    ("director:deal_key", None, DIRECTORS),
    ("director:round_deals", "round", DIRECTORS),
    ("director:table_entry", "table", STAFF),
    ("director:match_page", "match", STAFF),
    ("director:round_progress", "round", STAFF),
]


def url_args(kind, tournament, make_team, superuser):
    """The rest of a page's URL: a team, a stage, or a drawn round of two teams."""
    from tournament.models import Stage
    from tournament.services import Actor
    from tournament.services.draw import generate_round
    from tournament.services.rounds import publish_round
    from tournament.services.stages import create_stage, enter_teams

    if kind is None:
        return []
    if kind == "team":
        return [make_team(tournament).pk]
    root = Actor(user=superuser)
    stage = create_stage(root, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=5)
    if kind == "stage":
        return [stage.pk]
    teams = [make_team(tournament), make_team(tournament)]
    enter_teams(root, stage, teams)
    round_ = generate_round(root, stage)
    publish_round(root, round_)  # a draft is for directors only (its own test below)
    if kind == "round":
        return [round_.pk]
    if kind == "lineup":
        return [round_.pk, teams[0].pk]
    if kind == "table":
        return [round_.tables.first().pk]
    if kind == "match":
        return [round_.matches.first().pk]
    return [round_.pk, "table-cards"]


@pytest.fixture
def people(tournament, make_tournament, make_user, staff_user):
    other = make_tournament(name="Other Cup", slug="other-cup")
    return {
        "anonymous": None,
        "no_role": make_user("nobody"),
        "scorer": staff_user(tournament, Role.SCORER),
        "referee": staff_user(tournament, Role.REFEREE),
        "chief_referee": staff_user(tournament, Role.REFEREE, chief=True),
        "director": staff_user(tournament, Role.DIRECTOR),
        "other_director": staff_user(other, Role.DIRECTOR),
        "superuser": make_user("root", superuser=True),
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("url_name", "kind", "allowed"), PAGES)
def test_each_role_on_each_staff_page(client, tournament, make_team, people, role, url_name,
                                      kind, allowed):
    url = reverse(url_name, args=[tournament.slug, *url_args(kind, tournament, make_team,
                                                                  people["superuser"])])
    user = people[role]
    if user is not None:
        client.force_login(user)

    response = client.get(url)

    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif role in allowed:
        assert response.status_code == 200
    else:
        assert response.status_code == 403


@pytest.mark.parametrize("role", ["scorer", "referee", "chief_referee", "director"])
@pytest.mark.parametrize("url_name", ["director:table_entry", "director:match_page",
                                      "director:round_progress"])
def test_a_draw_not_yet_published_is_for_directors_only(client, tournament, make_team, people,
                                                        role, url_name):
    from tournament.models import Stage
    from tournament.services import Actor
    from tournament.services.draw import generate_round
    from tournament.services.stages import create_stage, enter_teams

    root = Actor(user=people["superuser"])
    stage = create_stage(root, tournament, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=5)
    enter_teams(root, stage, [make_team(tournament), make_team(tournament)])
    round_ = generate_round(root, stage)
    pk = {"director:table_entry": round_.tables.first().pk,
          "director:match_page": round_.matches.first().pk}.get(url_name, round_.pk)
    client.force_login(people[role])
    response = client.get(reverse(url_name, args=[tournament.slug, pk]))
    assert response.status_code == (200 if role == "director" else 404)


@pytest.mark.parametrize("role", ROLES)
def test_only_superusers_create_tournaments(client, people, role):
    user = people[role]
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("director:tournament_create"))
    expected = {"anonymous": 302, "superuser": 200}.get(role, 403)
    assert response.status_code == expected


def test_staff_removal_is_post_only_and_directors_only(client, tournament, people, staff_user):
    scorer_role = tournament.staff.get(user=people["scorer"])
    url = reverse("director:staff_remove", args=[tournament.slug, scorer_role.pk])
    client.force_login(people["referee"])
    assert client.post(url).status_code == 403
    client.force_login(people["director"])
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 302
    assert not tournament.staff.filter(pk=scorer_role.pk).exists()


@pytest.mark.parametrize(("role", "perm", "expected"), [
    ("scorer", Perm.ENTER_RESULTS, True),
    ("scorer", Perm.SIGN_OFF, False),
    ("scorer", Perm.VIEW_DEALS, False),
    ("referee", Perm.SIGN_OFF, True),
    ("referee", Perm.CORRECT_SIGNED_RESULT, True),
    ("referee", Perm.DISQUALIFY, False),
    ("referee", Perm.VIEW_DEALS, False),
    ("chief_referee", Perm.DISQUALIFY, True),
    ("chief_referee", Perm.MANAGE_TEAMS, False),
    ("director", Perm.VIEW_DEALS, True),
    ("director", Perm.DISQUALIFY, True),
    ("other_director", Perm.VIEW_STAFF_AREA, False),
    ("superuser", Perm.VIEW_DEALS, True),
    ("no_role", Perm.VIEW_STAFF_AREA, False),
])
def test_role_permissions(tournament, people, role, perm, expected):
    assert has_perm(people[role], tournament, perm) is expected


def test_inactive_staff_lose_their_permissions(tournament, people):
    director = people["director"]
    director.is_active = False
    director.save()
    with pytest.raises(PermissionDenied):
        require(director, tournament, Perm.MANAGE_TEAMS)


def test_services_check_permissions_not_only_views(tournament, people, actor):
    entry = parse_team_entry({"code": "X", "name": "X", "player1": "a", "player2": "b"})
    for role in ("scorer", "referee", "other_director", "no_role"):
        with pytest.raises(PermissionDenied):
            create_team(actor(people[role]), tournament, entry)
    assert not tournament.teams.exists()


def test_tournament_in_setup_is_hidden_from_the_public(client, tournament, people):
    tournament.status = Tournament.Status.SETUP
    tournament.save()
    url = reverse("public:tournament", args=[tournament.slug])
    assert client.get(url).status_code == 404
    client.force_login(people["scorer"])
    assert client.get(url).status_code == 200
    assert tournament.name not in client.get(reverse("public:home")).content.decode()
