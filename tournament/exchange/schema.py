"""The JSON Schema of a tournament file (docs/formats.md prints it): what each part of the
file holds, of which type, within which bounds. ``validator.py`` checks a file against it
and words each problem with its path; what the schema cannot say (references between
parts, uniqueness, the scores) the import checks next (``check.py``, ``check_rounds.py``).
"""

from __future__ import annotations

FORMAT = "duplicate-gin-tournament"
# Version 4 (issue 56) carries the name in the other script of the tournament, its teams and
# its stages; version 3 (issue 52), without them, the tournament's federation and the person
# behind each player; version 2 (issue 50), without those, the history of the rows; version
# 1, written before, is version 2 without the history. All four are read (their schemas:
# ``schema_versions.py``; an older file is read as version 4 by ``upgrade.py``).
VERSION = 4
READ_VERSIONS = (1, 2, 3, 4)

UTC_TIME = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$"
DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
CODE = r"^[A-Z0-9][A-Z0-9-]{0,9}$"
HEX64 = r"^[0-9a-f]{64}$"
CARD = r"(?:[A23456789TJQK][SHDC])"
DEAL_CARDS = rf"^{CARD}(?: {CARD}){{51}}$"
USERNAME = r"^[\w.@+-]{1,150}$"


def _int(low: int | None = None, high: int | None = None, *, null: bool = False) -> dict:
    node: dict = {"type": ["integer", "null"] if null else "integer"}
    if low is not None:
        node["minimum"] = low
    if high is not None:
        node["maximum"] = high
    return node


def _str(max_length: int | None = None, *, min_length: int = 0, null: bool = False,
         pattern: str | None = None, description: str | None = None) -> dict:
    node: dict = {"type": ["string", "null"] if null else "string"}
    if min_length:
        node["minLength"] = min_length
    if max_length is not None:
        node["maxLength"] = max_length
    if pattern:
        node["pattern"] = pattern
    if description:
        node["description"] = description
    return node


def _time(*, null: bool = False) -> dict:
    return _str(null=null, pattern=UTC_TIME,
                description="a UTC time written like 2026-11-20T09:30:00.000000Z")


def _enum(*values, null: bool = False) -> dict:
    return {"enum": [*values, None] if null else list(values)}


def _bool() -> dict:
    return {"type": "boolean"}


def _object(properties: dict, *, optional: tuple = ()) -> dict:
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional],
            "additionalProperties": False}


def _array(items: dict, *, min_items: int = 0, max_items: int | None = None) -> dict:
    node: dict = {"type": "array", "items": items}
    if min_items:
        node["minItems"] = min_items
    if max_items is not None:
        node["maxItems"] = max_items
    return node


SMALL = 32767  # a PositiveSmallIntegerField
NAME = _str(100, min_length=1)
PERSON = _str(150, null=True, pattern=USERNAME, description="a user name (letters, digits "
              "and @ . + - _) or null")
SOMEONE = _str(150, pattern=USERNAME, description="a user name (letters, digits and @ . + - _)")
TEAM = _str(10, pattern=CODE, description="a team code of the file's teams")
SEAT = _int(1, 2)
DEADWOOD = _int(0, 98, null=True)
STAGE = _str(60, min_length=1)

