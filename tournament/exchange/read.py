"""A tournament file's bytes read as a JSON document: at most ``IMPORT_MAX_BYTES``, UTF-8,
JSON nested at most ``IMPORT_MAX_DEPTH`` levels, every number at most
``MAX_NUMBER_LENGTH`` characters long and finite (no NaN or Infinity), and a tournament file
of a version this software reads (``schema.READ_VERSIONS``); ImportRefused says why not.
Nothing else is checked here.

A number is measured before Python makes it an integer or a float (issue 48): an integer of
thousands of digits costs time to convert, and past 4,300 digits Python refuses it with a
ValueError of its own. The schema's widest numbers are 32-bit (-2147483648, 11 characters)
and an audit entry's data hold nothing wider than 64 bits (20 characters with the sign)."""

from __future__ import annotations

import json
import math
import re

from django.conf import settings

from tournament.exchange.problems import ImportRefused
from tournament.exchange.schema import FORMAT, READ_VERSIONS

MAX_NUMBER_LENGTH = 20  # -9223372036854775808, the smallest 64-bit integer


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
        document = json.loads(text, parse_int=_integer, parse_float=_float,
                              parse_constant=_constant)
    except _NumberRefused as refused:
        raise ImportRefused([f"{_where(text, refused.literal)}: {refused.reason}"]) from None
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
    if isinstance(version, bool) or version not in READ_VERSIONS:
        readable = ", ".join(str(v) for v in READ_VERSIONS[:-1]) + f" and {READ_VERSIONS[-1]}"
        raise ImportRefused([f"version: this software reads versions {readable} of the "
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


class _NumberRefused(Exception):
    def __init__(self, literal: str, reason: str):
        super().__init__(reason)
        self.literal, self.reason = literal, reason


def _too_long(literal: str) -> _NumberRefused:
    return _NumberRefused(literal, f"a number of {len(literal):,} characters ({literal[:12]}…); "
                                   f"a number in a tournament file has at most "
                                   f"{MAX_NUMBER_LENGTH} characters")


def _integer(literal: str) -> int:
    if len(literal) > MAX_NUMBER_LENGTH:
        raise _too_long(literal)
    return int(literal)


def _float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_LENGTH:
        raise _too_long(literal)
    value = float(literal)
    if not math.isfinite(value):  # 1e999
        raise _NumberRefused(literal, f"the number {literal} is too large for a number in a "
                                      f"tournament file")
    return value


def _constant(literal: str):
    raise _NumberRefused(literal, f"{literal} is not a number a tournament file holds (JSON "
                                  f"has no NaN or Infinity)")


# The file's tokens that hold a number or a constant, its texts (which may hold digits) read
# past whole.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?Infinity|NaN|-?[0-9][-+.eE0-9]*')


def _where(text: str, literal: str) -> str:
    """Where the refused number is in the file, as the JSON errors say it: "line 3, column
    12" (the first such number outside a text: the reader stops at the first)."""
    for token in _TOKENS.finditer(text):
        if token[0] == literal:
            at = token.start()
            line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
            return f"line {line}, column {column}"
    return "the file"
