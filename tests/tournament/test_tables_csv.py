"""CSV downloads start with a UTF-8 byte-order mark (issue 27), so Excel on Windows shows
Chinese names; they read back, equal to the data, with Python's csv and
``encoding="utf-8-sig"`` and with the project's own CSV reader, the team import."""

import csv
import io
from decimal import Decimal, InvalidOperation

import django_tables2 as tables
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournament.views.public_event import build_event
from tests.tournament.views.test_public_exports import export_urls
from tournament.models import Team
from tournament.services.team_import import read_team_csv
from tournament.tables import BYTE_ORDER_MARK, SpreadsheetExport

BOM = b"\xef\xbb\xbf"
CHINESE = [("CHN", "中国红队"), ("TPE", "中華台北"), ("HKG", "香港"), ("MAC", "澳門")]


def csv_rows(content: bytes) -> list[list[str]]:
    with io.TextIOWrapper(io.BytesIO(content), encoding="utf-8-sig", newline="") as text:
        return list(csv.reader(text))


def xlsx_rows(content: bytes) -> list[list[str]]:
    """The same table from its XLSX download, every cell as text."""
    sheet = load_workbook(io.BytesIO(content)).active
    return [["" if cell is None else str(cell) for cell in row]
            for row in sheet.iter_rows(values_only=True)]


def plain(rows: list[list[str]]) -> list[list]:
    """Cells compared by value: a number is the same number as "22.50" or 22.5."""
    def value(cell: str):
        try:
            return Decimal(cell)
        except InvalidOperation:
            return cell
    return [[value(cell) for cell in row] for row in rows]


class TeamsTable(tables.Table):
    """A table with the team import's columns, exported as every download is."""

    code = tables.Column(verbose_name="code")
    name = tables.Column(verbose_name="name")
    player1 = tables.Column(verbose_name="player1")
    player2 = tables.Column(verbose_name="player2")


TEAMS = [{"code": "CHN", "name": "中国红队", "player1": "李伟", "player2": "张敏"},
         {"code": "TPE", "name": "中華台北", "player1": "陳建宏", "player2": "林淑芬"},
         {"code": "FRA", "name": "Équipe de France", "player1": "Zoé", "player2": "Noël"}]


def test_a_csv_export_starts_with_the_byte_order_mark_and_reads_back():
    content = SpreadsheetExport("csv", TeamsTable(TEAMS)).response(filename="t.csv").content
    assert content.startswith(BOM) and not content.startswith(BOM * 2)
    assert BYTE_ORDER_MARK.encode() == BOM
    rows = csv_rows(content)
    assert rows == [["code", "name", "player1", "player2"],
                    *([t["code"], t["name"], t["player1"], t["player2"]] for t in TEAMS)]
    # Python's csv without the -sig codec would see the mark in the first header.
    assert next(csv.reader(io.StringIO(content.decode("utf-8"))))[0] == "\ufeffcode"
    # XLSX has no mark: it is a zip file.
    xlsx = SpreadsheetExport("xlsx", TeamsTable(TEAMS)).export()
    assert xlsx.startswith(b"PK")


def test_the_team_import_reads_an_exported_csv_back(db, client, tournament, staff_user):
    content = SpreadsheetExport("csv", TeamsTable(TEAMS)).export().encode("utf-8")
    assert content.startswith(BOM)
    report = read_team_csv(content)
    assert report.ok, report.problems
    read = [{"code": entry.code, "name": entry.name, "player1": entry.players[0].name,
             "player2": entry.players[1].name} for _line, entry in report.teams]
    assert read == TEAMS
    # And through the import page, preview then confirm.
    client.force_login(staff_user(tournament, "director"))
    address = reverse("director:team_import", args=[tournament.slug])
    preview = client.post(address, {"file": SimpleUploadedFile("teams.csv", content,
                                                               "text/csv")})
    assert preview.status_code == 200 and "payload" in preview.context
    client.post(address, {"payload": preview.context["payload"]})
    assert sorted(Team.objects.values_list("code", "name")) == sorted(
        (t["code"], t["name"]) for t in TEAMS)


@pytest.fixture
def event(director_actor, tournament, make_team):
    return build_event(director_actor, tournament, make_team, closed=1, codes=CHINESE)


def test_every_public_csv_download_has_the_mark_and_the_data_of_its_xlsx(
        client, tournament, event):
    csv_urls = [url for url in export_urls(tournament, event) if url.endswith(".csv")]
    read = 0
    for url in csv_urls:
        response = client.get(url)
        if response.status_code == 404:  # a table with nothing in it yet
            continue
        assert response.status_code == 200, url
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response.content.startswith(BOM), url
        rows = csv_rows(response.content)
        xlsx = client.get(url[: -len("csv")] + "xlsx").content
        assert plain(rows) == plain(xlsx_rows(xlsx)), url
        read += 1
    assert read >= 8
    standings = client.get(reverse("public:standings_export", args=[tournament.slug, "csv"]))
    cells = {cell for row in csv_rows(standings.content) for cell in row}
    assert {name for _code, name in CHINESE} <= cells


def test_the_staff_downloads_have_the_mark(client, tournament, staff_user, event):
    client.force_login(staff_user(tournament, "director"))
    stage = event.stage
    for address in (reverse("director:standings_download",
                            args=[tournament.slug, stage.pk, "csv"]),
                    reverse("director:individual_download", args=[tournament.slug, "csv"])):
        response = client.get(address)
        assert response.status_code == 200, address
        assert response.content.startswith(BOM), address
        rows = csv_rows(response.content)
        assert rows[0][0] != "" and not rows[0][0].startswith("\ufeff")
    standings = csv_rows(client.get(reverse("director:standings_download",
                                            args=[tournament.slug, stage.pk, "csv"])).content)
    assert {name for _code, name in CHINESE} <= {cell for row in standings for cell in row}
