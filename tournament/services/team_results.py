"""Each team's result row (``TeamResult``), written whenever its match changes (RULES.md §8,
§10): the standings read only these rows.

- A hand saved, corrected or signed off rewrites both rows of its match: provisional until
  the sign-off, official after it, by the match's round rules.
- A forfeit (``Match.forfeited_by``) is a win for the other team, never a 0–0 tie.
- A match with no hand entered and no sign-off has no rows yet: it is not a result.
- Byes get their rows when the round starts (the draw is fixed from then on).
- A team withdrawn from a group stage (a default or a disqualification) voids every row of
  that stage that involves it, for both teams; undoing the penalty restores them.

Each seat of a table has its tally (``SeatTally``: ``scoring.individual.Tally`` of the
table's current hands), rewritten whenever a hand of the table is saved: the individual
standings add the tallies up (``selectors.individual``). Whether a tally counts (signed off,
forfeited, void) is read from its match, as for the hands themselves.

Call these inside the caller's transaction, with the match (or round) locked through
``services.locking``.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.individual import seat_tallies
from scoring.match import TeamOutcome, bye_result, team_gins, team_outcomes, team_totals
from scoring.seating import Side
from tournament.models import (
    HandResult,
    Match,
    Round,
    RoundEntry,
    SeatTally,
    Stage,
    Table,
    TeamResult,
)
from tournament.prepared import prepared_rows, upsert
from tournament.selectors.penalties import withdrawn_teams


def write_match_results(match: Match, *, hands_of: Table | None = None) -> None:
    """(Re)write both teams' rows of a match from its current state; ``hands_of``: a table
    of the match whose hands changed, whose seats' tallies are rewritten too (from the same
    read of the hands)."""
    rules = match.round.rules
    void = _void_teams(match.round.stage)
    if match.forfeited_by_id is not None:
        _save(match, forfeit_rows(match, match.forfeited_by_id), void)
        return
    # Unordered: the totals and gins do not depend on the order, and the models' default
    # order (table → round → stage) would join three tables into every save.
    # Every save reads it: its SQL is built once per connection (tournament.prepared).
    read = prepared_rows("match-hands", _current_hands, [match.pk])
    if hands_of is not None:
        _save_tallies({hands_of.pk: [
            (hand, one, two, outcome, declarer, false_knock)
            for _p, one, two, declarer, outcome, table, hand, false_knock in read
            if table == hands_of.pk]})
    hands = [row[:5] for row in read]
    if not hands and match.signed_off_at is None:
        TeamResult.objects.filter(match=match).delete()
        return
    if match.signed_off_at is not None:
        home, away = match.home_total, match.away_total
    else:
        home, away = team_totals((position, one, two) for position, one, two, _s, _o in hands)
    gins = team_gins((position, seat, outcome) for position, _1, _2, seat, outcome in hands)
    _save(match, _rows(match, team_outcomes(home, away, rules), gins, forfeit=False,
                       provisional=match.signed_off_at is None), void)


def forfeit_rows(match: Match, forfeited_by: int) -> dict[int, dict]:
    """Both teams' row values (void aside) of the match forfeited by that team, by the
    round's rules: what ``write_match_results`` writes for it (and what a penalty's plan
    shows it will write, ``services.penalty_plan``). Reads nothing but the match."""
    side = Side.HOME if forfeited_by == match.home_id else Side.AWAY
    return _rows(match, team_outcomes(0, 0, match.round.rules, forfeited_by=side), (0, 0),
                 forfeit=True, provisional=False)


def _current_hands(match: int):
    return (HandResult.objects.filter(table__match_id=match, is_current=True).order_by()
            .values_list("table__position", "seat1_points", "seat2_points", "declarer_seat",
                         "outcome", "table_id", "hand", "false_knock_seat"))


def _rows(match: Match, outcomes: tuple[TeamOutcome, TeamOutcome], gins: tuple[int, int], *,
          forfeit: bool, provisional: bool) -> dict[int, dict]:
    """Both teams' row values, home then away, from their results (``scoring.match``)."""
    return {team: dict(opponent_id=opponent, outcome=result.outcome,
                       small_points=result.small_points, match_points=result.match_points,
                       gins=own_gins, forfeit=forfeit, provisional=provisional)
            for team, opponent, result, own_gins in (
                (match.home_id, match.away_id, outcomes[0], gins[0]),
                (match.away_id, match.home_id, outcomes[1], gins[1]))}


