"""The change history of a tournament's rows in its file (issue 50; docs/formats.md,
"Tournament file", "History").

django-simple-history keeps a version of a tracked row (the tournament, its teams,
players, stages, rounds, matches and round entries) each time it is saved. The file's
``history`` lists, for each kind of row, every version of the rows the tournament has,
oldest first (by time, then in the order they were saved): the row by its natural key,
when, created (``+``), changed (``~``) or deleted (``-``), by whom (a user name), the
reason given, and the row's tracked fields as they were, by the model's field names, every
reference by the file's keys, never a database id. Where the row is places the references
inside its fields: a round is its number in the row's stage, a match its number in the
row's round, a group its name in the row's stage, a player its number in the version's
team. A reference to a row no longer in the tournament is null (and a stored schedule's
group no longer there is left out of that version). What the history leaves out the file
leaves out too: a player's PIN hash, failures and lock are not tracked.

``export_history`` writes the part, ``HistoryChecks`` checks it before anything is written
(``check.ImportPlan`` inherits it), ``write_history`` writes the versions with the new
rows' ids, and ``write_created`` gives each row of a version 1 file (written before the
history travelled) the one "created" version the services would have written.
"""

from __future__ import annotations

import datetime as dt

from tournament.exchange.common import TOURNAMENT_FIELDS, map_schedule, parse_utc, utc_text
from tournament.models import Match, Player, Round, RoundEntry, Stage, Team, Tournament

# How each tracked field is written: as it is, or a reference (by the file's keys).
VALUE, TIME, DATE, SCHEDULE = "value", "time", "date", "schedule"
TEAM, STAGE, ROUND, MATCH, GROUP, PLAYER, USER = (
    "team", "stage", "round", "match", "group", "player", "user")

# The file's name of each kind of row, its model, the keys naming a row, and its fields
# (every tracked field but the row's id and its tournament, which is the file's).
TRACKED = {
    "tournament": (Tournament, (), {
        name: TIME if name.endswith("_at") else DATE if name.endswith("_on") else VALUE
        for name in TOURNAMENT_FIELDS}),
    "teams": (Team, ("team",), dict.fromkeys(("name", "other_name", "code", "country", "seed"),
                                             VALUE)),
    "players": (Player, ("team", "player"), {
        "team": TEAM, **dict.fromkeys(("name", "federation_id", "number", "is_reserve"),
                                      VALUE)}),
    "stages": (Stage, ("stage",), {
        **dict.fromkeys(("name", "other_name", "kind", "order", "swiss_rounds",
                         "third_place_match",
                         "qualifiers_per_group", "extra_qualifiers"), VALUE),
        "schedule": SCHEDULE, "qualify_from": STAGE}),
    "rounds": (Round, ("stage", "round"), {
        "stage": STAGE, **dict.fromkeys(("number", "status", "rule_settings",
                                         "publish_override_reason"), VALUE),
        **dict.fromkeys(("created_at", "published_at", "started_at", "closed_at"), TIME)}),
    "matches": (Match, ("stage", "round", "match"), {
        "round": ROUND, "group": GROUP, "home": TEAM, "away": TEAM, "forfeited_by": TEAM,
        "signed_off_by": USER, "signed_off_at": TIME,
        **dict.fromkeys(("number", "extra_hands", "revision", "home_total", "away_total"),
                        VALUE)}),
    "round_entries": (RoundEntry, ("stage", "round", "team"), {
        "round": ROUND, "team": TEAM, "match": MATCH, "side": VALUE,
        "first_player": PLAYER, "second_player": PLAYER}),
}
# The reason of the one version a row of a version 1 file is given.
CREATED_REASON = "imported from a version 1 tournament file, which has no history"


def _column(model, name: str) -> str:
    """The history table's column of a field (``home_id`` for ``home``)."""
    return model._meta.get_field(name).attname


def tracked_fields(model) -> set[str]:
    """The fields the history model keeps of ``model`` (by field name), its id aside."""
    return {field.name for field in model.history.model.tracked_fields} - {"id"}


# Export ------------------------------------------------------------------------------------

