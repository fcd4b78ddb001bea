"""Set up and start the application in one command (README.md)."""

import os
import secrets
import sys

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

DEFAULT_ADDRPORT = "127.0.0.1:8000"


class Command(BaseCommand):
    help = (
        "Migrate the database, create a director account if there is none, collect the "
        "static files, load the demo tournament on the first start (--no-demo skips it) "
        "and start the web server (default 127.0.0.1:8000)."
    )

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default=DEFAULT_ADDRPORT,
                            help="ADDR:PORT or PORT to listen on, as for runserver")
        parser.add_argument("--no-serve", action="store_true",
                            help="set everything up but do not start the server")
        parser.add_argument("--no-demo", action="store_true",
                            help="do not load the demo tournament on the first start")

    def handle(self, *args, addrport, no_serve, no_demo, **options):
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("Database ready.")
        call_command("collectstatic", interactive=False, verbosity=0)
        self._ensure_director(addrport)
        self._load_demo(addrport, skip=no_demo)
        if not no_serve:
            # A fresh process, so the settings see the static manifest just collected; no
            # autoreloader, which would run this whole command again in a child process.
            self.stdout.flush()
            manage_py = str(settings.BASE_DIR / "manage.py")
            os.execv(sys.executable, [sys.executable, manage_py, "runserver", addrport,
                                      "--noreload", "--settings", settings.SETTINGS_MODULE])

    def _ensure_director(self, addrport: str) -> None:
        User = get_user_model()
        login_url = f"http://{_display_host(addrport)}/accounts/login/"
        if User.objects.filter(is_superuser=True, is_active=True).exists():
            self.stdout.write(f"Log in at {login_url} with your director account.")
            return
        username = os.environ.get("DJANGO_SUPERUSER_USERNAME", "").strip() or "director"
        email = os.environ.get("DJANGO_SUPERUSER_EMAIL", "").strip()
        chosen = os.environ.get("DJANGO_SUPERUSER_PASSWORD", "")
        password = chosen or secrets.token_urlsafe(12)
        user = User(username=User.normalize_username(username),
                    email=User.objects.normalize_email(email), is_staff=True, is_superuser=True)
        try:
            user.full_clean(exclude=["password"])
        except ValidationError as error:
            raise CommandError(
                "The director account was not created: " + _reasons(error)
                + " (DJANGO_SUPERUSER_USERNAME / DJANGO_SUPERUSER_EMAIL)") from None
        try:
            validate_password(password, user)
        except ValidationError as error:
            source = "DJANGO_SUPERUSER_PASSWORD" if chosen else "the generated password"
            raise CommandError(
                f"The director account was not created: {source} is refused: "
                + _reasons(error) + " Choose another and run quickstart again.") from None
        User.objects.create_superuser(username=user.username, email=user.email,
                                      password=password)
        self.stdout.write(self.style.SUCCESS("Director account created."))
        if chosen:
            self.stdout.write(f"Log in at {login_url} as {username} with the password you set.")
        else:
            self.stdout.write(
                f"Log in at {login_url} as {username} with the password {password}\n"
                "(shown once; change it under /admin/password_change/)."
            )

    def _load_demo(self, addrport: str, *, skip: bool) -> None:
        """The demo tournament (tournament/demo.py) on the first start: when there is no
        tournament yet and none was ever deleted (a director who deleted the demo does not
        get it back)."""
        from tournament import demo
        from tournament.management.commands.demo import account_lines
        from tournament.models import AuditEntry, Tournament

        if (Tournament.objects.exists()
                or AuditEntry.objects.filter(action="tournament.delete").exists()):
            return
        if skip:
            self.stdout.write("No demo tournament loaded (--no-demo).")
            return
        self.stdout.write("Loading the demo tournament (a finished event; a director can "
                          "delete it from its settings page)…")
        self.stdout.flush()
        built = demo.build_demo()
        self.stdout.write(f"Demo tournament ready at http://{_display_host(addrport)}"
                          f"/t/{demo.SLUG}/; its staff accounts (they go with the demo):")
        for line in account_lines(built):
            self.stdout.write(line)


def _reasons(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


def _display_host(addrport: str) -> str:
    if ":" not in addrport:
        return f"127.0.0.1:{addrport}"
    host, port = addrport.rsplit(":", 1)
    if host in ("", "0.0.0.0", "0", "[::]"):
        host = "127.0.0.1"
    return f"{host}:{port}"
