"""Clean text from forms and files before it reaches the database.

PostgreSQL refuses a NUL byte that SQLite would store, and control characters make names
unprintable on a scorecard, so both are rejected with a message rather than stored.
"""

import unicodedata


def clean_text(value: str | None, *, label: str, max_length: int, required: bool) -> str:
    """Return the value stripped and NFC-normalised, or raise ValueError naming the label."""
    text = unicodedata.normalize("NFC", (value or "").strip())
    if "\x00" in text:
        raise ValueError(f"{label} contains a NUL character")
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        raise ValueError(f"{label} contains a control character")
    if required and not text:
        raise ValueError(f"{label} is empty")
    if len(text) > max_length:
        raise ValueError(f"{label} is longer than {max_length} characters")
    return text