TOURNAMENT = _object({
    "name": _str(120, min_length=1),
    "other_name": _str(120),
    "slug": _str(50, min_length=1, pattern=r"^[-a-zA-Z0-9_]+$",
                 description="letters, digits, hyphens and underscores"),
    "starts_on": _str(pattern=DATE, description="a date written like 2026-11-20"),
    "ends_on": _str(pattern=DATE, description="a date written like 2026-11-22"),
    "venue": _str(200),
    "federation": _str(20),
    "time_zone": _str(64, min_length=1),
    "status": _enum("setup", "running", "finished"),
    "approvals_need_pin": _bool(),
    "pin_attempts": _int(1, 20),
    "pin_lockout_minutes": _int(1, 24 * 60),
    "hands_per_match": _int(1, 64),
    "knock_limit": _int(1, 99),
    "knock_bonus": _int(0, SMALL),
    "gin_bonus": _int(0, SMALL),
    "undercut_bonus": _int(0, SMALL),
    "big_gin_bonus": _int(0, SMALL),
    "draw_rule": _enum("stock_exhausted", "two_cards_left"),
    "match_points_win": _int(0, SMALL),
    "match_points_tie": _int(0, SMALL),
    "match_points_loss": _int(0, SMALL),
    "match_points_bye": _int(0, SMALL),
    "small_points_bye": _int(0, SMALL),
    "match_points_forfeit_win": _int(0, SMALL),
    "match_points_forfeit_loss": _int(0, SMALL),
    "small_points_forfeit": _int(0, SMALL),
    "deal_scope": _enum("round", "match"),
    "knockout_tiebreak_hands": _int(1, 16),
    "lateness_limit_minutes": _int(0, SMALL),
    "field_minimum_hands": _int(0, SMALL),
    "tiebreak_order": _str(100),
    "live_results": _enum("closed", "finished_boxes", "live"),
    "public_standings": _bool(),
    "public_results": _bool(),
    "public_players": _bool(),
    "public_penalties": _bool(),
    "anomaly_threshold": _int(0, SMALL),
    "box_balance_threshold": _int(0, SMALL),
    "created_at": _time(),
    "updated_at": _time(),
})

# The person behind a player (models/person.py): linked on import to the person of the same
# federation and federation id when both are given and such a person exists, else made.
PLAYER_PERSON = _object({
    "name": NAME,
    "other_name": _str(100),
    "federation": _str(20),
    "federation_id": _str(30),
    "country": _str(100),
})

PLAYER = _object({
    "number": _int(1, 3),
    "name": NAME,
    "person": PLAYER_PERSON,
    "federation_id": _str(30),
    "reserve": _bool(),
    "pin_hash": _str(128, null=True),
    "pin_failures": _int(0, SMALL),
    "pin_locked_until": _time(null=True),
})

DEAL = _object({
    "set": _int(1, 2**31 - 1),
    "hand": _int(1, SMALL),
    "reserve": _int(0, SMALL),
    "key": _int(1, SMALL),
    "cards": _str(155, pattern=DEAL_CARDS,
                  description="the 52 cards in dealing order, like \"KS KH …\""),
    "current": _bool(),
    "replaced_reason": _str(),
    "replaced_at": _time(null=True),
    "created_at": _time(),
})

HAND = _object({
    "hand": _int(1, SMALL),
    "version": _int(1, 2**31 - 1),
    "current": _bool(),
    "deal": {"type": ["object", "null"], "properties": {"set": _int(1, 2**31 - 1),
                                                       "reserve": _int(0, SMALL)},
             "required": ["set", "reserve"], "additionalProperties": False},
    "outcome": _enum("knock", "undercut", "gin", "big_gin", "draw"),
    "declarer_seat": _int(1, 2, null=True),
    "declarer_deadwood": DEADWOOD,
    "opponent_deadwood": DEADWOOD,
    "false_knock_seat": _int(1, 2, null=True),
    "false_knock_deadwood": DEADWOOD,
    "seat1_points": _int(-(2**31), 2**31 - 1),
    "seat2_points": _int(-(2**31), 2**31 - 1),
    "explanation": _str(200),
    "cards": {"description": "the hands as entered in cards mode, or null"},
    "box_conflict": _str(),
    "entered_by": SOMEONE,
    "entered_at": _time(),
    "ip_address": _str(45, null=True),
    "device": _str(200),
    "reason": _str(),
    "approvals": _array(_object({
        "seat": SEAT,
        "method": _enum("tap", "pin", "paper"),
        "approved_at": _time(),
        "recorded_by": SOMEONE,
    }), max_items=2),
})

TABLE = _object({
    "number": _int(1, 2**31 - 1),
    "position": _int(1, 2),
    "hands": _array(HAND),
    "signatures": _array(_object({
        "seat": SEAT,
        "method": _enum("tap", "pin", "paper"),
        "signed_at": _time(),
        "recorded_by": SOMEONE,
    }), max_items=2),
})

