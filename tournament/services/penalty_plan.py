"""What recording a penalty will do, worked out before it is done (issue 51).

A default, lateness over the limit (a default with it) or a team's disqualification
forfeits matches, clears results and has teams sit out later rounds. The referee sees all of
it on a confirmation page before anything is written, and what the page shows is the plan
the penalty service then carries out, not a description of it:
``services.penalties.plan_penalty`` (the preview: reads only) and ``record_penalty`` (under
its locks) build the same ``PenaltyPlan`` here, from the forfeits the service decides
(``services.forfeits.plan_forfeits``, with the penalty about to be recorded among the active
ones):

- ``effects``: each match (or bye) of the team whose result changes: forfeited by the
  team, cleared (void: the team is withdrawn from a group stage, for its opponents too),
  with its result rows now and after;
- ``sitting_out``: the later rounds of a group stage not drawn yet, whose teams scheduled
  against the withdrawn team sit out (no match, no bye, no points), and its own byes that
  are dropped;
- ``later``: what the later rounds of a Swiss stage or a knockout do with the team;
- ``rules``: the sections of docs/rules.md that say so;
- ``fingerprint``: all of the above as plain values, hashed.

The confirmation carries the fingerprint it showed: the service refuses it, with the new
plan, when the plan has changed since (``PlanChanged``); and once it has carried the plan
out it reads the rows again and checks that they are exactly those the plan said
(``check_rows``): a difference is a fault, and nothing is kept.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from django.db.models import Max, Q
from django.utils.translation import gettext

from tournament.models import Match, Penalty, Player, Round, Stage, Team, TeamResult
from tournament.services.base import ServiceError
from tournament.services.forfeits import ForfeitPlan
from tournament.services.schedules import stage_schedule
from tournament.services.team_results import forfeit_rows

Kind = Penalty.Kind
# A result row as the plan compares it (``TeamResult``'s values).
ROW_FIELDS = ("match_id", "opponent_id", "outcome", "small_points", "match_points", "gins",
              "forfeit", "void", "provisional")
_OPPONENT, _VOID = ROW_FIELDS.index("opponent_id"), ROW_FIELDS.index("void")
STARTED = (Round.Status.IN_PLAY, Round.Status.CLOSED)


@dataclass(frozen=True)
class Effect:
    """One match of the team (or one of its byes) whose result the penalty changes."""

    round: Round
    match: Match | None  # None: a bye of ``team``
    team: Team | None  # the bye's team
    forfeited_by: Team | None  # forfeited by this team from now on
    before: dict[int, dict] | None  # its rows now, by team id (None: no result yet)
    after: dict[int, dict] | None  # its rows after (None: none until its round starts)
    cleared: bool  # void after (the team is withdrawn from the group stage)


@dataclass(frozen=True)
class SittingOut:
    """A later round of a group stage, not drawn yet, drawn without the withdrawn team."""

    stage: Stage
    number: int
    team: Team | None  # its scheduled opponent, who sits out; None: the team's bye is dropped


@dataclass(frozen=True)
class PenaltyPlan:
    team: Team
    round: Round
    kind: str
    match: Match | None
    player: Player | None
    minutes: int | None
    limit: int  # the round's lateness limit
    becomes_default: bool  # a default, or lateness over the limit (a default with it)
    forfeits: ForfeitPlan
    effects: list[Effect] = field(default_factory=list)
    sitting_out: list[SittingOut] = field(default_factory=list)
    later: list[tuple[Stage, str]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    rows: dict[tuple[int, int], tuple] | None = None  # (round, team) → the row after
    fingerprint: str = ""

    @property
    def team_wide(self) -> bool:
        return self.kind == Kind.DISQUALIFICATION and self.player is None

    @property
    def needs_confirmation(self) -> bool:
        """Whether it forfeits matches: a default, lateness over the limit, a team's
        disqualification. Anything else changes no result and is recorded at once."""
        return self.becomes_default or self.team_wide


class PlanChanged(ServiceError):
    """The confirmation showed another plan than the one the penalty would carry out now."""

    def __init__(self, plan: PenaltyPlan):
        super().__init__(gettext(
            "what this penalty would do has changed since it was shown; nothing was "
            "recorded: look at it again"))
        self.plan = plan


# Building the plan ------------------------------------------------------------------------

def build(*, team: Team, round_: Round, kind: str, match: Match | None, player: Player | None,
          minutes: int | None, limit: int, becomes_default: bool,
          forfeits: ForfeitPlan) -> PenaltyPlan:
    """The plan of a penalty from the forfeits it decides (reads only)."""
    plan = PenaltyPlan(team=team, round=round_, kind=kind, match=match, player=player,
                       minutes=minutes, limit=limit, becomes_default=becomes_default,
                       forfeits=forfeits)
    if not plan.needs_confirmation:
        return plan
    before, objects = _read_rows(forfeits)
    after = _predicted(forfeits, before)
    plan = PenaltyPlan(**{**plan.__dict__, "rows": after,
                          "effects": _effects(forfeits, before, after, objects),
                          "sitting_out": _sitting_out(forfeits),
                          "later": _later(plan)})
    rules = _rules(plan)
    return PenaltyPlan(**{**plan.__dict__, "rules": rules,
                          "fingerprint": _fingerprint(plan, before)})


def _read_rows(forfeits: ForfeitPlan) -> tuple[dict[tuple[int, int], tuple], dict]:
    """The rows the plan may change, now: every row of the group stages concerned and the
    rows of the matches whose forfeit changes; with the rounds, matches and teams they
    name (to show them)."""
    groups = [s.pk for s in forfeits.stages if s.kind == Stage.Kind.GROUPS]
    changed = [c.match.pk for c in forfeits.changes]
    if not groups and not changed:
        return {}, {}
    rows = (TeamResult.objects.filter(Q(round__stage_id__in=groups) | Q(match_id__in=changed))
            .select_related("round__stage", "team", "match__home", "match__away")
            .order_by("round__stage__order", "round__number", "team__code"))
    values, objects = {}, {}
    for row in rows:
        values[row.round_id, row.team_id] = tuple(getattr(row, name) for name in ROW_FIELDS)
        objects[row.round_id, row.team_id] = row
    return values, objects


def _void_after(forfeits: ForfeitPlan, stage_id: int) -> set[int]:
    """The teams whose results the stage clears after the plan (none outside a group
    stage: ``team_results``)."""
    return forfeits.withdrawn_after.get(stage_id, set())


def _predicted(forfeits: ForfeitPlan, before: dict) -> dict[tuple[int, int], tuple]:
    """Every row of ``_read_rows``'s reach as ``forfeits.carry_out`` will leave it: the
    forfeited matches of started rounds rewritten (``team_results.forfeit_rows``), then the
    voids of the group stages refreshed."""
    after = dict(before)
    group_stages = {s.pk for s in forfeits.stages if s.kind == Stage.Kind.GROUPS}
    for change in forfeits.changes:
        match = change.match
        if match.round.status not in STARTED:
            continue  # its rows come with the start of play
        if change.after is None:
            raise ValueError("a plan shows forfeits made, not forfeits undone")
        void = _void_after(forfeits, match.round.stage_id)
        for team, values in forfeit_rows(match, change.after).items():
            values = {**values, "match_id": match.pk,
                      "void": team in void or values["opponent_id"] in void}
            after[match.round_id, team] = tuple(values[name] for name in ROW_FIELDS)
    stage_of = dict(Round.objects.filter(pk__in={r for r, _t in after})
                    .values_list("pk", "stage_id"))
    for (round_id, team), row in after.items():
        stage = stage_of[round_id]
        if stage not in group_stages:
            continue
        void = _void_after(forfeits, stage)
        should = team in void or row[_OPPONENT] in void
        if row[_VOID] != should:
            after[round_id, team] = (*row[:_VOID], should, *row[_VOID + 1:])
    return after


def _by_result(rows: dict[tuple[int, int], tuple]) -> dict[tuple, dict[int, dict]]:
    """Rows grouped by result: (round, match id) for a match's two, (round, "bye", team)
    for a bye's one; each as team id → its values by name."""
    grouped: dict[tuple, dict[int, dict]] = {}
    for (round_id, team), values in rows.items():
        key = (round_id, values[0]) if values[0] is not None else (round_id, "bye", team)
        grouped.setdefault(key, {})[team] = dict(zip(ROW_FIELDS, values, strict=True))
    return grouped


