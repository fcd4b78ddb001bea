"""Clean text from forms and files before it reaches the database.

PostgreSQL refuses a NUL byte that SQLite would store, control characters make names
unprintable on a scorecard, and invisible characters (zero-width spaces and joiners,
text-direction overrides, format characters) make two names that look the same differ, or
make a name read differently from what is stored. All of them are refused with a message
naming the character by its code point rather than stored (docs/formats.md).
"""

import unicodedata

from django.utils.translation import gettext, gettext_lazy

# Characters that change the direction text is shown in (Unicode bidi controls, marks and
# isolates): "\u202egniR" is stored one way and read the other.
_DIRECTION_CHARACTERS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85")
# Letters by category that show nothing: the Hangul fillers.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")

# "%(label)s contains a line break (U+000A)": the label and the code point are filled in.
_LINE_BREAK = gettext_lazy("%(label)s contains a line break (U+%(code)s)")
_CONTROL = gettext_lazy("%(label)s contains a control character (U+%(code)s)")
_DIRECTION = gettext_lazy("%(label)s contains an invisible text-direction character "
                          "(U+%(code)s)")
_INVISIBLE = gettext_lazy("%(label)s contains an invisible character (U+%(code)s)")


def _problem(ch: str):
    """What is wrong with one character in a name, or None when it may stay."""
    category = unicodedata.category(ch)
    if ch in _LINE_BREAKS or category in ("Zl", "Zp"):
        return _LINE_BREAK
    if category == "Cc":
        return _CONTROL
    if ch in _DIRECTION_CHARACTERS:
        return _DIRECTION
    if category == "Cf" or ch in _BLANK_LETTERS:
        return _INVISIBLE
    return None


def clean_text(value: str | None, *, label: str, max_length: int, required: bool) -> str:
    """Return the value stripped and NFC-normalised, or raise ValueError naming the label
    (a translatable name such as ``gettext_lazy("team name")``), in the reader's language."""
    text = unicodedata.normalize("NFC", (value or "").strip())
    if "\x00" in text:
        raise ValueError(gettext("%(label)s contains a NUL character") % {"label": label})
    for ch in text:
        problem = _problem(ch)
        if problem:
            raise ValueError(str(problem) % {"label": label, "code": f"{ord(ch):04X}"})
    if required and not text:
        raise ValueError(gettext("%(label)s is empty") % {"label": label})
    if len(text) > max_length:
        raise ValueError(gettext("%(label)s is longer than %(limit)d characters")
                         % {"label": label, "limit": max_length})
    return text


def parse_whole_number(text: str | None) -> int | None:
    """The whole number written in the ASCII digits 0-9 (spaces around it allowed), or None.

    ``str.isdigit`` and ``int`` take far more: "²" and "①" pass isdigit and then fail
    int, "٣" (Arabic-Indic three) and U+FF11 (full-width one) become 3 and 1, "1_000" is a
    thousand. A seed or a number on a form is typed with 0-9, so anything else is refused.
    """
    text = (text or "").strip()
    if not text or not text.isascii() or not text.isdigit():
        return None
    try:
        return int(text)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        return None