MATCH = _object({
    "number": _int(1, SMALL),
    "group": _str(20, null=True),
    "home": TEAM,
    "away": TEAM,
    "home_players": _array(_int(1, 3), min_items=2, max_items=2),
    "away_players": _array(_int(1, 3), min_items=2, max_items=2),
    "extra_hands": _int(0, SMALL),
    "home_total": _int(-(2**31), 2**31 - 1, null=True),
    "away_total": _int(-(2**31), 2**31 - 1, null=True),
    "signed_off_at": _time(null=True),
    "signed_off_by": PERSON,
    "forfeited_by": _str(10, null=True, pattern=CODE, description="a team code or null"),
    "tables": _array(TABLE, max_items=2),
})

TEAM_RESULT = _object({
    "team": TEAM,
    "match": _int(1, SMALL, null=True),
    "opponent": _str(10, null=True, pattern=CODE, description="a team code or null"),
    "outcome": _enum("win", "tie", "loss", "bye"),
    "small_points": _int(-(2**31), 2**31 - 1),
    "match_points": _int(-(2**31), 2**31 - 1),
    "gins": _int(0, SMALL),
    "forfeit": _bool(),
    "void": _bool(),
    "provisional": _bool(),
    "updated_at": _time(),
})

ROUND = _object({
    "stage": STAGE,
    "number": _int(1, SMALL),
    "status": _enum("draft", "published", "in_play", "closed"),
    "rules": {"type": "object", "description": "the rules the round is played under "
              "(scoring.Rules.to_dict), frozen when it was drawn"},
    "created_at": _time(),
    "published_at": _time(null=True),
    "started_at": _time(null=True),
    "closed_at": _time(null=True),
    "publish_override_reason": _str(),
    "deals": {"type": ["array", "null"], "items": DEAL,
              "description": "null: left out (a round not closed, exported without secrets)"},
    "byes": _array(TEAM),
    "matches": _array(MATCH),
    "team_results": _array(TEAM_RESULT),
})

STAGE_OBJECT = _object({
    "name": STAGE,
    "other_name": _str(60),
    "kind": _enum("groups", "swiss", "knockout"),
    "order": _int(0, SMALL),
    "swiss_rounds": _int(1, SMALL, null=True),
    "third_place_match": _bool(),
    "schedule": {"type": ["object", "null"], "description": "the stored pairing plan "
                 "(services.schedules) with team codes and group names for database ids"},
    "qualify_from": _str(60, null=True),
    "qualifiers_per_group": _int(0, SMALL, null=True),
    "extra_qualifiers": _int(0, SMALL),
    "groups": _array(_object({"name": _str(20, min_length=1), "order": _int(0, SMALL)})),
    "teams": _array(_object({"team": TEAM, "group": _str(20, null=True),
                             "position": _int(1, SMALL)})),
})

PENALTY = _object({
    "team": TEAM,
    "player": _int(1, 3, null=True),
    "stage": STAGE,
    "round": _int(1, SMALL),
    "match": _int(1, SMALL, null=True),
    "kind": _enum("warning", "small_points", "match_points", "lateness", "default",
                  "disqualification"),
    "amount": _int(0, SMALL),
    "minutes": _int(0, SMALL, null=True),
    "reason": _str(min_length=1),
    "recorded_by": SOMEONE,
    "recorded_at": _time(),
    "undone_at": _time(null=True),
    "undone_by": PERSON,
    "undo_reason": _str(),
})

AUDIT = _object({
    "at": _time(),
    "actor": PERSON,
    "actor_name": _str(150),
    "action": _str(60, min_length=1),
    "summary": _str(description="an older entry's sentence as it was recorded (English); "
                    "empty for the others, whose sentence is written from action and data "
                    "when shown"),
    "data": {"type": "object", "description": "the entry's data; database ids replaced by "
             "natural keys (see the table above)"},
    "ip_address": _str(45, null=True),
})

