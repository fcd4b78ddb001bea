"""Chinese names print on any viewer: a TrueType font embedded, the CID font only as a
fallback that ``manage.py check`` warns about (issue 12, item 6)."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from pypdf import PdfReader

from tests.conftest import require_part
from tournament.models import Stage
from tournament.pdf import fonts
from tournament.pdf.draw import DrawByTable
from tournament.selectors.draw import round_plan
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams

WQY = Path(fonts.DEBIAN_FONT)


@pytest.fixture
def plan(director_actor, tournament, make_team):
    teams = [make_team(tournament, code="CHN", name="中国红队", player1="李伟", player2="张敏"),
             make_team(tournament, code="GER", name="Deutschland", player1="Jürgen Müller",
                       player2="Anna Schmidt")]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams)
    return round_plan(generate_round(director_actor, stage))


def fonts_of(data: bytes) -> dict[str, bool]:
    """Each font the pages use, by its base name: whether its file is in the PDF."""
    found = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            described = font
            if "/DescendantFonts" in font:  # a composite (Type0) font
                described = font["/DescendantFonts"][0].get_object()
            descriptor = described.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            found[str(font["/BaseFont"])] = "/FontFile2" in descriptor
    return found


def text_of(data: bytes) -> str:
    pages = PdfReader(io.BytesIO(data)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def check_ids() -> list[str]:
    return [message.id for message in fonts.check_cjk_font()]


def test_chinese_names_print_in_an_embedded_truetype_font(plan, settings):
    require_part(WQY.is_file(), "fonts-wqy-zenhei")
    settings.PDF_CJK_FONT = ""  # found where Debian installs it
    data = DrawByTable(plan).render()
    used = fonts_of(data)
    # A subset of the font, its file in the PDF (FontFile2: TrueType outlines).
    assert [name for name, embedded in used.items() if embedded] == [
        "/AAAAAA+WenQuanYiZenHei-0"], used
    assert "STSong-Light" not in used
    text = text_of(data)
    assert "CHN 李伟" in text and "GER Jürgen Müller" in text
    assert check_ids() == []


def test_the_setting_names_the_font(plan, settings):
    require_part(WQY.is_file(), "fonts-wqy-zenhei")
    settings.PDF_CJK_FONT = str(WQY)
    assert fonts.choose().path == str(WQY)
    assert fonts_of(DrawByTable(plan).render())["/AAAAAA+WenQuanYiZenHei-0"] is True
    assert check_ids() == []


def test_no_truetype_font_falls_back_to_the_cid_font_with_a_warning(plan, settings,
                                                                  monkeypatch, tmp_path):
    settings.PDF_CJK_FONT = str(tmp_path / "missing.ttf")
    monkeypatch.setattr(fonts, "DEBIAN_FONT", str(tmp_path / "not-installed.ttc"))
    assert fonts.choose().path is None
    data = DrawByTable(plan).render()  # no crash at PDF time
    assert fonts_of(data).get("/STSong-Light") is False  # used, and not embedded
    assert "CHN 李伟" in text_of(data)
    messages = fonts.check_cjk_font()
    assert [m.id for m in messages] == ["tournament.W001", "tournament.W002"]
    assert "missing.ttf does not exist" in messages[0].msg
    assert "PDF_CJK_FONT" in messages[1].hint and "fonts-wqy-zenhei" in messages[1].hint
    # and manage.py check shows them (as warnings: they do not stop the server)
    with pytest.raises(SystemCheckError, match=r"tournament\.W002"):
        call_command("check", fail_level="WARNING")


def test_a_file_that_is_no_font_is_named_and_debians_font_used(settings, tmp_path):
    require_part(WQY.is_file(), "fonts-wqy-zenhei")
    not_a_font = tmp_path / "names.txt"
    not_a_font.write_text("王小明")
    settings.PDF_CJK_FONT = str(not_a_font)
    assert fonts.choose().path == str(WQY)
    messages = fonts.check_cjk_font()
    assert [m.id for m in messages] == ["tournament.W001"]
    assert "names.txt is not a TrueType font" in messages[0].msg
    assert str(WQY) in messages[0].msg


def test_the_check_is_silent_when_the_font_is_found(settings):
    require_part(WQY.is_file(), "fonts-wqy-zenhei")
    settings.PDF_CJK_FONT = ""
    call_command("check", fail_level="WARNING")  # raises on any warning
