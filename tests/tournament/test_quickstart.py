"""The README's run command on a fresh machine: one command gives a working site."""

import contextlib
import fcntl
import io
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.urls import reverse

from tests.conftest import on_postgresql
from tournament import first_start
from tournament.models import Tournament

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode()


def answer(url: str) -> int:
    try:
        return get(url)[0]
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.own_database  # its child process runs on SQLite whatever DATABASE_URL says
def test_quickstart_migrates_creates_a_director_and_serves(tmp_path, subprocess_env):
    """The address answers at once ("starting"), the server as soon as the database is
    ready, while the demo is built beside it; the demo appears when done, its accounts
    printed in quickstart's terminal; a second start builds nothing."""
    port = free_port()
    env = subprocess_env()
    site = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "manage.py", "quickstart", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    output: list[str] = []
    serving = threading.Event()

    def read():
        for line in server.stdout:
            output.append(line)
            if "Quit the server with" in line:
                serving.set()
        serving.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        # The address answers at once, while the database is still being set up.
        deadline = time.monotonic() + 60
        starting = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                get(f"{site}/")
                starting = None  # the site itself (not expected: migrating takes seconds)
                break
            except urllib.error.HTTPError as error:
                starting = error.code, error.read().decode(), list(output)
                break
            except OSError:
                time.sleep(0.05)
        assert starting is not None
        assert starting[0] == 503 and "Duplicate Gin is starting" in starting[1]
        assert not any("Quit the server" in line for line in starting[2])
        assert serving.wait(timeout=120) and server.poll() is None, "".join(output)
        text = "".join(output)
        match = re.search(r"as director with the password (\S+)", text)
        assert match, text
        assert "Building the demo tournament beside the server" in text
        status, home = get(f"{site}/")
        assert status == 200
        assert 'id="demo-build"' in home or "Demo Team Cup" in home  # (a fast machine)
        status, login_page = get(f"{site}/accounts/login/")
        assert status == 200 and "Log in" in login_page
        css = re.search(r'href="(/static/tournament/site\.[0-9a-f]+\.css)"', login_page)
        assert css, "the stylesheet is served with a hashed name from collectstatic"
        assert get(f"{site}{css.group(1)}")[0] == 200
        assert (tmp_path / "var" / "db.sqlite3").exists()

        deadline = time.monotonic() + 300
        while answer(f"{site}/t/demo/") != 200 and time.monotonic() < deadline:
            time.sleep(1)
        assert answer(f"{site}/t/demo/") == 200, "".join(output)
        # The event is on the site once its transaction commits; the build is over (and
        # the home page says so) once the command has printed the accounts, a moment later
        # on a loaded machine.
        while time.monotonic() < deadline and not any(
                "demo-scorer: password" in line for line in output):
            time.sleep(0.2)
        home = get(f"{site}/")[1]
        assert "Demo Team Cup" in home and 'id="demo-build"' not in home
        text = "".join(output)
        assert f"Demo tournament ready at {site}/t/demo/" in text
        assert re.search(r"demo-referee: password \S+", text), text
    finally:
        server.terminate()
        server.wait(timeout=10)
        state = first_start.STATE_FILE
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            os.kill(int(json.loads((tmp_path / "var" / state).read_text())["pid"]),
                    signal.SIGTERM)

    again = subprocess.run(
        [sys.executable, "manage.py", "quickstart", "--no-serve"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert "with your director account" in again.stdout
    assert "demo" not in again.stdout.lower()
    with contextlib.closing(sqlite3.connect(tmp_path / "var" / "db.sqlite3")) as db:
        assert db.execute("select count(*) from tournament_tournament where slug = 'demo'"
                          ).fetchone() == (1,)


# The director account from DJANGO_SUPERUSER_* passes the password validators or is refused
# with the reasons, and nothing is created.

@pytest.fixture
def quickstart(db, settings, tmp_path, monkeypatch):
    settings.STATIC_ROOT = tmp_path / "static"
    for name in ("DJANGO_SUPERUSER_USERNAME", "DJANGO_SUPERUSER_PASSWORD",
                 "DJANGO_SUPERUSER_EMAIL"):
        monkeypatch.delenv(name, raising=False)

    def run(**env):
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        out = io.StringIO()
        # The director account is the subject here, not the demo (tests/tournament/test_demo.py).
        call_command("quickstart", "--no-serve", "--no-demo", stdout=out)
        return out.getvalue()

    return run


@pytest.mark.parametrize(("username", "password", "reasons"), [
    ("director", "short1", ["This password is too short. It must contain at least 8 "
                            "characters."]),
    ("director", "password123", ["This password is too common."]),
    ("director", "12345678", ["This password is too common.",
                              "This password is entirely numeric."]),
    ("margaret.chen", "margaretchen", ["The password is too similar to the username."]),
])
def test_a_weak_director_password_is_refused_with_the_reasons(quickstart, django_user_model,
                                                               username, password, reasons):
    with pytest.raises(CommandError) as refused:
        quickstart(DJANGO_SUPERUSER_USERNAME=username, DJANGO_SUPERUSER_PASSWORD=password)
    message = str(refused.value)
    assert message.startswith("The director account was not created: "
                              "DJANGO_SUPERUSER_PASSWORD is refused: ")
    for reason in reasons:
        assert reason in message
    assert password not in message
    assert not django_user_model.objects.exists()


def test_a_password_similar_to_the_email_is_refused(quickstart, django_user_model):
    with pytest.raises(CommandError, match="too similar to the email address"):
        quickstart(DJANGO_SUPERUSER_PASSWORD="lily.wong@example.org",
                   DJANGO_SUPERUSER_EMAIL="lily.wong@example.org")
    assert not django_user_model.objects.exists()


def test_a_bad_director_user_name_is_refused(quickstart, django_user_model):
    with pytest.raises(CommandError, match="Enter a valid username"):
        quickstart(DJANGO_SUPERUSER_USERNAME="no spaces please",
                   DJANGO_SUPERUSER_PASSWORD="a-Long-pass-123")
    assert not django_user_model.objects.exists()


def test_a_good_director_password_makes_the_account(quickstart, django_user_model):
    out = quickstart(DJANGO_SUPERUSER_USERNAME="chen", DJANGO_SUPERUSER_PASSWORD="a-Long-pass-123",
                     DJANGO_SUPERUSER_EMAIL="chen@example.org")
    assert "as chen with the password you set" in out
    user = django_user_model.objects.get()
    assert user.is_superuser and user.email == "chen@example.org"
    assert user.check_password("a-Long-pass-123")


def test_the_generated_director_password_passes_the_validators(quickstart, django_user_model):
    out = quickstart()
    password = re.search(r"as director with the password (\S+)", out).group(1)
    user = django_user_model.objects.get(username="director")
    assert user.check_password(password)
    validate_password(password, user)  # raises if any validator refuses it


# The demo of the first start, built beside the server (tournament/first_start.py, issue 27):
# its progress on the home page while it is built, the demo once it is done, one build only.

class Build:
    """Another process's build, as the server sees it: the progress file and the lock."""

    def __init__(self, folder):
        self.folder = folder
        self.lock = None

    def write(self, **state):
        (self.folder / first_start.STATE_FILE).write_text(json.dumps(state))

    def building(self, played=0, rounds=10):
        if self.lock is None:
            self.lock = os.open(self.folder / first_start.LOCK_FILE, os.O_RDWR | os.O_CREAT)
            fcntl.flock(self.lock, fcntl.LOCK_EX)
        self.write(state="building", played=played, rounds=rounds, pid=1,
                   log=str(self.folder / first_start.LOG_FILE))

    def ends(self):
        """The process is gone (done, failed or killed): its lock with it."""
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def done(self):
        self.ends()
        (self.folder / first_start.STATE_FILE).unlink(missing_ok=True)


@pytest.fixture
def build(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    build = Build(tmp_path)
    yield build
    build.ends()


def htmx_get(client, url):
    return client.get(url, headers={"HX-Request": "true"})


def test_the_home_page_follows_the_demo_being_built_and_shows_it_when_done(
        client, build, make_tournament):
    build.building(played=3)
    page = client.get(reverse("public:home")).content.decode()
    assert "The demo tournament is being built" in page
    assert "3 of 10 rounds played" in page
    assert '<progress value="3" max="10"' in page
    assert f'data-hx-get="{reverse("public:demo_build")}"' in page
    assert 'data-hx-trigger="every 2s"' in page
    assert "No tournament is published yet" not in page  # it is coming
    # SQLite takes one writer at a time; PostgreSQL writes beside the build.
    assert ("logging in and saving wait for it" in page) == (not on_postgresql())

    build.building(played=7)  # what the page asks for every two seconds
    fragment = htmx_get(client, reverse("public:demo_build"))
    assert fragment.status_code == 200 and fragment["Cache-Control"].startswith("max-age=0")
    assert "7 of 10 rounds played" in fragment.content.decode()
    assert "<h1" not in fragment.content.decode()

    make_tournament(name="Demo Team Cup", slug="demo",
                    status=Tournament.Status.FINISHED)  # its transaction commits
    build.done()
    fragment = htmx_get(client, reverse("public:demo_build"))
    assert fragment.status_code == 200 and fragment["HX-Refresh"] == "true"  # load it again
    page = client.get(reverse("public:home")).content.decode()
    assert "Demo Team Cup" in page and 'id="demo-build"' not in page
    # Without htmx the address is only a way back to the home page, while there is a build.
    assert client.get(reverse("public:demo_build")).status_code == 404
    build.building(played=1)
    assert client.get(reverse("public:demo_build")).url == reverse("public:home")


def test_a_failed_build_is_told_and_a_director_sees_why_and_how_to_try_again(
        client, build, admin_user):
    build.building(played=4)
    build.write(state="failed", played=4, rounds=10, pid=1,
                log=str(build.folder / "demo-build.log"),
                error="OperationalError: database is locked")
    build.ends()
    page = client.get(reverse("public:home")).content.decode()
    assert "The demo tournament could not be built" in page
    assert "A director who logs in sees why" in page
    assert "database is locked" not in page and "demo-build.log" not in page
    assert "data-hx-trigger" not in page
    # Polling stops when the page asks after the failure (htmx: 286).
    assert htmx_get(client, reverse("public:demo_build")).status_code == 286

    client.force_login(admin_user)
    page = client.get(reverse("public:home")).content.decode()
    assert "OperationalError: database is locked" in page
    assert str(build.folder / "demo-build.log") in page
    assert "python manage.py quickstart" in page


def test_a_build_whose_process_ended_half_way_is_told_as_stopped(client, build, admin_user):
    build.building(played=2)
    build.ends()  # killed: the lock went with it, the file still says "building"
    assert first_start.progress().state == "stopped" and not first_start.building()
    client.force_login(admin_user)
    page = client.get(reverse("public:home")).content.decode()
    assert "The demo tournament could not be built" in page
    assert "stopped before it was done" in page


def test_the_build_writes_its_progress_and_removes_it_when_the_demo_is_saved(
        db, build, monkeypatch):
    seen = []

    def build_demo(*, progress, **kwargs):
        for number in range(1, 4):
            progress(f"Groups, round {number} played")
            seen.append(first_start.progress())
        return "built"

    monkeypatch.setattr("tournament.demo.build_demo", build_demo)
    said = []
    assert first_start.build(say=said.append) == "built"
    assert [(p.state, p.played, p.rounds) for p in seen] == [
        ("building", 1, 10), ("building", 2, 10), ("building", 3, 10)]
    assert said[0] == "  Groups, round 1 played (1 of 10 rounds)"
    assert first_start.progress() is None  # the home page is itself again


def test_a_build_that_fails_leaves_the_reason(db, build, monkeypatch):
    def build_demo(*, progress, **kwargs):
        progress("Groups, round 1 played")
        raise RuntimeError("the deals ran out")

    monkeypatch.setattr("tournament.demo.build_demo", build_demo)
    with pytest.raises(RuntimeError):
        first_start.build()
    failed = first_start.progress()
    assert (failed.state, failed.played) == ("failed", 1)
    assert failed.error == "RuntimeError: the deals ran out"


def test_no_second_build_once_there_is_a_tournament_or_one_was_deleted(
        build, monkeypatch, make_tournament):
    monkeypatch.setattr("tournament.demo.build_demo", lambda **kwargs: pytest.fail("built"))
    build.write(state="failed", played=1, rounds=10, error="RuntimeError: old")
    make_tournament(slug="demo")
    assert first_start.build() is None
    assert first_start.progress() is None  # an old failure is no longer news


def test_quickstart_starts_no_build_while_one_is_under_way(build, monkeypatch):
    build.building(played=5)
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("a second build was started"))
    assert first_start.start_in_background("manage.py", "tournament.settings_test",
                                           "http://127.0.0.1:8000") is False
    assert first_start.progress().played == 5  # the other build's file is left alone


@pytest.mark.django_db(transaction=True)
def test_quickstart_no_serve_waits_for_the_build_under_way_and_builds_nothing(
        build, settings, tmp_path, monkeypatch, make_tournament):
    settings.STATIC_ROOT = tmp_path / "static"
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-Long-pass-123")
    monkeypatch.setattr("tournament.demo.build_demo", lambda **kwargs: pytest.fail("built"))
    build.building(played=9)
    out = io.StringIO()
    finished = threading.Event()

    def run():
        try:
            call_command("quickstart", "--no-serve", stdout=out)
        finally:
            connection.close()
            finished.set()

    thread = threading.Thread(target=run)
    thread.start()
    # Migrations and all done, it says it waits for the other build, and it does wait.
    waiting = "Waiting for the demo tournament that another process is building"
    deadline = time.monotonic() + 60
    while waiting not in out.getvalue() and not finished.is_set() \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert waiting in out.getvalue(), out.getvalue()
    assert not finished.wait(timeout=2)
    make_tournament(name="Demo Team Cup", slug="demo")  # the other build commits
    build.done()
    thread.join(timeout=60)
    assert finished.is_set()
    assert "The demo tournament was built by another process." in out.getvalue()
    assert Tournament.objects.filter(slug="demo").count() == 1


def test_the_public_cache_keeps_nothing_while_the_demo_is_built(db, client, build, settings):
    settings.PUBLIC_CACHE_SECONDS = 300
    build.building(played=1)
    first = client.get(reverse("public:home"))
    assert "X-Public-Cache" not in first and 'id="demo-build"' in first.content.decode()
    build.done()
    assert client.get(reverse("public:home"))["X-Public-Cache"] == "miss"
    page = client.get(reverse("public:home"))
    assert page["X-Public-Cache"] == "hit" and 'id="demo-build"' not in page.content.decode()
