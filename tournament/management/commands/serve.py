"""The production server: gunicorn with whitenoise serving the static files.

    python manage.py serve [ADDR:PORT] [--workers N]

Migrates and collects the static files first, then replaces itself with gunicorn. Several
workers are several processes: the public cache must be shared between them or one worker
would serve a page another has seen change. So without ``CACHE_URL`` (Redis, for a real
server) the workers share a file cache under ``var/cache``.
"""

import os
import shutil
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournament.backup_keeper import start_beside

DEFAULT_ADDRPORT = "127.0.0.1:8000"


class Command(BaseCommand):
    help = ("Start the production server: gunicorn with N worker processes (default 2) and "
            "whitenoise, after migrating and collecting the static files.")

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default=DEFAULT_ADDRPORT,
                            help="ADDR:PORT or PORT to listen on (default 127.0.0.1:8000)")
        parser.add_argument("--workers", type=int, default=2,
                            help="worker processes (default 2: one per core of a laptop)")
        # One thread a worker by default (gunicorn's sync worker): with four (gthread) the
        # connections are kept alive between a browser's requests, but on the 512-team
        # event a page that writes its rows in Python (the public individual standings)
        # took 524 ms in a pool thread against 119 ms in a sync worker, and the spectators'
        # p95 under 32 scorers was 494 ms against 321 ms (issue 59, docs/benchmarks.md).
        parser.add_argument("--threads", type=int, default=1,
                            help="threads per worker (default 1: gunicorn's sync worker)")
        parser.add_argument("--access-log", action="store_true",
                            help="log every request on the standard output")
        parser.add_argument("--no-migrate", action="store_true",
                            help="start without migrating (the database is up to date)")

    def handle(self, *args, addrport, workers, threads, access_log, no_migrate, **options):
        if workers < 1 or threads < 1:
            raise CommandError("--workers and --threads take a whole number of at least 1")
        bind = addrport if ":" in addrport else f"127.0.0.1:{addrport}"
        gunicorn = shutil.which("gunicorn") or os.path.join(os.path.dirname(sys.executable),
                                                            "gunicorn")
        if not os.path.exists(gunicorn):
            raise CommandError("gunicorn is not installed: pip install -e .")
        if not no_migrate:
            call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        if workers > 1 and not os.environ.get("CACHE_URL"):
            os.environ["CACHE_URL"] = f"filecache://{settings.VAR_DIR / 'cache'}"
            self.stdout.write("The workers share a file cache (set CACHE_URL=redis://… for "
                              "Redis).")
            if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
                # The file cache is this machine's: a second server would not see it renewed.
                self.stdout.write("With another application server on this database, set "
                                  "CACHE_URL to a Redis both use, and the same SECRET_KEY "
                                  "(docs/deploy.md; manage.py check --deploy).")
        self.stdout.write(f"Serving on http://{bind}/ with {workers} workers.")
        self.stdout.flush()
        # Backups by themselves, beside gunicorn, whose master keeps this process's id.
        start_beside(settings.SETTINGS_MODULE)
        os.environ["DJANGO_SETTINGS_MODULE"] = settings.SETTINGS_MODULE
        os.execv(gunicorn, [
            gunicorn, "tournament.wsgi:application", "--bind", bind,
            "--workers", str(workers), "--threads", str(threads),
            "--chdir", str(settings.BASE_DIR), "--graceful-timeout", "10",
            # A worker may take this long on one request before it is killed: importing a
            # tournament file of 70 MB takes 12 s on a laptop (docs/benchmarks.md), more on
            # a busy one; gunicorn's default of 30 s would leave no margin.
            "--timeout", "120",
            *(["--access-logfile", "-"] if access_log else []),
            *_no_control_socket(),
        ])


def _no_control_socket() -> list[str]:
    """No control socket: gunicorn's (in the versions that have one) is one path per account,
    ~/.gunicorn/gunicorn.ctl, which every ``serve`` on the machine would share (the public
    pool and the staff pool, two events). The servers are controlled by their signals."""
    from gunicorn.config import KNOWN_SETTINGS

    if any(setting.name == "control_socket_disable" for setting in KNOWN_SETTINGS):
        return ["--no-control-socket"]
    return []
