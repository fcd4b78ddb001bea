"""Backups: the tournament files ``manage.py backup`` writes into one folder on a timer,
and what the backups page reads back (docs/deploy.md, "Backups").

A backup is the tournament file with its secrets (the deal key not yet revealed, the deals
of the rounds in play): without them a tournament with a key still secret cannot be
restored. So the folder is the owner's alone (0700) and each file too (0600). A file is
named ``SLUG-YYYYmmdd-HHMMSS-ffffff.json`` by the UTC time it was taken, written beside its
final name and renamed, so a reader never finds half a file; the last ``keep`` files of
each tournament stay, older ones are deleted.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from tournament.exchange.export import export_text
from tournament.models import Round, Tournament

_STAMP = "%Y%m%d-%H%M%S-%f"
_NAME = re.compile(r"^(?P<slug>[-a-zA-Z0-9_]+)-(?P<stamp>\d{8}-\d{6}-\d{6})\.json$")


class BackupMissing(Exception):
    """No backup of that name in the folder."""


@dataclass(frozen=True)
class BackupFile:
    name: str
    slug: str
    taken_at: dt.datetime
    size: int


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


def _parsed(path: Path) -> BackupFile | None:
    found = _NAME.match(path.name)
    if found is None:
        return None
    try:
        taken_at = dt.datetime.strptime(found["stamp"], _STAMP).replace(tzinfo=dt.UTC)
        size = path.stat().st_size
    except (ValueError, OSError):  # not a real time, or deleted meanwhile
        return None
    return BackupFile(name=path.name, slug=found["slug"], taken_at=taken_at, size=size)


def list_backups(folder: Path | None = None) -> list[BackupFile]:
    """The backups in the folder, newest first (none when it does not exist yet)."""
    folder = folder or backup_dir()
    try:
        paths = list(folder.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = [backup for path in paths if path.is_file() and (backup := _parsed(path))]
    return sorted(found, key=lambda b: (b.taken_at, b.name), reverse=True)


def slug_of(name: str) -> str | None:
    """The short name of the tournament a backup was taken of, from its file name."""
    found = _NAME.match(name)
    return found["slug"] if found else None


def read_backup(name: str, folder: Path | None = None) -> bytes:
    """One backup's bytes, by its file name alone: a name that is not a backup's (a path,
    ``..``) is refused before the folder is looked at."""
    folder = folder or backup_dir()
    if not _NAME.match(name):
        raise BackupMissing(name)
    try:
        return (folder / name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise BackupMissing(name) from None


def tournaments_to_back_up(everything: bool) -> list[Tournament]:
    tournaments = Tournament.objects.order_by("slug")
    if not everything:
        tournaments = tournaments.filter(
            pk__in=Round.objects.filter(status=Round.Status.IN_PLAY)
            .values("stage__tournament"))
    return list(tournaments)


def write_backup(tournament: Tournament, folder: Path,
                 now: dt.datetime | None = None) -> BackupFile:
    """The tournament's file, secrets included, written into the folder (OSError when it
    cannot be)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    now = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    name = f"{tournament.slug}-{now.strftime(_STAMP)}.json"
    data = export_text(tournament, secrets=True).encode()
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".backup-", suffix=".json")
    try:
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, folder / name)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return BackupFile(name=name, slug=tournament.slug, taken_at=now, size=len(data))


def drop_old(slug: str, keep: int, folder: Path, *, max_age: dt.timedelta | None = None,
             now: dt.datetime | None = None) -> list[str]:
    """Delete all but the newest ``keep`` backups of the tournament ``slug``, and any older
    than ``max_age`` but the newest; their names."""
    mine = [backup for backup in list_backups(folder) if backup.slug == slug]
    return drop_files(folder, mine, keep, max_age=max_age, now=now)


def drop_files(folder: Path, newest_first: list, keep: int, *,
               max_age: dt.timedelta | None = None, now: dt.datetime | None = None) -> list[str]:
    """Of these files (newest first, each with ``name`` and ``taken_at``), delete all but
    the newest ``keep`` and any older than ``max_age`` but the newest; their names."""
    now = now or dt.datetime.now(dt.UTC)
    dropped = []
    for index, backup in enumerate(newest_first):
        too_old = max_age is not None and index > 0 and now - backup.taken_at > max_age
        if index >= keep or too_old:
            (folder / backup.name).unlink(missing_ok=True)
            dropped.append(backup.name)
    return dropped
