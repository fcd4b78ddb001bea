"""Table entry that survives a dropped network (issue 23), in a real browser: entries and an
approval kept while offline and sent once, a change made meanwhile on another device shown
as a conflict, commands kept across a reload."""

import uuid

import pytest
from django.urls import reverse

from tournament.models import Approval, HandResult, Stage
from tournament.services import commands
from tournament.services.draw import generate_round
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"


@pytest.fixture
def expected_browser_problems():
    """The browser logs each request the dropped network or the stopped server did not
    answer: here that is the point, not a fault of the page."""
    return ("ERR_INTERNET_DISCONNECTED", "net::ERR_FAILED", "ERR_CONNECTION_REFUSED",
            "ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE", "htmx:sendError",
            "htmx:afterRequest")


@pytest.fixture
def table(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_, override_reason="test")
    start_round(director_actor, round_)
    return round_.matches.get().tables.get(position=1)


@pytest.fixture
def scorer_page(page, live_server, tournament, table, staff_user):
    user = staff_user(tournament, "scorer", username="li")
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "li")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")
    page.goto(live_server.url + reverse("director:table_entry", args=[tournament.slug,
                                                                      table.pk]))
    return page


def enter(page, hand, outcome, seat=None, mine=None, theirs=None):
    row = page.locator(f"#hand-{hand}")
    row.locator(f"#id_h{hand}-outcome").select_option(outcome)
    if seat:
        row.locator(f"#id_h{hand}-declarer_seat").select_option(str(seat))
    if mine is not None:
        row.locator(f"#id_h{hand}-declarer_deadwood").fill(str(mine))
    if theirs is not None:
        row.locator(f"#id_h{hand}-opponent_deadwood").fill(str(theirs))
    row.locator("button.primary").click()


def waiting(page) -> str:
    return page.locator("#queue-status .queue-words").inner_text()


def test_entries_and_an_approval_made_offline_are_sent_once_when_the_network_returns(
        scorer_page, table):
    page = scorer_page
    page.context.set_offline(True)
    enter(page, 1, "knock", 1, 4, 12)
    enter(page, 2, "gin", 2, theirs=30)
    enter(page, 3, "draw")
    page.locator("#hand-1 .queued-approve", has_text="Seat 1 approves").click()
    assert "Not sent yet (4)" in waiting(page)
    assert page.locator("#hand-2 .queued-note", has_text="Not sent yet").count() == 1
    assert not HandResult.objects.exists()
    page.context.set_offline(False)
    page.locator("#queue-status", has_text="All sent").wait_for()
    results = HandResult.objects.filter(table=table).order_by("hand")
    assert [(r.hand, r.outcome, r.version) for r in results] == [
        (1, "knock", 1), (2, "gin", 1), (3, "draw", 1)]
    assert list(Approval.objects.values_list("result__hand", "seat")) == [(1, 1)]
    page.locator("#hand-1", has_text="seat 1 approved").wait_for()
    assert page.evaluate("localStorage.length") == 0


def test_a_hand_changed_meanwhile_is_shown_and_nothing_is_overwritten_until_chosen(
        scorer_page, table, director_actor):
    page = scorer_page
    page.context.set_offline(True)
    enter(page, 1, "knock", 1, 4, 12)
    # Another device (the referee's) saves hand 1 meanwhile.
    commands.enter(director_actor, table.pk, 1, HandEntry("gin", 2, None, 25),
                   seen_version=0, request_token=uuid.uuid4())
    page.context.set_offline(False)
    conflict = page.locator("#hand-1 .queue-conflict")
    conflict.wait_for()
    assert "gin by seat 2 vs 25" in conflict.inner_text()
    assert "Knock" in conflict.inner_text() or "knock" in conflict.inner_text()
    current = HandResult.objects.get(table=table, hand=1, is_current=True)
    assert (current.outcome, current.version) == ("gin", 1)
    conflict.locator("button", has_text="Keep mine as a new version").click()
    page.locator("#queue-status", has_text="All sent").wait_for()
    current = HandResult.objects.get(table=table, hand=1, is_current=True)
    assert (current.outcome, current.version, current.declarer_seat) == ("knock", 2, 1)
    assert HandResult.objects.filter(table=table, hand=1).count() == 2


