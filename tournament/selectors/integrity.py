"""The integrity check of the standings (issue 11, item 8): everything the standings read,
worked out again from the raw hand results and the penalties, and compared with what is
stored. It should never find a difference.

The standings read only the stored result rows (``TeamResult``), written by
``services.team_results`` whenever a match changes. This module does not call that code:
it derives every row again on its own, from

- each hand's current version, **scored again** by ``scoring.hand`` under its round's
  frozen rules (the stored points of the hand must agree);
- who sits where (``scoring.seating``), so each team's small points and gins of a match;
- the match points of the round's rules (``scoring.match.match_points``, a forfeit's and a
  bye's values from the rules);
- the active penalties: which team forfeits each match (the team of the earliest active
  penalty that covers it: a default of the match, a default in an earlier round of the
  same group stage, or the team's disqualification in that round or before), and which
  teams are withdrawn from a group stage (their results there are void, for their
  opponents too).

What is compared:

- ``Match.forfeited_by`` with the forfeit the active penalties make;
- a signed-off match's ``home_total`` and ``away_total`` with its hands;
- every stored row with the row its round, match or bye should have: missing rows, rows
  that should not exist (a match with no hand yet, a round not started, a team that is not
  in the round), and every value of a row (opponent, outcome, small points, match points,
  gins, forfeit, void, provisional).

- every seat's tally (``SeatTally``, what the individual standings add up) with the tally
  ``scoring.individual.seat_tallies`` makes of the table's current hands, and the player
  its seat names (``TableSeat``) with the one the line-ups put there (``scoring.seating``).

Rows exist only in rounds in play or closed: a bye from the start of play, a match from its
first hand (or its sign-off, or a forfeit). Nine queries for a whole tournament, all in one
transaction that sees one moment of the database (``one_snapshot``), so that a hand saved
while the check reads is never taken for a difference.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import connection, transaction
from django.db.models import F, FilteredRelation, Q

from scoring.errors import RuleError
from scoring.hand import FalseKnock, Party, score_hand
from scoring.individual import seat_tallies
from scoring.match import bye_result, team_gins, team_outcomes, team_totals
from scoring.rules import Rules
from scoring.seating import Side, player_in_seat
from tournament.models import (
    HandResult,
    Match,
    Penalty,
    Round,
    RoundEntry,
    SeatTally,
    Stage,
    Team,
    TeamResult,
    Tournament,
)

PLAYED = (Round.Status.IN_PLAY, Round.Status.CLOSED)
# The values of a row that are compared, with their names for people.
FIELDS = (("opponent", "opponent"), ("outcome", "outcome"),
          ("small_points", "small points"), ("match_points", "match points"),
          ("gins", "gins"), ("forfeit", "forfeit"), ("void", "void"),
          ("provisional", "provisional"))


@dataclass(frozen=True)
class Difference:
    """One thing stored that the hands and penalties do not give."""

    stage: str
    round: int
    where: str  # "T3" (a team's row), "match 2 (T1 – T4)", "match 2 table 1 hand 5"
    what: str

    def __str__(self) -> str:
        return f"{self.stage}, round {self.round}, {self.where}: {self.what}"


@dataclass
class IntegrityReport:
    """What was checked and every difference found, in stage, round and place order."""

    tournament: Tournament
    stages: list[Stage]
    differences: list[Difference] = field(default_factory=list)
    rows: int = 0  # result rows the hands give
    stored_rows: int = 0
    matches: int = 0
    hands: int = 0

    @property
    def ok(self) -> bool:
        return not self.differences

    @property
    def summary(self) -> str:
        what = (f"{len(self.stages)} stage(s), {self.matches} matches, {self.hands} hands, "
                f"{self.rows} result rows expected, {self.stored_rows} stored")
        if self.ok:
            return f"no difference: {what}"
        return f"{len(self.differences)} difference(s): {what}"


@dataclass
class _Match:
    pk: int
    round: int  # round id
    number: int
    home: int
    away: int
    home_total: int | None
    away_total: int | None
    signed_off: bool
    forfeited_by: int | None
    hands: list[tuple] = field(default_factory=list)


@contextmanager
def one_snapshot() -> Iterator[None]:
    """A transaction in which every query sees the same moment: SQLite's write transaction
    (``transaction_mode = IMMEDIATE``) already does; PostgreSQL needs REPEATABLE READ, set
    before the transaction's first query. Inside a caller's transaction, that one."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def check_standings(tournament: Tournament, *, stage: Stage | None = None) -> IntegrityReport:
    """Recompute every result row of the tournament (or of one stage) from the hands and the
    penalties, and list every difference with what is stored."""
    with one_snapshot():
        return _check(tournament, stage)


