"""What the table screen's queue asks the server besides its commands (issue 51): whose session
the browser holds and which table the account may send a table's commands to; a command
kept for another account refused before anything is read or bound; a discarded command
recorded in the audit log, once, and never one that had been saved. The browser's side is
in test_browser_queue_refusals.py."""

import base64
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tournament.audit_wording import sentence
from tournament.models import AuditEntry, HandResult, TableBinding
from tournament.queue_keys import queue_key, queue_name
from tournament.services import commands
from tournament.services.devices import move_binding
from tournament.services.hands import HandEntry


def url(name, *args):
    return reverse(f"director:{name}", args=args)


@pytest.fixture
def tables(round_in_play):
    round_ = round_in_play(4, hands=4)
    return {table.number: table for table in round_.tables.all()}


@pytest.fixture
def li(tournament, staff_user):
    return staff_user(tournament, "scorer", username="li")


@pytest.fixture
def scorer(client, li):
    client.force_login(li)
    return client


def status(client, tournament, table) -> dict:
    response = client.get(url("queue_status", tournament.slug, table.pk))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    return response.json()


def save(client, tournament, table, hand, **extra):
    return client.post(url("hand_save", tournament.slug, table.pk, hand), {
        f"h{hand}-outcome": "draw", f"h{hand}-seen_version": "0",
        f"h{hand}-request_token": str(uuid.uuid4()), **extra}, HTTP_HX_REQUEST="true")


def test_each_account_has_its_own_queue_name_and_key(li, tournament, staff_user):
    wu = staff_user(tournament, "scorer", username="wu")
    assert queue_name(li) == queue_name(li) and queue_key(li) == queue_key(li)
    assert queue_name(li) != queue_name(wu) and queue_key(li) != queue_key(wu)
    assert len(base64.b64decode(queue_key(li))) == 32  # AES-256
    assert re.fullmatch(r"[0-9a-f]{32}", queue_name(li))
    # Kept across a new password (devices made again): what was kept is sent after it.
    name, key = queue_name(li), queue_key(li)
    li.set_password("another-Pass-456")
    li.save()
    assert (queue_name(li), queue_key(li)) == (name, key)


def test_the_entry_page_carries_its_accounts_key_and_the_logout_form_its_name(
        scorer, client, tournament, tables, li):
    page = scorer.get(url("table_entry", tournament.slug, tables[1].pk)).content.decode()
    assert f'data-queue-key="{queue_key(li)}"' in page
    assert f'data-queue-name="{queue_name(li)}"' in page
    assert page.count(queue_key(li)) == 1  # on the entry screen only
    home = scorer.get(url("home")).content.decode()
    assert f'data-logout data-queue-name="{queue_name(li)}"' in home
    assert queue_key(li) not in home


def test_the_status_says_whose_session_and_which_table(scorer, tournament, tables, li,
                                                        director_actor):
    assert status(Client(), tournament, tables[1]) == {"account": None}
    assert status(scorer, tournament, tables[1]) == {
        "account": queue_name(li), "refused": "",
        "table": {"pk": tables[1].pk, "number": 1,
                  "entry": url("table_entry", tournament.slug, tables[1].pk)}}
    assert not TableBinding.objects.exists()  # asking binds nothing
    scorer.get(url("table_entry", tournament.slug, tables[1].pk))  # li scores table 1
    move_binding(director_actor, li, tables[3])
    moved = status(scorer, tournament, tables[1])
    assert moved["table"] == {"pk": tables[3].pk, "number": 3,
                              "entry": url("table_entry", tournament.slug, tables[3].pk)}
    # A referee may send to any table: the table itself.
    referee = Client()
    referee.force_login(director_actor.user)
    assert status(referee, tournament, tables[1])["table"]["pk"] == tables[1].pk


def test_the_status_says_why_an_account_may_send_nowhere(tournament, tables, make_tournament,
                                                         staff_user):
    elsewhere = Client()
    elsewhere.force_login(staff_user(make_tournament(), "scorer", username="ma"))
    answer = status(elsewhere, tournament, tables[1])
    assert answer["table"] is None
    assert answer["refused"] == "this account may not enter results in this tournament"
    own = Client()
    own.force_login(staff_user(tournament, "scorer", username="wu"))
    gone = own.get(url("queue_status", tournament.slug, 999_999)).json()
    assert gone["refused"] == "there is no table 999999"


