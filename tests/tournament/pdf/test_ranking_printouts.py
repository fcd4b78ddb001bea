"""The final ranking on paper and the podium's certificates (issue 58), read back with
pypdf: the places of the final ranking; names as the reader's language picks them, the
other script beside; a sound file with every font embedded."""

import datetime as dt
import io
import shutil
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import require_part
from tests.tournament.services.test_person_ratings import event
from tournament.models import StaffRole, Team
from tournament.selectors.event_ranking import event_ranking

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_tournament, make_team, make_user, actor):
    director = make_user()
    tournament, _ = event(make_tournament, make_team, actor(make_user(superuser=True)), 1,
                          dt.date(2026, 11, 22), closed=3)
    winner = event_ranking(tournament).rows[0].team
    Team.objects.filter(pk=winner.pk).update(name="北京烤鸭队", other_name="Beijing Roast Duck")
    StaffRole.objects.create(tournament=tournament, user=director, role="director")
    client = Client()
    client.force_login(director)
    return tournament, client


def pages(response) -> list[str]:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return [" ".join((page.extract_text() or "").split())
            for page in PdfReader(io.BytesIO(response.content)).pages]


def test_the_final_ranking_reads_back_with_its_places(finished):
    tournament, client = finished
    ranking = event_ranking(tournament)
    assert ranking.is_final
    text = " ".join(pages(client.get(reverse("director:final_ranking_download",
                                             args=[tournament.slug, "pdf"]))))
    assert text.startswith("Final ranking")
    found = [text.index(f"{row.team.code} ") for row in ranking.rows]
    assert found == sorted(found)  # in place order
    for row in ranking.rows:
        assert f"{row.place} {row.team.code} " in text
    # An English reader: the Latin name first, the Chinese beside it.
    assert "Beijing Roast Duck · 北京烤鸭队" in text


def test_a_certificate_for_each_team_of_the_podium(finished):
    tournament, client = finished
    podium = event_ranking(tournament).podium
    assert [row.place for row in podium] == [1, 2, 3]
    url = reverse("director:certificates_pdf", args=[tournament.slug])
    read = pages(client.get(url))
    assert len(read) == 3
    for page, row, word in zip(read, podium, ("Winner", "Second place", "Third place"),
                               strict=True):
        assert "CERTIFICATE" in page and word in page and row.team.code in page
        assert tournament.name in page
        for player in row.team.players.all():
            assert player.name in page
    # The winner's names as the reader's language picks them, the other script beside.
    assert read[0].index("Beijing Roast Duck") < read[0].index("北京烤鸭队")
    client.cookies["django_language"] = "zh-hans"
    chinese = pages(client.get(url))
    assert "证书" in chinese[0]
    assert chinese[0].index("北京烤鸭队") < chinese[0].index("Beijing Roast Duck")


def test_no_certificate_before_the_podium_nor_a_ranking_before_it_is_final(
        make_tournament, make_team, make_user, actor):
    director = make_user()
    tournament, _ = event(make_tournament, make_team, actor(make_user(superuser=True)), 2,
                          dt.date(2026, 11, 22), closed=1, open_round=True)
    StaffRole.objects.create(tournament=tournament, user=director, role="director")
    client = Client()
    client.force_login(director)
    assert client.get(reverse("director:certificates_pdf",
                              args=[tournament.slug])).status_code == 404
    assert client.get(reverse("director:final_ranking_download",
                              args=[tournament.slug, "pdf"])).status_code == 404


@pytest.mark.parametrize("name", ["final-ranking", "certificates"])
def test_every_font_embedded_and_a_sound_file(finished, name, tmp_path):
    require_part(shutil.which("qpdf") is not None and shutil.which("pdffonts") is not None,
                 "qpdf and pdffonts (apt-get install qpdf poppler-utils)")
    tournament, client = finished
    url = (reverse("director:certificates_pdf", args=[tournament.slug]) if name ==
           "certificates" else reverse("director:final_ranking_download",
                                       args=[tournament.slug, "pdf"]))
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(client.get(url).content)
    subprocess.run(["qpdf", "--check", str(path)], check=True, capture_output=True)
    rows = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True,
                          text=True).stdout.splitlines()[2:]
    assert rows and all(line.split()[-5] == "yes" for line in rows), rows
