"""The round clock in a real browser (issue 58): started, paused, time added, one table
extended; the big screen (also as the public cache serves it), the table terminal (a bound
device's /device/) and the staff progress page show the same time left, within a second."""

import math
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournament.views.public_event import build_event
from tournament.models import Round
from tournament.services.devices import create_table_devices

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seconds(text: str) -> int:
    match = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d)", text.strip())
    assert match, text
    hours, minutes, secs = (int(part or 0) for part in match.groups())
    return hours * 3600 + minutes * 60 + secs


def shown(page) -> int:
    return seconds(page.locator(".round-clock .clock-left").first.inner_text())


def press(page, name: str) -> None:
    """Click a button that posts its form and wait for the page the post leads to: reading
    or typing on the page before it has come reads nothing (CI read an empty page)."""
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])


def test_the_big_screen_and_the_progress_page_show_the_same_time_left(
        browser, live_server, director_actor, tournament, make_team, settings,
        screenshot_dir):
    settings.PUBLIC_CACHE_SECONDS = 300  # the big screen as a cache in front serves it
    event = build_event(director_actor, tournament, make_team, closed=1)
    round_ = event.open
    staff = browser.new_context().new_page()
    log_in(staff, live_server, director_actor.user)
    screen = browser.new_context().new_page()
    terminal = browser.new_context().new_page()
    slip = create_table_devices(director_actor, round_)[0]
    log_in(terminal, live_server, get_user_model().objects.get(username=slip.username))
    terminal_url = live_server.url + reverse("terminal")
    progress_url = live_server.url + reverse("director:round_progress",
                                             args=[tournament.slug, round_.pk])
    screen_url = live_server.url + reverse("public:screen", args=[tournament.slug])

    def compare(what: str) -> int:
        staff.goto(progress_url)
        first = screen.goto(screen_url)
        again = screen.goto(screen_url)  # the second time from the cache
        assert again.headers.get("x-public-cache", "").lower() in ("hit", "stale"), (
            what, again.headers)
        terminal.goto(terminal_url)
        staff.wait_for_timeout(1100)  # clock.js has ticked on each
        left_staff, left_screen, left_terminal = shown(staff), shown(screen), shown(terminal)
        assert abs(left_staff - left_screen) <= 1, (what, left_staff, left_screen)
        assert abs(left_staff - left_terminal) <= 1, (what, left_staff, left_terminal)
        assert first.ok and again.ok
        return left_staff

    running = compare("started")
    assert 79 * 60 <= running <= 80 * 60  # 80 minutes from Start play
    staff.screenshot(path=str(screenshot_dir / "clock-progress.png"), full_page=True)
    screen.screenshot(path=str(screenshot_dir / "clock-screen.png"))
    terminal.set_viewport_size({"width": 360, "height": 740})
    terminal.screenshot(path=str(screenshot_dir / "clock-terminal.png"))

    staff.goto(progress_url)
    press(staff, "Pause the clock")
    paused = compare("paused")
    staff.wait_for_timeout(2100)
    assert shown(staff) == paused  # it stands still
    resumed = time.monotonic()
    press(staff, "Resume the clock")
    staff.fill("#clock-add", "5")
    press(staff, "Add")
    added = compare("five minutes added")
    # Running again since the click: as many seconds fewer as have passed (a slow machine
    # takes more than three).
    running = math.ceil(time.monotonic() - resumed)
    assert paused + 5 * 60 - running - 1 <= added <= paused + 5 * 60 + 1, (paused, added, running)
    # One table extended: the round's clock is the same everywhere.
    staff.select_option("#extend-table", label="Table 1")
    staff.fill("#extend-minutes", "10")
    staff.fill("#extend-reason", "The table was moved")
    press(staff, "Give the time")
    assert "Table 1 may play 10 minutes longer" in staff.content()
    compare("a table extended")
    assert Round.objects.get(pk=round_.pk).tables.get(number=1).extra_minutes == 10
