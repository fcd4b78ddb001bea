"""The entry screens through the test client: save, preview, approve, sign, sign off."""

import re

import pytest
from django.urls import reverse

from tournament.models import HandResult, Stage
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams


@pytest.fixture
def match(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(8))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_.matches.order_by("number").first()


@pytest.fixture
def scorer(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "scorer", username="li"))


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def fields(page: str, hand: int) -> dict:
    """The hidden fields of one hand's form, as the browser would send them."""
    prefix = f"h{hand}-"
    return {name: value for name, value in re.findall(
        rf'name="({prefix}(?:seen_version|request_token))" value="([^"]*)"', page)}


def post_hand(client, tournament, table, hand, page, **values):
    data = fields(page, hand)
    data.update({f"h{hand}-{k}": v for k, v in values.items()})
    return client.post(url("hand_save", tournament.slug, table.pk, hand), data)


def test_scorer_saves_a_hand_and_sees_the_points(client, scorer, tournament, match):
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    response = post_hand(client, tournament, table, 1, page, outcome="knock",
                         declarer_seat="1", declarer_deadwood="4", opponent_deadwood="12")
    assert response.status_code == 302
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    assert "Knock 4 vs 12: 15 + 8 = 23" in page


def test_htmx_save_returns_only_the_row(client, scorer, tournament, match):
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    data = fields(page, 2)
    data.update({"h2-outcome": "gin", "h2-declarer_seat": "2", "h2-opponent_deadwood": "30"})
    response = client.post(url("hand_save", tournament.slug, table.pk, 2), data,
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.lstrip().startswith('<div class="hand card')
    assert "Gin vs 30: 25 + 30 = 55" in body and "saved" in body


def test_error_is_shown_next_to_the_field_and_nothing_saved(client, scorer, tournament, match):
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    response = post_hand(client, tournament, table, 1, page, outcome="gin",
                         declarer_seat="1", declarer_deadwood="5", opponent_deadwood="12")
    assert response.status_code == 200
    assert "gin has no deadwood" in response.content.decode()
    assert not HandResult.objects.exists()


def test_double_submit_saves_once(client, scorer, tournament, match):
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    for _ in range(2):
        post_hand(client, tournament, table, 1, page, outcome="draw")
    assert HandResult.objects.count() == 1


def test_stale_form_is_told_what_is_stored(client, scorer, tournament, match):
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    post_hand(client, tournament, table, 1, page, outcome="draw")
    stale = post_hand(client, tournament, table, 1, page.replace(
        fields(page, 1)["h1-request_token"], "8d6f2d0a-5b1e-4c5e-9d1e-3f2a1b0c9d8e"),
        outcome="knock", declarer_seat="1", declarer_deadwood="3", opponent_deadwood="9")
    assert "this hand was changed meanwhile; it now holds draw" in stale.content.decode()


def test_preview_shows_points_before_saving(client, scorer, tournament, match):
    table = match.tables.get(position=1)
    response = client.post(url("hand_preview", tournament.slug, table.pk, 1), {
        "h1-outcome": "knock", "h1-declarer_seat": "1", "h1-declarer_deadwood": "6",
        "h1-opponent_deadwood": "2", "h1-seen_version": "0",
        "h1-request_token": "8d6f2d0a-5b1e-4c5e-9d1e-3f2a1b0c9d8e"}, HTTP_HX_REQUEST="true")
    assert "Undercut 6 vs 2: 25 + 4 = 29" in response.content.decode()
    assert not HandResult.objects.exists()


def test_scorer_cannot_sign_off(client, scorer, tournament, match):
    assert client.post(url("match_sign_off", tournament.slug, match.pk)).status_code == 403


def test_entry_and_progress_pages_have_pinned_query_counts(
        client, scorer, tournament, match, django_assert_max_num_queries):
    table = match.tables.get(position=1)
    with django_assert_max_num_queries(20):
        assert client.get(url("table_entry", tournament.slug, table.pk)).status_code == 200
    with django_assert_max_num_queries(15):
        response = client.get(url("round_progress", tournament.slug, match.round_id))
        assert response.status_code == 200
    with django_assert_max_num_queries(25):
        assert client.get(url("match_page", tournament.slug, match.pk)).status_code == 200


def test_referee_plays_a_tied_knockout_match_on_from_the_match_page(
        client, director_actor, tournament, teams, staff_user):
    import uuid

    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry

    stage = create_stage(director_actor, tournament, name="KO", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    match = round_.matches.get()
    for table in match.tables.all():
        for hand in range(1, 9):
            record_hand_result(director_actor, table, hand, HandEntry("draw"),
                               seen_version=0, request_token=uuid.uuid4())
    client.force_login(staff_user(tournament, "referee", username="ref"))
    page = client.get(url("match_page", tournament.slug, match.pk)).content.decode()
    assert "Play on: 2 more hands" in page
    client.post(url("match_extra_hands", tournament.slug, match.pk))
    match.refresh_from_db()
    assert match.hands == 10
    table = match.tables.get(position=1)
    entry_page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    assert 'id="hand-10"' in entry_page


def test_a_hand_beyond_the_match_is_not_found(client, scorer, tournament, match):
    table = match.tables.get(position=1)
    response = client.post(url("hand_save", tournament.slug, table.pk, 9),
                           {"h9-outcome": "draw"})
    assert response.status_code == 404
    assert not HandResult.objects.exists()


def test_a_scorer_finds_the_tables_from_the_dashboard(client, scorer, tournament, match):
    dashboard = client.get(reverse("director:dashboard", args=[tournament.slug]))
    progress_url = url("round_progress", tournament.slug, match.round_id)
    assert progress_url in dashboard.content.decode()
    progress = client.get(progress_url).content.decode()
    for table in match.tables.all():
        assert url("table_entry", tournament.slug, table.pk) in progress


def test_a_false_knock_typed_with_the_cards_is_refused_not_dropped(client, scorer, tournament,
                                                                   match):
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    response = post_hand(client, tournament, table, 1, page, outcome="knock",
                         declarer_seat="1", declarer_cards="AS 2S 3S 7H 7D 7C 9C TC JC 4D",
                         opponent_cards="4S 5S KH KD QH QD JH JD 8H 8D",
                         false_knock_seat="2", false_knock_deadwood="23")
    assert response.status_code == 200
    assert ("a hand with a false knock is entered with the deadwood counts, not the cards"
            in response.content.decode())
    assert not HandResult.objects.exists()


def test_a_save_says_in_its_headers_what_came_of_it(client, scorer, tournament, match):
    """What the page's queue of commands not sent yet reads (entry_queue.js)."""
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    data = fields(page, 1)
    data.update({"h1-outcome": "gin", "h1-declarer_seat": "2", "h1-opponent_deadwood": "30"})
    response = client.post(url("hand_save", tournament.slug, table.pk, 1), data,
                           HTTP_HX_REQUEST="true")
    assert response["X-Saved-Version"] == "1" and "X-Stale-Version" not in response
    # The same form again with another token: typed over version 0, now stale.
    data["h1-request_token"] = "6f1d2c8e-51a4-4d7e-9a43-5a0f3b2c9d10"
    response = client.post(url("hand_save", tournament.slug, table.pk, 1), data,
                           HTTP_HX_REQUEST="true")
    assert response["X-Stale-Version"] == "1" and "X-Saved-Version" not in response
    data["h1-opponent_deadwood"] = ""
    response = client.post(url("hand_save", tournament.slug, table.pk, 1), data,
                           HTTP_HX_REQUEST="true")
    assert "X-Saved-Version" not in response and "X-Stale-Version" not in response


def test_an_approval_names_the_save_it_approves_by_its_request_token(
        client, scorer, tournament, match):
    table = match.tables.get(position=1)
    page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    data = fields(page, 2)
    save_token = data["h2-request_token"]
    data.update({"h2-outcome": "draw"})
    client.post(url("hand_save", tournament.slug, table.pk, 2), data, HTTP_HX_REQUEST="true")
    approve = url("hand_approve", tournament.slug, table.pk, 2, 1)
    answer = client.post(approve, {"entry_token": save_token,
                                   "request_token": "0b3c6a52-0a9e-4c1c-8d1f-3f2a2d6b7e11"},
                         HTTP_ACCEPT="application/json").json()
    assert answer == {"ok": True, "version": 1}
    assert HandResult.objects.get(table=table, hand=2).approvals.get().seat == 1
    # A save that never reached the server approves nothing, and says so.
    answer = client.post(url("hand_approve", tournament.slug, table.pk, 2, 2),
                         {"entry_token": "9a1e0d7c-2b4f-4e8a-b6c3-1d2e3f4a5b6c",
                          "request_token": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"},
                         HTTP_ACCEPT="application/json").json()
    assert not answer["ok"] and "has not reached the server" in answer["error"]
