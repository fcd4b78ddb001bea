"""A tournament file read back into the database (docs/formats.md, "Tournament file").

Everything is checked first: the file's form against the JSON Schema, then what the schema
cannot say (every reference between parts, uniqueness, each hand's points against the
engine's score under its round's rules), each problem named by its path in the file. Only a
file without a single problem is written, in one transaction, all or nothing, in the order
the database's triggers accept (matches before their round entries and tables, deals before
the results played on them, a result version before its approvals), and audited as one
entry. The times in the file are kept: the rows' automatic times are switched off while it
is written.

People are named by their user name. A file never takes over an account of this database
by its name: a person of the file becomes a new inactive account without a usable password
(an administrator activates it and sets a password), unless the import maps that name
explicitly to an account (``map_users``: ``--map-user NAME_IN_FILE=ACCOUNT``); a name this
database already has (whatever its case) is refused until it is mapped.

Every text is checked with the rules of the pages (``services.text``): no NUL, no control
character, and in what people type (names, reasons) no line break or invisible character,
within the services' lengths. The file is at most ``IMPORT_MAX_BYTES`` (100 MB) and nests
at most ``IMPORT_MAX_DEPTH`` (64) levels.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.db.models.functions import Lower

from scoring import RuleError, Rules
from scoring import deals as dealing
from tournament.exchange.common import AUDIT_REFERENCES, IMPORT_ACTION, parse_utc
from tournament.exchange.export import TOURNAMENT_FIELDS, map_schedule
from tournament.exchange.schema import FORMAT, SCHEMA, VERSION, path_of, validate
from tournament.models import (
    Approval,
    AuditEntry,
    Deal,
    DealKey,
    Group,
    HandResult,
    Match,
    Penalty,
    Player,
    Round,
    RoundEntry,
    StaffRole,
    Stage,
    StageTeam,
    Table,
    TableSignature,
    Team,
    TeamResult,
    Tournament,
)
from tournament.models.fields import keeping_given_times
from tournament.models.staff import Role
from tournament.models.tournament import validate_time_zone
from tournament.permissions import forget_cached_roles
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.hands import HandEntry, score_entry, seat_points
from tournament.services.team_results import write_seat_tallies
from tournament.services.text import clean_text

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


# Text typed by people, by the key it is under: the rules of ``services.text.clean_text``
# (no control character, line break or invisible character) and the services' lengths
# where the schema gives none. Every other text: no NUL and no control character but tab
# and line breaks (an audit entry's words, a device's name are made by the software).
_TYPED = {"name": None, "venue": None, "country": None, "federation_id": None,
          "first_name": None, "last_name": None, "public_value": None,
          "reason": 1000, "undo_reason": 1000, "replaced_reason": 500,
          "publish_override_reason": 500}
_HAND_REASON = 500  # a referee's correction (services.signoff)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _text_problem(value: str, key: str, under_data: bool, in_hand: bool) -> str | None:
    """What is wrong with one text of the file (under ``key``), or None."""
    if key in _TYPED and not under_data:
        limit = _HAND_REASON if key == "reason" and in_hand else _TYPED[key]
        try:
            clean_text(value, label="the text", max_length=limit or len(value) + 1,
                       required=False)
        except ValueError as error:
            return str(error).removeprefix("the text ")
        return None
    if "\x00" in value:
        return "contains a NUL character"
    found = _CONTROL.search(value)
    if found is not None:
        return f"contains a control character (U+{ord(found.group()):04X})"
    return None


def check_texts(document: dict, errors: list[str]) -> None:
    """Every text of the file by the rules of the pages, each problem with its path. A
    first walk only looks (a big file has millions of texts); the paths are worked out
    when it finds something."""
    stack: list[tuple[object, str, bool, bool]] = [(document, "", False, False)]
    while stack:
        value, key, under_data, in_hand = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, name, under_data or key == "data", in_hand or key == "hands")
                         for name, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, key, under_data, in_hand or key == "hands") for item in value)
        elif isinstance(value, str) and _text_problem(value, key, under_data, in_hand):
            break
    else:
        return
    paths: list[tuple[object, tuple]] = [(document, ())]
    while paths and len(errors) < MAX_MESSAGES:
        value, path = paths.pop()
        if isinstance(value, dict):
            paths.extend((item, (*path, name)) for name, item in value.items())
        elif isinstance(value, list):
            paths.extend((item, (*path, index)) for index, item in enumerate(value))
        elif isinstance(value, str):
            keys = [part for part in path if isinstance(part, str)]
            key = keys[-1] if keys else ""
            problem = _text_problem(value, key, "data" in keys[:-1], "hands" in keys)
            if problem:
                errors.append(f"{path_of(list(path))}: {problem}")


def review_import(document: dict, *, slug: str | None = None,
                  map_users: dict[str, str] | None = None,
                  door: Door = COMMAND_LINE) -> tuple[_Checker | None, list[str]]:
    """Everything an import checks, without writing a row: the plan (``accounts``: the
    account each person of the file becomes; None when the file breaks the schema or the
    rules of texts) and every problem found (none: it can be imported). The import page
    shows both as its preview."""
    errors: list[str] = []
    validate(document, SCHEMA, [], errors, MAX_MESSAGES)
    if errors:
        return None, errors
    check_texts(document, errors)
    if errors:
        return None, errors
    plan = _Checker(document, slug, map_users or {}, door)
    plan.check()
    errors = plan.errors[:MAX_MESSAGES] + (
        [f"… and {len(plan.errors) - MAX_MESSAGES} more"]
        if len(plan.errors) > MAX_MESSAGES else [])
    return plan, errors


def check_import(document: dict, *, slug: str | None = None,
                 map_users: dict[str, str] | None = None,
                 door: Door = COMMAND_LINE) -> _Checker:
    """The plan of an import that can be made; ImportRefused with every problem."""
    plan, errors = review_import(document, slug=slug, map_users=map_users, door=door)
    if errors:
        raise ImportRefused(errors)
    return plan


def import_tournament(document: dict, *, slug: str | None = None,
                      actor: Actor | None = None,
                      map_users: dict[str, str] | None = None,
                      door: Door = COMMAND_LINE) -> Tournament:
    """Check the whole document, then write it in one transaction (ImportRefused, with
    every problem, when anything is wrong; nothing is written then). ``map_users`` maps a
    user name of the file to an account of this database (or to the name of a new one).

    The importing account (``actor.user``, when there is one and it is not a superuser,
    who directs every tournament anyway) becomes the tournament's director: whoever
    brings a tournament in can manage it, as whoever creates one."""
    plan = check_import(document, slug=slug, map_users=map_users, door=door)
    actor = actor or Actor(user=None, device="manage.py import_tournament")
    try:
        with transaction.atomic():
            if Tournament.objects.filter(slug=plan.slug).exists():
                raise ImportRefused([plan.slug_taken()])
            with keeping_given_times():
                tournament = _Writer(document, plan).write()
            made_director = _importer_directs(actor, tournament)
            audit(actor, tournament, IMPORT_ACTION, version=VERSION,
                  teams=len(document["teams"]), rounds=len(document["rounds"]),
                  hands=plan.hand_count, secrets=document["secrets"],
                  original_slug=document["tournament"]["slug"],
                  made_director=made_director)
    except DatabaseError as error:
        raise ImportRefused([f"the database refused the file, nothing was imported: "
                             f"{error}"]) from None
    if made_director:
        forget_cached_roles(actor.user)
    return tournament


def _importer_directs(actor: Actor, tournament: Tournament) -> bool:
    """The importer's account made director of the tournament (its role in the file, if
    the mapping gave it one, becomes director); False when nothing changed."""
    user = actor.user
    if user is None or not user.is_authenticated or user.is_superuser:
        return False
    role = StaffRole.objects.filter(tournament=tournament, user=user).first()
    if role is None:
        StaffRole.objects.create(tournament=tournament, user=user, role=Role.DIRECTOR)
        return True
    if role.role == Role.DIRECTOR:
        return False
    role.role, role.is_chief_referee = Role.DIRECTOR, False
    role.save(update_fields=["role", "is_chief_referee"])
    return True


def _time_column():
    """A file's time as the database stores it."""
    adapt = connection.ops.adapt_datetimefield_value
    return lambda text: None if text is None else adapt(parse_utc(text))


