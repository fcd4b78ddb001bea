"""``python manage.py backup [--all] [--dir DIR] [--keep N]``: one backup now
(``services.backups``): a snapshot of the whole database and the file of every tournament
with a round in play or with anything recorded since the last backup (``--all``: every
tournament), secrets included, into DIR (default: the setting ``BACKUP_DIR``,
``var/backups``), copied into the mirror (``BACKUP_MIRROR_DIR``) when there is one. It
always says what it wrote, what it left out and why; exit status 1 when a file could not be
written (the others are still written); a mirror that cannot be reached is a warning.

``--keeper`` runs the backup keeper instead (``tournament/backup_keeper.py``): what
``quickstart`` and ``serve`` start beside the server, so that backups happen by themselves.
"""

import contextlib
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournament.exchange.backups import backup_dir


class Command(BaseCommand):
    help = ("Take a backup now: a snapshot of the database and the file of every tournament "
            "in play or changed since the last backup (or all), with a verified copy in the "
            "mirror folder; --keeper runs the keeper that takes them by itself.")

    def add_arguments(self, parser):
        parser.add_argument("--keep", type=int, default=None, metavar="N",
                            help="backups kept per tournament (default: the setting "
                                 "BACKUP_KEEP, 48)")
        parser.add_argument("--dir", metavar="DIR", dest="folder",
                            help="the folder (default: the setting BACKUP_DIR)")
        parser.add_argument("--all", action="store_true", dest="everything",
                            help="every tournament, not only those in play or changed")
        parser.add_argument("--keeper", action="store_true",
                            help="run the backup keeper (what the server starts)")
        parser.add_argument("--parent", type=int, default=None,
                            help="with --keeper: stop when this process is gone")
        parser.add_argument("--interval", type=int, default=None,
                            help="with --keeper: seconds between backups while a round is "
                                 "in play (default: the setting BACKUP_INTERVAL)")

    def handle(self, *args, keep, folder, everything, keeper, parent, interval, **options):
        from tournament.services import backups

        if keep is not None:
            if keep < 1:
                raise CommandError("--keep takes a whole number of at least 1", returncode=1)
            settings.BACKUP_KEEP = keep
        interval = interval if interval is not None else settings.BACKUP_INTERVAL
        if interval < 1:
            raise CommandError("the interval takes a whole number of seconds, at least 1",
                               returncode=1)
        if keeper:
            from tournament.backup_keeper import keep as run_keeper

            def say(line: str) -> None:
                self.stdout.write(line)
                self.stdout.flush()

            # Ctrl-C in the server's terminal reaches the keeper too: it stops quietly.
            with contextlib.suppress(KeyboardInterrupt):
                run_keeper(parent=parent, interval=interval, say=say)
            return
        folder = Path(folder) if folder else backup_dir()
        report = backups.take_backup(why="manage.py backup", everything=everything,
                                     by="manage.py backup", folder=folder)
        for level, line in backups.report_lines(report):
            (self.stdout if level == "info" else self.stderr).write(line)
        if report.problems:
            raise CommandError("\n".join(report.problems), returncode=1)
