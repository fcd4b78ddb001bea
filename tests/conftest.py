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
from hypothesis import settings as hypothesis_settings

# Playwright runs an event loop in the test thread; the live server's ORM calls are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

# Hypothesis in CI (.ci/run sets HYPOTHESIS_PROFILE=ci): no deadline on a shared machine, a
# failing example printed so that it can be replayed, no example database left on disk.
# Example counts stay each test's own (its @settings).
hypothesis_settings.register_profile("ci", deadline=None, print_blob=True, database=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


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


def kept_stage_queries(reads: int = 1) -> int:
    """The queries ``reads`` reads of a stage's standings no longer make on PostgreSQL once
    the process has read the stage and nothing in it changed (``selectors.stage_kept``: the
    teams, the rounds and the penalties not read again; the result rows' digests come with
    theirs in one statement): three each. Pinned counts are of such a second visit."""
    return 3 * reads if on_postgresql() else 0


# Fixtures through which a test reaches the suite's database (pytest-django's, and the
# folders' shared events, which ask for django_db_setup).
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "live_server", "django_db_setup",
                               "django_db_reset_sequences", "django_db_serialized_rollback"})


def uses_the_database(item) -> bool:
    """Whether the test can reach the suite's database: pytest-django refuses any other
    test a query, so this is exact for the tests that pass."""
    if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames):
        return True
    from django.test import TransactionTestCase

    test_class = getattr(item, "cls", None)
    return test_class is not None and issubclass(test_class, TransactionTestCase)


# Events built once and shared by several modules: their tests run in one process of the
# suite (pytest-xdist's loadgroup), so that each is built once, not once per process.
SHARED_EVENTS = ("live_demo",)
# Modules of tests taking seconds each (browser walks, demo builds, hypothesis against
# references, the shared events) go first, so that no process is left with a long test
# after the other has finished.
LONG_MARKERS = ("browser", "slow")


@pytest.hookimpl(wrapper=True)  # around pytest-django's order and pytest-xdist's groups
def pytest_collection_modifyitems(config, items):
    """The tests run once where it matters. CI runs the suite on SQLite, then on PostgreSQL:
    - tests marked ``postgres`` (row locks that SQLite does not have) run only on
      PostgreSQL; on SQLite they are deselected, not skipped (nothing may be skipped in CI);
    - tests that never reach the database (the rules engine, settings read in a child
      process, …) run in the SQLite pass only: on PostgreSQL they would do the same again;
    - tests marked ``own_database`` start the application in a child process on a SQLite
      database of their own, whatever the suite's database: they run in the SQLite pass.
    Then the order: pytest-django puts the tests that commit (the browser's) after the
    others, as Django does; the modules of long tests go first all the same (a test that
    commits leaves the database as migrated: it is flushed and post_migrate runs again)."""
    if on_postgresql():
        elsewhere = [item for item in items if item.get_closest_marker("own_database")
                     or not uses_the_database(item)]
    else:
        elsewhere = [item for item in items if item.get_closest_marker("postgres")]
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        deselected = set(elsewhere)
        items[:] = [item for item in items if item not in deselected]
    for item in items:
        for event in SHARED_EVENTS:
            if event in item.fixturenames:
                item.add_marker(pytest.mark.xdist_group(event))
    yield  # pytest-django orders the tests, pytest-xdist names the groups
    long_modules = {getattr(item, "module", None) for item in items
                    if any(item.get_closest_marker(name) for name in LONG_MARKERS)
                    or any(event in item.fixturenames for event in SHARED_EVENTS)}
    # A stable sort: each module's tests stay together and in their order.
    items.sort(key=lambda item: getattr(item, "module", None) not in long_modules)


# A port nothing listens on: the proxy of every request outside the site.
NO_PROXY_THERE = "http://127.0.0.1:9"


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) or shutil.which(CHROMIUM) is not None


PASSWORD = "a-Long-pass-123"


def new_user(username, *, superuser=False, password=PASSWORD):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    if superuser:
        return users.create_superuser(username, "", password)
    return users.create_user(username, password=password)


def new_tournament(n=1, **values):
    """Tournament ``n`` ("Open n"), running, unless ``values`` say otherwise."""
    from tournament.models import Tournament

    values.setdefault("name", f"Open {n}")
    values.setdefault("slug", f"open-{n}")
    values.setdefault("starts_on", dt.date(2026, 11, 20))
    values.setdefault("ends_on", dt.date(2026, 11, 22))
    values.setdefault("status", Tournament.Status.RUNNING)
    return Tournament.objects.create(**values)


def new_staff(tournament, role, username, *, chief=False):
    """A user holding ``role`` in ``tournament`` (chief=True for the chief referee)."""
    from tournament.models import StaffRole

    user = new_user(username)
    StaffRole.objects.create(tournament=tournament, user=user, role=role,
                             is_chief_referee=chief)
    return user


def new_team(tournament, n=1, **fields):
    """Team ``n`` (code Tn, two players) entered through the service."""
    from tournament.services.teams import insert_team, parse_team_entry

    raw = {"code": f"T{n}", "name": f"Team {n}", "player1": f"Player {n}a",
           "player2": f"Player {n}b", **fields}
    return insert_team(tournament, parse_team_entry(raw))


