"""A whole tournament as one JSON document (docs/formats.md, "Tournament file").

Rows are named by natural keys (team codes, stage names, round, match and table numbers,
user names), never by database ids, and written in a fixed order, so the same tournament
always gives the same bytes. Without ``secrets`` the file leaves out what must stay secret:
the key of a deal key not yet revealed, the deals (and the cards entered in cards mode, and
the referee's notes on them) of every round not closed, and the players' PIN hashes.
The change history of the rows is written by ``history.export_history``.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction

from tournament.exchange.common import (
    AUDIT_REFERENCES,
    DATABASE_ACTIONS,
    TOURNAMENT_FIELDS,
    dump,
    map_schedule,
    utc_text,
)
from tournament.exchange.history import export_history
from tournament.exchange.schema import FORMAT, VERSION
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


def _plain(value):
    if isinstance(value, dt.datetime):
        return utc_text(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def export_tournament(tournament: Tournament, *, secrets: bool = False) -> dict:
    """The tournament as the file's document, read in one transaction."""
    with transaction.atomic():
        return _Exporter(tournament, secrets).document()


def export_text(tournament: Tournament, *, secrets: bool = False) -> str:
    return dump(export_tournament(tournament, secrets=secrets))


class _Exporter:
    def __init__(self, tournament: Tournament, secrets: bool):
        self.t = tournament
        self.secrets = secrets
        self.user_ids: set[int] = set()

    def person(self, user_id):
        if user_id is None:
            return None
        self.user_ids.add(user_id)
        return self.usernames[user_id]

    def document(self) -> dict:
        t = self.t
        self.usernames = dict(get_user_model().objects.values_list("pk", "username"))
        teams = list(Team.objects.filter(tournament=t).order_by("code"))
        self.code = {team.pk: team.code for team in teams}
        players = list(Player.objects.filter(team__tournament=t).select_related("person")
                       .order_by("team_id", "number"))
        self.player = {p.pk: (p.team_id, p.number) for p in players}
        stages = list(Stage.objects.filter(tournament=t).order_by("order"))
        self.stage_name = {stage.pk: stage.name for stage in stages}
        groups = list(Group.objects.filter(stage__tournament=t).order_by("stage_id", "order"))
        self.group_name = {group.pk: group.name for group in groups}
        rounds = list(Round.objects.filter(stage__tournament=t)
                      .order_by("stage__order", "number"))
        self.round_key = {r.pk: (self.stage_name[r.stage_id], r.number) for r in rounds}
        keys = list(DealKey.objects.filter(tournament=t).order_by("number"))
        self.key_number = {key.pk: key.number for key in keys}

        document = {
            "format": FORMAT,
            "version": VERSION,
            "secrets": self.secrets,
            "tournament": {name: _plain(getattr(t, name)) for name in TOURNAMENT_FIELDS},
            "staff": [
                {"user": self.person(user_id), "role": role, "chief_referee": chief}
                for user_id, role, chief in StaffRole.objects.filter(tournament=t)
                .values_list("user_id", "role", "is_chief_referee")],
            "teams": self.teams(teams, players),
            "deal_keys": [{
                "number": key.number,
                "secret": key.key_hex if self.secrets or key.is_revealed else None,
                "commitment": key.commitment,
                "public_value": key.public_value,
                "public_value_set_at": utc_text(key.public_value_set_at),
                "revealed_at": utc_text(key.revealed_at),
                "created_at": utc_text(key.created_at),
            } for key in keys],
            "stages": self.stages(stages, groups),
            "rounds": self.rounds(rounds),
            "penalties": self.penalties(),
        }
        document["audit"] = self.audit()
        document["history"] = export_history(self)
        document["staff"].sort(key=lambda s: s["user"])
        users = get_user_model().objects.filter(pk__in=self.user_ids)
        document["people"] = sorted(
            ({"username": u.username, "first_name": u.first_name, "last_name": u.last_name}
             for u in users), key=lambda p: p["username"])
        return document

    def teams(self, teams, players) -> list:
        by_team: dict[int, list] = {}
        for p in players:
            person = p.person
            by_team.setdefault(p.team_id, []).append({
                "number": p.number, "name": p.name,
                "person": {"name": person.name, "other_name": person.other_name,
                           "federation": person.federation,
                           "federation_id": person.federation_id, "country": person.country},
                "federation_id": p.federation_id,
                "reserve": p.is_reserve,
                "pin_hash": p.pin_hash if self.secrets else None,
                "pin_failures": p.pin_failures,
                "pin_locked_until": utc_text(p.pin_locked_until),
            })
        return [{"code": team.code, "name": team.name, "other_name": team.other_name,
                 "country": team.country,
                 "seed": team.seed, "players": by_team.get(team.pk, [])} for team in teams]

    def stages(self, stages, groups) -> list:
        entries: dict[int, list] = {}
        for stage_id, team_id, group_id, position in (
                StageTeam.objects.filter(stage__tournament=self.t)
                .order_by("stage_id", "group__order", "position", "team__code")
                .values_list("stage_id", "team_id", "group_id", "position")):
            entries.setdefault(stage_id, []).append({
                "team": self.code[team_id], "group": self.group_name.get(group_id),
                "position": position})
        out = []
        for stage in stages:
            out.append({
                "name": stage.name, "other_name": stage.other_name, "kind": stage.kind,
                "order": stage.order,
                "swiss_rounds": stage.swiss_rounds,
                "third_place_match": stage.third_place_match,
                "schedule": map_schedule(
                    stage.schedule, lambda t: None if t is None else self.code.get(t),
                    lambda g: self.group_name.get(int(g))),
                "qualify_from": self.stage_name.get(stage.qualify_from_id),
                "qualifiers_per_group": stage.qualifiers_per_group,
                "extra_qualifiers": stage.extra_qualifiers,
                "groups": [{"name": g.name, "order": g.order}
                           for g in groups if g.stage_id == stage.pk],
                "teams": entries.get(stage.pk, []),
            })
        return out

    def rounds(self, rounds) -> list:
        t = self.t
        in_t = {"round__stage__tournament": t}
        deals: dict[int, list] = {}
        self.deal_of: dict[int, dict] = {}
        for d in Deal.objects.filter(**in_t).order_by("round_id", "deal_set", "hand", "reserve"):
            self.deal_of[d.pk] = {"set": d.deal_set, "reserve": d.reserve}
            deals.setdefault(d.round_id, []).append({
                "set": d.deal_set, "hand": d.hand, "reserve": d.reserve,
                "key": self.key_number[d.key_id], "cards": d.cards, "current": d.is_current,
                "replaced_reason": d.replaced_reason, "replaced_at": utc_text(d.replaced_at),
                "created_at": utc_text(d.created_at)})
        closed = {r.pk for r in rounds if r.status == Round.Status.CLOSED}
        matches = list(Match.objects.filter(**in_t).order_by("round_id", "number"))
        match_number = {m.pk: m.number for m in matches}
        self.match_key = {m.pk: (*self.round_key[m.round_id], m.number) for m in matches}
        lineups = {}
        byes: dict[int, list] = {}
        for round_id, team_id, match_id, side, first, second in (
                RoundEntry.objects.filter(**in_t).values_list(
                    "round_id", "team_id", "match_id", "side", "first_player_id",
                    "second_player_id")):
            if match_id is None:
                byes.setdefault(round_id, []).append(self.code[team_id])
            else:
                lineups[(match_id, side)] = [self.player[first][1], self.player[second][1]]
        tables = list(Table.objects.filter(**in_t).order_by("match_id", "position"))
        self.table_key = {tb.pk: (*self.round_key[tb.round_id], tb.number) for tb in tables}
        approvals: dict[int, list] = {}
        for result_id, seat, method, at, by in (
                Approval.objects.filter(result__table__round__stage__tournament=t)
                .order_by("result_id", "seat")
                .values_list("result_id", "seat", "method", "approved_at", "recorded_by_id")):
            approvals.setdefault(result_id, []).append({
                "seat": seat, "method": method, "approved_at": utc_text(at),
                "recorded_by": self.person(by)})
        signatures: dict[int, list] = {}
        for table_id, seat, method, at, by in (
                TableSignature.objects.filter(table__round__stage__tournament=t)
                .order_by("table_id", "seat")
                .values_list("table_id", "seat", "method", "signed_at", "recorded_by_id")):
            signatures.setdefault(table_id, []).append({
                "seat": seat, "method": method, "signed_at": utc_text(at),
                "recorded_by": self.person(by)})
        hands: dict[int, list] = {}
        fields = ("pk", "table_id", "table__round_id", "hand", "version", "is_current",
                  "deal_id", "outcome", "declarer_seat", "declarer_deadwood",
                  "opponent_deadwood", "false_knock_seat", "false_knock_deadwood",
                  "seat1_points", "seat2_points", "explanation", "cards", "box_conflict",
                  "entered_by_id", "entered_at", "ip_address", "device", "reason")
        for row in (HandResult.objects.filter(table__round__stage__tournament=t)
                    .order_by("table_id", "hand", "version").values_list(*fields)):
            (pk, table_id, round_id, hand, version, current, deal_id, outcome, seat, dd, od,
             fk_seat, fk_dd, p1, p2, explanation, cards, conflict, by, at, ip, device,
             reason) = row
            secret = not self.secrets and round_id not in closed
            hands.setdefault(table_id, []).append({
                "hand": hand, "version": version, "current": current,
                "deal": self.deal_of.get(deal_id) if deal_id else None,
                "outcome": outcome, "declarer_seat": seat, "declarer_deadwood": dd,
                "opponent_deadwood": od, "false_knock_seat": fk_seat,
                "false_knock_deadwood": fk_dd, "seat1_points": p1, "seat2_points": p2,
                "explanation": explanation, "cards": None if secret else cards,
                "box_conflict": "" if secret else conflict,
                "entered_by": self.person(by), "entered_at": utc_text(at), "ip_address": ip,
                "device": device, "reason": reason,
                "approvals": approvals.get(pk, [])})
        tables_of: dict[int, list] = {}
        for tb in tables:
            tables_of.setdefault(tb.match_id, []).append({
                "number": tb.number, "position": tb.position,
                "hands": hands.get(tb.pk, []), "signatures": signatures.get(tb.pk, [])})
        matches_of: dict[int, list] = {}
        for m in matches:
            matches_of.setdefault(m.round_id, []).append({
                "number": m.number, "group": self.group_name.get(m.group_id),
                "home": self.code[m.home_id], "away": self.code[m.away_id],
                "home_players": lineups[(m.pk, "home")],
                "away_players": lineups[(m.pk, "away")],
                "extra_hands": m.extra_hands, "home_total": m.home_total,
                "away_total": m.away_total, "signed_off_at": utc_text(m.signed_off_at),
                "signed_off_by": self.person(m.signed_off_by_id),
                "forfeited_by": self.code.get(m.forfeited_by_id),
                "tables": tables_of.get(m.pk, [])})
        results: dict[int, list] = {}
        for (round_id, team_id, match_id, opponent_id, outcome, small, points, gins, forfeit,
             void, provisional, updated) in (
                TeamResult.objects.filter(**in_t).values_list(
                    "round_id", "team_id", "match_id", "opponent_id", "outcome",
                    "small_points", "match_points", "gins", "forfeit", "void", "provisional",
                    "updated_at")):
            results.setdefault(round_id, []).append({
                "team": self.code[team_id], "match": match_number.get(match_id),
                "opponent": self.code.get(opponent_id), "outcome": outcome,
                "small_points": small, "match_points": points, "gins": gins,
                "forfeit": forfeit, "void": void, "provisional": provisional,
                "updated_at": utc_text(updated)})
        out = []
        for r in rounds:
            withheld = not self.secrets and r.pk not in closed
            out.append({
                "stage": self.stage_name[r.stage_id], "number": r.number, "status": r.status,
                "rules": r.rule_settings, "created_at": utc_text(r.created_at),
                "published_at": utc_text(r.published_at),
                "started_at": utc_text(r.started_at), "closed_at": utc_text(r.closed_at),
                "publish_override_reason": r.publish_override_reason,
                "deals": None if withheld else deals.get(r.pk, []),
                "byes": sorted(byes.get(r.pk, [])),
                "matches": matches_of.get(r.pk, []),
                "team_results": sorted(results.get(r.pk, []), key=lambda x: x["team"]),
            })
        return out

    def penalties(self) -> list:
        out = []
        self.penalty_index = {}
        for p in Penalty.objects.filter(tournament=self.t).order_by("recorded_at", "id"):
            self.penalty_index[p.pk] = len(out)
            stage, number = self.round_key[p.round_id]
            out.append({
                "team": self.code[p.team_id],
                "player": self.player[p.player_id][1] if p.player_id else None,
                "stage": stage, "round": number,
                "match": self.match_key[p.match_id][2] if p.match_id else None,
                "kind": p.kind, "amount": p.amount, "minutes": p.minutes, "reason": p.reason,
                "recorded_by": self.person(p.recorded_by_id),
                "recorded_at": utc_text(p.recorded_at), "undone_at": utc_text(p.undone_at),
                "undone_by": self.person(p.undone_by_id), "undo_reason": p.undo_reason})
        return out

    def reference(self, kind: str, value):
        """An id in an audit entry's data as its row's natural key (None: no such row)."""
        if kind == "teams":
            return ([self.code.get(v) if isinstance(v, int) else v for v in value]
                    if isinstance(value, list) else value)
        if not isinstance(value, int) or isinstance(value, bool):
            return value
        if kind == "round":
            key = self.round_key.get(value)
        elif kind == "match":
            key = self.match_key.get(value)
        elif kind == "table":
            key = self.table_key.get(value)
        elif kind == "player":
            key = self.player.get(value)
            key = (self.code[key[0]], key[1]) if key else None
        elif kind == "team":
            key = self.code.get(value)
        elif kind == "stage":
            key = self.stage_name.get(value)
        elif kind == "penalty":
            key = self.penalty_index.get(value)
        else:  # user
            key = self.person(value) if value in self.usernames else None
        return list(key) if isinstance(key, tuple) else key

    def audit(self) -> list:
        out = []
        for e in (AuditEntry.objects.filter(tournament=self.t)
                  .exclude(action__in=DATABASE_ACTIONS).order_by("created_at", "id")):
            data = e.data if isinstance(e.data, dict) else {"value": e.data}
            data = {name: self.reference(AUDIT_REFERENCES[name], value)
                    if name in AUDIT_REFERENCES else value for name, value in data.items()}
            # "summary": the sentence an older entry was recorded with; empty for the
            # others, whose sentence is written from action and data when shown.
            out.append({"at": utc_text(e.created_at), "actor": self.person(e.actor_id),
                        "actor_name": e.actor_name, "action": e.action,
                        "summary": e.recorded_summary,
                        "data": data, "ip_address": e.ip_address})
        return out
