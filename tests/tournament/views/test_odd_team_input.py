"""Odd input on the team pages stays a message: seeds in other digits, invisible characters,
a reserve that cannot go. Driven through the test client, so a 500 fails the test."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournament.models import Role, Stage, Team
from tournament.services import Actor
from tournament.services.draw import generate_round
from tournament.services.rounds import set_lineup
from tournament.services.stages import allot_groups, create_stage

HEADER = "code,name,country,seed,player1,player1_id,player2,player2_id,reserve,reserve_id\n"
SEED_MESSAGE = "a whole number of 1 or more written with the digits 0-9"
# Superscript two, circled one, Arabic-Indic three, full-width one, Devanagari four.
ODD_SEEDS = ["²", "①", "٣", "\uff11", "४", "1²"]


@pytest.fixture
def director(client, tournament, staff_user):
    user = staff_user(tournament, Role.DIRECTOR, username="chen")
    client.force_login(user)
    return user


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def team_fields(**fields):
    return {"code": "CHN", "name": "China", "player1": "张伟", "player2": "李娜", **fields}


def form_errors(response, field):
    return response.context["form"].errors.get(field, [])


@pytest.mark.parametrize("seed", ODD_SEEDS)
def test_team_form_refuses_a_seed_in_other_digits(client, director, tournament, seed):
    response = client.post(url("team_create", tournament.slug), team_fields(seed=seed))
    assert response.status_code == 200
    assert any(SEED_MESSAGE in message for message in form_errors(response, "seed"))
    assert not Team.objects.exists()
    response = client.post(url("team_create", tournament.slug), team_fields(seed=" 12 "))
    assert response.status_code == 302
    assert Team.objects.get().seed == 12


@pytest.mark.parametrize("seed", ODD_SEEDS)
def test_edit_form_refuses_a_seed_in_other_digits(client, director, tournament, make_team,
                                                  seed):
    team = make_team(tournament, code="CHN", name="China", seed="4")
    response = client.post(url("team_edit", tournament.slug, team.pk), team_fields(seed=seed))
    assert response.status_code == 200
    assert any(SEED_MESSAGE in message for message in form_errors(response, "seed"))
    team.refresh_from_db()
    assert team.seed == 4


@pytest.mark.parametrize("seed", ODD_SEEDS)
def test_csv_import_refuses_a_seed_in_other_digits(client, director, tournament, seed):
    data = (HEADER + f"CHN,China,,{seed},张伟,,李娜,,,\n").encode()
    response = client.post(url("team_import", tournament.slug),
                           {"file": SimpleUploadedFile("teams.csv", data, "text/csv")})
    assert response.status_code == 200
    html = response.content.decode()
    assert "line 2: seed" in html and SEED_MESSAGE in html
    assert 'name="payload"' not in html
    assert not Team.objects.exists()


@pytest.mark.parametrize(("field", "text", "message"), [
    ("name", "Chi\u200bna", "team name contains an invisible character (U+200B)"),
    ("player1", "Li\u202eWei", "player 1 contains an invisible text-direction character "
                               "(U+202E)"),
    ("reserve", "\u2066Wang\u2069", "reserve contains an invisible text-direction character "
                                    "(U+2066)"),
])
def test_team_form_refuses_invisible_characters(client, director, tournament, field, text,
                                                message):
    response = client.post(url("team_create", tournament.slug), team_fields(**{field: text}))
    assert response.status_code == 200
    assert message in form_errors(response, field)
    assert not Team.objects.exists()


def test_staff_page_refuses_a_user_name_with_an_invisible_character(client, director,
                                                                    tournament,
                                                                    django_user_model):
    response = client.post(url("staff", tournament.slug), {
        "username": "scorer\u200d7", "role": "scorer", "create_account": "on"})
    assert response.status_code == 200
    assert "user name contains an invisible character (U+200D)" in response.content.decode()
    assert not django_user_model.objects.filter(username__startswith="scorer").exists()


def test_removing_a_reserve_who_is_in_a_line_up_names_the_round(client, director, tournament,
                                                               make_team):
    team = make_team(tournament, code="CHN", name="China", player1="张伟", player2="李娜",
                     reserve="Wang Fang")
    other = make_team(tournament, code="ITA", name="Italia")
    boss = Actor(user=director, ip="10.0.0.1")
    stage = create_stage(boss, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(boss, stage, [[team, other]])
    round_ = generate_round(boss, stage)
    players = {p.number: p for p in team.players.all()}
    set_lineup(boss, round_, team, first_player=players[3], second_player=players[2])

    response = client.post(url("team_edit", tournament.slug, team.pk),
                           team_fields(reserve=""))
    assert response.status_code == 200
    errors = " ".join(response.context["form"].non_field_errors()
                      + form_errors(response, "reserve"))
    assert "the reserve Wang Fang plays in a line-up of Groups, Round 1" in errors
    assert "change that line-up first" in errors
    assert team.players.filter(number=3, name="Wang Fang").exists()