def _effects(forfeits: ForfeitPlan, before: dict, after: dict, objects: dict) -> list[Effect]:
    """The matches and byes whose rows change, and the forfeited matches without rows yet,
    in the order of the stages, rounds and matches."""
    changes = {c.match.pk: c for c in forfeits.changes}
    teams = {t.pk: t for c in forfeits.changes for t in (c.match.home, c.match.away)}
    now, then = _by_result(before), _by_result(after)
    effects = []
    for key in sorted(set(now) | set(then), key=str):
        old, new = now.get(key), then.get(key)
        if old == new:
            continue
        round_id, team_id = key[0], next(iter(new))
        change = changes.get(key[1])
        shown = objects.get((round_id, team_id))
        match = change.match if change is not None else shown.match
        effects.append(Effect(
            round=shown.round if shown is not None else match.round, match=match,
            team=shown.team if match is None else None,
            forfeited_by=teams[change.after] if change is not None else None,
            before=old, after=new,
            cleared=(any(row["void"] for row in new.values())
                     and not any(row["void"] for row in (old or {}).values()))))
    for change in forfeits.changes:
        if change.match.round.status in STARTED:
            continue
        # Drawn, not started: no row yet; its rows come with the start of play.
        match = change.match
        void = _void_after(forfeits, match.round.stage_id)
        effects.append(Effect(
            round=match.round, match=match, team=None, forfeited_by=teams[change.after],
            before=None, after=None, cleared=bool({match.home_id, match.away_id} & void)))
    return sorted(effects, key=lambda e: (
        e.round.stage.order, e.round.number, e.match.number if e.match else 0,
        e.team.code if e.team else ""))