def export_history(ex) -> dict:
    """The ``history`` part of the file, from the exporter ``ex`` (export._Exporter, which
    has read the rows and knows their natural keys)."""
    t = ex.t
    entries = RoundEntry.objects.filter(round__stage__tournament=t).values_list(
        "pk", "round_id", "team_id")
    rows = {
        "tournament": ({t.pk: ()}, Tournament.objects.filter(pk=t.pk)),
        "teams": ({pk: (code,) for pk, code in ex.code.items()},
                  Team.objects.filter(tournament=t)),
        "players": ({pk: (ex.code[team], number) for pk, (team, number) in ex.player.items()},
                    Player.objects.filter(team__tournament=t)),
        "stages": ({pk: (name,) for pk, name in ex.stage_name.items()},
                   Stage.objects.filter(tournament=t)),
        "rounds": (ex.round_key, Round.objects.filter(stage__tournament=t)),
        "matches": (ex.match_key, Match.objects.filter(round__stage__tournament=t)),
        "round_entries": ({pk: (*ex.round_key[round_id], ex.code[team]) for pk, round_id, team
                           in entries}, RoundEntry.objects.filter(round__stage__tournament=t)),
    }
    players = {pk: number for pk, (_team, number) in ex.player.items()}
    matches = {pk: key[2] for pk, key in ex.match_key.items()}
    rounds = {pk: key[1] for pk, key in ex.round_key.items()}
    out = {}
    for kind, (model, key_names, fields) in TRACKED.items():
        keys, current = rows[kind]
        columns = [_column(model, name) for name in fields]
        history = model.history.model.objects.filter(id__in=current.values("pk"))
        versions = []
        for row_id, at, type_, user, reason, *values in history.order_by(
                "history_date", "history_id").values_list(
                "id", "history_date", "history_type", "history_user_id",
                "history_change_reason", *columns):
            version = dict(zip(key_names, keys[row_id], strict=True))
            version.update(at=utc_text(at), type=type_, reason=reason,
                           user=ex.person(user) if user in ex.usernames else None)
            out_fields = {}
            for (name, how), value in zip(fields.items(), values, strict=True):
                if value is None or how == VALUE:
                    out_fields[name] = value
                elif how == TIME:
                    out_fields[name] = utc_text(value)
                elif how == DATE:
                    out_fields[name] = value.isoformat()
                elif how == SCHEDULE:
                    out_fields[name] = _schedule_keys(value, ex)
                elif how == USER:
                    out_fields[name] = ex.person(value) if value in ex.usernames else None
                else:
                    out_fields[name] = {TEAM: ex.code, STAGE: ex.stage_name, ROUND: rounds,
                                        MATCH: matches, GROUP: ex.group_name,
                                        PLAYER: players}[how].get(value)
            version["fields"] = out_fields
            versions.append(version)
        out[kind] = versions
    return out


def _schedule_keys(schedule, ex):
    """A schedule as it was, by team codes and group names: a team no longer in the
    tournament is null, a group no longer there is left out."""
    if not isinstance(schedule, dict):
        return schedule
    groups = {str(pk): name for pk, name in ex.group_name.items()}
    if isinstance(schedule.get("groups"), dict):
        schedule = {**schedule, "groups": {name: boards for name, boards
                                           in schedule["groups"].items() if name in groups}}
    return map_schedule(schedule, lambda team: ex.code.get(team),
                        lambda group: groups.get(str(group)))


# Checks ------------------------------------------------------------------------------------

