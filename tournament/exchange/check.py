"""What the schema cannot say about a tournament file, checked before a row is written,
and the plan the writer follows (``ImportPlan``): the account each person of the file
becomes, the short name, the people, the tournament's settings, the teams, deal keys and
stages. The rounds, their play, the penalties and the audit are checked by
``check_rounds.RoundChecks``, the rows' history by ``history.HistoryChecks``, which the plan
inherits.

What the import changes of a file without refusing it is a note (``notes``), said in the
preview and by the command: a PIN hash that is not this software's own (``PinHasher`` at its
iterations, in its form: tournament/hashers.py) is dropped, and its player has no PIN."""

from __future__ import annotations

import datetime as dt
import re

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models.functions import Lower

from scoring import deals as dealing
from tournament.exchange.check_rounds import RoundChecks
from tournament.exchange.common import parse_utc
from tournament.exchange.export import TOURNAMENT_FIELDS, map_schedule
from tournament.exchange.history import HistoryChecks, version_1_note
from tournament.exchange.problems import COMMAND_LINE, MAX_MESSAGES, Door, unique_index
from tournament.exchange.schema import SCHEMA
from tournament.exchange.validator import path_of, validate
from tournament.hashers import PinHasher, is_own_pin_hash
from tournament.models import Player, TableDevice, Tournament
from tournament.models.tournament import slug_taken, validate_time_zone


