"""How an import words what is wrong with a file: the exception that carries every
problem (``ImportRefused``), how many are said, how the messages name what the importer
chooses (``Door``: the command line's options or the import page's fields), and the two
phrasings every check shares (a value named, a key that appears twice)."""

from __future__ import annotations

import json
from dataclasses import dataclass

MAX_MESSAGES = 50


@dataclass(frozen=True)
class Door:
    """How the messages name what the importer chooses: the command line's options, or
    the import page's fields. Everything else a message says is the same at every door."""

    slug: str  # the new short name
    slug_hint: str  # how to give one
    account: str  # "{name}": the account a person of the file becomes
    account_hint: str  # "{name}": how to choose it


COMMAND_LINE = Door(slug="--slug", slug_hint="give the import another one with --slug",
                    account="--map-user {name}",
                    account_hint="map it with --map-user {name}=ACCOUNT (an existing "
                                 "account, or the name of a new one)")


class ImportRefused(Exception):
    """The file cannot be imported; ``messages`` says every reason found (nothing was
    written)."""

    def __init__(self, messages: list[str]):
        super().__init__("\n".join(messages))
        self.messages = messages


def unique_index(items, key, path: str, what: str, errors: list[str]) -> dict:
    """Index ``items`` by ``key``; a second item with the same key is an error."""
    seen: dict = {}
    for index, item in enumerate(items):
        value = key(item)
        if value in seen:
            errors.append(f"{path}[{index}]: {what} {show_value(value)} appears twice "
                          f"(also {path}[{seen[value][0]}])")
        else:
            seen[value] = (index, item)
    return seen


def show_value(value) -> str:
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return json.dumps(value, ensure_ascii=False)
