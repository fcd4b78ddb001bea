"""Each round keeps the rules it was drawn under (issue 10): scores, extra hands, the
pairing records, the printed legends and the settings page read the round's copy."""

import io
import uuid

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournament.models import Stage
from tournament.selectors.stage import team_records
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams
from tournament.services.tournaments import update_tournament


@pytest.fixture
def drawn(director_actor, tournament, teams):
    """A round drawn with knock bonus 20 and knock limit 8; then the settings change."""
    update_tournament(director_actor, tournament, knock_bonus=20, knock_limit=8,
                      match_points_win=4, match_points_tie=2, match_points_loss=0)
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    update_tournament(director_actor, tournament, knock_bonus=15, knock_limit=10,
                      match_points_win=3, match_points_tie=2, match_points_loss=1,
                      hands_per_match=4)
    round_.refresh_from_db()
    return round_


def test_a_hand_scores_by_the_rules_of_its_round(director_actor, drawn):
    table = drawn.tables.get(number=1)
    result = record_hand_result(director_actor, table, 1, HandEntry("knock", 1, 4, 12),
                                seen_version=0, request_token=uuid.uuid4())
    assert result.seat1_points == 20 + 8 and drawn.hands_per_match == 8
    from tournament.services import ServiceError

    with pytest.raises(ServiceError, match="knock limit"):  # 9 was fine under limit 10
        record_hand_result(director_actor, table, 2, HandEntry("knock", 1, 9, 12),
                           seen_version=0, request_token=uuid.uuid4())


def test_pairing_records_count_each_round_by_its_own_match_points(director_actor, drawn,
                                                                  finish_round):
    match = drawn.matches.get()
    finish_round(drawn, {match.number: 25})
    records = team_records(drawn.stage)
    assert records[match.home_id].match_points == 4  # the round's win, not today's 3
    assert records[match.away_id].match_points == 0


def pdf_text(response) -> str:
    pages = PdfReader(io.BytesIO(response.content)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def test_printouts_explain_the_round_s_rules(client, tournament, staff_user, drawn):
    client.force_login(staff_user(tournament, "director", username="boss"))
    card = pdf_text(client.get(reverse("director:round_scorecards",
                                       args=[tournament.slug, drawn.pk, "scorecards"])))
    assert "Knock (deadwood 8 or less): 20 + difference" in card
    blank = pdf_text(client.get(reverse("director:round_scorecards",
                                        args=[tournament.slug, drawn.pk, "blank-scorecard"])))
    assert "20 + difference" in blank and "Total" in blank
    slips = pdf_text(client.get(reverse("director:round_scorecards",
                                        args=[tournament.slug, drawn.pk, "result-slips"])))
    assert "Match points: win 4 · tie 2 · loss 0" in slips


def test_the_settings_page_says_which_rounds_use_which_values(client, tournament, staff_user,
                                                              drawn):
    client.force_login(staff_user(tournament, "director", username="boss"))
    page = client.get(reverse("director:tournament_edit", args=[tournament.slug]))
    text = " ".join(page.content.decode().split())
    assert "Swiss · Round 1</strong>: different from the settings below:" in text
    assert "knock bonus: <strong>20</strong>" in text and "(now 15)" in text
    assert "hands per match: <strong>8</strong>" in text
