"""Every text of a tournament file checked by the rules of the pages (``services.text``):
no NUL, no control character, and in what people type (names, reasons) no line break or
invisible character, within the services' lengths; each problem named by its path."""

from __future__ import annotations

import re

from tournament.exchange.problems import MAX_MESSAGES
from tournament.exchange.validator import path_of
from tournament.services.text import clean_text

# Text typed by people, by the key it is under: the rules of ``services.text.clean_text``
# (no control character, line break or invisible character) and the services' lengths
# where the schema gives none. Every other text: no NUL and no control character but tab
# and line breaks (an audit entry's words, a device's name are made by the software).
_TYPED = {"name": None, "venue": None, "country": None, "federation_id": None,
          "other_name": None, "federation": None,
          "first_name": None, "last_name": None, "public_value": None,
          "reason": 1000, "undo_reason": 1000, "replaced_reason": 500,
          "publish_override_reason": 500}
_HAND_REASON = 500  # a referee's correction (services.signoff)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _text_problem(value: str, key: str, under_data: bool, in_hand: bool) -> str | None:
    """What is wrong with one text of the file (under ``key``), or None."""
    if key in _TYPED and not under_data:
        limit = _HAND_REASON if key == "reason" and in_hand else _TYPED[key]
        try:
            clean_text(value, label="the text", max_length=limit or len(value) + 1,
                       required=False)
        except ValueError as error:
            return str(error).removeprefix("the text ")
        return None
    if "\x00" in value:
        return "contains a NUL character"
    found = _CONTROL.search(value)
    if found is not None:
        return f"contains a control character (U+{ord(found.group()):04X})"
    return None


def check_texts(document: dict, errors: list[str]) -> None:
    """Every text of the file by the rules of the pages, each problem with its path. A
    first walk only looks (a big file has millions of texts); the paths are worked out
    when it finds something."""
    stack: list[tuple[object, str, bool, bool]] = [(document, "", False, False)]
    while stack:
        value, key, under_data, in_hand = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, name, under_data or key == "data", in_hand or key == "hands")
                         for name, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, key, under_data, in_hand or key == "hands") for item in value)
        elif isinstance(value, str) and _text_problem(value, key, under_data, in_hand):
            break
    else:
        return
    paths: list[tuple[object, tuple]] = [(document, ())]
    while paths and len(errors) < MAX_MESSAGES:
        value, path = paths.pop()
        if isinstance(value, dict):
            paths.extend((item, (*path, name)) for name, item in value.items())
        elif isinstance(value, list):
            paths.extend((item, (*path, index)) for index, item in enumerate(value))
        elif isinstance(value, str):
            keys = [part for part in path if isinstance(part, str)]
            key = keys[-1] if keys else ""
            problem = _text_problem(value, key, "data" in keys[:-1], "hands" in keys)
            if problem:
                errors.append(f"{path_of(list(path))}: {problem}")
