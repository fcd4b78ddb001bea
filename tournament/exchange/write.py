"""A checked tournament file written to the database (``TournamentWriter``): parents
first, in the order the database's triggers accept (matches before their round entries and
tables, deals before the results played on them, a result version before its approvals),
the big tables (hand results, approvals, signatures, team results) by executemany; last the
rows' history (``history.write_history``; one "created" version per row for a version 1
file, ``history.write_created``), none of it by the rows' own saves."""

from __future__ import annotations

import datetime as dt
import uuid

from django.contrib.auth import get_user_model
from django.db import connection

from tournament.exchange.check import ImportPlan
from tournament.exchange.common import AUDIT_REFERENCES, parse_utc
from tournament.exchange.export import TOURNAMENT_FIELDS, map_schedule
from tournament.exchange.history import write_created, write_history
from tournament.exchange.problems import MAX_MESSAGES, ImportRefused, show_value
from tournament.models import (
    Approval,
    AuditEntry,
    Deal,
    DealKey,
    Group,
    HandResult,
    Match,
    Penalty,
    Person,
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
from tournament.services.seats import write_round_seats
from tournament.services.team_results import write_seat_tallies


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
    """Rows (tuples of database values in ``columns``' order) written by executemany. A
    row's revision, where the model has one, is the database's to give (migration 0026):
    written as 0, replaced on PostgreSQL."""
    quote = connection.ops.quote_name
    names = [quote(model._meta.get_field(c).column) for c in columns]
    values = ["%s"] * len(columns)
    if any(field.name == "revision" for field in model._meta.concrete_fields):
        names.append(quote("revision"))
        values.append("0")
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(names)}) "
           f"VALUES ({', '.join(values)})")
    with connection.cursor() as cursor:
        for start in range(0, len(rows), chunk):
            cursor.executemany(sql, rows[start:start + chunk])


class TournamentWriter:
    """Writes a checked document: parents first, in the triggers' order."""

    def __init__(self, document: dict, plan: ImportPlan):
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
        # The rows' history is the file's (``write_history``), or for a version 1 file one
        # "created" version per row (``write_created``): none is written by their saves.
        self.t = tournament = Tournament(**values)
        tournament.skip_history_when_saving = True
        tournament.save(force_insert=True)
        del tournament.skip_history_when_saving  # the caller's saves keep their history
        StaffRole.objects.bulk_create(
            StaffRole(tournament=tournament, user_id=self.user[s["user"]], role=s["role"],
                      is_chief_referee=s["chief_referee"]) for s in d["staff"])
        self.teams()
        self.keys()
        self.stages()
        self.rounds()
        self.penalties()
        self.audit()
        if "history" in d:
            write_history(self)
        else:
            write_created(self)
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
            Team(tournament=self.t, code=t["code"], name=t["name"], other_name=t["other_name"],
                 country=t["country"], seed=t["seed"]) for t in self.d["teams"])
        self.team = {team.code: team.pk for team in teams}
        filed = [(t["code"], p) for t in self.d["teams"] for p in t["players"]]
        rows = [self.player_row(code, p) for code, p in filed]
        for row, person in zip(rows, self.persons([p["person"] for _code, p in filed]),
                               strict=True):
            row.person = person
        players = Player.objects.bulk_create(rows)
        code_of = {pk: code for code, pk in self.team.items()}
        self.player = {(code_of[p.team_id], p.number): p.pk for p in players}
        # The players linked to persons who existed already, for the import to audit.
        self.linked = [(player, row.person) for player, row in zip(players, rows, strict=True)
                       if row.person.pk in self.existing_persons]

    def persons(self, filed: list[dict]) -> list[Person]:
        """The person behind each player of the file (models/person.py): the person of this
        database with the same federation and federation id when both are given (linked,
        never changed: a person belongs to no tournament), else a new one, one for the
        players of the file who share a federation and id. Two queries and one write."""
        key = [(p["federation"], p["federation_id"]) if p["federation"] and p["federation_id"]
               else None for p in filed]
        known = {}
        for federation in {k[0] for k in key if k}:
            ids = {k[1] for k in key if k and k[0] == federation}
            known.update(((person.federation, person.federation_id), person) for person in
                         Person.objects.filter(federation=federation, federation_id__in=ids))
        self.existing_persons = {person.pk for person in known.values()}
        new: dict[object, Person] = {}
        for index, (values, k) in enumerate(zip(filed, key, strict=True)):
            if k not in known:
                new.setdefault(k if k else index, Person(**values))
        Person.objects.bulk_create(new.values())
        return [known[k] if k in known else new[k if k else index]
                for index, k in enumerate(key)]

    def player_row(self, code: str, p: dict) -> Player:
        """A player of the file; one whose PIN hash the plan drops (not this software's
        own) has no PIN, nor its count of wrong PINs or lock."""
        values = {"pin_hash": p["pin_hash"] or "", "pin_failures": p["pin_failures"],
                  "pin_locked_until": parse_utc(p["pin_locked_until"])}
        if (code, p["number"]) in self.plan.dropped_pins:
            values = {"pin_hash": "", "pin_failures": 0, "pin_locked_until": None}
        return Player(team_id=self.team[code], number=p["number"], name=p["name"],
                      federation_id=p["federation_id"], is_reserve=p["reserve"], **values)

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
            Stage(tournament=self.t, name=s["name"], other_name=s["other_name"],
                  kind=s["kind"], order=s["order"],
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
            stage.skip_history_when_saving = True
            stage.save(update_fields=["qualify_from", "schedule"])
            del stage.skip_history_when_saving

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
        write_round_seats([obj.pk for obj in rounds])  # who sat where, from the line-ups
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
            self.errors.append(f"{path}: the file has no {kind} {show_value(value)}")
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
