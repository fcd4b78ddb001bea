"""Which matches the active penalties forfeit (RULES.md §11), and bringing the matches, their
result rows and the group stages' voids in line with that (``services.penalties``).

The one rule: a match's forfeiting team is the team of the **earliest** active penalty that
covers the match (``covers``): a default of that match; a default in an earlier round of
the same group stage (the team is withdrawn from it); the team's disqualification in that
round or before (in that stage or an earlier one). ``Match.forfeited_by`` is never set
another way, so recording a penalty and undoing it are the same two steps: ``plan_forfeits``
works out what changes (reads only; a penalty about to be recorded is planned before it is
saved, and its plan is what the confirmation page shows, ``services.penalty_plan``), then
``carry_out`` does it and checks that the matches are in line with the penalties as saved.
A record followed by its undo leaves every row as it was. What cannot be put back exactly is
refused with the reason before anything is written: a group round drawn without the
withdrawn team since, or a knockout round drawn from the match's result.

Call ``carry_out`` in the penalty service's transaction, under its locks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext, gettext_noop

from tournament.audit_wording import match_name, phrase, round_name
from tournament.models import Match, Penalty, Round, RoundEntry, Stage, Team
from tournament.selectors.penalties import withdrawn_teams
from tournament.services.base import ServiceError
from tournament.services.team_results import refresh_voids, write_match_results

Kind = Penalty.Kind


def covers(penalty: Penalty, match: Match) -> bool:
    """Whether an active penalty makes its team default this match (RULES.md §11).
    ``penalty.round.stage`` and ``match.round.stage`` are read."""
    if penalty.kind == Kind.DEFAULT:
        if penalty.match_id == match.pk:
            return True
        stage = penalty.round.stage
        return (stage.kind == Stage.Kind.GROUPS and match.round.stage_id == stage.pk
                and match.round.number > penalty.round.number)
    if penalty.kind == Kind.DISQUALIFICATION and penalty.player_id is None:
        own, other = penalty.round.stage, match.round.stage
        return other.order > own.order or (
            other.pk == own.pk and match.round.number >= penalty.round.number)
    return False


def _forfeiting_penalties(team_ids: Iterable[int]) -> dict[int, list[Penalty]]:
    found: dict[int, list[Penalty]] = {}
    for penalty in (Penalty.objects.filter(
            undone_at__isnull=True, team_id__in=set(team_ids),
            kind__in=[Kind.DEFAULT, Kind.DISQUALIFICATION])
            .select_related("round__stage").order_by("recorded_at", "pk")):
        found.setdefault(penalty.team_id, []).append(penalty)
    return found


def withdraws(penalty: Penalty, stage: Stage) -> bool:
    """Whether an active penalty takes its team out of a stage: the rule of
    ``selectors.penalties.withdrawn_teams``, for a penalty not saved yet (a plan's).
    ``penalty.round.stage`` is read."""
    if penalty.kind == Kind.DEFAULT:
        return stage.kind == Stage.Kind.GROUPS and penalty.round.stage_id == stage.pk
    return (penalty.kind == Kind.DISQUALIFICATION and penalty.player_id is None
            and penalty.round.stage.order <= stage.order)


def forfeiter(match: Match, penalties: dict[int, list[Penalty]]) -> int | None:
    """The team that defaults the match by the active penalties (of both its teams), or
    None: the earliest penalty that covers it decides when both teams have one (a penalty
    not saved yet, a plan's, comes after every saved one of its moment)."""
    covering = [(penalty.recorded_at, math.inf if penalty.pk is None else penalty.pk, team)
                for team in (match.home_id, match.away_id)
                for penalty in penalties.get(team, []) if covers(penalty, match)]
    return min(covering)[2] if covering else None


def forfeit_drawn_matches(round_: Round) -> list[dict]:
    """Forfeit the new matches of a round just drawn that the active penalties already
    decide (a disqualified team in a knockout). Called by the draw inside
    its transaction, under the stage's lock; returns notes for its audit entry."""
    matches = list(round_.matches.select_related("round__stage", "home", "away"))
    penalties = _forfeiting_penalties(t for m in matches for t in (m.home_id, m.away_id))
    notes = []
    for match in matches:
        team = forfeiter(match, penalties)
        if team is not None:
            match.forfeited_by_id = team
            match.save(update_fields=["forfeited_by"])
            code = match.home.code if team == match.home_id else match.away.code
            notes.append(phrase(gettext_noop("match %(number)s forfeited by %(team)s "
                                             "(disqualified)"), number=match.number, team=code))
    return notes


# Bringing the matches in line -------------------------------------------------------------

def stages_from(stage: Stage, team_wide: bool) -> list[Stage]:
    if not team_wide:
        return [stage]
    return list(Stage.objects.filter(tournament_id=stage.tournament_id,
                                     order__gte=stage.order).order_by("order"))


@dataclass(frozen=True)
class Change:
    """A match whose forfeiting team changes: ``before`` → ``after`` (team ids, or None)."""

    match: Match
    before: int | None
    after: int | None

    def words(self) -> dict:
        """What changed, as a phrase of the audit log ("Swiss, Round 2 match 3 (T1 – T4)
        forfeited by T4")."""
        codes = {self.match.home_id: self.match.home.code, self.match.away_id:
                 self.match.away.code}
        values = {"round": round_name(self.match.round), **match_name(self.match)}
        if self.after is None:
            return phrase(gettext_noop("%(round)s match %(number)s (%(home)s – %(away)s) no "
                                       "longer forfeited by %(team)s"),
                          team=codes[self.before], **values)
        return phrase(gettext_noop("%(round)s match %(number)s (%(home)s – %(away)s) "
                                   "forfeited by %(team)s"), team=codes[self.after], **values)


@dataclass(frozen=True)
class ForfeitPlan:
    """What bringing a team's matches in line with the penalties does, worked out before
    anything is written (``plan_forfeits``, reads only) and then done as worked out
    (``carry_out``): the matches whose forfeiting team changes, and the teams withdrawn
    from each group stage concerned before and after (stage id → team ids)."""

    team: Team
    team_wide: bool  # a team's disqualification: its stage and every later one
    stages: list[Stage]
    changes: list[Change]
    withdrawn_before: dict[int, set[int]]
    withdrawn_after: dict[int, set[int]]

    def withdrawn_from(self) -> list[Stage]:
        """The group stages the team leaves."""
        return [s for s in self.stages if self.team.pk in self.withdrawn_after.get(s.pk, ())
                and self.team.pk not in self.withdrawn_before.get(s.pk, ())]

    def key(self) -> list:
        """What the plan does, as plain values (compared, and a confirmation's fingerprint)."""
        return [[[c.match.pk, c.before, c.after] for c in self.changes],
                sorted([stage, sorted(teams)] for stage, teams in self.withdrawn_after.items())]


def withdrawn_in(stage: Stage, team_wide: bool) -> dict[int, set[int]]:
    """The teams withdrawn from each group stage a penalty of this reach touches."""
    return {s.pk: withdrawn_teams(s) for s in stages_from(stage, team_wide)
            if s.kind == Stage.Kind.GROUPS}


def plan_forfeits(stage: Stage, team: Team, *, team_wide: bool,
                  withdrawn_before: dict[int, set[int]],
                  adding: Iterable[Penalty] = ()) -> ForfeitPlan:
    """Which of the team's matches (from its stage on) change their forfeiting team by the
    active penalties, with ``adding`` (penalties about to be recorded, not saved) among
    them; refused with the reason when it cannot be done exactly. Writes nothing."""
    adding = list(adding)
    stages = stages_from(stage, team_wide)
    matches = list(Match.objects.filter(Q(home=team) | Q(away=team),
                                        round__stage__in=stages)
                   .select_related("round__stage", "home", "away")
                   .order_by("round__stage__order", "round__number", "number"))
    penalties = _forfeiting_penalties(t for m in matches for t in (m.home_id, m.away_id))
    for penalty in adding:
        if penalty.kind in (Kind.DEFAULT, Kind.DISQUALIFICATION):
            penalties.setdefault(penalty.team_id, []).append(penalty)
    changes = []
    for match in matches:
        due = forfeiter(match, penalties)
        if due != match.forfeited_by_id:
            changes.append(Change(match, match.forfeited_by_id, due))
    after = {s.pk: withdrawn_teams(s) | {p.team_id for p in adding if withdraws(p, s)}
             for s in stages if s.kind == Stage.Kind.GROUPS}
    plan = ForfeitPlan(team=team, team_wide=team_wide, stages=stages, changes=changes,
                       withdrawn_before=withdrawn_before, withdrawn_after=after)
    _refuse_lost_rounds(plan)
    _refuse_drawn_knockout(changes)
    return plan


def carry_out(plan: ForfeitPlan) -> list[dict]:
    """Do what the plan says: forfeit (or no longer forfeit) its matches, rewrite their
    rows, refresh the voids. Returns what changed, as phrases for the audit log
    (``audit_wording.phrase``). Ends by checking that the matches and the withdrawals are
    in line with the active penalties (the one rule): a plan worked out for penalties that
    are not the ones saved is a fault, never carried out (the transaction rolls back)."""
    team = plan.team
    for change in plan.changes:
        match = change.match
        match.forfeited_by_id = change.after
        match.save(update_fields=["forfeited_by"])
        if match.round.status in (Round.Status.IN_PLAY, Round.Status.CLOSED):
            write_match_results(match)
    words = [change.words() for change in plan.changes]
    for group_stage in plan.stages:
        if group_stage.kind != Stage.Kind.GROUPS:
            continue
        refresh_voids(group_stage)
        was = team.pk in plan.withdrawn_before.get(group_stage.pk, ())
        now = team.pk in plan.withdrawn_after[group_stage.pk]
        if now and not was:
            words.append(phrase(gettext_noop("%(team)s withdrawn from %(stage)s: every result "
                                             "involving it there is cleared, for its opponents "
                                             "too"), team=team.code, stage=group_stage.name))
        elif was and not now:
            words.append(phrase(gettext_noop("%(team)s back in %(stage)s: its results there "
                                             "count again"),
                                team=team.code, stage=group_stage.name))
    again = plan_forfeits(plan.stages[0], team, team_wide=plan.team_wide,
                          withdrawn_before=plan.withdrawn_after)
    if again.changes or again.withdrawn_after != plan.withdrawn_after:
        raise RuntimeError(f"the forfeits planned for {team.code} are not what the saved "
                           f"penalties decide: {again.key()} after {plan.key()}")
    return words


def apply_penalties(stage: Stage, team: Team, *, team_wide: bool,
                    withdrawn_before: dict[int, set[int]]) -> list[dict]:
    """Bring the team's matches (from its stage on) in line with the active penalties as
    saved (``plan_forfeits`` then ``carry_out``); returns the audit log's phrases."""
    return carry_out(plan_forfeits(stage, team, team_wide=team_wide,
                                   withdrawn_before=withdrawn_before))


def _refuse_lost_rounds(plan: ForfeitPlan) -> None:
    """An undo that would bring a withdrawn team back into a group stage after a later
    round was drawn without it cannot restore that round: refused with the reason."""
    team = plan.team
    for stage in plan.stages:
        if (stage.kind != Stage.Kind.GROUPS
                or team.pk not in plan.withdrawn_before.get(stage.pk, ())):
            continue
        if team.pk in plan.withdrawn_after[stage.pk]:
            continue  # still withdrawn by another penalty: nothing comes back
        scheduled = _scheduled_rounds(stage, team)
        missing = (Round.objects.filter(stage=stage, number__lte=scheduled)
                   .exclude(pk__in=RoundEntry.objects.filter(team=team).values("round"))
                   .order_by("number").first())
        if missing is not None:
            started = missing.status in (Round.Status.IN_PLAY, Round.Status.CLOSED)
            raise ServiceError(
                (gettext("this cannot be undone exactly: %(round)s was drawn without %(team)s, "
                         "who was withdrawn and it has started, so the withdrawal stands")
                 if started else
                 gettext("this cannot be undone exactly: %(round)s was drawn without %(team)s, "
                         "who was withdrawn; undo that round (and any later one) first, then "
                         "undo this"))
                % {"round": missing, "team": team.code})


def _scheduled_rounds(stage: Stage, team: Team) -> int:
    """How many rounds the team's group plays by the stage's schedule (0 if unknown)."""
    groups = (stage.schedule or {}).get("groups", {})
    for rounds in groups.values():
        if any(team.pk in board for boards in rounds for board in boards):
            return len(rounds)
    return 0


def _refuse_drawn_knockout(changes: list[Change]) -> None:
    """A knockout match whose winner changes after the next round was drawn from it."""
    for change in changes:
        round_ = change.match.round
        if round_.stage.kind != Stage.Kind.KNOCKOUT:
            continue
        later = round_.stage.rounds.filter(number__gt=round_.number).first()
        if later is not None:
            raise ServiceError(
                gettext("%(later)s was already drawn from the result of match %(number)s "
                        "(%(home)s – %(away)s) of %(round)s; undo %(later_label)s first")
                % {"later": later, "number": change.match.number, "home": change.match.home.code,
                   "away": change.match.away.code, "round": round_, "later_label": later.label})
