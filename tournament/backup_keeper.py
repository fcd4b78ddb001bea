"""The backup keeper: a small process beside the server that takes the backups by itself
(issue 50; docs/deploy.md, "Backups").

``quickstart`` and ``serve`` start it (``manage.py backup --keeper --parent PID``) before
they serve. ``serve`` then replaces itself with gunicorn, whose master keeps the process
id, so the keeper's parent is the server for its whole life; it stops within a second of
the server (its parent gone, even killed with SIGKILL). A process of its own rather than a
thread in gunicorn's master: the master forks its workers, and a thread holding a database
connection across a fork is a hazard; the keeper costs one Python process (about 60 MB) and
never slows a request.

Every ``poll`` seconds it renews its lease on the timed backups (one keeper of the site
takes them: ``services.backups.hold_lease``) and takes a backup when one is due
(``services.backups.due``): at once when a service wanted one, every ``BACKUP_INTERVAL``
seconds while a round is in play. A failure is printed and retried at the next poll; the
keeper never stops the server.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.utils import timezone


def start_beside(settings_module: str) -> subprocess.Popen | None:
    """The keeper of this process (the server about to serve), or None when automatic
    backups are off (``BACKUPS_AUTOMATIC``)."""
    if not settings.BACKUPS_AUTOMATIC:
        return None
    return subprocess.Popen(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "backup", "--keeper",
         "--parent", str(os.getpid()), "--settings", settings_module],
        stdin=subprocess.DEVNULL)


def keep(*, parent: int | None, interval: int, say: Callable[[str], None],
         poll: float | None = None) -> None:
    """Run until the parent process is gone (forever without one)."""
    from tournament.services import backups

    holder = f"{socket.gethostname()}:{os.getpid()}"[:100]
    poll = poll or max(1.0, min(5.0, interval / 2))
    say(f"Backups: every {interval} s while a round is in play, and after each round "
        f"closed, knockout match signed off and import, into {settings.BACKUP_DIR}"
        + (f" and the mirror {settings.BACKUP_MIRROR_DIR}" if settings.BACKUP_MIRROR_DIR
           else " (no mirror: set BACKUP_MIRROR_DIR)") + ".")
    try:
        while parent is None or os.getppid() == parent:
            try:
                if backups.hold_lease(holder, poll * 3):
                    state = backups.current_state()
                    why = backups.due(state, timezone.now(), interval)
                    if why is not None:
                        report = backups.take_backup(why=why, by=holder)
                        for _level, line in backups.report_lines(report):
                            say(f"Backup ({why}): {line}")
            except (DatabaseError, OSError) as error:
                say(f"Backup failed, tried again in {poll:g} s: {error}")
            finally:
                close_old_connections()
            _sleep(poll, parent)
    finally:
        with contextlib.suppress(DatabaseError):  # the database gone with the server
            backups.release_lease(holder)


def _sleep(seconds: float, parent: int | None) -> None:
    """Sleep, waking each quarter second to see whether the server is still there."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if parent is not None and os.getppid() != parent:
            return
        time.sleep(min(0.25, max(0.0, end - time.monotonic())))