def test_a_command_kept_for_another_account_is_refused_before_anything_is_bound(
        scorer, tournament, tables, li, staff_user):
    wu = staff_user(tournament, "scorer", username="wu")
    refused = save(scorer, tournament, tables[1], 1, queue=queue_name(wu))
    assert refused.status_code == 403
    approval = scorer.post(url("hand_approve", tournament.slug, tables[1].pk, 1, 1),
                           {"version": "1", "request_token": str(uuid.uuid4()),
                            "queue": queue_name(wu)}, HTTP_ACCEPT="application/json")
    assert approval.status_code == 403
    assert not HandResult.objects.exists() and not TableBinding.objects.exists()
    # Its own queue's name, or none (the page's forms): done.
    assert save(scorer, tournament, tables[1], 1, queue=queue_name(li))["X-Saved-Version"] == "1"
    assert save(scorer, tournament, tables[1], 2)["X-Saved-Version"] == "1"


def discard(client, tournament, at, **fields):
    data = {"table": str(at.pk), "command": "enter", "hand": "2", "seat": "",
            "request_token": str(uuid.uuid4()), "why": "moved", "approvals": "1", "cards": "",
            **fields}
    return client.post(url("queue_discard", tournament.slug), data)


def test_a_discarded_command_is_recorded_once_whatever_table_the_account_scores_now(
        scorer, tournament, tables, li, director_actor):
    scorer.get(url("table_entry", tournament.slug, tables[1].pk))
    move_binding(director_actor, li, tables[2])
    token = str(uuid.uuid4())
    typed = {"h2-outcome": "knock", "h2-declarer_seat": "1", "h2-declarer_deadwood": "4",
             "h2-opponent_deadwood": "12", "h2-seen_version": "0", "h2-request_token": token}
    for _ in range(2):  # sent twice (its answer lost): recorded once
        answer = discard(scorer, tournament, tables[1], request_token=token, **typed)
        assert answer.json() == {"ok": True, "done": False}
    entry = AuditEntry.objects.get(action="device.discard")
    assert (entry.actor, entry.data["table"], entry.data["match"]) == (
        li, tables[1].pk, tables[1].match_id)
    assert sentence(entry) == (
        "li discarded a save of hand 2 at table 1, kept on the device and never sent: knock by "
        "seat 1 4 vs 12, with 1 approvals of it; the account had been moved to another table")
    assert not HandResult.objects.exists()
    page = Client()
    page.force_login(director_actor.user)
    history = page.get(url("match_page", tournament.slug, tables[1].match_id)).content.decode()
    assert "li discarded a save of hand 2 at table 1" in history


def test_a_discard_records_no_card_and_names_an_approval(scorer, tournament, tables):
    discard(scorer, tournament, tables[1], cards="1", why="refused", approvals="0",
            **{"h2-outcome": "gin", "h2-declarer_seat": "2"})
    discard(scorer, tournament, tables[1], command="approve", seat="2", why="stale")
    cards, approval = AuditEntry.objects.filter(action="device.discard").order_by("pk")
    assert sentence(cards) == ("li discarded a save of hand 2 at table 1, kept on the device "
                               "and never sent: typed by its cards; the server had refused it")
    assert cards.data["entry"] is None and cards.data["cards"] is True
    assert sentence(approval) == (
        "li discarded seat 2's approval of hand 2 at table 1, kept on the device and never "
        "sent; the hand had been changed on another device")


def test_a_command_that_had_reached_the_server_is_not_discarded(scorer, tournament, tables, li):
    from tournament.services import Actor

    token = uuid.uuid4()
    commands.enter(Actor(li), tables[1].pk, 2, HandEntry("draw"), seen_version=0,
                   request_token=token)
    answer = discard(scorer, tournament, tables[1], request_token=str(token))
    assert answer.json() == {"ok": True, "done": True}
    # Sent on to the table the account was moved to, then discarded there: it had reached
    # the server at the first table all the same.
    moved = discard(scorer, tournament, tables[2], request_token=str(token), hand="3")
    assert moved.json() == {"ok": True, "done": True}
    assert not AuditEntry.objects.filter(action="device.discard").exists()
    assert HandResult.objects.get(hand=2).request_token == token


def test_a_discard_is_refused_with_its_reason(scorer, tournament, tables, staff_user):
    assert discard(scorer, tournament, tables[1], hand="9").json() == {
        "ok": False, "error": "hand 9 is not in this match: it has hands 1 to 4"}
    assert discard(scorer, tournament, tables[1], table="99999999999").json()["ok"] is False
    assert discard(scorer, tournament, tables[1], command="sign").json()["ok"] is False
    assert discard(scorer, tournament, tables[1], request_token="x").json()["ok"] is False
    wu = staff_user(tournament, "scorer", username="wu")
    assert discard(scorer, tournament, tables[1], queue=queue_name(wu)).status_code == 403
    assert not AuditEntry.objects.filter(action="device.discard").exists()
    assert Client().post(url("queue_discard", tournament.slug)).status_code == 302  # log in