class ImportPlan(RoundChecks, HistoryChecks):
    """Everything the schema cannot say, checked before a row is written (``check``);
    ``errors`` lists every problem found, and a plan without one is what the writer
    follows: ``slug``, ``accounts`` (file name → (account id or None for a new
    account, account name)), ``hand_count`` and ``dropped_pins`` (the (team code, player
    number) whose PIN hash is not written); ``notes`` says what the import changes of the
    file without refusing it."""

    def __init__(self, document: dict, slug: str | None, map_users: dict[str, str],
                 door: Door = COMMAND_LINE):
        self.d = document
        self.door = door
        self.map_users = map_users
        self.accounts: dict[str, tuple[int | None, str]] = {}  # file name → (id, name)
        self.errors: list[str] = []
        self.notes: list[str] = []
        self.dropped_pins: set[tuple[str, int]] = set()
        self.slug = slug or document["tournament"]["slug"]
        self.from_option = slug is not None
        self.hand_count = 0
        self._scores: dict = {}

    def error(self, path, message: str) -> None:
        self.errors.append(f"{path if isinstance(path, str) else path_of(path)}: {message}")

    def slug_taken(self) -> str:
        if self.from_option:
            return f"{self.door.slug}: a tournament with the short name {self.slug} already exists"
        return (f"tournament.slug: a tournament with the short name {self.slug} already "
                f"exists; {self.door.slug_hint}")

    def person(self, name, path) -> None:
        if name is not None and name not in self.people:
            self.error(path, f"{name} is not in people")

    def check(self) -> None:
        d = self.d
        self.people = unique_index(d["people"], lambda p: p["username"], "people",
                                   "user name", self.errors)
        unique_index(d["people"], lambda p: p["username"].lower(), "people",
                     "user name (whatever its case)", self.errors)
        self.person_accounts()
        self.tournament()
        for index, staff in enumerate(d["staff"]):
            self.person(staff["user"], ["staff", index, "user"])
            if staff["chief_referee"] and staff["role"] != "referee":
                self.error(["staff", index, "chief_referee"], "only a referee is chief referee")
        unique_index(d["staff"], lambda s: s["user"], "staff", "user", self.errors)
        self.teams()
        self.keys()
        self.stages()
        self.rounds()
        self.penalties()
        self.audit()
        self.history()
        note = version_1_note(d)
        if note:
            self.notes.append(note)

    def person_accounts(self) -> None:
        """The account each person of the file becomes: a new inactive one under the
        file's name, or the one the import maps the name to; never an existing account
        by its name alone."""
        User = get_user_model()
        names = {p["username"] for p in self.d["people"]}
        for name in self.map_users:
            if name not in names:
                self.error(self.door.account.format(name=name),
                           "no person of the file has this user name")
        wanted = {p["username"]: self.map_users.get(p["username"], p["username"])
                  for p in self.d["people"]}
        existing = {user.username.lower(): user for user in
                    User.objects.annotate(folded=Lower("username")).filter(
                        folded__in={name.lower() for name in wanted.values()})}
        new_names: dict[str, str] = {}
        taken: dict[int, str] = {}
        for index, person in enumerate(self.d["people"]):
            name = person["username"]
            target = wanted[name]
            user = existing.get(target.lower())
            mapped = name in self.map_users
            if user is not None and not mapped:
                self.error(["people", index, "username"],
                           f"{name} is a user name of this database ({user.username}); a "
                           f"file never takes over an account by its name: "
                           f"{self.door.account_hint.format(name=name)}")
                continue
            if user is not None and TableDevice.objects.filter(user=user).exists():
                # A device belongs to its tournament (issue 48): never another's staff.
                self.error(["people", index, "username"],
                           f"{name} would be the account {user.username}, a table device of "
                           f"another tournament; a device account scores for its own "
                           f"tournament only: {self.door.account_hint.format(name=name)}")
                continue
            if user is not None:
                if user.pk in taken:
                    self.error(["people", index, "username"],
                               f"{name} and {taken[user.pk]} would both be the account "
                               f"{user.username}")
                taken[user.pk] = name
                self.accounts[name] = (user.pk, user.username)
                continue
            problems: list[str] = []
            validate(target, SCHEMA["properties"]["people"]["items"]["properties"]["username"],
                     [self.door.account.format(name=name) if mapped
                      else f"people[{index}].username"],
                     problems)
            self.errors.extend(problems)
            if target.lower() in new_names:
                self.error(["people", index, "username"],
                           f"{name} and {new_names[target.lower()]} would both become the "
                           f"new account {target}")
            new_names[target.lower()] = name
            self.accounts[name] = (None, target)

    def tournament(self) -> None:
        t = self.d["tournament"]
        if self.from_option:
            slug_errors: list[str] = []
            validate(self.slug, SCHEMA["properties"]["tournament"]["properties"]["slug"],
                     [self.door.slug], slug_errors)
            self.errors.extend(slug_errors)
        if slug_taken(self.slug):
            self.errors.append(self.slug_taken())
        for name in ("starts_on", "ends_on"):
            try:
                dt.date.fromisoformat(t[name])
            except ValueError:
                self.error(["tournament", name], f"{t[name]} is not a date")
        try:
            validate_time_zone(t["time_zone"])  # as the settings page checks it
        except ValidationError as error:
            self.error(["tournament", "time_zone"], error.messages[0])
        self.times(t, ["tournament"])
        if self.errors:
            return
        values = {name: t[name] for name in TOURNAMENT_FIELDS}
        values["starts_on"] = dt.date.fromisoformat(t["starts_on"])
        values["ends_on"] = dt.date.fromisoformat(t["ends_on"])
        values["slug"] = self.slug
        try:
            Tournament(**values).full_clean(exclude=["slug", "created_at", "updated_at"],
                                            validate_unique=False)
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                where = ["tournament"] + ([] if field == "__all__" else [field])
                if field == "slug" and self.from_option:
                    where = self.door.slug
                for message in messages:
                    self.error(where, message)

    def times(self, item: dict, path: list) -> None:
        """Every time in ``item`` is a real time (the schema checked its form)."""
        for name, value in item.items():
            if isinstance(value, str) and (name.endswith("_at") or name.endswith("_until")
                                           or name == "at"):
                try:
                    parse_utc(value)
                except ValueError:
                    self.error([*path, name], f"{value} is not a real time")

    def teams(self) -> None:
        teams = self.d["teams"]
        self.team = unique_index(teams, lambda t: t["code"], "teams", "code", self.errors)
        unique_index(teams, lambda t: t["name"].casefold(), "teams", "name", self.errors)
        seeds: dict = {}
        self.players: dict[str, set[int]] = {}
        for index, team in enumerate(teams):
            if team["seed"] is not None:
                if team["seed"] in seeds:
                    self.error(["teams", index, "seed"],
                               f"seed {team['seed']} is also teams[{seeds[team['seed']]}]'s")
                seeds.setdefault(team["seed"], index)
            numbers = self.players.setdefault(team["code"], set())
            for p_index, player in enumerate(team["players"]):
                path = ["teams", index, "players", p_index]
                if player["number"] in numbers:
                    self.error([*path, "number"], f"player {player['number']} appears twice")
                numbers.add(player["number"])
                if player["reserve"] != (player["number"] == Player.RESERVE_NUMBER):
                    self.error([*path, "reserve"], "players 1 and 2 are regulars, 3 the reserve")
                self.times(player, path)
                self.pin_hash(team["code"], player, path)
            if not {1, 2} <= numbers:
                self.error(["teams", index, "players"], "a team needs players 1 and 2")
        if len(self.dropped_pins) > MAX_MESSAGES:
            self.notes.append(f"… and {len(self.dropped_pins) - MAX_MESSAGES} more players "
                              f"whose PIN hash is dropped")

    def pin_hash(self, code: str, player: dict, path: list) -> None:
        """A PIN hash is kept only when it is this software's own: any other would make
        each PIN check cost what the hash names (issue 48). It is dropped, with a note."""
        value = player["pin_hash"]
        if not value or is_own_pin_hash(value):  # left out (null), no PIN (""), or ours
            return
        self.dropped_pins.add((code, player["number"]))
        if len(self.dropped_pins) > MAX_MESSAGES:
            return
        named = re.match(r"([a-z0-9_]{1,40})\$(?:([0-9]{1,12})\$)?", value)
        if named is None:
            this = "this one is not in that form"
        elif named[2] is None:
            this = f"this one is {named[1]}"
        elif (named[1], int(named[2])) == (PinHasher.algorithm, PinHasher.iterations):
            this = "this one has another salt or hash than it writes"
        else:
            this = f"this one is {named[1]} with {int(named[2]):,} iterations"
        self.notes.append(
            f"{path_of([*path, 'pin_hash'])}: dropped: {code} player {player['number']} "
            f"({player['name']}) has no PIN after the import, and the director sets a new "
            f"one on the team's Players' PINs page (a PIN hash is kept only when it is this "
            f"software's own, {PinHasher.algorithm} with {PinHasher.iterations:,} "
            f"iterations; {this})")

    def keys(self) -> None:
        keys = self.d["deal_keys"]
        self.key = unique_index(keys, lambda k: k["number"], "deal_keys", "number", self.errors)
        secret_keys = [i for i, k in enumerate(keys) if k["revealed_at"] is None]
        for index in secret_keys[1:]:
            self.error(["deal_keys", index, "revealed_at"],
                       "a tournament has at most one deal key not revealed")
        for index, key in enumerate(keys):
            self.times(key, ["deal_keys", index])
            if key["secret"] is None:
                self.error(["deal_keys", index, "secret"],
                           "left out: the file was written without --include-secrets and "
                           "this key is not revealed yet, so the tournament cannot go on "
                           "dealing from it; export it again with --include-secrets")
            elif dealing.commitment(bytes.fromhex(key["secret"])) != key["commitment"]:
                self.error(["deal_keys", index, "commitment"],
                           "is not the SHA-256 of the key's secret")

    def team_known(self, code, path) -> bool:
        if code is not None and code not in self.team:
            self.error(path, f"no team has the code {code}")
            return False
        return True

    def stages(self) -> None:
        stages = self.d["stages"]
        self.stage = unique_index(stages, lambda s: s["name"], "stages", "name", self.errors)
        unique_index(stages, lambda s: s["order"], "stages", "order", self.errors)
        for index, stage in enumerate(stages):
            path = ["stages", index]
            if stage["swiss_rounds"] is not None and stage["kind"] != "swiss":
                self.error([*path, "swiss_rounds"], "only a Swiss stage plans its rounds")
            source = stage["qualify_from"]
            if source is not None and (source not in self.stage or source == stage["name"]):
                self.error([*path, "qualify_from"], f"no other stage is called {source}")
            groups = unique_index(stage["groups"], lambda g: g["name"], path_of([*path, "groups"]),
                                  "group", self.errors)
            unique_index(stage["groups"], lambda g: g["order"], path_of([*path, "groups"]),
                         "order", self.errors)
            unique_index(stage["teams"], lambda e: e["team"], path_of([*path, "teams"]), "team",
                         self.errors)
            unique_index(stage["teams"], lambda e: (e["group"] or "", e["position"]),
                         path_of([*path, "teams"]), "group and number", self.errors)
            for e_index, entry in enumerate(stage["teams"]):
                self.team_known(entry["team"], [*path, "teams", e_index, "team"])
                if entry["group"] is not None and entry["group"] not in groups:
                    self.error([*path, "teams", e_index, "group"],
                               f"the stage has no group {entry['group']}")
            if stage["schedule"] is not None:
                try:
                    map_schedule(stage["schedule"], self.schedule_team(path),
                                 self.schedule_group(path, groups))
                except (AttributeError, KeyError, TypeError):
                    self.error([*path, "schedule"], "is not a schedule this software reads")

    def schedule_team(self, path):
        def team(code):
            if code is not None and code not in self.team:
                self.error([*path, "schedule"], f"no team has the code {code}")
            return code
        return team

    def schedule_group(self, path, groups):
        def group(name):
            if name not in groups:
                self.error([*path, "schedule"], f"the stage has no group {name}")
            return name
        return group
