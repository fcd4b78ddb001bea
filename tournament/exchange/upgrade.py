"""An older tournament file read as the current version (issues 52 and 56; docs/formats.md).

A version 1, 2 or 3 file has no name in the other script for its tournament, teams and
stages: read as version 4, each is empty (in the history too). A version 1 or 2 file has
no federation for its tournament and no person behind its players either: the tournament's
federation is empty and each player is the person of their own name and federation id, with
no federation (so the import makes a new person for each: two players are one person only
by a federation and its id). The history of a version 2 file gives each version of the
tournament an empty federation. The file's ``version`` stays as it was: what else it lacks
(a version 1 file has no history) is read by its version.
"""

from __future__ import annotations

from tournament.exchange.schema import VERSION


def as_current(document: dict) -> dict:
    """The file as version 4 reads it (the file itself unchanged)."""
    version = document.get("version")
    if version == VERSION:
        return document
    upgraded = _with_other_names(document)
    if version == 3:
        return upgraded
    upgraded["tournament"] = {**upgraded["tournament"], "federation": ""}
    upgraded["teams"] = [
        {**team, "players": [{**player, "person": person_of(player)}
                             for player in team["players"]]}
        for team in upgraded["teams"]]
    if "history" in upgraded:
        history = upgraded["history"]
        upgraded["history"] = {**history, "tournament": [
            {**version, "fields": {**version["fields"], "federation": ""}}
            for version in history["tournament"]]}
    return upgraded


def _with_other_names(document: dict) -> dict:
    """A file of before version 4 with an empty name in the other script everywhere."""
    upgraded = {**document,
                "tournament": {**document["tournament"], "other_name": ""},
                "teams": [{**team, "other_name": ""} for team in document["teams"]],
                "stages": [{**stage, "other_name": ""} for stage in document["stages"]]}
    if "history" in document:
        history = document["history"]
        upgraded["history"] = {**history, **{
            kind: [{**version, "fields": {**version["fields"], "other_name": ""}}
                   for version in history[kind]]
            for kind in ("tournament", "teams", "stages")}}
    return upgraded


def person_of(player: dict) -> dict:
    """The person behind a player of an older file: their own name and id."""
    return {"name": player["name"], "other_name": "", "federation": "",
            "federation_id": player["federation_id"], "country": ""}
