"""The director's pages, driven through the test client like a browser would."""

import re

import pytest
from django.urls import reverse

from tournament.models import AuditEntry, Role, Team, Tournament

HEADER = "code,name,country,seed,player1,player1_id,player2,player2_id,reserve,reserve_id\n"


@pytest.fixture
def director(client, tournament, staff_user):
    user = staff_user(tournament, Role.DIRECTOR, username="chen")
    client.force_login(user)
    return user


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def test_create_tournament_from_the_form(client, admin_user):
    client.force_login(admin_user)
    response = client.post(url("tournament_create"), {
        "name": "Asia Open", "slug": "asia-open", "starts_on": "2026-05-01",
        "ends_on": "2026-05-03", "venue": "Macau", "time_zone": "Asia/Macau", "status": "setup",
        "hands_per_match": 8, "knock_limit": 10, "knock_bonus": 15, "gin_bonus": 25,
        "undercut_bonus": 25, "big_gin_bonus": 35, "draw_rule": "stock_exhausted",
        "match_points_win": 3, "match_points_tie": 2, "match_points_loss": 1,
        "match_points_bye": 2, "small_points_bye": 0, "match_points_forfeit_win": 3,
        "match_points_forfeit_loss": 0, "small_points_forfeit": 0, "deal_scope": "round",
        "knockout_tiebreak_hands": 2, "lateness_limit_minutes": 15,
        "pin_attempts": 5, "pin_lockout_minutes": 15, "field_minimum_hands": 8,
        "live_results": "closed", "anomaly_threshold": 60, "box_balance_threshold": 25,
        "tiebreak_1": "wins", "tiebreak_2": "head_to_head", "tiebreak_3": "", "tiebreak_4": "lots",
    })
    assert response.status_code == 302
    created = Tournament.objects.get(slug="asia-open")
    assert created.tiebreak_order == "wins,head_to_head,lots"
    assert created.time_zone == "Asia/Macau"


def _settings_form(client, tournament):
    form = client.get(url("tournament_edit", tournament.slug)).context["form"]
    data = {}
    for field in form:
        value = field.value()
        data[field.name] = "" if value is None else value
    return data


def test_settings_form_shows_errors_next_to_the_fields(client, director, tournament):
    data = _settings_form(client, tournament)
    data.update(match_points_tie=4, ends_on="2026-01-01", tiebreak_1="wins", tiebreak_2="wins")
    response = client.post(url("tournament_edit", tournament.slug), data)
    assert response.status_code == 200
    assert "Each tiebreak may be chosen only once." in response.content.decode()

    data.update(tiebreak_2="head_to_head")
    response = client.post(url("tournament_edit", tournament.slug), data)
    form = response.context["form"]
    assert form.errors["ends_on"] == ["The last day cannot be before the first day."]
    tournament.refresh_from_db()
    assert tournament.match_points_tie == 2