def _sitting_out(forfeits: ForfeitPlan) -> list[SittingOut]:
    """The group stages' rounds not drawn yet, by their schedule: the withdrawn team's
    scheduled opponents sit out, its own byes are dropped (the draw leaves it out,
    ``services.draw``)."""
    team = forfeits.team
    found = []
    for stage in forfeits.withdrawn_from():
        schedule = stage_schedule(stage, store=False) or {}
        drawn = stage.rounds.aggregate(last=Max("number"))["last"] or 0
        out = forfeits.withdrawn_after[stage.pk]
        ids = []
        for rounds in schedule.get("groups", {}).values():
            for number, boards in enumerate(rounds, 1):
                for home, away in boards:
                    if number <= drawn or team.pk not in (home, away):
                        continue
                    other = away if home == team.pk else home
                    if other is None or other not in out:
                        ids.append((number, other))
        teams = Team.objects.in_bulk([other for _n, other in ids if other is not None])
        found += [SittingOut(stage, number, teams.get(other)) for number, other in sorted(
            ids, key=lambda item: (item[0], item[1] is not None))]
    return found


def _later(plan: PenaltyPlan) -> list[tuple[Stage, str]]:
    """What the later rounds of each Swiss stage and knockout concerned do with the team."""
    found = []
    for stage in plan.forfeits.stages:
        if stage.kind == Stage.Kind.SWISS:
            found.append((stage, "swiss_out" if plan.team_wide else "swiss_again"))
        elif stage.kind == Stage.Kind.KNOCKOUT:
            found.append((stage, "knockout_drawn" if plan.team_wide else "knockout_on"))
    return found


def _rules(plan: PenaltyPlan) -> list[str]:
    """The rules that say what the plan does (docs/rules.md; the page quotes them)."""
    rules = []
    if plan.kind == Kind.LATENESS:
        rules.append("lateness")
    if plan.team_wide:
        rules.append("disqualification")
    elif plan.becomes_default:
        rules.append({Stage.Kind.GROUPS: "default_groups", Stage.Kind.KNOCKOUT:
                      "default_knockout"}.get(plan.round.stage.kind, "default_swiss"))
    if any(e.forfeited_by is not None for e in plan.effects):
        rules.append("forfeit")
    if plan.sitting_out:
        rules.append("sitting_out")
    return rules


def _fingerprint(plan: PenaltyPlan, before: dict) -> str:
    """Everything the plan shows and does, as plain values, hashed: the same plan, the
    same fingerprint, whoever asks and in whatever language."""
    content = {
        "penalty": [plan.team.pk, plan.round.pk, plan.kind, plan.match.pk if plan.match
                    else None, plan.player.pk if plan.player else None, plan.minutes,
                    plan.limit, plan.becomes_default],
        "forfeits": plan.forfeits.key(),
        "rows": sorted([list(key), list(before.get(key) or []), list(row)]
                       for key, row in (plan.rows or {}).items() if before.get(key) != row),
        "sitting_out": [[s.stage.pk, s.number, s.team.pk if s.team else None]
                        for s in plan.sitting_out],
        "later": [[stage.pk, what] for stage, what in plan.later],
    }
    text = json.dumps(content, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# After carrying it out --------------------------------------------------------------------

def check_rows(plan: PenaltyPlan) -> None:
    """The rows are now exactly those the plan showed (called in the service's transaction,
    after ``forfeits.carry_out``): anything else is a fault, and the transaction rolls
    back."""
    if plan.rows is None:
        return
    now, _objects = _read_rows(plan.forfeits)
    if now != plan.rows:
        wrong = sorted(key for key in set(now) | set(plan.rows)
                       if now.get(key) != plan.rows.get(key))
        raise RuntimeError(f"the rows written for the penalty against {plan.team.code} are "
                           f"not those its plan showed: (round, team) {wrong}")