def _check(tournament: Tournament, stage: Stage | None) -> IntegrityReport:
    every_stage = list(Stage.objects.filter(tournament=tournament).order_by("order"))
    stages = [s for s in every_stage if stage is None or s.pk == stage.pk]
    report = IntegrityReport(tournament=tournament, stages=stages)
    if not stages:
        return report
    stage_ids = [s.pk for s in stages]
    stage_of = {s.pk: s for s in every_stage}
    rounds = {r.pk: r for r in Round.objects.filter(stage_id__in=stage_ids)}
    codes = dict(Team.objects.filter(tournament=tournament).values_list("pk", "code"))
    matches = {row[0]: _Match(*row) for row in Match.objects.filter(
        round__stage_id__in=stage_ids).values_list(
        "pk", "round_id", "number", "home_id", "away_id", "home_total", "away_total",
        "signed_off_at", "forfeited_by_id")}
    for match in matches.values():
        match.signed_off = match.signed_off is not None
    for values in (HandResult.objects.filter(is_current=True,
                                             table__match__round__stage_id__in=stage_ids)
                   .values_list("table__match_id", "table__position", "hand", "outcome",
                                "declarer_seat", "declarer_deadwood", "opponent_deadwood",
                                "false_knock_seat", "false_knock_deadwood", "seat1_points",
                                "seat2_points")):
        matches[values[0]].hands.append(values[1:])
    penalties = list(Penalty.objects.filter(
        tournament=tournament, undone_at__isnull=True,
        kind__in=[Penalty.Kind.DEFAULT, Penalty.Kind.DISQUALIFICATION])
        .values_list("team_id", "kind", "player_id", "match_id", "round__stage_id",
                     "round__number", "recorded_at", "pk"))
    # The byes, and the line-ups: who should sit in each seat (``scoring.seating``).
    byes, lineups = [], {}
    for round_id, team, side, match_id, *players in RoundEntry.objects.filter(
            round__stage_id__in=stage_ids).values_list(
            "round_id", "team_id", "side", "match_id", "first_player_id", "first_player__name",
            "second_player_id", "second_player__name"):
        if side == RoundEntry.Side.BYE:
            byes.append((round_id, team))
        elif match_id is not None:
            lineups.setdefault(match_id, {})[side] = (tuple(players[:2]), tuple(players[2:]))
    stored = {(row[0], row[1]): row for row in TeamResult.objects.filter(
        round__stage_id__in=stage_ids).values_list(
        "round_id", "team_id", "match_id", "opponent_id", "outcome", "small_points",
        "match_points", "gins", "forfeit", "void", "provisional")}
    report.stored_rows = len(stored)

    withdrawn = {s.pk: _withdrawn(s, stage_of, penalties) for s in stages}
    # (match, table position) → its hands as the tallies count them, the points scored again.
    tables: dict[tuple[int, int], list[tuple]] = {}
    expected: dict[tuple[int, int], tuple] = {}
    found: list[tuple[tuple, Difference]] = []

    def note(round_: Round, order: tuple, where: str, what: str) -> None:
        """``order``: (0, match number, table, hand, "") for a match, (1, 0, 0, 0, team
        code) for a team's row."""
        stage_ = stage_of[round_.stage_id]
        found.append(((stage_.order, round_.number, *order),
                      Difference(stage_.shown_name, round_.number, where, what)))

    for round_id, team in byes:
        round_ = rounds[round_id]
        if round_.status in PLAYED:
            points, small = bye_result(round_.rules)
            expected[round_id, team] = (None, None, TeamResult.Outcome.BYE, small, points, 0,
                                        False, team in withdrawn[round_.stage_id], False)
    for match in sorted(matches.values(), key=lambda m: (m.round, m.number)):
        round_ = rounds[match.round]
        rules = round_.rules
        label = f"match {match.number} ({codes[match.home]} – {codes[match.away]})"
        report.matches += 1
        report.hands += len(match.hands)
        scored: list[tuple[int, int, int]] = []  # (table position, seat 1, seat 2)
        declared: list[tuple[int, int | None, str]] = []  # (position, declarer, outcome)
        for position, hand, *entry, seat1, seat2 in match.hands:
            points = _points(rules, *entry)
            if points != (seat1, seat2):
                again = points if isinstance(points, str) else f"{points[0]}, {points[1]}"
                note(round_, (0, match.number, position, hand, ""),
                     f"{label} table {position} hand {hand}",
                     f"stored points {seat1}, {seat2}; scored again: {again}")
            if not isinstance(points, str):
                seat1, seat2 = points  # the totals follow what was entered
            outcome, declarer, false_knock = entry[0], entry[1], entry[4]
            tables.setdefault((match.pk, position), []).append(
                (hand, seat1, seat2, outcome, declarer, false_knock))
            scored.append((position, seat1, seat2))
            declared.append((position, declarer, outcome))
        home, away = team_totals(scored)
        gins = team_gins(declared)
        if match.signed_off and (match.home_total, match.away_total) != (home, away):
            note(round_, (0, match.number, 0, 0, ""), label,
                 f"signed off at {match.home_total} – {match.away_total}, the hands make "
                 f"{home} – {away}")
        due = _forfeiter(match, round_, stage_of, penalties)
        if due != match.forfeited_by:
            stored_by = codes[match.forfeited_by] if match.forfeited_by else "nobody"
            should = codes[due] if due else "nobody"
            note(round_, (0, match.number, 0, 0, ""), label,
                 f"forfeited by {stored_by}, the active penalties say by {should}")
        if round_.status not in PLAYED:
            continue
        void = withdrawn[round_.stage_id]
        is_void = match.home in void or match.away in void
        if due is None and not match.hands and not match.signed_off:
            continue  # not begun: no result yet
        forfeited_by = None if due is None else Side.HOME if due == match.home else Side.AWAY
        outcomes = team_outcomes(home, away, rules, forfeited_by=forfeited_by)
        for team, opponent, result, own_gins in (
                (match.home, match.away, outcomes[0], gins[0]),
                (match.away, match.home, outcomes[1], gins[1])):
            expected[match.round, team] = (
                match.pk, opponent, result.outcome, result.small_points, result.match_points,
                0 if due is not None else own_gins, due is not None, is_void,
                due is None and not match.signed_off)
    report.rows = len(expected)
    _check_tallies(tables, matches, rounds, stage_ids, codes, lineups, note)

    for key in expected.keys() | stored.keys():
        round_ = rounds[key[0]]
        team = codes.get(key[1], f"team #{key[1]}")
        want, have = expected.get(key), stored.get(key)
        if want is None:
            note(round_, (1, 0, 0, 0, team), team, "a stored row that the hands and the draw "
                 f"do not give ({_row_words(have[2:], codes)})")
        elif have is None:
            note(round_, (1, 0, 0, 0, team), team,
                 f"no stored row; the hands give {_row_words(want, codes)}")
        else:
            if have[2] != want[0]:
                note(round_, (1, 0, 0, 0, team), team,
                     f"stored for match #{have[2]}, the draw says match #{want[0]}")
            wrong = [f"{name} stored {_value(have[3 + i], codes, i)}, recomputed "
                     f"{_value(want[1 + i], codes, i)}"
                     for i, (_key, name) in enumerate(FIELDS) if have[3 + i] != want[1 + i]]
            if wrong:
                note(round_, (1, 0, 0, 0, team), team, "; ".join(wrong))
    report.differences = [difference for _order, difference in
                          sorted(found, key=lambda item: item[0])]
    return report


