"""What the export and the import share: times, the file's text form, the tournament's
fields, how the ids in the audit entries' data become natural keys, and how a stored
schedule's ids do."""

from __future__ import annotations

import datetime as dt
import json

from tournament.models import Tournament

UTC = dt.UTC

TOURNAMENT_FIELDS = (
    "name", "other_name", "slug", "starts_on", "ends_on", "venue", "federation", "time_zone",
    "status",
    "approvals_need_pin", "pin_attempts", "pin_lockout_minutes", *Tournament.RULE_FIELDS,
    "tiebreak_order", *Tournament.PUBLIC_FIELDS, "created_at", "updated_at",
)

# The keys of an audit entry's data that hold a database id, and what kind of row it is;
# the file holds the row's natural key instead (docs/formats.md).
AUDIT_REFERENCES = {
    "round": "round", "match": "match", "table": "table", "team": "team",
    "teams": "teams", "player": "player", "stage": "stage", "qualify_from": "stage",
    "source": "stage", "penalty": "penalty", "default": "penalty", "user": "user",
}
# Import and export entries describe a database and who took copies of it, not the event:
# left out of an export, so a file imported and exported again is the same file, and two
# exports of an unchanged tournament are the same bytes.
IMPORT_ACTION = "tournament.import"
EXPORT_ACTION = "tournament.export"
DATABASE_ACTIONS = (IMPORT_ACTION, EXPORT_ACTION)


def utc_text(value: dt.datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_utc(text: str | None) -> dt.datetime | None:
    if text is None:
        return None
    # The schema checked the form (…T09:30:00.123456Z); fromisoformat reads it quickly
    # and refuses a day or hour that does not exist.
    return dt.datetime.fromisoformat(text)


def dump(document: dict) -> str:
    """The file's text: sorted keys, two-space indentation, UTF-8 as it is, a final line
    break, so one tournament always gives the same bytes."""
    return json.dumps(document, ensure_ascii=False, sort_keys=True, indent=1,
                      separators=(",", ": "), allow_nan=False) + "\n"


def map_schedule(schedule, team, group):
    """A stored schedule with its teams and groups passed through ``team`` and ``group``
    (ids to natural keys on export, back on import)."""
    if schedule is None:
        return None
    out = dict(schedule)
    if "groups" in schedule:
        out["groups"] = {group(name): [[[team(t) for t in board] for board in boards]
                                       for boards in rounds]
                         for name, rounds in schedule["groups"].items()}
    if "bracket" in schedule:
        out["bracket"] = [[team(t) for t in board] for board in schedule["bracket"]]
    if "swaps" in schedule:
        out["swaps"] = [{**swap, **({"group": group(swap["group"])} if "group" in swap else {}),
                         "teams": [team(t) for t in swap["teams"]]}
                        for swap in schedule["swaps"]]
    return out
