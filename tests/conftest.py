"""Fixtures shared by the whole suite.

Tests that need a part of the machine (Chromium, PostgreSQL) skip when it is missing,
except under CI (``DUPGIN_REQUIRE_ALL=1`` set by .ci/run), where a missing part fails.
"""

import contextlib
import datetime as dt
import os
import re
import shutil

import pytest

# Playwright runs an event loop in the test thread; the live server's ORM calls are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def require_part(available: bool, what: str) -> None:
    """Skip without the part, but fail in CI where nothing may be skipped."""
    if available:
        return
    if os.environ.get("DUPGIN_REQUIRE_ALL") == "1":
        pytest.fail(f"{what} is required in CI but missing")
    pytest.skip(f"{what} is not available")


@pytest.fixture(autouse=True)
def _english_to_begin_with():
    """Every test starts in the default language. A page read in Chinese leaves Chinese
    active in the test's thread (LocaleMiddleware activates the reader's language and does
    not switch back), which would turn the next test's service messages Chinese."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


def on_postgresql() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


def pytest_collection_modifyitems(config, items):
    """Tests marked ``postgres`` (row locks that SQLite does not have) run only when the
    suite runs on PostgreSQL (DATABASE_URL); on SQLite they are deselected, not skipped:
    CI runs the suite on both, and there nothing may be skipped. Tests marked
    ``own_database`` start the application in a child process on a SQLite database of
    their own, the same whatever the suite's database: they run in the SQLite pass and
    are deselected in the PostgreSQL one (the same test twice would only take its time)."""
    other = "own_database" if on_postgresql() else "postgres"
    elsewhere = [item for item in items if item.get_closest_marker(other)]
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = [item for item in items if not item.get_closest_marker(other)]


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) or shutil.which(CHROMIUM) is not None


@pytest.fixture
def make_user(django_user_model):
    counter = iter(range(1, 10_000))

    def make(username=None, *, superuser=False, password="a-Long-pass-123"):
        username = username or f"user{next(counter)}"
        if superuser:
            return django_user_model.objects.create_superuser(username, "", password)
        return django_user_model.objects.create_user(username, password=password)

    return make


@pytest.fixture
def admin_user(make_user):
    return make_user("root", superuser=True)


@pytest.fixture
def make_tournament(db):
    from tournament.models import Tournament

    counter = iter(range(1, 10_000))

    def make(**values):
        n = next(counter)
        values.setdefault("name", f"Open {n}")
        values.setdefault("slug", f"open-{n}")
        values.setdefault("starts_on", dt.date(2026, 11, 20))
        values.setdefault("ends_on", dt.date(2026, 11, 22))
        values.setdefault("status", Tournament.Status.RUNNING)
        return Tournament.objects.create(**values)

    return make


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(name="World Cup", slug="world-cup", venue="Shanghai")


@pytest.fixture
def staff_user(make_user):
    """A user holding ``role`` in ``tournament`` (chief=True for the chief referee)."""
    from tournament.models import StaffRole

    def make(tournament, role, *, chief=False, username=None):
        user = make_user(username)
        StaffRole.objects.create(
            tournament=tournament, user=user, role=role, is_chief_referee=chief
        )
        return user

    return make


@pytest.fixture
def actor():
    from tournament.services import Actor

    def make(user, ip="10.0.0.7"):
        return Actor(user=user, ip=ip)

    return make


@pytest.fixture
def make_team(db):
    from tournament.services.teams import insert_team, parse_team_entry

    counter = iter(range(1, 10_000))

    def make(tournament, **fields):
        n = next(counter)
        raw = {"code": f"T{n}", "name": f"Team {n}", "player1": f"Player {n}a",
               "player2": f"Player {n}b", **fields}
        return insert_team(tournament, parse_team_entry(raw))

    return make


@pytest.fixture
def subprocess_env(tmp_path):
    """Environment for running manage.py in a child process, as on a fresh machine."""

    def make(**overrides):
        dropped = {"DATABASE_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "HTTPS",
                   "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SUPERUSER_PASSWORD",
                   "DJANGO_SUPERUSER_USERNAME", "DJANGO_SETTINGS_MODULE"}
        env = {k: v for k, v in os.environ.items() if k not in dropped}
        env["VAR_DIR"] = str(tmp_path / "var")
        env.update(overrides)
        return env

    return make


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright drives Debian's Chromium; it never downloads a browser."""
    require_part(chromium_available(), f"Chromium at {CHROMIUM} (apt-get install chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"],
    }


@pytest.fixture
def screenshot_dir(tmp_path):
    """Where browser tests save their screenshots (SCREENSHOT_DIR to keep them)."""
    path = os.environ.get("SCREENSHOT_DIR")
    if not path:
        return tmp_path
    os.makedirs(path, exist_ok=True)
    from pathlib import Path

    return Path(path)


# Any http(s) address but the live server's (localhost or 127.0.0.1, any port).
OUTSIDE_THE_SITE = re.compile(r"^https?://(?!(localhost|127\.0\.0\.1)(:\d+)?/)")


@pytest.fixture
def browser_problems(page):
    """What the page reports as wrong while a test runs: Content-Security-Policy violations,
    other console errors, uncaught exceptions and any request outside the site, as text."""
    problems: list[str] = []

    def on_console(message):
        if message.type == "error" or "Content Security Policy" in message.text:
            problems.append(f"console {message.type} at {message.location.get('url')}: "
                            f"{message.text}")

    def offline(route):
        # The network is off for the pages: nothing may come from the internet at run time
        # (no CDN, no fonts, no analytics); such a request is refused and reported.
        problems.append(f"request outside the site: {route.request.url}")
        route.abort()

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"uncaught error: {error}"))
    page.route(OUTSIDE_THE_SITE, offline)
    return problems


@pytest.fixture
def expected_browser_problems() -> tuple[str, ...]:
    """Texts of browser reports a module expects (it overrides this fixture): a report
    holding one of them is no fault of the page."""
    return ()


@pytest.fixture(autouse=True)
def _fail_on_browser_problems(request):
    """Every browser test fails when its page broke the CSP or logged an error."""
    if "page" not in request.fixturenames:
        yield
        return
    from playwright.sync_api import Error as PlaywrightError

    problems = request.getfixturevalue("browser_problems")
    page = request.getfixturevalue("page")
    expected = request.getfixturevalue("expected_browser_problems")
    yield
    with contextlib.suppress(PlaywrightError):
        page.evaluate("0")  # a round trip delivers the console messages still on their way
    # Filtered after that round trip: a report arriving late is judged like the others.
    problems = [p for p in problems if not any(text in p for text in expected)]
    assert not problems, "the browser reported:\n" + "\n".join(problems)
