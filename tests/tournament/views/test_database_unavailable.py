"""The database not answering in the middle of a save: "not saved, try again" (a 503 the
entry screen shows), never a server error page; saving the same form again saves it once
(tournament/db_unavailable.py). bench/faults.py does it for real, restarting PostgreSQL."""

import contextlib
import re

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client
from django.urls import reverse

from tournament.db_unavailable import server_error
from tournament.models import HandResult, Stage
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

MESSAGE = "Not saved: the database did not answer. Try again."


@pytest.fixture
def table(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_.tables.order_by("number").first()


@pytest.fixture
def scorer(tournament, staff_user):
    client = Client(raise_request_exception=False)
    client.force_login(staff_user(tournament, "scorer", username="li"))
    return client


def form_data(client, tournament, table, hand=1) -> dict:
    page = client.get(reverse("director:table_entry", args=[tournament.slug, table.pk]))
    data = dict(re.findall(rf'name="(h{hand}-(?:seen_version|request_token))" value="([^"]*)"',
                           page.content.decode()))
    data.update({f"h{hand}-outcome": "knock", f"h{hand}-declarer_seat": "1",
                 f"h{hand}-declarer_deadwood": "4", f"h{hand}-opponent_deadwood": "12"})
    return data


@contextlib.contextmanager
def database_gone_at(sql_start: str, error=OperationalError):
    """Every statement that starts with ``sql_start`` fails as a dropped connection does."""
    def refuse(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(sql_start):
            raise error("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_htmx_save_without_database_says_not_saved_and_the_same_form_saves_once(
        scorer, tournament, table, error):
    url = reverse("director:hand_save", args=[tournament.slug, table.pk, 1])
    data = form_data(scorer, tournament, table)
    with database_gone_at("INSERT", error):
        response = scorer.post(url, data, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 503
    assert response["X-Not-Saved"] and response["HX-Reswap"] == "afterbegin"
    assert MESSAGE in body and 'role="alert"' in body
    assert "Traceback" not in body and "Server error" not in body
    assert not HandResult.objects.exists()
    # The scorer presses Save again: the same form, the same request token, saved once.
    for _ in range(2):
        again = scorer.post(url, data, HTTP_HX_REQUEST="true")
        assert again.status_code == 200 and "saved" in again.content.decode()
    assert HandResult.objects.get().request_token.hex == data["h1-request_token"].replace(
        "-", "")


def test_plain_save_without_database_is_a_page_in_the_scorers_language(
        scorer, tournament, table):
    url = reverse("director:hand_save", args=[tournament.slug, table.pk, 1])
    data = form_data(scorer, tournament, table)
    with database_gone_at("INSERT"):
        response = scorer.post(url, data)
        chinese = scorer.post(url, data, HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 503 and response["Retry-After"]
    assert "<h1>Not saved</h1>" in response.content.decode()
    assert MESSAGE in response.content.decode()
    assert chinese.status_code == 503
    assert "数据库没有响应" in chinese.content.decode()
    assert not HandResult.objects.exists()


def test_a_read_that_fails_is_a_503_and_the_next_request_is_served(scorer, tournament, table):
    url = reverse("director:table_entry", args=[tournament.slug, table.pk])
    with database_gone_at("SELECT"):
        response = scorer.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 503 and MESSAGE in response.content.decode()
    assert scorer.get(url).status_code == 200


def test_handler500_answers_503_for_an_error_outside_the_views(rf):
    """A session read or written by a middleware while the database is away reaches
    handler500, not the middleware: it tells the same, and a 500 for anything else."""
    request = rf.post("/manage/x/tables/1/hands/1/", HTTP_HX_REQUEST="true")
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503 and MESSAGE in response.content.decode()
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        assert server_error(rf.get("/")).status_code == 500


def test_other_errors_are_still_a_server_error(scorer, tournament, table, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("tournament.services.commands.enter", broken)
    url = reverse("director:hand_save", args=[tournament.slug, table.pk, 1])
    response = scorer.post(url, form_data(scorer, tournament, table), HTTP_HX_REQUEST="true")
    assert response.status_code == 500 and MESSAGE not in response.content.decode()
