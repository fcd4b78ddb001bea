"""Which font prints Chinese in our PDFs, and the system check that tells when it is poor.

A TrueType font is embedded in the PDF, so any viewer draws the names. reportlab's CID font
STSong-Light is not embedded: a viewer without Chinese fonts draws boxes. So STSong is only
the fallback when no TrueType font is found: the ``PDF_CJK_FONT`` setting first, then
Debian's fonts-wqy-zenhei where Debian puts it.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core import checks
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont

log = logging.getLogger(__name__)

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
