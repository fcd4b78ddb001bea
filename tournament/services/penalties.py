"""Referees' penalties (RULES.md §11): warnings, point deductions, lateness, defaults and
disqualifications, each with its reason; undoing one entered by mistake restores everything.

What a penalty does to the matches is derived from the active penalties, never kept apart
from them, so that recording and undoing are the same step
(``services.forfeits.apply_penalties``):

- a **default** of a match (``Penalty.match``) forfeits that match: ``Match.forfeited_by``
  is the team that defaulted, and its two result rows say so (``services.team_results``);
- a default in a **group stage** also withdraws the team from the stage
  (``selectors.penalties.withdrawn_teams``): every result row of the stage that involves it
  is void, for both teams, its matches in later rounds of the stage already drawn are
  forfeited, and later rounds are drawn without it (``services.draw``);
- a **team's disqualification** is a default of every match of the team from its round on,
  in this stage and the later ones (a group stage withdraws it as above; a Swiss stage
  pairs it no more; a knockout still draws it, and it forfeits each match as it is drawn);
- **lateness** over the round's lateness limit (the round's frozen rules) records the
  lateness and, with it, a default of the match; undoing the lateness undoes that default;
- a **player's disqualification** keeps the player out of every later line-up
  (``services.rounds.set_lineup``, the draw's default line-ups);
- warnings and point deductions change no row: the standings read them
  (``selectors.penalties.point_penalties``).

A penalty that forfeits matches is planned first (``plan_penalty``, reads only: what the
confirmation page shows, ``services.penalty_plan``); ``record_penalty`` works the plan out
again under its locks, refuses it when it is not the one the referee confirmed (its
fingerprint), and carries it out.

After every change the team's matches are brought in line with the active penalties,
their rows rewritten (rounds in play or closed; a round not started yet gets its rows when
play starts) and the voids of every group stage concerned refreshed. An undo that cannot
put everything back exactly is refused with the reason (``services.forfeits``).

Locks (docs/invariants.md): the stages concerned (as the draw takes its stage), then
through ``services.locking`` their rounds and matches and the player, then the penalty.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournament.audit_wording import match_name, round_name
from tournament.models import Match, Penalty, Player, Round, Stage, Team
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.forfeits import (
    apply_penalties,
    carry_out,
    plan_forfeits,
    withdrawn_in,
)
from tournament.services.locking import checkpoint, lock
from tournament.services.penalty_plan import PenaltyPlan, PlanChanged, build, check_rows
from tournament.services.text import clean_text

Kind = Penalty.Kind
# Kinds that may forfeit matches, and so change rows, draws and voids.
STRUCTURAL = frozenset({Kind.DEFAULT, Kind.LATENESS, Kind.DISQUALIFICATION})
MAX_AMOUNT = 9999
MAX_MINUTES = 1440
REASON_LENGTH = 1000


# Checking the input ----------------------------------------------------------------------

@dataclass(frozen=True)
class _Input:
    kind: str
    reason: str
    amount: int
    minutes: int | None


def _field_error(field: str, message: str) -> ServiceError:
    return ServiceError(message, field_errors={field: [message]})


def _clean_reason(reason: str | None, what: str) -> str:
    try:
        return clean_text(reason, label=gettext_lazy("reason"),
                          max_length=REASON_LENGTH, required=True)
    except ValueError as error:
        message = f"give the reason for {what}" if "empty" in str(error) else str(error)
        raise _field_error("reason", message) from None


def _whole(value, field: str, label: str, low: int, high: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise _field_error(field, f"{label} must be a whole number") from None
    if not low <= number <= high:
        raise _field_error(field, f"{label} must be from {low} to {high}")
    return number


def _check_input(kind, reason, amount, minutes) -> _Input:
    if kind not in Kind.values:
        raise _field_error("kind", f"unknown kind of penalty {kind!r}; choose one of "
                           + ", ".join(Kind.values))
    label = Kind(kind).label
    if kind in (Kind.SMALL_POINTS, Kind.MATCH_POINTS):
        if amount in (None, "", 0, "0"):
            raise _field_error("amount", f"a {label} needs the points to deduct (1 or more)")
        amount = _whole(amount, "amount", "the points deducted", 1, MAX_AMOUNT)
    elif amount not in (None, "", 0, "0"):
        raise _field_error("amount", f"points are deducted only by a small-point or "
                           f"match-point deduction, not by a {label}")
    else:
        amount = 0
    if kind == Kind.LATENESS:
        if minutes in (None, ""):
            raise _field_error("minutes", "lateness needs the minutes late")
        minutes = _whole(minutes, "minutes", "the minutes late", 1, MAX_MINUTES)
    elif minutes not in (None, ""):
        raise _field_error("minutes", f"minutes late belong to lateness, not to a {label}")
    else:
        minutes = None
    return _Input(kind=kind, reason=_clean_reason(reason, f"the {label}"), amount=amount,
                  minutes=minutes)


def _check_places(*, tournament, team: Team, round_: Round, kind: str,
                  match: Match | None, player: Player | None) -> None:
    if team.tournament_id != tournament.pk:
        raise _field_error("team", f"{team} is not a team of {tournament}")
    if not round_.stage.entries.filter(team=team).exists():
        raise _field_error("team", f"{team.code} does not play in {round_.stage}")
    if kind in (Kind.DEFAULT, Kind.LATENESS) and match is None:
        raise _field_error("match", f"a {Kind(kind).label} needs the match it concerns")
    if match is not None:
        if match.round_id != round_.pk:
            raise _field_error("match", f"match {match.number} ({match.home.code} – "
                               f"{match.away.code}) is in {match.round}, not in {round_}")
        if team.pk not in (match.home_id, match.away_id):
            raise _field_error("match", f"{team.code} does not play match {match.number} "
                               f"({match.home.code} – {match.away.code})")
    if player is not None and player.team_id != team.pk:
        raise _field_error("player", f"{player.name} is a player of {player.team.code}, "
                           f"not of {team.code}")


# Locks -----------------------------------------------------------------------------------

def _lock_for(tournament, round_: Round, kind: str, *, player: Player | None = None,
              team_wide: bool) -> None:
    """Take the locks of a penalty of this kind in this round (module docstring)."""
    if kind not in STRUCTURAL:
        lock(rounds=[round_])
        return
    stages = Stage.objects.select_for_update().filter(tournament=tournament)
    stages = (stages.filter(order__gte=round_.stage.order) if team_wide
              else stages.filter(pk=round_.stage_id))
    stage_ids = [stage.pk for stage in stages.order_by("order")]
    lock(rounds=Round.objects.filter(stage_id__in=stage_ids).values_list("pk", flat=True),
         matches=Match.objects.filter(round__stage_id__in=stage_ids)
         .values_list("pk", flat=True),
         players=[player] if player is not None else [])


# The services ----------------------------------------------------------------------------

def plan_penalty(actor: Actor, *, team: Team, round: Round, kind: str, reason: str,
                 amount=0, minutes=None, match: Match | None = None,
                 player: Player | None = None) -> PenaltyPlan:
    """What recording this penalty would do, worked out as ``record_penalty`` works it out
    and then carries it out (``services.penalty_plan``), without writing anything: the
    confirmation page of a default shows it, and sends back its ``fingerprint``. Refused as
    the record would be (bad input, a draft round, a match already forfeited, an undo that
    would be needed, …)."""
    checked = _checked(actor, team=team, round_=round, kind=kind, reason=reason,
                       amount=amount, minutes=minutes, match=match, player=player)
    return _plan(checked)


def record_penalty(actor: Actor, *, team: Team, round: Round, kind: str, reason: str,
                   amount=0, minutes=None, match: Match | None = None,
                   player: Player | None = None, shown: str | None = None) -> Penalty:
    """Record a referee's penalty with its reason and apply what it does (module
    docstring): its plan (``plan_penalty``), worked out again under the locks, is carried
    out. ``shown``: the fingerprint of the plan the referee confirmed; when the plan is
    another now, nothing is recorded (``PlanChanged``, with the plan of now). A
    disqualification needs the chief referee (or the director)."""
    checked = _checked(actor, team=team, round_=round, kind=kind, reason=reason,
                       amount=amount, minutes=minutes, match=match, player=player)
    tournament, round_, values = checked.tournament, checked.round, checked.values
    with transaction.atomic():
        _lock_for(tournament, round_, kind, player=player, team_wide=checked.team_wide)
        plan = _plan(checked)
        if shown is not None and shown != plan.fingerprint:
            raise PlanChanged(plan)
        round_, match, limit = plan.round, plan.match, plan.limit
        checkpoint("penalty.record")
        penalty = Penalty.objects.create(
            tournament=tournament, team=team, player=player, round=round_, match=match,
            kind=values.kind, amount=values.amount, minutes=values.minutes,
            reason=values.reason, recorded_by=actor.user)
        default = None
        if kind == Kind.LATENESS and plan.becomes_default:
            default = Penalty.objects.create(
                tournament=tournament, team=team, player=player, round=round_, match=match,
                kind=Kind.DEFAULT,
                reason=f"lateness of {values.minutes} minutes, over the limit of {limit} "
                       f"minutes: {values.reason}"[:REASON_LENGTH],
                recorded_by=actor.user)
            # Recorded together: the same moment ties the default to its lateness.
            Penalty.objects.filter(pk=default.pk).update(recorded_at=penalty.recorded_at)
        changes = carry_out(plan.forfeits)
        check_rows(plan)
        audit(actor, tournament, "penalty.record", penalty=penalty.pk,
              default=default.pk if default else None,
              match=match.pk if match is not None else None, team=team.pk,
              round=round_.pk, kind=kind, described=_describe(penalty),
              limit=limit if kind == Kind.LATENESS else None, default_made=default is not None,
              changes=changes, reason=values.reason)
    return penalty


@dataclass(frozen=True)
class _Checked:
    """A penalty's input, checked before anything is read under the locks."""

    actor: Actor
    tournament: object
    team: Team
    round: Round
    kind: str
    values: _Input
    match: Match | None
    player: Player | None
    team_wide: bool


