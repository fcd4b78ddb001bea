"""Every printout of a round read back from the real PDF (issue 15): a page for each
table or deal with its own text, the faster drawing (QR codes encoded once, forms shown
again, one text object a line) changing nothing a reader sees, and the scorecards' QR
codes decoded by zbar pointing at their own table's entry screen."""

import io
import re
import shutil
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader
from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

from tests.conftest import require_part
from tournament.models import Stage
from tournament.pdf.qr import QrEncoder
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

TEAMS = 6  # 3 matches, 6 tables


@pytest.fixture
def round_(director_actor, tournament, make_team):
    teams = [make_team(tournament, code=f"C{n}", name=f"中国队 {n}", player1=f"李伟 {n}",
                       player2=f"Anna {n}") for n in range(1, TEAMS + 1)]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams)
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_


@pytest.fixture
def director_client(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "director", username="boss"))
    return client


def pages_of(response) -> list[str]:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return [" ".join(page.extract_text().split())
            for page in PdfReader(io.BytesIO(response.content)).pages]


def scorecards(client, tournament, round_):
    return client.get(reverse("director:round_scorecards",
                              args=[tournament.slug, round_.pk, "scorecards"]))


def test_a_scorecard_for_each_table_with_its_own_seats(director_client, tournament, round_):
    pages = pages_of(scorecards(director_client, tournament, round_))
    tables = list(round_.tables.select_related("match__home", "match__away")
                  .order_by("number"))
    assert len(pages) == len(tables) == TEAMS
    for page, table in zip(pages, tables, strict=True):
        assert f"Table {table.number}" in page
        assert f"{table.match.home.name} – {table.match.away.name}" in page
        # The grid, drawn once as a form, reads on every page as it did drawn on each.
        assert "Hand Dealer Outcome Declarer" in page and "Total" in page
        assert "Seat 1 signature" in page and "Knock (deadwood" in page
        assert len(re.findall(r"\bseat [12]\b", page)) == 8  # the dealer of each hand


def test_every_printout_has_a_page_for_each_thing_it_prints(director_client, tournament,
                                                           round_):
    slug, pk = tournament.slug, round_.pk
    deals = list(round_.deals.order_by("deal_set", "hand"))
    expected = {
        ("director:round_pdf", "table-cards"): TEAMS,
        ("director:round_scorecards", "result-slips"): 1,
        ("director:round_deals_pdf", "deal-sheet"): len(deals) // 2,
        ("director:round_deals_pdf", "box-labels"): 2,  # 48 boxes, 24 a sheet
    }
    for (name, kind), count in expected.items():
        pages = pages_of(director_client.get(reverse(name, args=[slug, pk, kind])))
        assert len(pages) == count, kind
    sheet = pages_of(director_client.get(reverse("director:round_deals_pdf",
                                                 args=[slug, pk, "deal-sheet"])))
    for number, deal in enumerate(deals):
        page = sheet[number // 2]
        assert f"Hand {deal.hand} · set {deal.deal_set}" in page
        # The stock's numbers and headings are a form; the check line is the deal's own.
        assert "Stock, top card first" in page and "31." in page
        assert "Check: " + " ".join(deal.cards.split()[:5]) in page
    labels = pages_of(director_client.get(reverse("director:round_deals_pdf",
                                                  args=[slug, pk, "box-labels"])))
    assert "Hand 1 · Table 1" in labels[0] and "李伟" in labels[0]
    assert "Hand 8 · Table 6" in labels[1]


def test_qr_codes_of_a_document_share_one_mask_and_stay_valid():
    encoder = QrEncoder()
    first = encoder.modules("http://gin.local/director/open/tables/1/")
    again = encoder.modules("http://gin.local/director/open/tables/1/")
    other = encoder.modules("http://gin.local/director/open/tables/2/")
    assert first == again and first != other and len(first) == len(other)


@pytest.mark.parametrize("level", ["L", "M", "Q", "H"])
def test_our_qr_encoding_is_reportlabs_with_the_same_mask(level):
    """Our codewords (padding, Reed-Solomon, interleaved blocks) and bit placement give
    exactly reportlab's modules, one block or several."""
    encoder = QrEncoder(level)
    for length in range(1, 400, 13):
        text = "".join("gin.local/Δ-7?"[(n * 7 + length) % 14] for n in range(length))
        ours = encoder.modules(text)
        theirs = QRCode(None, getattr(QRErrorCorrectLevel, level))
        theirs.addData(text)
        theirs.version = theirs.calculate_version()
        theirs.makeImpl(False, encoder._masks[theirs.version])
        assert ours == theirs.modules, (level, length)


def test_scorecard_qr_codes_open_their_own_tables_entry_screen(director_client, tournament,
                                                              round_, tmp_path):
    require_part(shutil.which("pdftoppm") is not None, "pdftoppm (poppler-utils)")
    require_part(shutil.which("zbarimg") is not None, "zbarimg (zbar-tools)")
    response = scorecards(director_client, tournament, round_)
    (tmp_path / "cards.pdf").write_bytes(response.content)
    tables = list(round_.tables.order_by("number"))
    sample = sorted({1, len(tables) // 2, len(tables)})  # first, middle and last page
    for page in sample:
        subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", str(page), "-l", str(page),
                        "-singlefile", str(tmp_path / "cards.pdf"), str(tmp_path / "page")],
                       check=True)
        decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "page.png")],
                                 capture_output=True, text=True, check=True).stdout.split()
        table = tables[page - 1]
        path = reverse("director:table_entry", args=[tournament.slug, table.pk])
        assert decoded == [f"http://testserver{path}"], page
        screen = director_client.get(path)
        assert screen.status_code == 200
        assert f"Table {table.number}" in screen.content.decode()