class HistoryChecks:
    """The checks of the ``history`` part, in ``check.ImportPlan``: every version names a
    row of the file, its references are rows (or people) of the file or null, its times
    are real, each kind's versions are in time order. They read what the plan's earlier
    checks found (``team``, ``players``, ``stage``, ``round_matches``) and report through
    its ``error``, ``times``, ``person`` and ``team_known``."""

    def history(self) -> None:
        history = self.d.get("history")
        if history is None:
            return
        self.round_teams: dict[tuple, set] = {
            (r["stage"], r["number"]): {*r["byes"], *(m[side] for m in r["matches"]
                                                      for side in ("home", "away"))}
            for r in self.d["rounds"]}
        for kind, (_model, _keys, fields) in TRACKED.items():
            previous = None
            for index, version in enumerate(history[kind]):
                path = ["history", kind, index]
                self.times(version, path)
                self.times(version["fields"], [*path, "fields"])
                self.person(version["user"], [*path, "user"])
                if previous is not None and version["at"] < previous:
                    self.error([*path, "at"], f"is earlier than the version before it "
                               f"({previous}): the versions are listed oldest first")
                previous = version["at"]
                if self.history_row(kind, version, path):
                    self.history_fields(kind, fields, version, path)

    def history_row(self, kind: str, v: dict, path: list) -> bool:
        """The row a version is of is a row of the file."""
        if kind == "tournament":
            return True
        if "team" in v and not self.team_known(v["team"], [*path, "team"]):
            return False
        if kind == "teams":
            return True
        if kind == "players":
            if v["player"] in self.players[v["team"]]:
                return True
            self.error([*path, "player"], f"team {v['team']} has no player {v['player']}")
            return False
        if v["stage"] not in self.stage:
            self.error([*path, "stage"], f"no stage is called {v['stage']}")
            return False
        if kind == "stages":
            return True
        at = (v["stage"], v["round"])
        if at not in self.round_teams:
            self.error([*path, "round"], f"{v['stage']} has no round {v['round']}")
        elif kind == "matches" and v["match"] not in self.round_matches[at]:
            self.error([*path, "match"], f"round {v['round']} has no match {v['match']}")
        elif kind == "round_entries" and v["team"] not in self.round_teams[at]:
            self.error([*path, "team"], f"team {v['team']} does not play in {v['stage']} "
                       f"round {v['round']}")
        else:
            return True
        return False

    def history_fields(self, kind: str, fields: dict, v: dict, path: list) -> None:
        """Each reference of a version names a row (or person) of the file, or is null."""
        values = v["fields"]
        stage = v.get("stage")
        groups = {g["name"] for g in self.stage[stage][1]["groups"]} if stage else set()
        for name, how in fields.items():
            value, where = values[name], [*path, "fields", name]
            if value is None or how in (VALUE, TIME):
                continue
            if how == DATE:
                try:
                    dt.date.fromisoformat(value)
                except ValueError:
                    self.error(where, f"{value} is not a date")
            elif how == USER:
                self.person(value, where)
            elif how == TEAM:
                self.team_known(value, where)
            elif how == STAGE and value not in self.stage:
                self.error(where, f"no stage is called {value}")
            elif how == GROUP and value not in groups:
                self.error(where, f"the stage has no group {value}")
            elif how == ROUND and (stage, value) not in self.round_teams:
                self.error(where, f"{stage} has no round {value}")
            elif how == MATCH and value not in self.round_matches[(stage, v["round"])]:
                self.error(where, f"round {v['round']} has no match {value}")
            elif how == PLAYER and value not in self.players.get(values["team"], ()):
                self.error(where, f"team {values['team']} has no player {value}")
            elif how == SCHEDULE:
                self.history_schedule(value, where, groups)

    def history_schedule(self, schedule, where: list, groups: set) -> None:
        """A schedule as it was: its teams the file's (or null), its groups the stage's."""
        def team(code):
            if code is not None and code not in self.team:
                self.error(where, f"no team has the code {code}")

        def group(name):
            if name is not None and name not in groups:
                self.error(where, f"the stage has no group {name}")

        try:
            map_schedule(schedule, team, group)
        except (AttributeError, KeyError, TypeError):
            self.error(where, "is not a schedule this software reads")


# Import ------------------------------------------------------------------------------------

