"""The staff standings pages: per stage, per group and overall, after round N, who sees
provisional results, CSV/XLSX/PDF downloads read back, and a pinned query count (issue 11)."""

import csv
import io
import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tournament.models import Stage
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import allot_groups, create_stage, enter_teams


def url(name, *args, query=""):
    return reverse(f"director:{name}", args=args) + query


def words(response) -> str:
    return " ".join(response.content.decode().split())


def cells(page: str) -> list[list[str]]:
    """Each row of the page's standings tables as its cells' text."""
    body = "".join(part.split("</tbody>")[0] for part in page.split("<tbody")[1:])
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(
        r"<td[^>]*>(.*?)</td>", row)] for row in body.split("<tr")[1:]]


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


@pytest.fixture
def director(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "director", username="boss"))
    return client


@pytest.fixture
def swiss_event(director_actor, tournament, make_team, finish_round):
    """A Swiss stage of ``n`` new teams with ``rounds`` rounds played to the end."""
    made = iter(range(1, 100))

    def make(n, rounds):
        number = next(made)
        field = [make_team(tournament, code=f"S{number}T{i}", name=f"Team {number}-{i}")
                 for i in range(1, n + 1)]
        stage = create_stage(director_actor, tournament, name=f"Swiss {number}",
                             kind=Stage.Kind.SWISS, swiss_rounds=rounds + 1)
        enter_teams(director_actor, stage, field)
        for round_number in range(1, rounds + 1):
            finish_round(generate_round(director_actor, stage, expected_number=round_number),
                         seed=round_number)
        return stage

    return make


@pytest.fixture
def group_event(director_actor, tournament, teams, finish_round):
    def make(groups, size, rounds):
        stage = create_stage(director_actor, tournament, name="Groups",
                             kind=Stage.Kind.GROUPS)
        field = teams(groups * size)
        allot_groups(director_actor, stage, [field[i::groups] for i in range(groups)])
        for number in range(1, rounds + 1):
            finish_round(generate_round(director_actor, stage, expected_number=number),
                         seed=number)
        return stage

    return make


def count_queries(client, address):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address)
    assert response.status_code == 200
    return len(queries)


STANDINGS_PAGE_QUERIES = 11  # session, user, tournament, role, stage, 6 of the standings


@pytest.mark.parametrize("size", [(4, 1), (16, 3)])
def test_swiss_standings_page_query_count_is_pinned(director, tournament, swiss_event, size,
                                                    django_assert_max_num_queries):
    stage = swiss_event(*size)
    with django_assert_max_num_queries(STANDINGS_PAGE_QUERIES):
        response = director.get(url("stage_standings", tournament.slug, stage.pk))
    assert response.content.decode().count('class="team-code"') == size[0]


@pytest.mark.parametrize("size", [(2, 4, 1), (4, 6, 3)])
def test_group_standings_page_query_count_is_pinned(director, tournament, group_event, size,
                                                    django_assert_max_num_queries):
    stage = group_event(*size)
    with django_assert_max_num_queries(STANDINGS_PAGE_QUERIES):
        response = director.get(url("stage_standings", tournament.slug, stage.pk))
    page = words(response)
    assert page.count('<section class="standings-block">') == size[0]
    assert "Group A" in page and f"Group {'ABCD'[size[0] - 1]}" in page


def test_page_queries_do_not_grow_with_the_event(director, tournament, swiss_event):
    """Exactly the same number of queries for a small and a larger stage."""
    small, large = swiss_event(4, 1), swiss_event(12, 3)
    for stage in (small, large):  # the first visit: the session, what the process keeps
        director.get(url("stage_standings", tournament.slug, stage.pk))
    counts = [count_queries(director, url("stage_standings", tournament.slug, stage.pk))
              for stage in (small, large)]
    assert counts[0] == counts[1]


@pytest.fixture
def in_play(director_actor, tournament, make_team, finish_round):
    """Round 1 played and closed; in round 2 a hand of match 1 is entered, not signed off."""
    field = [make_team(tournament, code="CHN", name="中国红队", seed="1"),
             make_team(tournament, code="EQ", name="=SUM(1+1)", seed="2"),
             make_team(tournament, code="GER", name="Deutschland", seed="3"),
             make_team(tournament, code="ITA", name="Italia", seed="4")]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, field)
    finish_round(generate_round(director_actor, stage), {1: 30, 2: 30})
    second = generate_round(director_actor, stage)
    publish_round(director_actor, second)
    start_round(director_actor, second)
    match = second.matches.get(number=1)
    record_hand_result(director_actor, match.tables.get(position=1), 1,
                       HandEntry("gin", 1, None, 20), seen_version=0,
                       request_token=uuid.uuid4())
    return stage


def test_referees_see_provisional_results_marked_scorers_only_official_ones(
        client, tournament, staff_user, in_play):
    address = url("stage_standings", tournament.slug, in_play.pk)
    client.force_login(staff_user(tournament, "referee"))
    referee = words(client.get(address))
    assert '<tr class="provisional">' in referee and "badge-provisional" in referee
    assert "Includes results not signed off yet" in referee
    assert sorted(row[2] for row in cells(referee)) == ["1", "1", "2", "2"]  # played
    client.force_login(staff_user(tournament, "scorer"))
    response = client.get(address)
    assert response.status_code == 200
    scorer = words(response)
    assert '<tr class="provisional">' not in scorer and "badge-provisional" not in scorer
    assert "Official results only" in scorer
    assert [row[2] for row in cells(scorer)] == ["1"] * 4
    # The downloads follow the same rule.
    scorer_csv = client.get(url("standings_download", tournament.slug, in_play.pk, "csv"))
    assert "yes" not in scorer_csv.content.decode()


