"""``python manage.py backup [--keep N] [--dir DIR] [--all]``: the file of every tournament
with a round in play (``--all``: of every tournament), secrets included, written into DIR
(default: the setting ``BACKUP_DIR``, ``var/backups``); the last N files of each tournament
are kept (default 48), older ones deleted.

Meant for the system's timer on one host (docs/deploy.md, "Backups"): it prints one line
per file written, nothing else but errors; exit status 1 when a file could not be written
(the others are still written).
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange.backups import (
    backup_dir,
    drop_old,
    tournaments_to_back_up,
    write_backup,
)

DEFAULT_KEEP = 48


class Command(BaseCommand):
    help = ("Write the file of every tournament with a round in play (or all) into the "
            "backup folder, keeping the last N of each.")

    def add_arguments(self, parser):
        parser.add_argument("--keep", type=int, default=DEFAULT_KEEP, metavar="N",
                            help=f"backups kept per tournament (default {DEFAULT_KEEP})")
        parser.add_argument("--dir", metavar="DIR", dest="folder",
                            help="the folder (default: the setting BACKUP_DIR)")
        parser.add_argument("--all", action="store_true", dest="everything",
                            help="every tournament, not only those with a round in play")

    def handle(self, *args, keep, folder, everything, **options):
        if keep < 1:
            raise CommandError("--keep takes a whole number of at least 1", returncode=1)
        folder = Path(folder) if folder else backup_dir()
        tournaments = tournaments_to_back_up(everything)
        if not tournaments and options["verbosity"] > 1:
            self.stdout.write("No tournament has a round in play: nothing to back up "
                              "(--all backs up every tournament).")
        failed = []
        for tournament in tournaments:
            try:
                written = write_backup(tournament, folder)
                dropped = drop_old(tournament.slug, keep, folder)
            except OSError as error:
                failed.append(f"{tournament.slug}: cannot write into {folder}: "
                              f"{error.strerror or error}")
                continue
            self.stdout.write(
                f"{tournament.slug}: {folder / written.name} ({written.size:,} bytes)"
                + (f"; {len(dropped)} older deleted" if dropped else ""))
        if failed:
            raise CommandError("\n".join(failed), returncode=1)