def _checked(actor: Actor, *, team, round_, kind, reason, amount, minutes, match,
             player) -> _Checked:
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.RECORD_PENALTY)
    if kind == Kind.DISQUALIFICATION:
        require(actor.user, tournament, Perm.DISQUALIFY)
    values = _check_input(kind, reason, amount, minutes)
    _check_places(tournament=tournament, team=team, round_=round_, kind=kind, match=match,
                  player=player)
    return _Checked(actor=actor, tournament=tournament, team=team, round=round_, kind=kind,
                    values=values, match=match, player=player,
                    team_wide=kind == Kind.DISQUALIFICATION and player is None)


def _plan(checked: _Checked) -> PenaltyPlan:
    """The penalty's plan, from the rows as they are now (reads only; under the locks when
    the service records it)."""
    kind, team, player = checked.kind, checked.team, checked.player
    round_ = Round.objects.select_related("stage__tournament").get(pk=checked.round.pk)
    if round_.status == Round.Status.DRAFT:
        raise _field_error("round", f"{round_} is a draft: its draw is not published "
                           "yet, so nothing can be recorded against it")
    match = checked.match
    if match is not None:
        match = Match.objects.select_related("round__stage", "home", "away",
                                             "forfeited_by").get(pk=match.pk)
    limit = round_.rules.lateness_limit_minutes
    becomes_default = kind == Kind.DEFAULT or (
        kind == Kind.LATENESS and checked.values.minutes > limit)
    if becomes_default and match.forfeited_by_id is not None:
        raise _field_error("match", f"match {match.number} ({match.home.code} – "
                           f"{match.away.code}) is already forfeited by "
                           f"{match.forfeited_by.code}")
    if kind == Kind.DISQUALIFICATION:
        _check_not_disqualified(team, player)
    # The penalty that forfeits, as it will be saved (the lateness's default with it).
    adding = []
    if becomes_default or kind == Kind.DISQUALIFICATION:
        adding.append(Penalty(tournament=checked.tournament, team=team, player=player,
                              round=round_, match=match,
                              kind=Kind.DEFAULT if becomes_default else kind,
                              recorded_at=timezone.now()))
    forfeits = plan_forfeits(round_.stage, team, team_wide=checked.team_wide,
                             withdrawn_before=withdrawn_in(round_.stage, checked.team_wide),
                             adding=adding)
    return build(team=team, round_=round_, kind=kind, match=match, player=player,
                 minutes=checked.values.minutes, limit=limit, becomes_default=becomes_default,
                 forfeits=forfeits)


