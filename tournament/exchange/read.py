"""A tournament file's bytes read as a JSON document: at most ``IMPORT_MAX_BYTES``, UTF-8,
JSON nested at most ``IMPORT_MAX_DEPTH`` levels, and a tournament file of the version this
software reads; ImportRefused says why not. Nothing else is checked here."""

from __future__ import annotations

import json

from django.conf import settings

from tournament.exchange.problems import ImportRefused
from tournament.exchange.schema import FORMAT, VERSION


def max_bytes() -> int:
    return getattr(settings, "IMPORT_MAX_BYTES", 100 * 1024 * 1024)


def max_depth() -> int:
    return getattr(settings, "IMPORT_MAX_DEPTH", 64)


def too_large(size: int) -> ImportRefused:
    return ImportRefused([f"the file is {size:,} bytes; at most {max_bytes():,} are read "
                          f"(setting IMPORT_MAX_BYTES)"])


def read_document(data: bytes) -> dict:
    """The file's JSON, or ImportRefused saying why it is not a tournament file."""
    if len(data) > max_bytes():
        raise too_large(len(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportRefused([f"the file is not UTF-8 text (byte {error.start})"]) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImportRefused([f"the file is not JSON: line {error.lineno}, column "
                             f"{error.colno}: {error.msg}"]) from None
    except RecursionError:  # nested far deeper than any tournament file
        raise ImportRefused([_too_deep()]) from None
    if _depth(document) > max_depth():
        raise ImportRefused([_too_deep()])
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused([f"format: this is not a tournament file (it must say "
                             f"\"format\": \"{FORMAT}\")"])
    version = document.get("version")
    if version != VERSION:
        raise ImportRefused([f"version: this software reads version {VERSION} of the "
                             f"tournament file, not version {json.dumps(version)}"])
    return document


def _too_deep() -> str:
    return (f"the file nests more than {max_depth()} levels of lists and objects "
            f"(setting IMPORT_MAX_DEPTH); a tournament file has fewer than 10")


def _depth(document) -> int:
    """How deep lists and objects nest (without recursion: the file is not trusted)."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            values = value.values()
        elif isinstance(value, list):
            values = value
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > max_depth():
            return deepest
        stack.extend((item, depth + 1) for item in values
                     if isinstance(item, (dict, list)))
    return deepest
