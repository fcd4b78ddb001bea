"""The individual standings pages: who sees provisional hands, the minimum of hands, CSV and
XLSX read back (no formula ever runs), the links from the standings pages, and a pinned
query count for two sizes of event (issue 11, item 7)."""

import csv
import io
import uuid

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tournament.models import Stage
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams


def url(name, *args, query=""):
    return reverse(f"director:{name}", args=args) + query


def words(response) -> str:
    return " ".join(response.content.decode().split())


@pytest.fixture
def played(director_actor, tournament, make_team):
    """A Swiss round of ``n`` teams in play; at every table seat 1 knocks 4 vs 12 (+23) in
    each of the first ``hands`` hands. Team 1's first player is called "=SUM(1+1)"."""

    def make(n, hands):
        field = [make_team(tournament, code=f"T{i}", name=f"Team {i}",
                           player1="=SUM(1+1)" if i == 1 else f"Player {i}a",
                           player2=f"Player {i}b") for i in range(1, n + 1)]
        stage = create_stage(director_actor, tournament, name="Swiss",
                             kind=Stage.Kind.SWISS, swiss_rounds=3)
        enter_teams(director_actor, stage, field)
        round_ = generate_round(director_actor, stage)
        publish_round(director_actor, round_)
        start_round(director_actor, round_)
        for match in round_.matches.all():
            for table in match.tables.all():
                for hand in range(1, hands + 1):
                    record_hand_result(director_actor, table, hand,
                                       HandEntry("knock", 1, 4, 12), seen_version=0,
                                       request_token=uuid.uuid4())
        return stage

    return make


@pytest.fixture
def login(client, tournament, staff_user):
    def as_(role):
        client.force_login(staff_user(tournament, role))
        return client
    return as_


def test_referees_see_provisional_hands_marked_scorers_none(login, tournament, played):
    stage = played(2, 2)
    referee = words(login("referee").get(url("individual", tournament.slug)))
    assert referee.count('<tr class="provisional">') == 4 and "badge-provisional" in referee
    # T1 home: its first player sits in seat 1 of table 1 (+46), its second in seat 2 of
    # table 2 (-46).
    assert "=SUM(1+1)" in referee and "+23.00" in referee and "+46" in referee
    scorer = words(login("scorer").get(url("stage_individual", tournament.slug, stage.pk)))
    assert "Official results only" in scorer and "No hand has been counted yet." in scorer


def test_minimum_hands_filter(login, tournament, played):
    played(2, 2)
    client = login("director")
    assert words(client.get(url("individual", tournament.slug, query="?min=2"))).count(
        '<td class="player team"') == 4
    page = words(client.get(url("individual", tournament.slug, query="?min=3")))
    assert '<td class="player team"' not in page
    assert "No player has played that many hands yet." in page
    assert "0 of 4 players shown." in page
    # Nonsense is no filter.
    assert words(client.get(url("individual", tournament.slug, query="?min=x"))).count(
        '<td class="player team"') == 4


def test_csv_and_xlsx_downloads(login, tournament, played):
    stage = played(2, 2)
    client = login("director")
    response = client.get(url("stage_individual_download", tournament.slug, stage.pk, "csv",
                              query="?min=1"))
    assert response["Content-Disposition"].endswith('-individual-swiss-min-1.csv"')
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "#", "Player", "Federation id", "Team code", "Team", "Hands", "Points",
        "Per hand", "Gins", "Big Gins", "Knocks won", "Undercuts won",
        "Undercuts suffered", "False knocks", "Dealer: hands", "Dealer: points",
        "Non-dealer: hands", "Non-dealer: points", "Provisional"]
    by_player = {row[1]: row for row in rows[1:]}
    # The formula is written as text: a leading apostrophe in CSV.
    assert by_player["'=SUM(1+1)"] == ["1", "'=SUM(1+1)", "", "T1", "Team 1", "2", "46",
                                      "23.00", "0", "0", "2", "0", "0", "0", "1", "23", "1",
                                      "23", "yes"]
    # Away's first player, seat 2 at table 1: lost both hands, dealer in hand 2.
    assert by_player["Player 2a"][5:8] == ["2", "-46", "-23.00"]
    assert by_player["Player 2a"][14:18] == ["1", "-23", "1", "-23"]
    book = load_workbook(io.BytesIO(client.get(
        url("individual_download", tournament.slug, "xlsx")).content))
    sheet = book.active
    cells = {sheet.cell(row, 2).value: row for row in range(2, sheet.max_row + 1)}
    formula = sheet.cell(cells["=SUM(1+1)"], 2)
    assert formula.data_type == "s" and formula.value == "=SUM(1+1)"
    assert sheet.cell(cells["=SUM(1+1)"], 7).value == 46
    assert client.get(url("individual_download", tournament.slug, "pdf")).status_code == 404


def test_linked_from_the_standings_pages(login, tournament, played):
    stage = played(2, 1)
    client = login("director")
    page = words(client.get(url("stage_standings", tournament.slug, stage.pk)))
    assert url("stage_individual", tournament.slug, stage.pk) in page
    assert url("final_ranking", tournament.slug) in page
    assert url("stage_individual", tournament.slug, stage.pk) in words(
        client.get(url("stage_detail", tournament.slug, stage.pk)))
    assert url("individual", tournament.slug) in words(
        client.get(url("standings", tournament.slug)))


# Session, user, tournament, role, the stages (tabs), the tallies added up, players.
INDIVIDUAL_PAGE_QUERIES = 7


@pytest.mark.parametrize("size", [(2, 1), (8, 3)])
def test_individual_page_query_count_is_pinned(login, tournament, played, size,
                                               django_assert_num_queries):
    stage = played(*size)
    client = login("director")
    client.get(url("individual", tournament.slug))  # the session once
    with django_assert_num_queries(INDIVIDUAL_PAGE_QUERIES):
        response = client.get(url("individual", tournament.slug))
    assert words(response).count('<td class="player team"') == size[0] * 2
    with django_assert_num_queries(INDIVIDUAL_PAGE_QUERIES + 1):  # the stage of the URL
        client.get(url("stage_individual", tournament.slug, stage.pk))
