"""The JSON Schema of each older version of the tournament file this software reads, made
from the current one (``schema.py``) by taking out what each version added."""

from __future__ import annotations

from tournament.exchange.schema import (
    HISTORY,
    PLAYER,
    SCHEMA,
    STAGE_OBJECT,
    TOURNAMENT,
    VERSION,
    _array,
    _versions,
)


def _without(node: dict, name: str) -> dict:
    """An object's schema without one of its properties."""
    return {**node, "properties": {k: v for k, v in node["properties"].items() if k != name},
            "required": [k for k in node["required"] if k != name]}


def _with_items(array: dict, items: dict) -> dict:
    return {**array, "items": items}


def _version_3() -> dict:
    """Version 3: version 4 without the names in the other script (the tournament's, the
    teams' and the stages', in the history too)."""
    properties = dict(SCHEMA["properties"])
    tournament = _without(TOURNAMENT, "other_name")
    properties["tournament"] = tournament
    properties["teams"] = _with_items(properties["teams"],
                                      _without(properties["teams"]["items"], "other_name"))
    properties["stages"] = _with_items(properties["stages"],
                                       _without(STAGE_OBJECT, "other_name"))
    history = HISTORY["properties"]
    properties["history"] = {**HISTORY, "properties": {
        **history,
        "tournament": _versions({}, tournament["properties"]),
        **{kind: _with_items(history[kind], _without_field(history[kind]["items"]))
           for kind in ("teams", "stages")}}}
    properties["version"] = {"const": 3}
    return {**SCHEMA, "properties": properties}


def _without_field(version: dict) -> dict:
    """A history version's schema without ``other_name`` among its fields."""
    fields = version["properties"]["fields"]
    return {**version, "properties": {**version["properties"],
                                      "fields": _without(fields, "other_name")}}


def _version_2() -> dict:
    """Version 2: version 3 without the tournament's federation and the players' persons."""
    three = _version_3()
    properties = dict(three["properties"])
    teams = properties["teams"]["items"]
    properties["tournament"] = _without(properties["tournament"], "federation")
    properties["teams"] = {**properties["teams"], "items": {**teams, "properties": {
        **teams["properties"],
        "players": _array(_without(PLAYER, "person"), min_items=2, max_items=3)}}}
    properties["history"] = {**properties["history"], "properties": {
        **properties["history"]["properties"],
        "tournament": _versions({}, properties["tournament"]["properties"])}}
    properties["version"] = {"const": 2}
    return {**three, "properties": properties}


def _version_1() -> dict:
    """Version 1: version 2 without the history."""
    two = _version_2()
    properties = {name: node for name, node in two["properties"].items() if name != "history"}
    return {**two, "properties": {**properties, "version": {"const": 1}},
            "required": [name for name in two["required"] if name != "history"]}


# The schema of each version this software reads.
SCHEMAS = {1: _version_1(), 2: _version_2(), 3: _version_3(), VERSION: SCHEMA}
