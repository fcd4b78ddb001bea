"""An older tournament file read as the current version (issue 52; docs/formats.md).

A version 1 or 2 file has no federation for its tournament and no person behind its
players: read as version 3, the tournament's federation is empty and each player is the
person of their own name and federation id, with no federation (so the import makes a new
person for each: two players are one person only by a federation and its id). The history
of a version 2 file gives each version of the tournament an empty federation. The file's
``version`` stays as it was: what else it lacks (a version 1 file has no history) is read
by its version.
"""

from __future__ import annotations

from tournament.exchange.schema import VERSION


def as_current(document: dict) -> dict:
    """The file as version 3 reads it (the file itself unchanged)."""
    if document.get("version") == VERSION:
        return document
    upgraded = {**document, "tournament": {**document["tournament"], "federation": ""}}
    upgraded["teams"] = [
        {**team, "players": [{**player, "person": person_of(player)}
                             for player in team["players"]]}
        for team in document["teams"]]
    if "history" in document:
        history = document["history"]
        upgraded["history"] = {**history, "tournament": [
            {**version, "fields": {**version["fields"], "federation": ""}}
            for version in history["tournament"]]}
    return upgraded


def person_of(player: dict) -> dict:
    """The person behind a player of an older file: their own name and id."""
    return {"name": player["name"], "other_name": "", "federation": "",
            "federation_id": player["federation_id"], "country": ""}
