"""Every paper of a round in one print (issue 58): the parts in the order a director hands
them out, read back page by page; a sound file with every font embedded; the device slips
only when made with it; no deal for a user who may not see the deals."""

import io
import shutil
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import require_part
from tests.tournament.pdf.test_round_printouts import round_  # noqa: F401 (a fixture)
from tournament.models import AuditEntry

NOT_EMBEDDABLE = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats", "STSong")


def papers(client, tournament, played, **post):
    url = reverse("director:round_papers", args=[tournament.slug, played.pk])
    response = client.post(url, post) if post else client.get(url)
    assert response.status_code == 200, response
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"].startswith("private") or "no-store" in \
        response["Cache-Control"]
    return response.content


def kinds(pdf: bytes) -> list[str]:
    """Which part each page belongs to, by what its own printout writes on it."""
    out = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        text = " ".join((page.extract_text() or "").split())
        kind = ("draw" if text.startswith("Draw by table") else
                "table card" if text.startswith("TABLE") or " TABLE " in f" {text[:20]} " else
                "deal sheet" if "Deal sheet" in text or "DEAL SHEET" in text else
                "box labels" if "Box" in text[:40] and "label" in text.lower() else
                "scorecard" if "Scorecard" in text[:60] or "Hand Dealer Outcome" in text else
                "device slip" if "API token" in text else text[:40])
        if not out or out[-1] != kind:
            out.append(kind)
    return out


@pytest.fixture
def director_client(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "director", username="boss"))
    return client


def test_the_parts_come_in_the_order_they_are_handed_out(director_client, tournament,
                                                         round_):  # noqa: F811
    pdf = papers(director_client, tournament, round_)
    reader = PdfReader(io.BytesIO(pdf))
    assert [item.title for item in reader.outline] == [
        "Draw by table", "Table cards", "Deal sheets", "Box labels", "Scorecards"]
    order = kinds(pdf)
    assert order[:2] == ["draw", "table card"], order
    assert order[-1] == "scorecard", order
    # As many pages as the parts printed alone.
    alone = sum(len(PdfReader(io.BytesIO(director_client.get(url).content)).pages) for url in (
        reverse("director:round_pdf", args=[tournament.slug, round_.pk, "draw-by-table"]),
        reverse("director:round_pdf", args=[tournament.slug, round_.pk, "table-cards"]),
        reverse("director:round_deals_pdf", args=[tournament.slug, round_.pk, "deal-sheet"]),
        reverse("director:round_deals_pdf", args=[tournament.slug, round_.pk, "box-labels"]),
        reverse("director:round_scorecards", args=[tournament.slug, round_.pk,
                                                   "scorecards"])))
    assert len(reader.pages) == alone
    # The deals' download is in the log, as each deal printout's is.
    assert AuditEntry.objects.filter(action="deals.download",
                                     data__printout="everything").exists()


def test_a_sound_file_with_every_font_embedded(director_client, tournament, round_,  # noqa: F811
                                               tmp_path):
    require_part(shutil.which("qpdf") is not None and shutil.which("pdffonts") is not None,
                 "qpdf and pdffonts (apt-get install qpdf poppler-utils)")
    path = tmp_path / "papers.pdf"
    path.write_bytes(papers(director_client, tournament, round_))
    subprocess.run(["qpdf", "--check", str(path)], check=True, capture_output=True)
    listing = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True,
                             text=True).stdout.splitlines()[2:]
    assert listing
    for line in listing:
        assert line.split()[-5] == "yes", line  # the "emb" column
        assert not line.startswith(NOT_EMBEDDABLE), line


def test_device_slips_only_when_made_with_it(director_client, tournament, round_):  # noqa: F811
    pdf = papers(director_client, tournament, round_, devices="on",
                 request_token="7d1c3d2e-4f4b-4c2a-9d7e-0a1b2c3d4e5f")
    reader = PdfReader(io.BytesIO(pdf))
    assert [item.title for item in reader.outline][-1] == "Device slips"
    assert "API token" in (reader.pages[-1].extract_text() or "")
    # Made again only when the director says the old slips stop working.
    url = reverse("director:round_papers", args=[tournament.slug, round_.pk])
    again = director_client.post(url, {"devices": "on",
                                       "request_token": "8d1c3d2e-4f4b-4c2a-9d7e-0a1b2c3d4e5f"})
    assert again.status_code == 302


def test_a_user_without_the_deals_gets_no_deal(client, tournament, round_, staff_user):  # noqa: F811
    client.force_login(staff_user(tournament, "referee", username="ref"))
    url = reverse("director:round_papers", args=[tournament.slug, round_.pk])
    assert client.get(url).status_code == 403  # printing a round is the director's