def test_strangers_may_not_see_the_standings(client, tournament, make_user, in_play):
    client.force_login(make_user())
    response = client.get(url("stage_standings", tournament.slug, in_play.pk))
    assert response.status_code == 403


def test_csv_download_has_every_value_and_defuses_formulas(director, tournament, in_play):
    response = director.get(url("standings_download", tournament.slug, in_play.pk, "csv"))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    assert response.content.startswith(b"\xef\xbb\xbf")  # Excel reads it as UTF-8
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["#", "Code", "Team", "Played", "Match points", "Small points", "Wins",
                       "Gins", "Match points deducted", "Small points deducted",
                       "Provisional", "Ahead of the next by", "Criterion",
                       "Team name in the other script"]
    by_code = {row[1]: row for row in rows[1:]}
    assert by_code["EQ"][2] == "'=SUM(1+1)"  # a spreadsheet shows it, never runs it
    assert by_code["CHN"][2] == "中国红队"
    assert {row[10] for row in rows[1:]} == {"yes", ""}
    assert rows[-1][11] == ""  # the last team is above nobody
    # The separating criterion by its name, not its key (the JSON API gives the key).
    names = {"match points", "small points", "head-to-head", "match wins",
             "gins and Big Gins", "drawing of lots"}
    assert {row[12] for row in rows[1:-1]} <= names and rows[1][12]


def test_csv_download_speaks_the_readers_language(director, tournament, in_play):
    response = director.get(url("standings_download", tournament.slug, in_play.pk, "csv"),
                            HTTP_ACCEPT_LANGUAGE="zh-hans")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["#", "代码", "队伍"]
    assert {row[10] for row in rows[1:]} == {"是", ""}
    assert not {"match_points", "small_points", "wins", "gins"} & {row[12] for row in rows}
    assert {row[12] for row in rows[1:-1]} <= {"积分", "小分", "相互战绩", "胜场数",
                                                "金和大金", "抽签"}


def test_xlsx_download_keeps_text_as_text(director, tournament, in_play):
    response = director.get(url("standings_download", tournament.slug, in_play.pk, "xlsx"))
    assert "spreadsheetml" in response["Content-Type"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("#", "Code", "Team")
    by_code = {row[1]: row for row in rows[1:]}
    assert by_code["EQ"][2] == "=SUM(1+1)"
    cell = next(c for c in sheet["C"] if c.value == "=SUM(1+1)")
    assert cell.data_type == "s"  # text, not a formula
    assert isinstance(by_code["CHN"][4], int) and isinstance(by_code["CHN"][5], int)
    assert sorted(row[0] for row in rows[1:])[0] == 1


def test_pdf_prints_every_team_with_its_separation(director, tournament, in_play):
    response = director.get(url("standings_download", tournament.slug, in_play.pk, "pdf"))
    text = pdf_text(response)
    assert "Standings — Swiss" in text
    for name in ("中国红队", "=SUM(1+1)", "Deutschland", "Italia"):
        assert name in text
    assert "match points:" in text
    assert "-30" in text  # an ASCII minus: the PDF's standard fonts have no U+2212
    assert "provisional results included" in text and "* provisional" in text


def test_group_pages_after_round_and_links(director, tournament, group_event):
    stage = group_event(2, 4, 3)
    page = words(director.get(url("stage_detail", tournament.slug, stage.pk)))
    assert url("stage_standings", tournament.slug, stage.pk) in page
    dashboard = words(director.get(url("dashboard", tournament.slug)))
    assert url("standings", tournament.slug) in dashboard
    overall = words(director.get(url("standings", tournament.slug)))
    assert "the last stage played, Groups" in overall
    assert overall.count('<section class="standings-block">') == 2
    group = stage.groups.get(name="B")
    one = words(director.get(url("group_standings", tournament.slug, stage.pk, group.pk)))
    assert one.count('class="team-code"') == 4 and "aria-current=\"page\">B<" in one
    after = words(director.get(url("stage_standings", tournament.slug, stage.pk,
                                   query="?after=1")))
    assert 'href="?after=1" aria-current="page"' in after
    assert [row[2] for row in cells(after)] == ["1"] * 8  # one match each after round 1
    assert [row[2] for row in cells(overall)] == ["3"] * 8
    csv_after = director.get(url("group_standings_download", tournament.slug, stage.pk,
                                 group.pk, "csv", query="?after=1"))
    assert "after-round-1" in csv_after["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(csv_after.content.decode("utf-8-sig"))))
    assert {row[4] for row in rows[1:]} == {"1"}  # played
    assert director.get(url("standings_download", tournament.slug, stage.pk,
                            "doc")).status_code == 404


def test_overall_standings_before_any_round(director, tournament):
    page = words(director.get(url("standings", tournament.slug)))
    assert "No round has been played yet" in page