def test_commands_still_kept_are_offered_after_a_reload_and_sent(scorer_page, table):
    page = scorer_page
    # The server does not answer the saves (the page itself still loads).
    page.route("**/hands/**", lambda route: route.abort())
    enter(page, 2, "knock", 2, 3, 20)
    page.locator("#queue-status", has_text="Not sent yet (1)").wait_for()
    page.unroute("**/hands/**")
    page.route("**/hands/**", lambda route: route.abort()
               if route.request.method == "POST" else route.continue_())
    page.on("dialog", lambda dialog: dialog.accept())  # leaving with commands kept warns
    page.reload()
    status = page.locator("#queue-status")
    status.wait_for()
    assert "kept 1 entries or approvals" in status.inner_text()
    assert not HandResult.objects.exists()
    page.unroute("**/hands/**")
    status.locator("button", has_text="Send them now").click()
    page.locator("#queue-status", has_text="All sent").wait_for()
    result = HandResult.objects.get(table=table, hand=2)
    assert (result.outcome, result.declarer_seat, result.version) == ("knock", 2, 1)


@pytest.fixture
def own_server(subprocess_env, tmp_path):
    """``manage.py serve`` on the test database, in a process group of its own, to kill
    and start again (PostgreSQL: the database outlives the process)."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    from django.db import connection

    settings = connection.settings_dict
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # No host: the server's socket, in PGHOST (.ci/run), which the child inherits.
    address = settings["HOST"] + (f":{settings['PORT']}" if settings["PORT"] else "")
    env = subprocess_env(
        DATABASE_URL=f"postgres://{settings['USER']}@{address}/{settings['NAME']}",
        ALLOWED_HOSTS="127.0.0.1,localhost", HTTPS="0", SECRET_KEY="offline-test-" + "k" * 40)
    root = Path(__file__).resolve().parents[3]
    processes = []

    class Server:
        url = f"http://127.0.0.1:{port}"

        def start(self):
            with open(tmp_path / "server.log", "a") as log:  # the child keeps its copy
                processes.append(subprocess.Popen(
                    [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}", "--workers",
                     "1", "--no-migrate"], cwd=root, env=env, stdout=log,
                    stderr=subprocess.STDOUT, start_new_session=True))
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(self.url + "/accounts/login/", timeout=2):
                        return
                except OSError:
                    time.sleep(0.1)
            raise AssertionError((tmp_path / "server.log").read_text())

        def kill(self):
            os.killpg(processes[-1].pid, signal.SIGKILL)
            processes[-1].wait()

    server = Server()
    yield server
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.mark.postgres
def test_entries_made_while_the_server_is_down_are_sent_once_it_is_back(
        page, own_server, tournament, table, staff_user):
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    user = staff_user(tournament, "scorer", username="li")
    # Hashed as the production settings of the server read it (the tests' hasher is MD5).
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt())
    user.save()
    own_server.start()
    page.goto(own_server.url + reverse("login"))
    page.fill("#id_username", "li")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")
    page.goto(own_server.url + reverse("director:table_entry",
                                       args=[tournament.slug, table.pk]))
    own_server.kill()
    enter(page, 1, "knock", 1, 4, 12)
    enter(page, 2, "gin", 2, theirs=30)
    enter(page, 3, "draw")
    page.locator("#hand-3 .queued-approve", has_text="Seat 2 approves").click()
    page.locator("#queue-status", has_text="Not sent yet (4)").wait_for()
    assert not HandResult.objects.exists()
    own_server.start()
    page.locator("#queue-status", has_text="All sent").wait_for(timeout=30_000)
    results = HandResult.objects.filter(table=table).order_by("hand")
    assert [(r.hand, r.outcome, r.version) for r in results] == [
        (1, "knock", 1), (2, "gin", 1), (3, "draw", 1)]
    assert list(Approval.objects.values_list("result__hand", "seat")) == [(3, 2)]
