"""What the schema cannot say about a tournament file's rounds, checked before a row is
written: their deals, matches, tables and hands (each hand's points against the engine's
score under its round's rules), team results, then the penalties and the audit entries."""

from __future__ import annotations

import re

from scoring import RuleError, Rules
from tournament.exchange.common import AUDIT_REFERENCES
from tournament.exchange.problems import unique_index
from tournament.exchange.validator import path_of
from tournament.services.base import ServiceError
from tournament.services.hands import HandEntry, score_entry, seat_points

_CARD = re.compile(r"[A23456789TJQK][SHDC]")


class RoundChecks:
    """The checks of the rounds, penalties and audit entries, part of ``check.ImportPlan``:
    they read what its earlier checks found (``team``, ``players``, ``key``, ``stage``) and
    report through its ``error``, ``times``, ``person`` and ``team_known``."""

    def rounds(self) -> None:
        rounds = self.d["rounds"]
        unique_index(rounds, lambda r: (r["stage"], r["number"]), "rounds", "round",
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
            deals = unique_index(r["deals"], lambda d: (d["set"], d["hand"], d["reserve"]),
                                 path_of([*path, "deals"]), "deal (set hand reserve)",
                                 self.errors)
            unique_index([d for d in r["deals"] if d["current"]], lambda d: (d["set"], d["hand"]),
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
        matches = unique_index(r["matches"], lambda m: m["number"], path_of([*path, "matches"]),
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
            unique_index(match["tables"], lambda t: t["position"], path_of([*where, "tables"]),
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
        unique_index(r["team_results"], lambda x: x["team"], path_of([*path, "team_results"]),
                     "team", self.errors)

    def table(self, table: dict, path: list, rules, deals: dict) -> None:
        unique_index(table["signatures"], lambda s: s["seat"], path_of([*path, "signatures"]),
                     "seat", self.errors)
        for s_index, signature in enumerate(table["signatures"]):
            self.times(signature, [*path, "signatures", s_index])
            self.person(signature["recorded_by"], [*path, "signatures", s_index, "recorded_by"])
        unique_index(table["hands"], lambda h: (h["hand"], h["version"]),
                     path_of([*path, "hands"]), "hand and version", self.errors)
        unique_index([h for h in table["hands"] if h["current"]], lambda h: h["hand"],
                     path_of([*path, "hands"]), "current version of hand", self.errors)
        for h_index, hand in enumerate(table["hands"]):
            self.hand(hand, [*path, "hands", h_index], rules, deals)

    def hand(self, h: dict, path: list, rules, deals: dict) -> None:
        self.hand_count += 1
        self.times(h, path)
        self.person(h["entered_by"], [*path, "entered_by"])
        unique_index(h["approvals"], lambda a: a["seat"], path_of([*path, "approvals"]),
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