def seeded_teams(tournament, count):
    """Teams T1…Tn ("Team 001"…) seeded 1…n."""
    return [new_team(tournament, i, name=f"Team {i:03d}", seed=str(i))
            for i in range(1, count + 1)]


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker):
    """One transaction around a module's tests, for an event the module builds once (in a
    module-scoped fixture asking for this one) rather than for every test. Each test runs
    in a savepoint inside it (the module is marked ``django_db``) and the whole is rolled
    back after the module's last test. A test gets the event's rows read afresh: it may
    change the instances it is given, and its changes to the database are undone. Not in a
    module with a Django ``TestCase`` class: its end closes the connection."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture
def make_user(db):
    counter = iter(range(1, 10_000))

    def make(username=None, *, superuser=False, password=PASSWORD):
        return new_user(username or f"user{next(counter)}", superuser=superuser,
                        password=password)

    return make


@pytest.fixture
def admin_user(make_user):
    return make_user("root", superuser=True)


@pytest.fixture
def make_tournament(db):
    counter = iter(range(1, 10_000))

    def make(**values):
        return new_tournament(next(counter), **values)

    return make


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(name="World Cup", slug="world-cup", venue="Shanghai")


@pytest.fixture
def staff_user(make_user):
    """A user holding ``role`` in ``tournament`` (chief=True for the chief referee)."""
    counter = iter(range(1, 10_000))

    def make(tournament, role, *, chief=False, username=None):
        return new_staff(tournament, role, username or f"staff{next(counter)}", chief=chief)

    return make


@pytest.fixture
def actor():
    from tournament.services import Actor

    def make(user, ip="10.0.0.7"):
        return Actor(user=user, ip=ip)

    return make


@pytest.fixture
def make_team(db):
    counter = iter(range(1, 10_000))

    def make(tournament, **fields):
        return new_team(tournament, next(counter), **fields)

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
                 "--disable-component-update", "--no-first-run",
                 # The network is off for the pages: every address but this machine's goes
                 # to a proxy that is not there (loopback never goes through a proxy), so
                 # nothing comes from the internet; ``browser_problems`` reports the try.
                 f"--proxy-server={NO_PROXY_THERE}"],
    }


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, each answer sent as soon as it is written. Django's test
    server writes a response's headers and its body apart, and with Nagle's algorithm on
    the body's last segment waits for the browser's delayed acknowledgement: some 40 ms a
    page (the table entry page 80 ms to 34 ms, an approval's round trip 185 to 90 ms;
    quickstart's server does the same, ``tournament/starting.py``)."""
    from django.test.testcases import QuietWSGIRequestHandler

    QuietWSGIRequestHandler.disable_nagle_algorithm = True  # TCP_NODELAY on each connection
    return live_server


@pytest.fixture
def screenshot_dir(tmp_path, monkeypatch):
    """Where browser tests save their screenshots: SCREENSHOT_DIR, for a person to look at.
    Without it nobody would see them, and they are not taken (the page's screenshot does
    nothing): a full-page picture of a wide page costs a tenth of a second or more, a fifth
    of the time of the browser tests."""
    path = os.environ.get("SCREENSHOT_DIR")
    if not path:
        from playwright.sync_api import Page

        monkeypatch.setattr(Page, "screenshot", lambda self, *args, **kwargs: b"")
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

    def on_request(request):
        # Nothing may come from the internet at run time (no CDN, no fonts, no analytics):
        # the browser's proxy refuses such a request (browser_type_launch_args), reported
        # here. Watched, not intercepted: a page.route would turn the browser's cache off
        # and stop every request on its way (a sixth of the browser tests' time).
        if OUTSIDE_THE_SITE.match(request.url):
            problems.append(f"request outside the site: {request.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"uncaught error: {error}"))
    page.on("request", on_request)
    return problems


@pytest.fixture
def expected_browser_problems() -> tuple[str, ...]:
    """Texts of browser reports a module expects (it overrides this fixture): a report
    holding one of them is no fault of the page."""
    return ()


@pytest.fixture(autouse=True)
def _close_the_browser_s_pages(request):
    """After a browser test, every page it opened is closed, its own contexts included.

    The browser and the live server live for the whole session in a worker: a page left
    open (a big screen, a table's terminal) goes on asking the live server for its updates,
    and once its test's data is gone it is sent to the log-in page. The test client records
    every template rendered in its process while it waits for its answer, the live server's
    thread too: a later test of the worker then read that log-in page's form as its own
    page's (seen once in CI: ``'AuthenticationForm' object has no attribute 'people'``)."""
    yield
    if "browser" not in request.fixturenames:
        return
    from playwright.sync_api import Error as PlaywrightError

    # Torn down after pytest-playwright's own context fixtures (set up before them), so
    # what is left are the contexts the test made itself.
    for context in request.getfixturevalue("browser").contexts:
        with contextlib.suppress(PlaywrightError):
            context.close()


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
