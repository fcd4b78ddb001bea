"""The pages go through the same commands as the API (issue 48, item 3): a request token
used for another command is refused with a message, and what was typed stays; a table or
match of a draft round is, to a scorer or a referee, no table at all, its round unnamed."""

import html
import re
import uuid

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tournament.models import Approval, HandResult, Match, Stage, TableBinding
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams

REUSED = "this request token was used for another command; reload the page"


def url(name, *args):
    return reverse(f"director:{name}", args=args)


@pytest.fixture
def table(round_in_play):
    return round_in_play(4, hands=2).tables.get(number=1)


@pytest.fixture
def scorer(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "scorer", username="li"))
    return client


def hidden(page: str, hand: int) -> dict:
    return dict(re.findall(rf'name="(h{hand}-(?:seen_version|request_token))" '
                           r'value="([^"]*)"', page))


KNOCK_7 = {"outcome": "knock", "declarer_seat": "1", "declarer_deadwood": "7",
           "opponent_deadwood": "20"}


@pytest.mark.parametrize("htmx", [False, True])
def test_a_hand_saved_with_another_hands_token_keeps_what_was_typed(
        scorer, tournament, table, htmx):
    entry = url("table_entry", tournament.slug, table.pk)
    page = scorer.get(entry).content.decode()
    first = hidden(page, 1)
    scorer.post(url("hand_save", tournament.slug, table.pk, 1),
                {**first, "h1-outcome": "draw"})
    token = first["h1-request_token"]
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    answer = scorer.post(url("hand_save", tournament.slug, table.pk, 2), {
        "h2-seen_version": "0", "h2-request_token": token,
        **{f"h2-{name}": value for name, value in KNOCK_7.items()}}, **headers)
    assert answer.status_code == 200
    assert "X-Saved-Version" not in answer and "X-Stale-Version" not in answer
    shown = html.unescape(answer.content.decode())
    assert REUSED in shown
    assert re.search(r'name="h2-declarer_deadwood"[^>]*value="7"', shown)
    assert re.search(r'name="h2-opponent_deadwood"[^>]*value="20"', shown)
    assert not HandResult.objects.filter(hand=2).exists()
    # The form comes back with a token of its own: saving it again is a command of its own.
    again = hidden(shown, 2)
    assert again["h2-request_token"] != token
    saved = scorer.post(url("hand_save", tournament.slug, table.pk, 2), {
        **again, **{f"h2-{name}": value for name, value in KNOCK_7.items()}})
    assert saved.status_code == 302
    assert HandResult.objects.get(hand=2).declarer_deadwood == 7


def test_an_approval_with_another_seats_token_is_refused_with_a_message(
        scorer, tournament, table):
    page = scorer.get(url("table_entry", tournament.slug, table.pk)).content.decode()
    scorer.post(url("hand_save", tournament.slug, table.pk, 1),
                {**hidden(page, 1), "h1-outcome": "draw"})
    token = str(uuid.uuid4())
    seat = {seat: url("hand_approve", tournament.slug, table.pk, 1, seat) for seat in (1, 2)}
    assert scorer.post(seat[1], {"version": "1", "request_token": token},
                       HTTP_ACCEPT="application/json").json() == {"ok": True, "version": 1}
    answer = scorer.post(seat[2], {"version": "1", "request_token": token},
                         HTTP_ACCEPT="application/json").json()
    assert answer == {"ok": False, "error": REUSED, "stale": True}
    shown = scorer.post(seat[2], {"version": "1", "request_token": token}, follow=True)
    assert REUSED in html.unescape(shown.content.decode())
    assert list(Approval.objects.values_list("seat", flat=True)) == [1]


def test_a_desk_row_with_another_rows_token_is_refused_and_stays_typed(
        client, tournament, staff_user, table):
    client.force_login(staff_user(tournament, "referee", username="chen"))
    token = str(uuid.uuid4())

    def row(hand, **headers):
        return client.post(url("desk_row", tournament.slug), {
            "table": table.pk, "hand": hand, "typed": "K1 7 20", "seen_version": "0",
            "request_token": token, "back": url("desk_match", tournament.slug,
                                                table.match_id)}, **headers)

    assert row(1, HTTP_ACCEPT="application/json").json()["ok"]
    answer = row(2, HTTP_ACCEPT="application/json").json()
    assert answer == {"ok": False, "error": REUSED}  # the page shows it in the line typed
    shown = html.unescape(row(2, follow=True).content.decode())
    assert f"Table 1, hand 2: {REUSED}" in shown
    assert not HandResult.objects.filter(hand=2).exists()


# Draft rounds ---------------------------------------------------------------------------------

@pytest.fixture
def draft(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Secret Stage",
                         kind=Stage.Kind.SWISS, swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    return generate_round(director_actor, stage)


def test_a_draft_rounds_table_is_no_table_to_a_scorer_or_a_referee(
        client, tournament, staff_user, draft):
    table = draft.tables.get(number=1)
    for role in ("scorer", "referee"):
        client.force_login(staff_user(tournament, role, username=f"{role}-1"))
        for page in (client.get(url("table_entry", tournament.slug, table.pk)),
                     client.post(url("hand_save", tournament.slug, table.pk, 1),
                                 {"h1-outcome": "draw", "h1-seen_version": "0",
                                  "h1-request_token": str(uuid.uuid4())}),
                     client.get(url("match_page", tournament.slug, table.match_id))):
            assert page.status_code == 404
            assert "Secret" not in page.content.decode()
    # The referee's desk and sign-off doors: refused as a table and a match that do not
    # exist, the round unnamed.
    answer = client.post(url("desk_row", tournament.slug), {
        "table": table.pk, "hand": 1, "typed": "D", "seen_version": "0",
        "request_token": str(uuid.uuid4())}, HTTP_ACCEPT="application/json").json()
    assert answer == {"ok": False, "error": f"there is no table {table.pk}"}
    response = client.post(url("match_sign_off", tournament.slug, table.match_id),
                           {"revision": "0", "request_token": str(uuid.uuid4())})
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said == [f"there is no match {table.match_id}"]
    for door in ("desk_on_paper", "match_extra_hands"):
        page = client.post(url(door, tournament.slug, table.match_id), {"revision": "0"})
        assert page.status_code == 404, door
        assert "Secret" not in page.content.decode()
    assert not HandResult.objects.exists() and not TableBinding.objects.exists()
    assert Match.objects.get(pk=table.match_id).signed_off_at is None


def test_a_director_still_sees_the_draft_and_is_told_it_is_one(
        client, tournament, staff_user, draft):
    table = draft.tables.get(number=1)
    client.force_login(staff_user(tournament, "director", username="dora"))
    page = client.get(url("table_entry", tournament.slug, table.pk))
    assert page.status_code == 200
    answer = client.post(url("desk_row", tournament.slug), {
        "table": table.pk, "hand": 1, "typed": "D", "seen_version": "0",
        "request_token": str(uuid.uuid4())}, HTTP_ACCEPT="application/json").json()
    assert not answer["ok"] and "is draft" in answer["error"]