def test_settings_form_saves(client, director, tournament):
    data = _settings_form(client, tournament)
    data.update(knock_limit=7, tiebreak_1="gins", tiebreak_2="", tiebreak_3="", tiebreak_4="")
    response = client.post(url("tournament_edit", tournament.slug), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.knock_limit == 7 and tournament.tiebreak_order == "gins"


def test_add_team_and_see_it_listed(client, director, tournament):
    response = client.post(url("team_create", tournament.slug), {
        "code": "chn", "name": "China", "country": "China", "seed": "1",
        "player1": "李伟", "player2": "张敏", "reserve": "",
    })
    assert response.status_code == 302
    listing = client.get(url("team_list", tournament.slug)).content.decode()
    assert "CHN" in listing and "李伟, 张敏" in listing


def test_team_form_errors_stay_on_the_page(client, director, tournament, make_team):
    make_team(tournament, code="CHN")
    response = client.post(url("team_create", tournament.slug), {
        "code": "CHN", "name": "Other", "player1": "a", "player2": "b",
    })
    assert response.status_code == 200
    assert "team code CHN is already used" in response.content.decode()
    response = client.post(url("team_create", tournament.slug), {
        "code": "NEW", "name": "New", "player1": "a", "player2": "",
    })
    assert response.context["form"].errors["player2"] == ["This field is required."]
    assert Team.objects.count() == 1


def test_edit_and_delete_team(client, director, tournament, make_team):
    team = make_team(tournament, code="ITA", name="Italia")
    page = client.get(url("team_edit", tournament.slug, team.pk))
    assert page.context["form"].initial["name"] == "Italia"
    client.post(url("team_edit", tournament.slug, team.pk), {
        "code": "ITA", "name": "Italia Azzurri", "player1": "a", "player2": "b"})
    team.refresh_from_db()
    assert team.name == "Italia Azzurri"
    client.post(url("team_delete", tournament.slug, team.pk))
    assert not Team.objects.exists()


def test_team_of_another_tournament_is_not_found(client, director, make_tournament, make_team):
    other_team = make_team(make_tournament())
    tournament = Tournament.objects.get(slug="world-cup")
    assert client.get(url("team_edit", tournament.slug, other_team.pk)).status_code == 404


def test_import_preview_then_confirm(client, director, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = (HEADER + "CHN,China,,1,李伟,,张敏,,,\nITA,Italia,,2,Marco,,Giulia,,,\n").encode()
    preview = client.post(url("team_import", tournament.slug),
                          {"file": SimpleUploadedFile("teams.csv", data, "text/csv")})
    assert preview.status_code == 200
    assert "Preview (dry run)" in preview.content.decode()
    assert not Team.objects.exists()

    confirm = client.post(url("team_import", tournament.slug),
                          {"payload": preview.context["payload"]})
    assert confirm.status_code == 302
    assert sorted(Team.objects.values_list("code", flat=True)) == ["CHN", "ITA"]


def test_import_with_problems_shows_them_and_offers_no_confirm(client, director, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = (HEADER + "CHN,China,,,a,,,,,\n").encode()
    page = client.post(url("team_import", tournament.slug),
                       {"file": SimpleUploadedFile("teams.csv", data, "text/csv")})
    html = page.content.decode()
    assert "line 2: player 2 is empty" in html
    assert 'name="payload"' not in html


def test_tampered_import_payload_is_refused_cleanly(client, director, tournament):
    response = client.post(url("team_import", tournament.slug), {"payload": "%%%not base64"})
    assert response.status_code == 302
    assert not Team.objects.exists()


def test_staff_page_creates_an_account(client, director, tournament):
    response = client.post(url("staff", tournament.slug), {
        "username": "scorer7", "role": "scorer", "create_account": "on"})
    assert response.status_code == 302
    page = client.get(url("staff", tournament.slug)).content.decode()
    assert "created with the password" in page and "scorer7" in page


def test_audit_log_reads_in_words(client, director, tournament, make_team):
    client.post(url("team_create", tournament.slug), {
        "code": "BRA", "name": "Brasil", "player1": "a", "player2": "b"})
    page = client.get(url("audit", tournament.slug)).content.decode()
    assert "chen added team Brasil (BRA)" in page
    assert AuditEntry.objects.count() == 1


@pytest.mark.parametrize("query", ["?page=999", "?page=abc", "?sort=nonsense", "?per_page=-1"])
def test_odd_query_strings_never_break_list_pages(client, director, tournament, make_team,
                                                  query):
    make_team(tournament)
    for name in ("team_list", "audit"):
        assert client.get(url(name, tournament.slug) + query).status_code == 200


# Query counts stay constant however many teams there are.
@pytest.mark.parametrize("teams", [3, 30])
def test_team_list_queries_are_pinned(client, director, tournament, make_team, teams,
                                      django_assert_max_num_queries):
    for _ in range(teams):
        make_team(tournament, reserve="R")
    with django_assert_max_num_queries(8):
        assert client.get(url("team_list", tournament.slug)).status_code == 200


@pytest.mark.parametrize("teams", [3, 30])
def test_public_tournament_page_queries_are_pinned(client, tournament, make_team, teams,
                                                   django_assert_max_num_queries):
    for _ in range(teams):
        make_team(tournament)
    with django_assert_max_num_queries(6):
        assert client.get(reverse("public:tournament", args=[tournament.slug])).status_code == 200


def test_list_pages_queries_are_pinned(client, director, tournament, make_tournament,
                                       staff_user, django_assert_max_num_queries):
    for _ in range(10):
        staff_user(tournament, Role.SCORER)
        make_tournament()
    with django_assert_max_num_queries(7):
        assert client.get(url("staff", tournament.slug)).status_code == 200
    with django_assert_max_num_queries(7):
        assert client.get(url("audit", tournament.slug)).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(url("home")).status_code == 200
    client.logout()
    with django_assert_max_num_queries(2):
        assert client.get(reverse("public:home")).status_code == 200


def test_the_form_shows_the_rules_own_first_tiebreaks_before_the_chosen_ones(client,
                                                                             admin_user):
    """Issue 56: the tiebreaks began at "Tiebreak 3", 1 and 2 nowhere to be seen."""
    client.force_login(admin_user)
    page = client.get(url("tournament_create")).content.decode()
    labels = re.findall(r'<label[^>]*for="id_(?:fixed_)?tiebreak_\d"[^>]*>\s*([^<]*)', page)
    assert [label.strip() for label in labels][:3] == ["Tiebreak 1", "Tiebreak 2",
                                                       "Tiebreak 3"]
    assert page.index("Match points") < page.index('id="id_tiebreak_1"')
    [fixed] = re.findall(r'<input[^>]*id="id_fixed_tiebreak_1"[^>]*>', page)
    assert "disabled" in fixed and 'value="Match points"' in fixed


def test_the_team_import_page_offers_a_sample_file(client, admin_user, tournament):
    """Issue 56: the team import page had no sample file."""
    client.force_login(admin_user)
    page = client.get(url("team_import", tournament.slug)).content.decode()
    [link] = re.findall(r'<a href="([^"]*teams-sample[^"]*\.csv)" download', page)
    assert link.startswith("/static/tournament/teams-sample")
