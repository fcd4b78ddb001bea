"""The round clock's commands (issue 58; tournament/clock.py): the planned length of a
round, pause, resume, time added, and one table's extension with its reason. Each is the
director's (``MANAGE_ROUNDS``), one transaction with the round locked, audited; a change is
announced, so the big screen's cached pages are built again with the new end time."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournament.audit_wording import round_name
from tournament.models import Round, Table
from tournament.permissions import Perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.locking import lock
from tournament.services.text import clean_text

MAX_MINUTES = 24 * 60


def _minutes(value, *, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= MAX_MINUTES:
        raise ServiceError(gettext("Give the minutes as a whole number from %(least)s to "
                                   "%(most)s.") % {"least": least, "most": MAX_MINUTES},
                           field_errors={"minutes": [gettext("from %(least)s to %(most)s")
                                                     % {"least": least, "most": MAX_MINUTES}]})
    return value


def _round(actor: Actor, round_: Round, *statuses: str) -> Round:
    require(actor.user, round_.stage.tournament, Perm.MANAGE_ROUNDS)
    round_ = lock(rounds=[round_]).one("rounds")
    if round_.status not in statuses:
        raise ServiceError(gettext("The clock of %(round)s cannot change now: it runs only "
                                   "while the round is in play.") % {"round": round_.label})
    return round_


def set_planned_minutes(actor: Actor, round_: Round, minutes: int) -> Round:
    """The round's own planned length (before or during play, never once closed)."""
    minutes = _minutes(minutes)
    with transaction.atomic():
        round_ = _round(actor, round_, Round.Status.DRAFT, Round.Status.PUBLISHED,
                        Round.Status.IN_PLAY)
        if round_.planned_minutes != minutes:
            round_.planned_minutes = minutes
            round_.save(update_fields=["planned_minutes"])
            audit(actor, round_.stage.tournament, "round.clock_length", round=round_.pk,
                  round_name=round_name(round_), minutes=minutes)
    return round_


def pause_clock(actor: Actor, round_: Round) -> Round:
    with transaction.atomic():
        round_ = _round(actor, round_, Round.Status.IN_PLAY)
        if round_.clock_paused_at is None:
            round_.clock_paused_at = timezone.now()
            round_.save(update_fields=["clock_paused_at"])
            audit(actor, round_.stage.tournament, "round.clock_pause", round=round_.pk,
                  round_name=round_name(round_))
    return round_


def resume_clock(actor: Actor, round_: Round) -> Round:
    """Play goes on: the time it stood paused is added, so the time left is as it was."""
    with transaction.atomic():
        round_ = _round(actor, round_, Round.Status.IN_PLAY)
        if round_.clock_paused_at is not None:
            stood = int((timezone.now() - round_.clock_paused_at).total_seconds())
            round_.clock_added_seconds += max(stood, 0)
            round_.clock_paused_at = None
            round_.save(update_fields=["clock_added_seconds", "clock_paused_at"])
            audit(actor, round_.stage.tournament, "round.clock_resume", round=round_.pk,
                  round_name=round_name(round_), paused_seconds=max(stood, 0))
    return round_


def add_time(actor: Actor, round_: Round, minutes: int) -> Round:
    minutes = _minutes(minutes)
    with transaction.atomic():
        round_ = _round(actor, round_, Round.Status.IN_PLAY)
        round_.clock_added_seconds += minutes * 60
        round_.save(update_fields=["clock_added_seconds"])
        audit(actor, round_.stage.tournament, "round.clock_add", round=round_.pk,
              round_name=round_name(round_), minutes=minutes)
    return round_


def extend_table(actor: Actor, table: Table, minutes: int, reason: str) -> Table:
    """One table may play ``minutes`` beyond the round's clock (0 takes it back), with a
    reason for the log."""
    minutes = _minutes(minutes, least=0)
    try:
        reason = clean_text(reason, label=gettext_lazy("reason"), max_length=500,
                            required=True)
    except ValueError as refusal:
        raise ServiceError(str(refusal), field_errors={"reason": [str(refusal)]}) from None
    with transaction.atomic():
        round_ = _round(actor, table.round, Round.Status.IN_PLAY)
        table = lock(tables=[table]).one("tables")
        table.extra_minutes = minutes
        table.save(update_fields=["extra_minutes"])
        audit(actor, round_.stage.tournament, "table.extend", round=round_.pk,
              round_name=round_name(round_), table=table.pk, table_number=table.number,
              minutes=minutes, reason=reason)
    return table