def _check_tallies(tables: dict[tuple[int, int], list[tuple]], matches: dict[int, _Match],
                   rounds: dict[int, Round], stage_ids: list[int], codes: dict[int, str],
                   lineups: dict[int, dict[str, tuple]], note) -> None:
    """Each table's seats' stored tallies against the tallies of its current hands (their
    points as scored again: a hand's wrong points are one difference, noted above), and
    the player each tally counts for (its seat's, ``TableSeat``) against the one the
    line-ups put there (``scoring.seating``)."""
    stored, seated = {}, {}
    for match, position, seat, player, name, *figures in (
            SeatTally.objects.filter(table__round__stage_id__in=stage_ids)
            .annotate(sat=FilteredRelation("table__seats",
                                           condition=Q(table__seats__seat=F("seat"))))
            .values_list("table__match_id", "table__position", "seat", "sat__player_id",
                         "sat__player__name", *SeatTally.FIGURES)):
        stored[match, position, seat] = figures
        seated[match, position, seat] = (player, name)
    for match_id, position in sorted(tables.keys() | {k[:2] for k in stored}):
        match = matches.get(match_id)
        if match is None:
            continue
        round_ = rounds[match.round]
        label = (f"match {match.number} ({codes[match.home]} – {codes[match.away]}) "
                 f"table {position}")
        try:
            wanted = seat_tallies(tables.get((match_id, position), []))
        except RuleError:
            continue  # a hand the engine refuses: its points are noted above
        for seat, tally in zip((1, 2), wanted, strict=True):
            have = stored.get((match_id, position, seat))
            want = [getattr(tally, name) for name in SeatTally.FIGURES]
            sides = lineups.get(match_id, {})
            if have is not None and len(sides) == 2:
                player, name = seated[match_id, position, seat]
                due = player_in_seat(position, seat, sides)
                if player != due[0]:
                    note(round_, (0, match.number, position, 0, ""), f"{label} seat {seat}",
                         f"its hands count for {name or 'nobody'}, the line-ups seat "
                         f"{due[1]} there")
            if have is None:
                if tally.hands:
                    note(round_, (0, match.number, position, 0, ""), f"{label} seat {seat}",
                         "no stored tally of its hands")
                continue
            if have != want:
                words = "; ".join(f"{name.replace('_', ' ')} stored {got}, the hands make "
                                  f"{should}" for name, got, should in
                                  zip(SeatTally.FIGURES, have, want, strict=True)
                                  if got != should)
                note(round_, (0, match.number, position, 0, ""), f"{label} seat {seat}",
                     f"tally: {words}")