CODE_OR_NULL = _str(10, null=True, pattern=CODE, description="a team code or null")


def _versions(row: dict, fields: dict) -> dict:
    """The history of one kind of row: each version as it was saved, oldest first; the
    row named by ``row`` (its natural key), its fields as the model names them."""
    return _array(_object({
        **row,
        "at": _time(),
        "type": {"enum": ["+", "~", "-"], "description": "+ created, ~ changed, - deleted"},
        "user": PERSON,
        "reason": _str(100, null=True),
        "fields": _object(fields),
    }))


HISTORY = _object({
    "tournament": _versions({}, TOURNAMENT["properties"]),
    "teams": _versions({"team": TEAM}, {
        "name": NAME, "other_name": _str(100), "code": TEAM, "country": _str(100),
        "seed": _int(1, 2**31 - 1, null=True)}),
    "players": _versions({"team": TEAM, "player": _int(1, 3)}, {
        "team": CODE_OR_NULL, "name": NAME, "federation_id": _str(30),
        "number": _int(1, 3), "is_reserve": _bool()}),
    "stages": _versions({"stage": STAGE}, {
        **{name: STAGE_OBJECT["properties"][name] for name in (
            "name", "other_name", "kind", "order", "swiss_rounds", "third_place_match",
            "schedule",
            "qualify_from", "qualifiers_per_group", "extra_qualifiers")}}),
    "rounds": _versions({"stage": STAGE, "round": _int(1, SMALL)}, {
        "stage": _str(60, null=True),
        **{name: ROUND["properties"][name] for name in (
            "number", "status", "created_at", "published_at", "started_at", "closed_at",
            "publish_override_reason")},
        "rule_settings": ROUND["properties"]["rules"]}),
    "matches": _versions({"stage": STAGE, "round": _int(1, SMALL), "match": _int(1, SMALL)}, {
        "round": _int(1, SMALL, null=True),
        **{name: MATCH["properties"][name] for name in (
            "number", "group", "extra_hands", "home_total", "away_total", "signed_off_at",
            "signed_off_by", "forfeited_by")},
        "home": CODE_OR_NULL, "away": CODE_OR_NULL, "revision": _int(0, 2**31 - 1)}),
    "round_entries": _versions({"stage": STAGE, "round": _int(1, SMALL), "team": TEAM}, {
        "round": _int(1, SMALL, null=True), "team": CODE_OR_NULL,
        "match": _int(1, SMALL, null=True), "side": _enum("home", "away", "bye"),
        "first_player": _int(1, 3, null=True), "second_player": _int(1, 3, null=True)}),
})

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A Duplicate Gin tournament",
    **_object({
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "secrets": _bool(),
        "tournament": TOURNAMENT,
        "people": _array(_object({"username": SOMEONE, "first_name": _str(150),
                                  "last_name": _str(150)})),
        "staff": _array(_object({"user": SOMEONE,
                                 "role": _enum("director", "referee", "scorer"),
                                 "chief_referee": _bool()})),
        "teams": _array(_object({
            "code": TEAM,
            "name": NAME,
            "other_name": _str(100),
            "country": _str(100),
            "seed": _int(1, 2**31 - 1, null=True),
            "players": _array(PLAYER, min_items=2, max_items=3),
        })),
        "deal_keys": _array(_object({
            "number": _int(1, SMALL),
            "secret": _str(null=True, pattern=HEX64,
                           description="64 hexadecimal digits (0-9, a-f), or null when left out"),
            "commitment": _str(pattern=HEX64, description="64 hexadecimal digits (0-9, a-f)"),
            "public_value": _str(200),
            "public_value_set_at": _time(null=True),
            "revealed_at": _time(null=True),
            "created_at": _time(),
        })),
        "stages": _array(STAGE_OBJECT),
        "rounds": _array(ROUND),
        "penalties": _array(PENALTY),
        "audit": _array(AUDIT),
        "history": HISTORY,
    }),
}
