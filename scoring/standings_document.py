"""The JSON document of ``python -m scoring standings`` (docs/engine.md): read it into the
records of ``scoring.standings``, with every mistake named by its path in the document
(``rounds[2][0].tables[1][4].outcome``).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

from scoring.errors import RuleError
from scoring.hand import score_hand
from scoring.match import bye_result
from scoring.rules import Rules
from scoring.standings import (
    AWAY,
    HOME,
    ByeRecord,
    MatchRecord,
    PenaltyRecord,
    StandingRow,
    forfeited_match,
    played_match,
    standings,
)

TOP_KEYS = {"rules", "teams", "rounds", "byes", "penalties", "withdrawn", "lots_seed"}
HAND_KEYS = {"outcome", "declarer", "declarer_deadwood", "opponent_deadwood"}
GINS = {"gin", "big_gin"}


class DocumentError(RuleError):
    """A mistake in the document, named by its path."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


@dataclass(frozen=True)
class Event:
    rules: Rules
    teams: list[str]
    matches: list[MatchRecord]
    byes: list[ByeRecord]
    penalties: list[PenaltyRecord]
    withdrawn: list[str]
    lots_seed: bytes

    def standings(self) -> list[StandingRow]:
        return standings(self.teams, self.matches, byes=self.byes, penalties=self.penalties,
                         withdrawn=self.withdrawn, tiebreaks=self.rules.tiebreaks,
                         lots_seed=self.lots_seed)


def read_event(document: Any, base_rules: Rules) -> Event:
    """The event a document describes; its ``rules`` win over ``base_rules``."""
    _object(document, "", TOP_KEYS)
    rules = _rules(document.get("rules", {}), base_rules)
    teams = _names(document.get("teams"), "teams", required=True)
    if len(set(teams)) != len(teams):
        raise DocumentError("teams", "a team is listed twice")
    known = set(teams)
    rounds = document.get("rounds", [])
    _list(rounds, "rounds")
    matches = []
    for number, round_ in enumerate(rounds):
        _list(round_, f"rounds[{number}]")
        for index, match in enumerate(round_):
            matches.append(_match(match, f"rounds[{number}][{index}]", number + 1, known,
                                  rules))
    byes = []
    for index, bye in enumerate(_list(document.get("byes", []), "byes")):
        path = f"byes[{index}]"
        _object(bye, path, {"round", "team"}, required={"round", "team"})
        points, small = bye_result(rules)
        byes.append(ByeRecord(_int(bye["round"], f"{path}.round", low=1),
                              _team(bye["team"], f"{path}.team", known), points, small))
    penalties = []
    for index, penalty in enumerate(_list(document.get("penalties", []), "penalties")):
        path = f"penalties[{index}]"
        _object(penalty, path, {"team", "kind", "amount", "round"},
                required={"team", "kind", "amount"})
        if penalty["kind"] not in ("match_points", "small_points"):
            raise DocumentError(f"{path}.kind", 'must be "match_points" or "small_points"')
        penalties.append(PenaltyRecord(
            _team(penalty["team"], f"{path}.team", known), penalty["kind"],
            _int(penalty["amount"], f"{path}.amount", low=0),
            _int(penalty["round"], f"{path}.round", low=1) if "round" in penalty else None))
    withdrawn = _names(document.get("withdrawn", []), "withdrawn")
    for index, team in enumerate(withdrawn):
        _team(team, f"withdrawn[{index}]", known)
    seed = document.get("lots_seed", "")
    if not isinstance(seed, str):
        raise DocumentError("lots_seed", "must be a string")
    return Event(rules, teams, matches, byes, penalties, withdrawn, seed.encode())


def _rules(values: Any, base: Rules) -> Rules:
    names = {f.name for f in dataclasses.fields(Rules)}
    _object(values, "rules", names)
    merged = {**base.to_dict(), **values}
    try:
        return Rules.from_dict(merged)
    except RuleError as error:
        raise DocumentError("rules", str(error)) from None