def _save(match: Match, rows: dict[int, dict], void: set[int]) -> None:
    # Both rows in one statement, inserted or updated where the round's row of the team
    # exists (team_result_once), every value written from what was computed here: the
    # caller holds the match's lock, and only a holder of that lock writes the match's rows.
    written = [TeamResult(round_id=match.round_id, team_id=team, match=match,
                          **{**values, "void": team in void or values["opponent_id"] in void})
               for team, values in rows.items()]
    fields = [name for name in {"match", *next(iter(rows.values())), "void"}]
    upsert(written, unique_fields=["round", "team"], update_fields=[*sorted(fields), "updated_at"])


def write_seat_tallies(tables: Iterable[Table | int]) -> None:
    """(Re)write the tallies of these tables' seats from their current hands (after hands
    were written other than by ``services.entry``: a tournament file imported)."""
    ids = sorted({t if isinstance(t, int) else t.pk for t in tables})
    hands: dict[int, list[tuple]] = {pk: [] for pk in ids}
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        for table, *hand in (HandResult.objects.filter(table_id__in=chunk, is_current=True)
                             .order_by().values_list("table_id", "hand", "seat1_points",
                                                     "seat2_points", "outcome",
                                                     "declarer_seat", "false_knock_seat")):
            hands[table].append(tuple(hand))
    _save_tallies(hands)


def _save_tallies(hands: dict[int, list[tuple]]) -> None:
    """The two seats' tallies of each table (table id → its current hands), in one
    statement (an insert that updates the rows already there)."""
    rows = [SeatTally(table_id=table, seat=seat,
                      **{name: getattr(tally, name) for name in SeatTally.FIGURES})
            for table, table_hands in hands.items()
            for seat, tally in zip((1, 2), seat_tallies(table_hands), strict=True)]
    upsert(rows, unique_fields=["table", "seat"], update_fields=list(SeatTally.FIGURES))


def write_bye_results(round_: Round) -> None:
    """The rows of the round's byes (bye match points and small points, RULES.md §8)."""
    points, small = bye_result(round_.rules)
    void = _void_teams(round_.stage)
    for team in RoundEntry.objects.filter(round=round_, side=RoundEntry.Side.BYE).values_list(
            "team_id", flat=True):
        TeamResult.objects.update_or_create(
            round_id=round_.pk, team_id=team,
            defaults={"match": None, "opponent": None, "outcome": TeamResult.Outcome.BYE,
                      "small_points": small, "match_points": points, "gins": 0,
                      "forfeit": False, "provisional": False, "void": team in void})


def refresh_voids(stage: Stage) -> int:
    """Mark void the rows of the stage that involve a withdrawn team, and only those (after a
    default or a disqualification, or its undo). Returns how many rows changed."""
    void = _void_teams(stage)
    rows = TeamResult.objects.filter(round__stage=stage)
    changed = 0
    for row in rows.only("pk", "team_id", "opponent_id", "void"):
        should = row.team_id in void or (row.opponent_id in void)
        if row.void != should:
            row.void = should
            row.save(update_fields=["void", "updated_at"])
            changed += 1
    return changed


def _void_teams(stage: Stage) -> set[int]:
    """Withdrawal clears results only in a group stage (RULES.md §10)."""
    if stage.kind != Stage.Kind.GROUPS:
        return set()
    return withdrawn_teams(stage)
