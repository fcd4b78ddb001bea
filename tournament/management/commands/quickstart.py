"""Set up and start the application in one command (README.md)."""

import os
import secrets
import subprocess
import sys
import tempfile

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.management.commands.runserver import Command as RunserverCommand
from django.utils.functional import empty

from tournament.backup_keeper import start_beside
from tournament.starting import StartingServer

DEFAULT_ADDRPORT = "127.0.0.1:8000"


class Command(BaseCommand):
    help = (
        "Migrate the database, create a director account if there is none, collect the "
        "static files, load the demo tournament on the first start (--no-demo skips it; "
        "while serving it is built beside the server, its progress on the home page) "
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
        # Serving, the first answer comes within seconds (issue 27; bench/quickstart.py):
        # the static files are collected and the system checks run in processes of their
        # own beside the migrations, and the demo is built beside the server
        # (tournament/first_start.py). With --no-serve (scripts, tests) everything is done
        # here, one after the other, and is there when the command returns.
        # The address is taken first: until all is set up it answers "starting"
        # (tournament/starting.py), then the server is given its socket.
        starting = None if no_serve else StartingServer(addrport)
        helpers = {} if no_serve else self._start_helpers()
        try:
            call_command("migrate", interactive=False, verbosity=0)
            self.stdout.write("Database ready.")
            if no_serve:
                call_command("collectstatic", interactive=False, verbosity=0)
            self._ensure_director(addrport)
            self._load_demo(addrport, skip=no_demo, serve=not no_serve)
            if not no_serve:
                self._finish_helpers(helpers)
        except BaseException:
            if starting is not None:
                starting.close()
            raise
        finally:
            for helper, _ in helpers.values():
                if helper.poll() is None:
                    helper.kill()
        if not no_serve:
            # In this process (a second Django start would cost a second): the static
            # files were collected by another one, so nothing here has read their manifest
            # yet. No autoreloader, which would run this whole command again in a child
            # process; the system checks ran beside the migrations.
            staticfiles_storage._wrapped = empty
            start_beside(settings.SETTINGS_MODULE)  # backups by themselves (issue 50)
            server = RunserverCommand()
            server.server_cls = starting.hand_over()
            call_command(server, addrport, use_reloader=False, skip_checks=True)

    def _start_helpers(self) -> dict:
        """collectstatic and the system checks, each in a process of its own (the machine's
        other core) while this one migrates; their output kept for later."""
        helpers = {}
        for name, command in (("collectstatic", ["collectstatic", "--noinput", "-v0"]),
                              ("check", ["check"])):
            output = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed below)
            helpers[name] = (subprocess.Popen(
                [sys.executable, _manage_py(), *command, "--settings",
                 settings.SETTINGS_MODULE], stdout=output, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL), output)
        return helpers

    def _finish_helpers(self, helpers: dict) -> None:
        results = {}
        for name, (helper, output) in helpers.items():
            code = helper.wait()
            output.seek(0)
            results[name] = (code, output.read().strip())
            output.close()
        code, text = results["check"]
        if text:
            self.stdout.write(text)
        if code:
            raise CommandError("The system checks found errors (above): the server was not "
                               "started.")
        code, text = results["collectstatic"]
        if code:
            raise CommandError(f"The static files were not collected:\n{text}")

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

    def _load_demo(self, addrport: str, *, skip: bool, serve: bool) -> None:
        """The demo tournament (tournament/demo/) on the first start: when there is no
        tournament yet and none was ever deleted (a director who deleted the demo does not
        get it back). Serving, it is built beside the server, else here; one build at a
        time either way (tournament/first_start.py)."""
        from tournament import demo, first_start
        from tournament.management.commands.demo import account_lines

        site = f"http://{_display_host(addrport)}"
        if not first_start.wanted():
            first_start.forget_failure()
            return
        if skip:
            self.stdout.write("No demo tournament loaded (--no-demo).")
            return
        if serve and first_start.can_build_in_background():
            if first_start.start_in_background(_manage_py(), settings.SETTINGS_MODULE, site):
                self.stdout.write(
                    f"Building the demo tournament beside the server (a finished event; a "
                    f"director can delete it from its settings page): {site}/ shows its "
                    f"progress, and its address and its staff accounts are printed here "
                    f"when it is ready (its log: {first_start.log_path()}).")
            else:
                self.stdout.write(f"The demo tournament is being built by another process: "
                                  f"{site}/ shows its progress.")
            return
        if first_start.running():
            self.stdout.write("Waiting for the demo tournament that another process is "
                              "building…")
        self.stdout.write("Loading the demo tournament (a finished event; a director can "
                          "delete it from its settings page)…")
        self.stdout.flush()
        try:
            built = first_start.build(say=self.stdout.write)
        except Exception as error:  # its transaction rolled back: nothing of it is left
            raise CommandError(f"The demo tournament was not built: {error}. Run quickstart "
                               "again to try again.") from error
        if built is None:
            self.stdout.write("The demo tournament was built by another process.")
            return
        self.stdout.write(f"Demo tournament ready at {site}/t/{demo.SLUG}/; its staff "
                          "accounts (they go with the demo):")
        for line in account_lines(built):
            self.stdout.write(line)


def _manage_py() -> str:
    return str(settings.BASE_DIR / "manage.py")


def _reasons(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


def _display_host(addrport: str) -> str:
    if ":" not in addrport:
        return f"127.0.0.1:{addrport}"
    host, port = addrport.rsplit(":", 1)
    if host in ("", "0.0.0.0", "0", "[::]"):
        host = "127.0.0.1"
    return f"{host}:{port}"