def _uuid_column(model):
    field = model._meta.get_field("request_token")
    return lambda value: field.get_db_prep_value(value, connection)


def _json_column(model, name):
    field = model._meta.get_field(name)
    return lambda value: None if value is None else field.get_db_prep_save(value, connection)


def _insert(model, columns, rows, chunk=5000) -> None:
    """Rows (tuples of database values in ``columns``' order) written by executemany."""
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(model._meta.db_table)} "
           f"({', '.join(quote(model._meta.get_field(c).column) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    with connection.cursor() as cursor:
        for start in range(0, len(rows), chunk):
            cursor.executemany(sql, rows[start:start + chunk])


def _duplicates(items, key, path: str, what: str, errors: list[str]) -> dict:
    """Index ``items`` by ``key``; a second item with the same key is an error."""
    seen: dict = {}
    for index, item in enumerate(items):
        value = key(item)
        if value in seen:
            errors.append(f"{path}[{index}]: {what} {_show(value)} appears twice "
                          f"(also {path}[{seen[value][0]}])")
        else:
            seen[value] = (index, item)
    return seen


def _show(value) -> str:
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return json.dumps(value, ensure_ascii=False)


_CARD = re.compile(r"[A23456789TJQK][SHDC]")


class _Checker:
    """Everything the schema cannot say, checked before a row is written."""

    def __init__(self, document: dict, slug: str | None, map_users: dict[str, str],
                 door: Door = COMMAND_LINE):
        self.d = document
        self.door = door
        self.map_users = map_users
        self.accounts: dict[str, tuple[int | None, str]] = {}  # file name → (id, name)
        self.errors: list[str] = []
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
        self.people = _duplicates(d["people"], lambda p: p["username"], "people",
                                  "user name", self.errors)
        _duplicates(d["people"], lambda p: p["username"].lower(), "people",
                    "user name (whatever its case)", self.errors)
        self.person_accounts()
        self.tournament()
        for index, staff in enumerate(d["staff"]):
            self.person(staff["user"], ["staff", index, "user"])
            if staff["chief_referee"] and staff["role"] != "referee":
                self.error(["staff", index, "chief_referee"], "only a referee is chief referee")
        _duplicates(d["staff"], lambda s: s["user"], "staff", "user", self.errors)
        self.teams()
        self.keys()
        self.stages()
        self.rounds()
        self.penalties()
        self.audit()

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
        if Tournament.objects.filter(slug=self.slug).exists():
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
        self.team = _duplicates(teams, lambda t: t["code"], "teams", "code", self.errors)
        _duplicates(teams, lambda t: t["name"].casefold(), "teams", "name", self.errors)
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
            if not {1, 2} <= numbers:
                self.error(["teams", index, "players"], "a team needs players 1 and 2")

    def keys(self) -> None:
        keys = self.d["deal_keys"]
        self.key = _duplicates(keys, lambda k: k["number"], "deal_keys", "number", self.errors)
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
        self.stage = _duplicates(stages, lambda s: s["name"], "stages", "name", self.errors)
        _duplicates(stages, lambda s: s["order"], "stages", "order", self.errors)
        for index, stage in enumerate(stages):
            path = ["stages", index]
            if stage["swiss_rounds"] is not None and stage["kind"] != "swiss":
                self.error([*path, "swiss_rounds"], "only a Swiss stage plans its rounds")
            source = stage["qualify_from"]
            if source is not None and (source not in self.stage or source == stage["name"]):
                self.error([*path, "qualify_from"], f"no other stage is called {source}")
            groups = _duplicates(stage["groups"], lambda g: g["name"], path_of([*path, "groups"]),
                                 "group", self.errors)
            _duplicates(stage["groups"], lambda g: g["order"], path_of([*path, "groups"]),
                        "order", self.errors)
            _duplicates(stage["teams"], lambda e: e["team"], path_of([*path, "teams"]), "team",
                        self.errors)
            _duplicates(stage["teams"], lambda e: (e["group"] or "", e["position"]),
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

    def rounds(self) -> None:
        rounds = self.d["rounds"]
        _duplicates(rounds, lambda r: (r["stage"], r["number"]), "rounds", "round",
                    self.errors)
        self.round_matches: dict[tuple, dict] = {}
        for index, round_ in enumerate(rounds):
            self.round(round_, ["rounds", index])

    def round(self, r: dict, path: list) -> None:
        self.times(r, path)
        stage = self.stage.get(r["stage"])
        if stage is None:
            self.error([*path, "stage"], f"no stage is called {r['stage']}")
            groups = set()
        else:
            groups = {g["name"] for g in stage[1]["groups"]}
        try:
            rules = Rules.from_dict(r["rules"])
        except (RuleError, TypeError, ValueError) as error:
            self.error([*path, "rules"], str(error))
            rules = None
        deals = {}
        if r["deals"] is not None:
            deals = _duplicates(r["deals"], lambda d: (d["set"], d["hand"], d["reserve"]),
                                path_of([*path, "deals"]), "deal (set hand reserve)",
                                self.errors)
            _duplicates([d for d in r["deals"] if d["current"]], lambda d: (d["set"], d["hand"]),
                        path_of([*path, "deals"]), "current deal (set hand)", self.errors)
            for d_index, deal in enumerate(r["deals"]):
                where = [*path, "deals", d_index]
                self.times(deal, where)
                if deal["key"] not in self.key:
                    self.error([*where, "key"], f"there is no deal key {deal['key']}")
                if len(set(_CARD.findall(deal["cards"]))) != 52:
                    self.error([*where, "cards"], "a card appears twice")
                if not deal["current"] and not deal["replaced_reason"]:
                    self.error([*where, "replaced_reason"], "a replaced deal gives its reason")
        placed: dict[str, str] = {}

        def place(code, where):
            if code in placed:
                self.error(where, f"team {code} is also {placed[code]} in this round")
            placed[code] = path_of(where)

        for b_index, code in enumerate(r["byes"]):
            if self.team_known(code, [*path, "byes", b_index]):
                place(code, [*path, "byes", b_index])
        matches = _duplicates(r["matches"], lambda m: m["number"], path_of([*path, "matches"]),
                              "match", self.errors)
        self.round_matches[(r["stage"], r["number"])] = {
            n: item for n, (_i, item) in matches.items()}
        table_numbers: dict[int, str] = {}
        for m_index, match in enumerate(r["matches"]):
            where = [*path, "matches", m_index]
            self.times(match, where)
            for side in ("home", "away"):
                if self.team_known(match[side], [*where, side]):
                    place(match[side], [*where, side])
                    known = self.players.get(match[side], set())
                    lineup = match[f"{side}_players"]
                    for number in lineup:
                        if number not in known:
                            self.error([*where, f"{side}_players"],
                                       f"team {match[side]} has no player {number}")
                    if lineup[0] == lineup[1]:
                        self.error([*where, f"{side}_players"], "two different players play")
            if match["home"] == match["away"]:
                self.error([*where, "away"], "a match is between two different teams")
            if match["group"] is not None and match["group"] not in groups:
                self.error([*where, "group"], f"the stage has no group {match['group']}")
            totals = (match["home_total"], match["away_total"])
            if (totals[0] is None) != (totals[1] is None) or (
                    totals[0] is not None and totals[0] != -totals[1]):
                self.error([*where, "away_total"], "the totals are written together and add "
                           "up to zero")
            if (match["signed_off_at"] is None) != (totals[0] is None):
                self.error([*where, "signed_off_at"],
                           "a signed-off match has its totals, and a match with totals is "
                           "signed off")
            self.person(match["signed_off_by"], [*where, "signed_off_by"])
            if match["forfeited_by"] not in (None, match["home"], match["away"]):
                self.error([*where, "forfeited_by"], "a match is forfeited by one of its teams")
            _duplicates(match["tables"], lambda t: t["position"], path_of([*where, "tables"]),
                        "position", self.errors)
            for t_index, table in enumerate(match["tables"]):
                at = [*where, "tables", t_index]
                if table["number"] in table_numbers:
                    self.error([*at, "number"], f"table {table['number']} is also "
                               f"{table_numbers[table['number']]}")
                table_numbers[table["number"]] = path_of(at)
                self.table(table, at, rules, deals)
        for res_index, result in enumerate(r["team_results"]):
            self.team_result(result, [*path, "team_results", res_index], matches)
        _duplicates(r["team_results"], lambda x: x["team"], path_of([*path, "team_results"]),
                    "team", self.errors)

    def table(self, table: dict, path: list, rules, deals: dict) -> None:
        _duplicates(table["signatures"], lambda s: s["seat"], path_of([*path, "signatures"]),
                    "seat", self.errors)
        for s_index, signature in enumerate(table["signatures"]):
            self.times(signature, [*path, "signatures", s_index])
            self.person(signature["recorded_by"], [*path, "signatures", s_index, "recorded_by"])
        _duplicates(table["hands"], lambda h: (h["hand"], h["version"]),
                    path_of([*path, "hands"]), "hand and version", self.errors)
        _duplicates([h for h in table["hands"] if h["current"]], lambda h: h["hand"],
                    path_of([*path, "hands"]), "current version of hand", self.errors)
        for h_index, hand in enumerate(table["hands"]):
            self.hand(hand, [*path, "hands", h_index], rules, deals)

    def hand(self, h: dict, path: list, rules, deals: dict) -> None:
        self.hand_count += 1
        self.times(h, path)
        self.person(h["entered_by"], [*path, "entered_by"])
        _duplicates(h["approvals"], lambda a: a["seat"], path_of([*path, "approvals"]),
                    "seat", self.errors)
        for a_index, approval in enumerate(h["approvals"]):
            self.times(approval, [*path, "approvals", a_index])
            self.person(approval["recorded_by"], [*path, "approvals", a_index, "recorded_by"])
        if h["deal"] is not None and (h["deal"]["set"], h["hand"], h["deal"]["reserve"]) \
                not in deals and self.d["secrets"]:
            self.error([*path, "deal"], f"the round has no deal of set {h['deal']['set']}, "
                       f"hand {h['hand']}, reserve {h['deal']['reserve']}")
        if (h["outcome"] == "draw") != (h["declarer_seat"] is None):
            self.error([*path, "declarer_seat"], "a draw has no declarer, anything else seat "
                       "1 or 2")
            return
        if (h["false_knock_seat"] is None) != (h["false_knock_deadwood"] is None):
            self.error([*path, "false_knock_deadwood"],
                       "a false knock has both its seat and its deadwood")
            return
        if h["seat1_points"] != -h["seat2_points"]:
            self.error([*path, "seat2_points"], "a hand is zero-sum")
            return
        if rules is None:
            return
        outcome = "knock" if h["outcome"] == "undercut" else h["outcome"]
        entry = HandEntry(outcome, h["declarer_seat"], h["declarer_deadwood"],
                          h["opponent_deadwood"], h["false_knock_seat"],
                          h["false_knock_deadwood"])
        known = self._scores.get((id(rules), entry))
        if known is None:
            try:
                score = score_entry(entry, rules)
                known = (score.outcome.value, *seat_points(score, entry.declarer_seat))
            except ServiceError as error:
                known = error.message
            self._scores[(id(rules), entry)] = known
        if isinstance(known, str):
            self.error(path, known)
        elif known != (h["outcome"], h["seat1_points"], h["seat2_points"]):
            self.error(path, f"the round's rules score this entry as {known[0]} "
                       f"{known[1]:+d}/{known[2]:+d}, the file says {h['outcome']} "
                       f"{h['seat1_points']:+d}/{h['seat2_points']:+d}")

    def team_result(self, x: dict, path: list, matches: dict) -> None:
        self.times(x, path)
        if not self.team_known(x["team"], [*path, "team"]):
            return
        if (x["outcome"] == "bye") != (x["match"] is None) or \
                (x["match"] is None) != (x["opponent"] is None):
            self.error([*path, "match"], "a bye has no match and no opponent; a match result "
                       "has both")
            return
        if x["match"] is None:
            return
        match = matches.get(x["match"])
        if match is None:
            self.error([*path, "match"], f"the round has no match {x['match']}")
            return
        teams = (match[1]["home"], match[1]["away"])
        if x["team"] not in teams or x["opponent"] not in teams or x["team"] == x["opponent"]:
            self.error([*path, "opponent"], f"match {x['match']} is {teams[0]} against "
                       f"{teams[1]}")

    def penalties(self) -> None:
        for index, p in enumerate(self.d["penalties"]):
            path = ["penalties", index]
            self.times(p, path)
            self.person(p["recorded_by"], [*path, "recorded_by"])
            self.person(p["undone_by"], [*path, "undone_by"])
            if self.team_known(p["team"], [*path, "team"]) and p["player"] is not None \
                    and p["player"] not in self.players[p["team"]]:
                self.error([*path, "player"], f"team {p['team']} has no player {p['player']}")
            matches = self.round_matches.get((p["stage"], p["round"]))
            if matches is None:
                self.error([*path, "round"], f"{p['stage']} has no round {p['round']}")
            elif p["match"] is not None and p["match"] not in matches:
                self.error([*path, "match"], f"round {p['round']} has no match {p['match']}")
            deduction = p["kind"] in ("small_points", "match_points")
            if deduction != (p["amount"] >= 1):
                self.error([*path, "amount"], "points are deducted (1 or more) by a deduction "
                           "and by nothing else")
            if (p["kind"] == "lateness") != (p["minutes"] is not None):
                self.error([*path, "minutes"], "minutes are for lateness and only for it")
            if p["kind"] in ("default", "lateness") and p["match"] is None:
                self.error([*path, "match"], "a default and lateness name their match")
            if (p["undone_at"] is None) != (p["undone_by"] is None):
                self.error([*path, "undone_by"], "an undone penalty says who undid it and when")

    def audit(self) -> None:
        penalties = len(self.d["penalties"])
        for index, entry in enumerate(self.d["audit"]):
            path = ["audit", index]
            self.times(entry, path)
            self.person(entry["actor"], [*path, "actor"])
            for name, value in entry["data"].items():
                kind = AUDIT_REFERENCES.get(name)
                if kind is None or value is None:
                    continue
                if kind == "penalty" and not (isinstance(value, int) and 0 <= value < penalties):
                    self.error([*path, "data", name], "is not the index of a penalty")
                elif kind == "user":
                    self.person(value, [*path, "data", name])


class _Writer:
    """Writes a checked document: parents first, in the triggers' order."""

    def __init__(self, document: dict, plan: _Checker):
        self.d = document
        self.plan = plan
        self.errors: list[str] = []

    def write(self) -> Tournament:
        d = self.d
        self.users()
        t = d["tournament"]
        values = {name: t[name] for name in TOURNAMENT_FIELDS}
        values.update(slug=self.plan.slug, starts_on=dt.date.fromisoformat(t["starts_on"]),
                      ends_on=dt.date.fromisoformat(t["ends_on"]),
                      created_at=parse_utc(t["created_at"]),
                      updated_at=parse_utc(t["updated_at"]))
        self.t = tournament = Tournament.objects.create(**values)
        StaffRole.objects.bulk_create(
            StaffRole(tournament=tournament, user_id=self.user[s["user"]], role=s["role"],
                      is_chief_referee=s["chief_referee"]) for s in d["staff"])
        self.teams()
        self.keys()
        self.stages()
        self.rounds()
        self.penalties()
        self.audit()
        return tournament

    def users(self) -> None:
        User = get_user_model()
        self.user = {}
        new = {}
        for person in self.d["people"]:
            pk, account = self.plan.accounts[person["username"]]
            if pk is not None:
                self.user[person["username"]] = pk
                continue
            user = User(username=account, first_name=person["first_name"],
                        last_name=person["last_name"], is_active=False)
            user.set_unusable_password()
            new[account] = (person["username"], user)
        for user in User.objects.bulk_create([user for _name, user in new.values()]):
            self.user[new[user.username][0]] = user.pk

    def teams(self) -> None:
        teams = Team.objects.bulk_create(
            Team(tournament=self.t, code=t["code"], name=t["name"], country=t["country"],
                 seed=t["seed"]) for t in self.d["teams"])
        self.team = {team.code: team.pk for team in teams}
        players = Player.objects.bulk_create(
            Player(team_id=self.team[t["code"]], number=p["number"], name=p["name"],
                   federation_id=p["federation_id"], is_reserve=p["reserve"],
                   pin_hash=p["pin_hash"] or "", pin_failures=p["pin_failures"],
                   pin_locked_until=parse_utc(p["pin_locked_until"]))
            for t in self.d["teams"] for p in t["players"])
        code_of = {pk: code for code, pk in self.team.items()}
        self.player = {(code_of[p.team_id], p.number): p.pk for p in players}

    def keys(self) -> None:
        keys = DealKey.objects.bulk_create(
            DealKey(tournament=self.t, number=k["number"], key_hex=k["secret"],
                    commitment=k["commitment"], public_value=k["public_value"],
                    public_value_set_at=parse_utc(k["public_value_set_at"]),
                    revealed_at=parse_utc(k["revealed_at"]),
                    created_at=parse_utc(k["created_at"])) for k in self.d["deal_keys"])
        self.key = {k.number: k.pk for k in keys}

    def stages(self) -> None:
        stages = Stage.objects.bulk_create(
            Stage(tournament=self.t, name=s["name"], kind=s["kind"], order=s["order"],
                  swiss_rounds=s["swiss_rounds"], third_place_match=s["third_place_match"],
                  qualifiers_per_group=s["qualifiers_per_group"],
                  extra_qualifiers=s["extra_qualifiers"]) for s in self.d["stages"])
        self.stage = {s.name: s for s in stages}
        groups = Group.objects.bulk_create(
            Group(stage=self.stage[s["name"]], name=g["name"], order=g["order"])
            for s in self.d["stages"] for g in s["groups"])
        self.group = {(g.stage_id, g.name): g.pk for g in groups}
        StageTeam.objects.bulk_create(
            StageTeam(stage=self.stage[s["name"]], team_id=self.team[e["team"]],
                      group_id=self.group.get((self.stage[s["name"]].pk, e["group"])),
                      position=e["position"]) for s in self.d["stages"] for e in s["teams"])
        for s in self.d["stages"]:
            stage = self.stage[s["name"]]
            if s["qualify_from"] is None and s["schedule"] is None:
                continue
            if s["qualify_from"] is not None:
                stage.qualify_from = self.stage[s["qualify_from"]]
            stage.schedule = map_schedule(
                s["schedule"], lambda code: None if code is None else self.team[code],
                lambda name, pk=stage.pk: str(self.group[(pk, name)]))
            stage.save(update_fields=["qualify_from", "schedule"])

    def rounds(self) -> None:
        d = self.d
        rounds = Round.objects.bulk_create(
            Round(stage=self.stage[r["stage"]], number=r["number"], status=r["status"],
                  rule_settings=r["rules"], created_at=parse_utc(r["created_at"]),
                  published_at=parse_utc(r["published_at"]),
                  started_at=parse_utc(r["started_at"]), closed_at=parse_utc(r["closed_at"]),
                  publish_override_reason=r["publish_override_reason"]) for r in d["rounds"])
        self.round = {(r["stage"], r["number"]): obj for r, obj in zip(d["rounds"], rounds,
                                                                        strict=True)}
        deals = Deal.objects.bulk_create(
            Deal(round=obj, key_id=self.key[x["key"]], deal_set=x["set"], hand=x["hand"],
                 reserve=x["reserve"], cards=x["cards"], is_current=x["current"],
                 replaced_reason=x["replaced_reason"], replaced_at=parse_utc(x["replaced_at"]),
                 created_at=parse_utc(x["created_at"]))
            for r, obj in zip(d["rounds"], rounds, strict=True) for x in r["deals"] or ())
        deal = {(x.round_id, x.deal_set, x.hand, x.reserve): x.pk for x in deals}
        users = self.user_of
        matches = []
        for r, obj in zip(d["rounds"], rounds, strict=True):
            for m in r["matches"]:
                matches.append(Match(
                    round=obj, number=m["number"],
                    group_id=self.group.get((obj.stage_id, m["group"])),
                    home_id=self.team[m["home"]], away_id=self.team[m["away"]],
                    extra_hands=m["extra_hands"], home_total=m["home_total"],
                    away_total=m["away_total"], signed_off_at=parse_utc(m["signed_off_at"]),
                    signed_off_by_id=users(m["signed_off_by"]),
                    forfeited_by_id=self.team.get(m["forfeited_by"])))
        matches = Match.objects.bulk_create(matches)
        self.match = {(m.round_id, m.number): m.pk for m in matches}
        entries, tables = [], []
        flat = [(r, obj, m) for r, obj in zip(d["rounds"], rounds, strict=True)
                for m in r["matches"]]
        for _r, obj, m in flat:
            match_id = self.match[(obj.pk, m["number"])]
            for side in ("home", "away"):
                code = m[side]
                first, second = m[f"{side}_players"]
                entries.append(RoundEntry(
                    round=obj, team_id=self.team[code], match_id=match_id, side=side,
                    first_player_id=self.player[(code, first)],
                    second_player_id=self.player[(code, second)]))
            for tb in m["tables"]:
                tables.append(Table(round=obj, match_id=match_id, position=tb["position"],
                                    number=tb["number"]))
        for r, obj in zip(d["rounds"], rounds, strict=True):
            entries.extend(RoundEntry(round=obj, team_id=self.team[code], side="bye")
                           for code in r["byes"])
        RoundEntry.objects.bulk_create(entries, batch_size=2000)
        tables = Table.objects.bulk_create(tables, batch_size=2000)
        table_id = {(tb.round_id, tb.number): tb.pk for tb in tables}
        self.tables = {(r["stage"], r["number"], tb["number"]): table_id[(obj.pk, tb["number"])]
                       for r, obj, m in flat for tb in m["tables"]}
        # The big tables go in by executemany: Django's bulk_create spends most of its
        # time preparing each of millions of values one by one.
        when = _time_column()
        results, signatures, approvals_of = [], [], []
        token = _uuid_column(HandResult)
        cards = _json_column(HandResult, "cards")
        for _r, obj, m in flat:
            for tb in m["tables"]:
                pk = table_id[(obj.pk, tb["number"])]
                for s in tb["signatures"]:
                    signatures.append((pk, s["seat"], s["method"], when(s["signed_at"]),
                                       users(s["recorded_by"])))
                for h in tb["hands"]:
                    ref = h["deal"]
                    results.append((
                        pk, h["hand"], h["version"], h["current"],
                        deal.get((obj.pk, ref["set"], h["hand"], ref["reserve"]))
                        if ref else None,
                        h["outcome"], h["declarer_seat"], h["declarer_deadwood"],
                        h["opponent_deadwood"], h["false_knock_seat"],
                        h["false_knock_deadwood"], h["seat1_points"], h["seat2_points"],
                        h["explanation"], cards(h["cards"]), h["box_conflict"],
                        users(h["entered_by"]), when(h["entered_at"]), h["ip_address"] or None,
                        h["device"], h["reason"], token(uuid.uuid4())))
                    approvals_of.append(h["approvals"])
        _insert(HandResult, (
            "table_id", "hand", "version", "is_current", "deal_id", "outcome",
            "declarer_seat", "declarer_deadwood", "opponent_deadwood", "false_knock_seat",
            "false_knock_deadwood", "seat1_points", "seat2_points", "explanation", "cards",
            "box_conflict", "entered_by_id", "entered_at", "ip_address", "device", "reason",
            "request_token"), results)
        versions = HandResult.objects.filter(table__round__stage__tournament=self.t)
        result_id = {(table, hand, version): pk for pk, table, hand, version
                     in versions.values_list("pk", "table_id", "hand", "version")}
        _insert(Approval, ("result_id", "seat", "method", "approved_at", "recorded_by_id"), [
            (result_id[(row[0], row[1], row[2])], a["seat"], a["method"],
             when(a["approved_at"]), users(a["recorded_by"]))
            for row, approvals in zip(results, approvals_of, strict=True) for a in approvals])
        _insert(TableSignature, ("table_id", "seat", "method", "signed_at", "recorded_by_id"),
                signatures)
        _insert(TeamResult, (
            "round_id", "team_id", "match_id", "opponent_id", "outcome", "small_points",
            "match_points", "gins", "forfeit", "void", "provisional", "updated_at"), [
            (obj.pk, self.team[x["team"]],
             self.match[(obj.pk, x["match"])] if x["match"] else None,
             self.team.get(x["opponent"]), x["outcome"], x["small_points"],
             x["match_points"], x["gins"], x["forfeit"], x["void"], x["provisional"],
             when(x["updated_at"]))
            for r, obj in zip(d["rounds"], rounds, strict=True) for x in r["team_results"]])
        # The seats' tallies, from the hands just written, as every hand saved writes them.
        write_seat_tallies(table_id.values())

    def user_of(self, name):
        return None if name is None else self.user[name]

    def penalties(self) -> None:
        penalties = []
        for p in self.d["penalties"]:
            round_ = self.round[(p["stage"], p["round"])]
            penalties.append(Penalty(
                tournament=self.t, team_id=self.team[p["team"]],
                player_id=self.player[(p["team"], p["player"])] if p["player"] else None,
                round=round_,
                match_id=self.match[(round_.pk, p["match"])] if p["match"] else None,
                kind=p["kind"], amount=p["amount"], minutes=p["minutes"], reason=p["reason"],
                recorded_by_id=self.user[p["recorded_by"]],
                recorded_at=parse_utc(p["recorded_at"]), undone_at=parse_utc(p["undone_at"]),
                undone_by_id=self.user_of(p["undone_by"]), undo_reason=p["undo_reason"]))
        self.penalty = [p.pk for p in Penalty.objects.bulk_create(penalties)]

    def reference(self, kind: str, value, path: str):
        """A natural key in an audit entry's data as this database's id (None when the row
        is not in the file)."""
        if value is None:
            return None
        if kind == "teams":
            return [self.team.get(v) if isinstance(v, str) else v for v in value] \
                if isinstance(value, list) else value
        try:
            if kind == "round":
                return self.round[tuple(value)].pk
            if kind == "match":
                return self.match[(self.round[tuple(value[:2])].pk, value[2])]
            if kind == "table":
                return self.tables[tuple(value)]
            if kind == "player":
                return self.player[tuple(value)]
            if kind == "team":
                return self.team[value]
            if kind == "stage":
                return self.stage[value].pk
            if kind == "penalty":
                return self.penalty[value]
            return self.user[value]
        except (KeyError, TypeError, IndexError, ValueError):
            self.errors.append(f"{path}: the file has no {kind} {_show(value)}")
            return None

    def audit(self) -> None:
        AuditEntry.objects.bulk_create(
            (AuditEntry(tournament=self.t, actor_id=self.user_of(e["actor"]),
                        actor_name=e["actor_name"], action=e["action"],
                        recorded_summary=e["summary"],
                        data={name: self.reference(AUDIT_REFERENCES[name], value,
                                                   f"audit[{index}].data.{name}")
                              if name in AUDIT_REFERENCES else value
                              for name, value in e["data"].items()},
                        ip_address=e["ip_address"], created_at=parse_utc(e["at"]))
             for index, e in enumerate(self.d["audit"])), batch_size=2000)
        if self.errors:
            raise ImportRefused(self.errors[:MAX_MESSAGES])
