"""The fonts of our PDFs, and the system checks that tell when they are poor.

Every font a printout uses is a TrueType font embedded in the PDF (a subset: the glyphs
used), so every viewer and printer draws the same letters, whatever fonts it has.

- Latin text (and whatever else the font has: Latin Extended, Greek, Cyrillic, the card
  suits, the minus sign) is DejaVu Sans and DejaVu Sans Bold, Debian's fonts-dejavu-core.
  Without it, reportlab's own Bitstream Vera (DejaVu's ancestor: the same shapes and
  widths, but only Western European letters) is embedded, and ``tournament.W003`` warns:
  names such as Erdős or Ștefan then fall to the Chinese font, which may lack them.
- Chinese is the ``PDF_CJK_FONT`` setting's font, else Debian's fonts-wqy-zenhei where
  Debian puts it. Only when there is no TrueType Chinese font at all does it fall back to
  reportlab's CID font STSong-Light, which is *not* embedded (a viewer without Chinese fonts
  draws boxes): ``tournament.W002`` warns, and ``W001`` when the setting names no usable
  font.

``tournament.pdf.base`` splits every text into runs by what the Latin font can print.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass
from pathlib import Path

import reportlab
from django.conf import settings
from django.core import checks
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont

log = logging.getLogger(__name__)

# Latin: Debian's DejaVu Sans, else the Vera that comes with reportlab (every machine).
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
DEJAVU_PACKAGE = "fonts-dejavu-core"
VERA = str(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf")
VERA_BOLD = str(Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf")
# Chinese
DEBIAN_FONT = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
DEBIAN_PACKAGE = "fonts-wqy-zenhei"
FALLBACK = "STSong-Light"
# The first bytes of the files reportlab can embed: TrueType outlines, alone or a collection.
# (OpenType with CFF outlines, "OTTO", it cannot.)
_TRUETYPE_MAGIC = (b"\x00\x01\x00\x00", b"true", b"ttcf")


@dataclass(frozen=True)
class FontChoice:
    path: str | None  # the TrueType file, or None for the CID fallback
    problem: str = ""  # why the configured font is not used, for the system check

    @property
    def embedded(self) -> bool:
        return self.path is not None


def _unusable(path: str) -> str:
    """Why a file cannot be embedded, or "" when it looks like a TrueType font. Only the
    header is read: the system check runs at every command and must stay cheap."""
    file = Path(path)
    if not file.is_file():
        return f"{path} does not exist or is not a file"
    try:
        with file.open("rb") as handle:
            magic = handle.read(4)
    except OSError as error:
        return f"{path} cannot be read ({error.strerror})"
    if magic not in _TRUETYPE_MAGIC:
        return f"{path} is not a TrueType font (.ttf or .ttc)"
    return ""


def choose(configured: str | None = None) -> FontChoice:
    """The setting's font when it can be used, else Debian's, else the CID fallback."""
    configured = settings.PDF_CJK_FONT if configured is None else configured
    problem = _unusable(configured) if configured else ""
    if configured and not problem:
        return FontChoice(configured)
    if not _unusable(DEBIAN_FONT):
        return FontChoice(DEBIAN_FONT, problem)
    return FontChoice(None, problem)


@functools.cache
def _register(path: str | None) -> str:
    """Load a font once per process (wqy-zenhei is 17 MB; loading it takes 0.1 s)."""
    if path is not None:
        # Named after its file, so that two settings in one process are two fonts.
        name = "CJK-" + Path(path).stem
        try:
            # A collection (.ttc) holds several faces; the first is the regular one.
            pdfmetrics.registerFont(TTFont(name, path, subfontIndex=0))
            return name
        except (TTFError, OSError) as error:
            # The header looked right but the font is broken: print with the fallback
            # rather than refuse the printout a director needs now.
            log.error("cannot embed the CJK font %s (%s); using %s", path, error, FALLBACK)
    pdfmetrics.registerFont(UnicodeCIDFont(FALLBACK))
    return FALLBACK


@dataclass(frozen=True, eq=False)  # one object per pair of files: compared by identity
class LatinFonts:
    regular: str  # the registered names
    bold: str
    run: re.Pattern  # one match a run: group 1 what these fonts print, group 2 the rest
    complete: bool  # DejaVu (Latin Extended, the suits), not Vera


def latin_fonts() -> LatinFonts:
    """The Latin fonts, regular and bold, registered on first use."""
    return _latin(DEJAVU, DEJAVU_BOLD)


@functools.lru_cache(maxsize=4)
def _latin(regular: str, bold: str) -> LatinFonts:
    # Looked for once per pair of paths (a test may point them elsewhere), not per text.
    complete = not _unusable(regular) and not _unusable(bold)
    if complete:
        try:
            fonts = _register_latin(regular), _register_latin(bold)
        except (TTFError, OSError) as error:
            log.error("cannot embed %s (%s); using reportlab's Vera", regular, error)
            complete = False
    if not complete:
        fonts = _register_latin(VERA), _register_latin(VERA_BOLD)
    return LatinFonts(fonts[0].fontName, fonts[1].fontName, _run_pattern(*fonts), complete)


@functools.cache
def _register_latin(path: str) -> TTFont:
    font = TTFont("Latin-" + Path(path).stem, path)
    pdfmetrics.registerFont(font)
    return font


def _run_pattern(*fonts: TTFont) -> re.Pattern:
    """A regular expression matching runs of what every one of ``fonts`` prints (their
    character maps, as ranges) and runs of the rest. ASCII whitespace goes with the Latin
    runs, so a space between two names does not switch fonts."""
    printable = {code for code in set.intersection(
        *(set(font.face.charToGlyph) for font in fonts)) if code >= 32}
    printable |= set(map(ord, " \t\n\r\f\v"))
    ranges = []
    for code in sorted(printable):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    char_class = "".join(
        re.escape(chr(first)) if first == last
        else f"{re.escape(chr(first))}-{re.escape(chr(last))}" for first, last in ranges)
    return re.compile(f"([{char_class}]+)|([^{char_class}]+)")


def cjk_font() -> str:
    """The registered name of the font for Chinese text, loaded on first use."""
    return _font(settings.PDF_CJK_FONT, DEBIAN_FONT)


@functools.lru_cache(maxsize=8)
def _font(configured: str, debian: str) -> str:
    # Looked for once per setting, not at every Chinese name of a document.
    return _register(choose(configured).path)


@checks.register()
def check_cjk_font(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    choice = choose()
    messages: list[checks.CheckMessage] = []
    if choice.problem:
        instead = (f"PDFs embed {choice.path} instead" if choice.embedded
                   else f"PDFs use the built-in {FALLBACK} instead")
        messages.append(checks.Warning(
            f"PDF_CJK_FONT is set but cannot be used: {choice.problem}; {instead}.",
            hint="Set PDF_CJK_FONT to the path of a TrueType font with Chinese characters "
                 "(.ttf or .ttc), or unset it to use Debian's " + DEBIAN_PACKAGE + ".",
            id="tournament.W001"))
    if not choice.embedded:
        messages.append(checks.Warning(
            "No TrueType font for Chinese was found: PDFs print Chinese names with the "
            f"built-in {FALLBACK}, which is not embedded, so viewers without Chinese fonts "
            "show boxes.",
            hint=f"Install the Debian package {DEBIAN_PACKAGE} (apt-get install "
                 f"{DEBIAN_PACKAGE}) or set PDF_CJK_FONT to a TrueType font's path.",
            id="tournament.W002"))
    return messages


@checks.register()
def check_latin_font(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    # Only the files' headers are read: registering the fonts waits for the first PDF.
    missing = next((problem for problem in map(_unusable, (DEJAVU, DEJAVU_BOLD)) if problem),
                   "")
    if not missing:
        return []
    return [checks.Warning(
        f"DejaVu Sans cannot be used ({missing}): PDFs embed reportlab's Vera instead, "
        "which lacks Latin Extended letters (ő, ș, ț, ě …); names with "
        "them print in the Chinese font, or as boxes where it lacks them too.",
        hint=f"Install the Debian package {DEJAVU_PACKAGE} (apt-get install "
             f"{DEJAVU_PACKAGE}).",
        id="tournament.W003")]