def undo_penalty(actor: Actor, penalty: Penalty, reason: str) -> Penalty:
    """Undo a penalty entered by mistake, with a reason: the row stays, marked undone, and
    everything it did is put back exactly, or the undo is refused with the reason."""
    tournament = penalty.tournament
    require(actor.user, tournament, Perm.RECORD_PENALTY)
    if penalty.kind == Kind.DISQUALIFICATION:
        require(actor.user, tournament, Perm.DISQUALIFY)
    why = _clean_reason(reason, "the undo")
    round_ = penalty.round
    team_wide = penalty.kind == Kind.DISQUALIFICATION and penalty.player_id is None
    with transaction.atomic():
        _lock_for(tournament, round_, penalty.kind, player=penalty.player,
                  team_wide=team_wide)
        penalty = (Penalty.objects.select_for_update(of=("self",))
                   .select_related("team", "player", "round__stage__tournament", "match")
                   .get(pk=penalty.pk))
        if penalty.undone_at is not None:
            raise ServiceError(
                gettext("this %(kind)s was already undone") % {"kind": penalty.get_kind_display()})
        stage = penalty.round.stage
        before = withdrawn_in(stage, team_wide)
        undone = [penalty]
        if penalty.kind == Kind.LATENESS:
            undone += list(Penalty.objects.filter(
                undone_at__isnull=True, kind=Kind.DEFAULT, team_id=penalty.team_id,
                match_id=penalty.match_id, recorded_at=penalty.recorded_at))
        now = timezone.now()
        for row in undone:
            row.undone_at, row.undone_by, row.undo_reason = now, actor.user, why
            row.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        checkpoint("penalty.undo")
        changes = apply_penalties(stage, penalty.team, team_wide=team_wide, withdrawn_before=before)
        audit(actor, tournament, "penalty.undo", penalty=penalty.pk,
              match=penalty.match_id, team=penalty.team_id, round=penalty.round_id,
              kind=penalty.kind, described=_describe(penalty),
              default_undone=len(undone) > 1, changes=changes, reason=why)
    return penalty


def _check_not_disqualified(team: Team, player: Player | None) -> None:
    earlier = Penalty.objects.filter(undone_at__isnull=True, kind=Kind.DISQUALIFICATION,
                                     team=team)
    if earlier.filter(player__isnull=True).exists():
        raise _field_error("kind", f"{team.code} is already disqualified")
    if player is not None and earlier.filter(player=player).exists():
        raise _field_error("player", f"{player.name} is already disqualified")


def _describe(penalty: Penalty) -> dict:
    """The penalty as its audit entry names it (``audit_wording.penalty_words``: "a
    match-point deduction of 2 against T2 in Groups, Round 2", "lateness of 20 minutes by
    T2 (Ann) at Swiss, Round 1 match 1 (T1 – T2)", …)."""
    return {"kind": penalty.kind, "team": penalty.team.code,
            "player": penalty.player.name if penalty.player_id else None,
            "round_name": round_name(penalty.round),
            "match": match_name(penalty.match) if penalty.match_id else None,
            "amount": penalty.amount, "minutes": penalty.minutes}
