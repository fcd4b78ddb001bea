"""How the site's backups stand (issue 50), for the dashboard and the backups page: when
the last one was taken, whether that is too long ago, and what the mirror said."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from tournament.models import BackupState, Round
from tournament.models.backups import SITE


@dataclass(frozen=True)
class BackupStatus:
    taken_at: dt.datetime | None
    age: dt.timedelta | None
    overdue: bool  # a round is in play and the last backup is over twice the interval old
    in_play: bool
    interval: int
    automatic: bool
    mirror: bool  # a mirror folder is set
    mirror_problem: str
    report: dict

    @property
    def age_minutes(self) -> int | None:
        return None if self.age is None else int(self.age.total_seconds() // 60)


def backup_status(now: dt.datetime | None = None) -> BackupStatus:
    """Two queries: the state's row and whether a round is in play."""
    now = now or timezone.now()
    state = BackupState.objects.filter(id=SITE).first()
    in_play = Round.objects.filter(status=Round.Status.IN_PLAY).exists()
    taken_at = state.taken_at if state else None
    age = now - taken_at if taken_at else None
    interval = settings.BACKUP_INTERVAL
    overdue = in_play and (age is None or age > dt.timedelta(seconds=2 * interval))
    return BackupStatus(taken_at=taken_at, age=age, overdue=overdue, in_play=in_play,
                        interval=interval, automatic=settings.BACKUPS_AUTOMATIC,
                        mirror=bool(settings.BACKUP_MIRROR_DIR),
                        mirror_problem=state.mirror_problem if state else "",
                        report=state.report if state else {})
