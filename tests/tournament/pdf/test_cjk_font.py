"""Chinese names print on any viewer: a TrueType font embedded, the CID font only as a
fallback that ``manage.py check`` warns about (issue 12, item 6). Latin text is embedded too
(issue 26): DejaVu Sans, or reportlab's Vera with a warning; Chinese in bold text is stroked
to look bold."""

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from pypdf import PdfReader

from tests.conftest import require_part
from tournament.models import Stage
from tournament.pdf import fonts
from tournament.pdf.base import runs
from tournament.pdf.draw import DrawByTable, TableCards
from tournament.selectors.draw import round_plan
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams

WQY = Path(fonts.DEBIAN_FONT)
DEJAVU = Path(fonts.DEJAVU)


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
    # A subset of each font, its file in the PDF (FontFile2: TrueType outlines): the
    # Chinese font's beside the Latin font's regular and bold, and no other.
    assert used["/AAAAAA+WenQuanYiZenHei-0"] is True, used
    assert all(used.values()), used
    assert "/STSong-Light" not in used
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
    used = fonts_of(data)
    assert used.pop("/STSong-Light") is False  # used, and not embedded
    assert used and all(used.values()), used  # the Latin fonts are, still
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
    require_part(DEJAVU.is_file(), "fonts-dejavu-core")
    settings.PDF_CJK_FONT = ""
    call_command("check", fail_level="WARNING")  # raises on any warning


def latin_plan(director_actor, tournament, make_team):
    teams = [make_team(tournament, code="HUN", name="Győri Kártyások", player1="Zsófia Erdős",
                       player2="Ödön Pásztor"),
             make_team(tournament, code="POL", name="Łódź Gin", player1="Łukasz Wiśniewski",
                       player2="Ștefan Țurcanu")]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams)
    return round_plan(generate_round(director_actor, stage))


def test_latin_extended_names_print_in_embedded_dejavu(director_actor, tournament, make_team):
    require_part(DEJAVU.is_file(), "fonts-dejavu-core")
    regular = fonts.latin_fonts().regular
    assert runs("Zsófia Erdős · Łukasz · Ștefan ♠") == [
        ("Zsófia Erdős · Łukasz · Ștefan ♠", regular)]
    data = DrawByTable(latin_plan(director_actor, tournament, make_team)).render()
    # Only DejaVu: not one letter fell to the Chinese font (nor to a standard font).
    assert fonts_of(data) == {"/AAAAAA+DejaVuSans": True, "/AAAAAA+DejaVuSans-Bold": True}
    text = text_of(data)
    assert "HUN Zsófia Erdős" in text and "POL Łukasz Wiśniewski" in text
    assert "POL Ștefan Țurcanu" in text


def test_runs_switch_to_the_chinese_font_only_where_the_latin_font_has_no_letter():
    latin, bold, cjk = fonts.latin_fonts().regular, fonts.latin_fonts().bold, fonts.cjk_font()
    assert runs("CHN 李伟 (Team 1)") == [("CHN ", latin), ("李伟", cjk), (" (Team 1)", latin)]
    # Chinese punctuation and the ideographic space are the Chinese font's.
    assert runs("李伟\uff0c张敏\u3000X", bold=True) == [("李伟\uff0c张敏\u3000", cjk), ("X", bold)]
    assert runs("") == []


def content_of(data: bytes) -> bytes:
    return b"".join(page.get_contents().get_data()
                    for page in PdfReader(io.BytesIO(data)).pages)


def test_bold_chinese_is_filled_and_stroked_in_its_own_colour(plan):
    require_part(WQY.is_file(), "fonts-wqy-zenhei")
    content = content_of(TableCards(plan).render())  # the players' names bold, 30 pt
    # Render mode 2 (fill, then stroke) for the Chinese run only and 0 after it; the stroke
    # 0.04 of the size wide, black as the fill, in a graphics state saved and restored.
    assert re.search(rb"q\n1\.2 w\n0 G\nBT [^\n]* Tm 2 Tr /F\d\+0 30 Tf [^\n]* Tj 0 Tr ET\nQ\n",
                     content), content
    assert content.count(b" 2 Tr ") == content.count(b" 0 Tr ") == 2  # 李伟, 张敏
    # Chinese in regular text is only filled.
    assert re.search(rb"\) Tj /F\d\+0 16 Tf [^\n]*\(CHN\\\)\) Tj ET", content)


def test_latin_bold_is_not_stroked(director_actor, tournament, make_team):
    data = TableCards(latin_plan(director_actor, tournament, make_team)).render()
    assert b" 2 Tr" not in content_of(data)


def test_without_dejavu_vera_is_embedded_and_the_check_warns(plan, monkeypatch, tmp_path,
                                                            settings):
    require_part(WQY.is_file(), "fonts-wqy-zenhei")
    settings.PDF_CJK_FONT = ""
    monkeypatch.setattr(fonts, "DEJAVU", str(tmp_path / "DejaVuSans.ttf"))
    vera = fonts.latin_fonts()
    assert not vera.complete and vera.regular == "Latin-Vera" and vera.bold == "Latin-VeraBd"
    # Vera has no ő: it falls to the Chinese font.
    assert runs("Erdős") == [("Erd", "Latin-Vera"), ("ő", fonts.cjk_font()), ("s", "Latin-Vera")]
    used = fonts_of(DrawByTable(plan).render())
    assert used == {"/AAAAAA+BitstreamVeraSans-Roman": True,
                    "/AAAAAA+BitstreamVeraSans-Bold": True,
                    "/AAAAAA+WenQuanYiZenHei-0": True}
    messages = fonts.check_latin_font()
    assert [m.id for m in messages] == ["tournament.W003"]
    assert "DejaVuSans.ttf does not exist" in messages[0].msg and "Vera" in messages[0].msg
    assert "fonts-dejavu-core" in messages[0].hint
    with pytest.raises(SystemCheckError, match=r"tournament\.W003"):
        call_command("check", fail_level="WARNING")


def test_the_latin_check_is_silent_with_dejavu():
    require_part(DEJAVU.is_file(), "fonts-dejavu-core")
    assert fonts.latin_fonts().complete
    assert fonts.check_latin_font() == []