def _value(value, codes: dict[int, str], index: int) -> str:
    if index == 0:  # the opponent
        return codes.get(value, "none") if value is not None else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _row_words(values: tuple, codes: dict[int, str]) -> str:
    """"opponent T4, win, small points 23, match points 3, …" of a row's values."""
    parts = [f"{name} {_value(values[1 + i], codes, i)}" for i, (_k, name) in enumerate(FIELDS)]
    return ", ".join(parts)


@lru_cache(maxsize=65536)
def _points(rules: Rules, outcome: str, declarer: int | None, declarer_deadwood: int | None,
            opponent_deadwood: int | None, false_knock_seat: int | None,
            false_knock_deadwood: int | None) -> tuple[int, int] | str:
    """(seat 1, seat 2) points of a stored hand scored again, or why it cannot be."""
    false_knock = None
    if false_knock_seat is not None:
        by = Party.DECLARER if false_knock_seat == declarer else Party.OPPONENT
        false_knock = FalseKnock(by=by, deadwood=false_knock_deadwood)
    try:
        score = score_hand("knock" if outcome == "undercut" else outcome, declarer_deadwood,
                           opponent_deadwood, rules=rules, false_knock=false_knock)
    except RuleError as error:
        return f"not a valid hand ({error})"
    if score.outcome.value != outcome and not (outcome == "knock" and
                                               score.outcome.value == "undercut"):
        return f"it is a {score.outcome.value}, stored as a {outcome}"
    if declarer is None:
        return 0, 0
    if declarer == 1:
        return score.declarer_points, score.opponent_points
    return score.opponent_points, score.declarer_points


def _withdrawn(stage: Stage, stage_of: dict[int, Stage], penalties: list[tuple]) -> set[int]:
    """Teams whose results a group stage clears: a default in one of its rounds, or the
    team's disqualification in this stage or an earlier one."""
    if stage.kind != Stage.Kind.GROUPS:
        return set()
    return {team for team, kind, player, _match, stage_id, _number, _at, _pk in penalties
            if (kind == Penalty.Kind.DEFAULT and stage_id == stage.pk)
            or (kind == Penalty.Kind.DISQUALIFICATION and player is None
                and stage_of[stage_id].order <= stage.order)}


def _forfeiter(match: _Match, round_: Round, stage_of: dict[int, Stage],
               penalties: list[tuple]) -> int | None:
    """The team the active penalties make forfeit this match, or None."""
    stage = stage_of[round_.stage_id]
    claims = []
    for team, kind, player, match_id, stage_id, number, at, pk in penalties:
        if team not in (match.home, match.away):
            continue
        if kind == Penalty.Kind.DEFAULT:
            covers = match_id == match.pk or (
                stage.kind == Stage.Kind.GROUPS and stage_id == stage.pk
                and round_.number > number)
        else:
            own = stage_of[stage_id]
            covers = player is None and (stage.order > own.order or (
                stage.pk == own.pk and round_.number >= number))
        if covers:
            claims.append((at, pk, team))
    return min(claims)[2] if claims else None