def write_history(writer) -> None:
    """The file's versions written with the new rows' ids (``writer``: the
    write.TournamentWriter that wrote the rows), each kind in the file's order, so the
    versions of a row keep their order where their times are equal."""
    stage_id = {name: stage.pk for name, stage in writer.stage.items()}
    entry_id = {(round_id, team_id): pk for pk, round_id, team_id in
                RoundEntry.objects.filter(round__stage__tournament=writer.t)
                .values_list("pk", "round_id", "team_id")}
    for kind, (model, _keys, fields) in TRACKED.items():
        versions = []
        for v in writer.d["history"][kind]:
            stage = v.get("stage")
            round_ = writer.round[(stage, v["round"])].pk if "round" in v else None
            row = _row_id(writer, kind, v, round_, stage_id, entry_id)
            # A team's and a stage's tournament: the one imported.
            columns = {"tournament_id": writer.t.pk} if kind in ("teams", "stages") else {}
            for name, how in fields.items():
                value = v["fields"][name]
                if value is not None and how != VALUE:
                    value = _database_value(writer, how, value, v, stage_id, round_)
                columns[_column(model, name)] = value
            versions.append(model.history.model(
                id=row, history_date=parse_utc(v["at"]), history_type=v["type"],
                history_user_id=writer.user_of(v["user"]),
                history_change_reason=v["reason"], **columns))
        model.history.model.objects.bulk_create(versions, batch_size=2000)


def _row_id(writer, kind: str, v: dict, round_: int | None, stage_id: dict,
            entry_id: dict) -> int:
    """The new id of the row a version is of."""
    if kind == "tournament":
        return writer.t.pk
    if kind == "teams":
        return writer.team[v["team"]]
    if kind == "players":
        return writer.player[(v["team"], v["player"])]
    if kind == "stages":
        return stage_id[v["stage"]]
    if kind == "rounds":
        return round_
    if kind == "matches":
        return writer.match[(round_, v["match"])]
    return entry_id[(round_, writer.team[v["team"]])]


def _database_value(writer, how: str, value, v: dict, stage_id: dict, round_: int | None):
    """A field of a version as the database keeps it: a time, a day, or the id of the
    row the file's key names (read where the row is: the round in its stage, the match in
    its round, the group in its stage, the player in the version's team)."""
    stage = v.get("stage")
    if how == TIME:
        return parse_utc(value)
    if how == DATE:
        return dt.date.fromisoformat(value)
    if how == USER:
        return writer.user[value]
    if how == TEAM:
        return writer.team[value]
    if how == STAGE:
        return stage_id[value]
    if how == ROUND:
        return writer.round[(stage, value)].pk
    if how == MATCH:
        return writer.match[(round_, value)]
    if how == GROUP:
        return writer.group[(stage_id[stage], value)]
    if how == PLAYER:
        return writer.player[(v["fields"]["team"], value)]
    pk = stage_id[stage]  # a schedule
    return map_schedule(value, lambda code: None if code is None else writer.team[code],
                        lambda name: None if name is None else str(writer.group[(pk, name)]))


def write_created(writer) -> None:
    """Each row of a version 1 file gets the one version the services would have written
    when it was created: "created", by nobody named, with ``CREATED_REASON``, its fields
    as imported, at the row's time: the tournament's and a round's own ``created_at``; a
    team, player or stage at the tournament's, a match or round entry at its round's."""
    t = writer.t
    rounds = dict(Round.objects.filter(stage__tournament=t).values_list("pk", "created_at"))
    for model, rows, when in (
            (Tournament, [t], lambda row: t.created_at),
            (Team, Team.objects.filter(tournament=t), lambda row: t.created_at),
            (Player, Player.objects.filter(team__tournament=t), lambda row: t.created_at),
            (Stage, Stage.objects.filter(tournament=t), lambda row: t.created_at),
            (Round, Round.objects.filter(stage__tournament=t), lambda row: row.created_at),
            (Match, Match.objects.filter(round__stage__tournament=t),
             lambda row: rounds[row.round_id]),
            (RoundEntry, RoundEntry.objects.filter(round__stage__tournament=t),
             lambda row: rounds[row.round_id])):
        rows = list(rows.order_by("pk")) if model is not Tournament else rows
        for row in rows:
            # Its time, not the import's; nobody named, even when imported on a page.
            row._history_date, row._history_user = when(row), None
        model.history.bulk_history_create(rows, batch_size=2000,
                                          default_change_reason=CREATED_REASON)


def version_1_note(document: dict) -> str | None:
    """What the import says of a version 1 file (none for a later one)."""
    if document.get("version") != 1:
        return None
    return ("history: the file is of version 1, written before the rows' history was in "
            "the file: each of its rows starts its history with one \"created\" version at "
            "its time")

