"""Scorecards, the blank form and the result slips, read back from the real PDFs."""

import io
import uuid

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournament.models import Stage
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams


def text_of(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    return flat(" ".join(page.extract_text() for page in pages))


def flat(text: str) -> str:
    """Text runs in other fonts come out with their own spacing: compare words only."""
    return " ".join(text.split())


@pytest.fixture
def round_(director_actor, tournament, make_team):
    teams = [make_team(tournament, code="CHN", name="中国红队", player1="李伟", player2="张敏"),
             make_team(tournament, code="GER", name="Deutschland", player1="Jürgen Müller",
                       player2="Anna Schmidt")]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams)
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_


@pytest.fixture
def director_client(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "director", username="boss"))
    return client


def test_scorecard_is_prefilled_with_seats_and_dealers(director_client, tournament, round_):
    response = director_client.get(reverse("director:round_scorecards",
                                           args=[tournament.slug, round_.pk, "scorecards"]))
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 2
    first = flat(pages[0].extract_text())
    assert "Table 1" in first and "李伟 (CHN)" in first and "Jürgen Müller (GER)" in first
    assert "deals hands 1, 3, 5, 7" in first and "Seat 1 signature" in first
    second = flat(pages[1].extract_text())
    # Table 2 seats the away team's second player in seat 1 (RULES.md §8).
    assert "Anna Schmidt (GER)" in second and "张敏 (CHN)" in second


def test_blank_scorecard_has_lines_to_fill(director_client, tournament, round_):
    text = text_of(director_client.get(reverse(
        "director:round_scorecards", args=[tournament.slug, round_.pk, "blank-scorecard"])))
    assert "Table ____" in text and "Total" in text


def test_result_slip_carries_the_totals(director_client, tournament, round_, director_actor):
    match = round_.matches.get()
    record_hand_result(director_actor, match.tables.get(position=1), 1,
                       HandEntry("knock", 1, 4, 12), seen_version=0,
                       request_token=uuid.uuid4())
    text = text_of(director_client.get(reverse(
        "director:round_scorecards", args=[tournament.slug, round_.pk, "result-slips"])))
    assert "中国红队 23 – -23 Deutschland" in text
    assert "CHN 李伟 23 – GER Jürgen Müller -23" in text


def test_unknown_card_kind_is_404(director_client, tournament, round_):
    assert director_client.get(reverse("director:round_scorecards", args=[
        tournament.slug, round_.pk, "nonsense"])).status_code == 404
