"""Taking a backup (issue 50; docs/deploy.md, "Backups"): the one home of what a backup
writes, whoever asks for it: the backup keeper beside the server (on its timer, and at once
when a service wants one), ``manage.py backup``, and the backups page's "Back up now".

A backup writes, into ``BACKUP_DIR``:

- a consistent snapshot of the whole database (``exchange.snapshot``), when this database
  can be copied here (otherwise the report says why it is left out);
- the tournament file, secrets included, of every tournament with a round in play or with
  anything recorded in its audit log since the last backup (every tournament the first
  time, or when asked for all); the others are left out, and the report says so;

then copies each file into the mirror (``BACKUP_MIRROR_DIR``, verified by checksum), drops
the old ones in both (by count and age), and records what it did in ``BackupState``: the
dashboard shows its age and any problem of the mirror.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tournament.exchange import mirror as mirroring
from tournament.exchange.backups import (
    backup_dir,
    drop_files,
    drop_old,
    list_backups,
    write_backup,
)
from tournament.exchange.snapshot import SnapshotSkipped, list_snapshots, take_snapshot
from tournament.models import AuditEntry, BackupState, Round, Tournament
from tournament.models.backups import SITE
from tournament.services.base import Actor, audit


@dataclass
class BackupReport:
    """What one backup did, in words for the command, the page and the dashboard."""

    taken_at: dt.datetime
    why: str
    folder: str
    written: list[str] = field(default_factory=list)  # file names, in the folder
    left_out: list[str] = field(default_factory=list)  # what was not written, and why
    problems: list[str] = field(default_factory=list)  # what failed in the folder
    mirror: str = ""  # the mirror folder, "" for none
    mirrored: list[str] = field(default_factory=list)
    mirror_problem: str = ""
    dropped: int = 0

    def as_data(self) -> dict:
        return {"why": self.why, "folder": self.folder, "written": self.written,
                "left_out": self.left_out, "problems": self.problems, "mirror": self.mirror,
                "mirrored": len(self.mirrored), "mirror_problem": self.mirror_problem,
                "dropped": self.dropped}


def _state() -> BackupState:
    state, _created = BackupState.objects.get_or_create(id=SITE)
    return state


def current_state() -> BackupState:
    return _state()


def want_backup(why: str) -> None:
    """A backup at once, after the caller's transaction commits (a round closed, a
    knockout match signed off, a tournament imported): the keeper takes it within seconds.
    Inside no transaction it is marked at once."""
    def mark() -> None:
        now = timezone.now()
        if not BackupState.objects.filter(id=SITE).update(wanted_at=now, wanted_why=why[:200]):
            BackupState.objects.get_or_create(id=SITE, defaults={"wanted_at": now,
                                                                 "wanted_why": why[:200]})
    transaction.on_commit(mark)


def hold_lease(holder: str, seconds: float, now: dt.datetime | None = None) -> bool:
    """Take or renew the lease of the timed backups: on two servers one keeper alone takes
    them; another takes over once the lease runs out (its holder stopped)."""
    now = now or timezone.now()
    _state()
    return bool(BackupState.objects.filter(id=SITE).filter(
        Q(holder=holder) | Q(holder="") | Q(lease_until__isnull=True)
        | Q(lease_until__lt=now)).update(holder=holder,
                                         lease_until=now + dt.timedelta(seconds=seconds)))


def release_lease(holder: str) -> None:
    BackupState.objects.filter(id=SITE, holder=holder).update(holder="", lease_until=None)


def due(state: BackupState, now: dt.datetime, interval: int) -> str | None:
    """Why a backup is due now (None: it is not): wanted at once, or the interval passed
    while a round is in play."""
    if state.wanted_at is not None and (state.taken_at is None
                                        or state.wanted_at >= state.taken_at):
        return state.wanted_why or gettext("a backup was asked for")
    if (state.taken_at is None or now - state.taken_at >= dt.timedelta(seconds=interval)) \
            and Round.objects.filter(status=Round.Status.IN_PLAY).exists():
        return gettext("a round is in play: every %(n)s seconds") % {"n": interval}
    return None


def _tournaments(everything: bool, since: dt.datetime | None) -> tuple[list, list]:
    """The tournaments a backup writes, and those it leaves out with why."""
    tournaments = list(Tournament.objects.order_by("slug"))
    if everything or since is None:
        return tournaments, []
    in_play = set(Round.objects.filter(status=Round.Status.IN_PLAY).values_list(
        "stage__tournament", flat=True))
    changed = set(AuditEntry.objects.filter(created_at__gte=since).exclude(
        tournament=None).values_list("tournament", flat=True))
    chosen, left_out = [], []
    for tournament in tournaments:
        if tournament.pk in in_play or tournament.pk in changed:
            chosen.append(tournament)
        else:
            left_out.append(gettext("%(slug)s: no round in play and nothing recorded since "
                                    "the last backup (it is in that one)")
                            % {"slug": tournament.slug})
    return chosen, left_out


def take_backup(*, why: str, everything: bool = False, by: str = "",
                folder: Path | None = None) -> BackupReport:
    """Take one backup now (see the module's docstring); never raises for a file that
    cannot be written or a mirror that cannot be reached: the report says so."""
    started = timezone.now()
    folder = folder or backup_dir()
    state = _state()
    report = BackupReport(taken_at=started, why=why, folder=str(folder),
                          mirror=settings.BACKUP_MIRROR_DIR)
    max_age = dt.timedelta(days=settings.BACKUP_KEEP_DAYS)
    try:
        snapshot = take_snapshot(folder, started)
        report.written.append(snapshot.name)
    except SnapshotSkipped as skipped:
        report.left_out.append(gettext("the database snapshot: %(why)s") % {"why": skipped})
    except OSError as error:
        report.problems.append(gettext("the database snapshot could not be written into "
                                       "%(folder)s: %(error)s")
                               % {"folder": folder, "error": error.strerror or error})
    else:
        report.dropped += len(drop_files(folder, list_snapshots(folder),
                                         settings.BACKUP_SNAPSHOTS_KEPT, max_age=max_age,
                                         now=started))
    tournaments, left_out = _tournaments(everything, state.taken_at)
    report.left_out += left_out
    for tournament in tournaments:
        try:
            written = write_backup(tournament, folder, started)
        except OSError as error:
            report.problems.append(gettext("%(slug)s: cannot write into %(folder)s: "
                                           "%(error)s")
                                   % {"slug": tournament.slug, "folder": folder,
                                      "error": error.strerror or error})
            continue
        report.written.append(written.name)
        report.dropped += len(drop_old(tournament.slug, settings.BACKUP_KEEP, folder,
                                       max_age=max_age, now=started))
    if report.mirror:
        _mirror(report, folder, Path(report.mirror), max_age, started)
    if folder == backup_dir():  # a copy into another folder is not the site's backup
        BackupState.objects.filter(id=SITE).update(
            taken_at=started, taken_by=by[:100], report=report.as_data(),
            mirror_problem=report.mirror_problem)
        BackupState.objects.filter(id=SITE, wanted_at__lte=started).update(
            wanted_at=None, wanted_why="")
    return report


def _mirror(report: BackupReport, folder: Path, mirror: Path, max_age: dt.timedelta,
            now: dt.datetime) -> None:
    try:
        mirroring.ready(mirror)
        for name in report.written:
            mirroring.copy_verified(folder / name, mirror)
            report.mirrored.append(name)
        slugs = {backup.slug for backup in list_backups(mirror)}
        for slug in slugs:
            drop_old(slug, settings.BACKUP_KEEP, mirror, max_age=max_age, now=now)
        drop_files(mirror, list_snapshots(mirror), settings.BACKUP_SNAPSHOTS_KEPT,
                   max_age=max_age, now=now)
    except mirroring.MirrorProblem as problem:
        report.mirror_problem = str(problem)
    except OSError as error:
        report.mirror_problem = gettext("the mirror %(folder)s: %(error)s") % {
            "folder": mirror, "error": error.strerror or error}


def back_up_now(actor: Actor) -> BackupReport:
    """The backups page's "Back up now": every tournament, by a superuser, audited."""
    user = actor.user
    if not (user.is_authenticated and user.is_active and user.is_superuser):
        raise PermissionDenied(gettext("Only an administrator of the site may take backups."))
    report = take_backup(why=gettext("asked for on the backups page"), everything=True,
                         by=user.get_username())
    with transaction.atomic():
        audit(actor, None, "backup.take", announce=False, written=len(report.written),
              problems=report.problems, mirror_problem=report.mirror_problem)
    return report


def report_lines(report: BackupReport) -> list[tuple[str, str]]:
    """The report in lines, for the command and the page: (level, words), the level
    "info", "warning" (the mirror) or "error" (a file not written)."""
    lines = [("info", gettext("wrote %(name)s") % {"name": name}) for name in report.written]
    lines += [("info", gettext("left out %(what)s") % {"what": what})
              for what in report.left_out]
    lines += [("error", gettext("failed: %(problem)s") % {"problem": problem})
              for problem in report.problems]
    if report.mirror_problem:
        lines.append(("warning", gettext("warning: %(problem)s")
                      % {"problem": report.mirror_problem}))
    elif report.mirror:
        lines.append(("info", gettext("copied %(n)s files into the mirror %(folder)s, each "
                                      "checked") % {"n": len(report.mirrored),
                                                    "folder": report.mirror}))
    else:
        lines.append(("info", gettext("no mirror folder (the setting BACKUP_MIRROR_DIR)")))
    return lines
