"""The schedule of a group stage or a knockout, kept on the stage (``Stage.schedule``).

A group stage and a knockout keep their pairing plan
on the stage, stored under the stage's row lock when a round is drawn and the stage has
none yet (its first round, or a stage drawn before schedules were stored: then it is
derived from the teams' numbers, as the draw always was). Later rounds are drawn from it,
and a swap rewrites it, so a swap in round 1 carries into every later round. Teams are
team ids, never positions; a bye is ``null``::

    {"kind": "groups",
     "groups": {"<group id>": [[[home_id, away_id_or_null], ...],   # round 1, board order
                               ...]},                              # one list per round
     "swaps": [{"round": 2, "group": "<group id>", "teams": [a_id, b_id]}, ...]}

    {"kind": "knockout",
     "bracket": [[home_id, away_id_or_null], ...],                  # round 1, bracket order
     "swaps": [{"round": 1, "teams": [a_id, b_id]}, ...]}

``swaps`` lists the swaps made so far in the order they were made: drawing round n again
after it was undone first reverts the swaps made in round n or later (a swap is its own
inverse), so undoing a round undoes its swaps too. A Swiss stage has no schedule (each
round is paired from the standings). Entering or allotting a stage's teams, which is only
possible while it has no round, clears the schedule.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from scoring.errors import RuleError
from scoring.pairing import round_robin, seeded_bracket, swap_in_bracket, swap_in_schedule
from tournament.audit_wording import phrase
from tournament.models import Stage, Team
from tournament.services.base import ServiceError
from tournament.wording import rule_message

Boards = list[tuple[int, int | None]]


def derived_schedule(stage: Stage) -> dict | None:
    """The schedule from the teams' numbers: each group's Berger table, the seeded bracket."""
    if stage.kind == Stage.Kind.GROUPS:
        members: dict[str, list[int]] = {}
        for group_id, team_id in stage.entries.order_by(
                "group__order", "position").values_list("group_id", "team_id"):
            members.setdefault(str(group_id), []).append(team_id)
        try:
            groups = {group: [[list(board) for board in boards] for boards in round_robin(ids)]
                      for group, ids in members.items()}
        except RuleError as error:
            raise ServiceError(rule_message(error)) from None
        return {"kind": "groups", "swaps": [], "groups": groups}
    if stage.kind == Stage.Kind.KNOCKOUT:
        seeds = list(stage.entries.order_by("position").values_list("team_id", flat=True))
        try:
            bracket = seeded_bracket(seeds)
        except RuleError as error:
            raise ServiceError(rule_message(error)) from None
        return {"kind": "knockout", "swaps": [], "bracket": [list(b) for b in bracket]}
    return None


def scheduled_teams(schedule: dict) -> dict[int, str | None] | None:
    """Each team of a stored schedule with its group id (None in a knockout), or None
    when the schedule is not of a shape this module writes."""
    try:
        if schedule["kind"] == Stage.Kind.GROUPS:
            boards = [(group, board) for group, rounds in schedule["groups"].items()
                      for round_boards in rounds for board in round_boards]
        elif schedule["kind"] == Stage.Kind.KNOCKOUT:
            boards = [(None, board) for board in schedule["bracket"]]
        else:
            return None
        if any(len(board) != 2 for _group, board in boards):
            return None
        return {team: group for group, board in boards for team in board if team is not None}
    except (KeyError, TypeError, AttributeError):
        return None


def stage_schedule(stage: Stage, *, store: bool) -> dict | None:
    """The stage's schedule; derived from the teams' numbers when it has none yet (and then
    stored if ``store``, which needs the stage's row lock). None for a Swiss stage."""
    if stage.kind == Stage.Kind.SWISS:
        return None
    schedule = stage.schedule
    if schedule is not None:
        entered = {team: None if group is None else str(group)
                   for team, group in stage.entries.values_list("team_id", "group_id")}
        if schedule.get("kind") != stage.kind or scheduled_teams(schedule) != entered:
            if stage.rounds.exists():
                raise ServiceError(
                    gettext("the stored schedule of %(stage)s does not match its teams; undo its "
                            "rounds and draw again") % {"stage": stage.name})
            schedule = None
    if schedule is None:
        schedule = derived_schedule(stage)
        if store:
            stage.schedule = schedule
            stage.save(update_fields=["schedule"])
    return schedule


def apply_swap(schedule: dict, swap: dict) -> dict:
    """The schedule with one swap made (or, made again, undone)."""
    a, b = swap["teams"]
    try:
        if schedule["kind"] == Stage.Kind.GROUPS:
            rounds = [[tuple(board) for board in boards]
                      for boards in schedule["groups"][swap["group"]]]
            swapped = swap_in_schedule(rounds, swap["round"], a, b)
            groups = {**schedule["groups"],
                      swap["group"]: [[list(board) for board in boards] for boards in swapped]}
            return {**schedule, "groups": groups}
        bracket = swap_in_bracket([tuple(board) for board in schedule["bracket"]], a, b)
        return {**schedule, "bracket": [list(board) for board in bracket]}
    except RuleError as error:
        raise ServiceError(
            gettext("the schedule cannot take this swap: %(error)s")
            % {"error": rule_message(error)}) from None


def schedule_for_round(stage: Stage, number: int, notes: list[dict]) -> dict:
    """The schedule to draw round ``number`` from, stored: the swaps of rounds that were
    undone (round ``number`` or later) are reverted first. Needs the stage's row lock."""
    schedule = stage_schedule(stage, store=True)
    swaps = schedule.get("swaps", [])
    undone = [swap for swap in swaps if swap["round"] >= number]
    if undone:
        for swap in reversed(undone):
            schedule = apply_swap(schedule, swap)
        schedule["swaps"] = [swap for swap in swaps if swap["round"] < number]
        stage.schedule = schedule
        stage.save(update_fields=["schedule"])
        codes = dict(Team.objects.filter(
            pk__in=[t for swap in undone for t in swap["teams"]]).values_list("pk", "code"))
        notes.append(phrase(
            gettext_noop("swaps of an undone round reverted: %(pairs)s"),
            pairs=[phrase(gettext_noop("%(a)s and %(b)s"), a=codes.get(a, a), b=codes.get(b, b))
                   for a, b in (swap["teams"] for swap in undone)]))
    return schedule


def as_boards(rows: list) -> Boards:
    """A stored list of [home, away] as (home, away) pairs."""
    return [(home, away) for home, away in rows]