def _match(match: Any, path: str, round_: int, known: set[str], rules: Rules) -> MatchRecord:
    _object(match, path, {"home", "away", "tables", "forfeit"}, required={"home", "away"})
    home = _team(match["home"], f"{path}.home", known)
    away = _team(match["away"], f"{path}.away", known)
    if home == away:
        raise DocumentError(path, "a team cannot meet itself")
    if "forfeit" in match:
        if "tables" in match:
            raise DocumentError(path, "a forfeited match has no tables")
        forfeit = match["forfeit"]
        if forfeit not in (home, away):
            raise DocumentError(f"{path}.forfeit", f"names the team that forfeited: {home!r} "
                                f"or {away!r}")
        return forfeited_match(round_, home, away, HOME if forfeit == home else AWAY, rules)
    tables = match.get("tables")
    if not isinstance(tables, list) or not 1 <= len(tables) <= 2:
        raise DocumentError(f"{path}.tables", "must be a list of one or two tables")
    home_total, gins = 0, {HOME: 0, AWAY: 0}
    for number, hands in enumerate(tables):
        _list(hands, f"{path}.tables[{number}]")
        for index, hand in enumerate(hands):
            points, gin_side = _hand(hand, f"{path}.tables[{number}][{index}]", rules)
            home_total += points
            if gin_side:
                gins[gin_side] += 1
    return played_match(round_, home, away, home_total, rules, home_gins=gins[HOME],
                        away_gins=gins[AWAY])


# A whole event's document holds some 60,000 hands of a few hundred kinds (an outcome and
# two deadwood counts, under one set of rules, all of it hashable): each kind is scored
# once, not once a hand (issue 59: two thirds of the command's time). A refusal is not
# kept, and says where it was found each time.
_scored = functools.lru_cache(maxsize=4096)(score_hand)


def _hand(hand: Any, path: str, rules: Rules) -> tuple[int, str | None]:
    """The home side's points of a hand, and the side that made gin or Big Gin."""
    _object(hand, path, HAND_KEYS, required={"outcome"})
    outcome = hand["outcome"]
    if outcome not in ("knock", "gin", "big_gin", "draw"):
        raise DocumentError(f"{path}.outcome", 'must be "knock", "gin", "big_gin" or "draw"')
    declarer = hand.get("declarer")
    if outcome == "draw":
        if declarer is not None:
            raise DocumentError(f"{path}.declarer", "a draw has no declarer")
        return 0, None
    if declarer not in (HOME, AWAY):
        raise DocumentError(f"{path}.declarer", 'must be "home" or "away"')
    deadwoods = {}
    for key in ("declarer_deadwood", "opponent_deadwood"):
        if key in hand:
            deadwoods[key] = _int(hand[key], f"{path}.{key}", low=0)
    try:
        score = _scored(outcome, deadwoods.get("declarer_deadwood"),
                        deadwoods.get("opponent_deadwood"), rules=rules)
    except RuleError as error:
        raise DocumentError(path, str(error)) from None
    home_points = score.declarer_points if declarer == HOME else score.opponent_points
    return home_points, declarer if outcome in GINS else None


# --- small checks, each naming the path ---------------------------------------------------

def _object(value: Any, path: str, allowed: set[str], *, required: set[str] = frozenset()
            ) -> dict:
    if not isinstance(value, dict):
        raise DocumentError(path, "must be an object")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise DocumentError(path, f"unknown key {unknown[0]!r}")
    missing = sorted(required - set(value))
    if missing:
        raise DocumentError(path, f"{missing[0]!r} is missing")
    return value


def _list(value: Any, path: str) -> list:
    if not isinstance(value, list):
        raise DocumentError(path, "must be a list")
    return value


def _names(value: Any, path: str, *, required: bool = False) -> list[str]:
    if value is None and required:
        raise DocumentError(path, "is missing")
    _list(value, path)
    for index, name in enumerate(value):
        if not isinstance(name, str) or not name:
            raise DocumentError(f"{path}[{index}]", "must be a team name (a string)")
    return value


def _team(value: Any, path: str, known: set[str]) -> str:
    if not isinstance(value, str) or value not in known:
        raise DocumentError(path, f"{value!r} is not one of the teams")
    return value


def _int(value: Any, path: str, *, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DocumentError(path, "must be a whole number")
    if low is not None and value < low:
        raise DocumentError(path, f"must be {low} or more")
    return value
