"""axe-core in a real browser on every page of the site (issue 27; issue 56, item 5): each
staff and public page of the demo and of a Swiss event, the device's table page and its
terminal (/device/), the log-in page and the API's docs, on a phone (360 px) and a wide
screen (1920 px), in English and in Chinese: no violation of WCAG 2.2 A/AA or of axe's best
practices (tests/axe.py). The big screen and the API's docs also fit the phone's width.

The pages are found as the Nu checker's test finds them (tests/tournament/views/site_walk.py:
links followed by a test client, as the director and as the device of a table), then each
is opened once a language in the browser and checked at both widths (the window resized, as
the browser lays a page out again): a public page at its address in the language
(/zh-hans/…), a staff page in the language of the cookie the site's menu sets, the API's
docs in the browser's language. One event, one browser, one test: the live server's
database is emptied after each test.

The Content-Security-Policy stays in force (axe is evaluated through the DevTools protocol):
conftest fails the test on any violation or console error."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.axe import axe_source, axe_violations, describe
from tests.tournament.views.site_walk import staff_only, swiss_event, walk
from tournament.demo import SLUG, build_demo
from tournament.demo_accounts import DIRECTOR
from tournament.models import Round, Stage
from tournament.services import Actor
from tournament.services.devices import create_table_devices

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "wide": {"width": 1920, "height": 1080}}
LANGUAGES = {"en": "en", "zh": "zh-hans"}
# Pages that must not scroll sideways on a phone (the others have their own test:
# test_browser_staff.py, test_browser_public.py).
FIT_THE_PHONE = ("public:screen", "api:openapi-view")


def addresses() -> tuple[list[tuple[str, str]], list[tuple[str, str]], str]:
    """(route, address) of every page the director reaches, those of the table device's
    own pages, and the device's account name. Read in English; a public page's Chinese
    address is its English one under /zh-hans."""
    User = get_user_model()
    demo = build_demo(11, live=True).tournament
    swiss = swiss_event()
    in_play = Round.objects.get(stage__tournament=demo, status=Round.Status.IN_PLAY)
    device = create_table_devices(Actor(user=User.objects.get(username=DIRECTOR)),
                                  in_play)[0].username
    director = User.objects.create_superuser("axe-director", "axe@example.org", "x" * 12)
    reader = Client()
    reader.force_login(director)
    knockout = demo.stages.get(kind=Stage.Kind.KNOCKOUT)
    unlinked = [reverse(name, args=args) for name, args in (
        ("director:stage_seeding", [SLUG, knockout.pk]),
        ("director:round_close", [SLUG, in_play.pk]))]
    pages = walk(reader, ["/", "/manage/", f"/manage/{SLUG}/", *unlinked, "/api/docs",
                          "/device/"], "en")
    seen = {page.route for page in pages}
    # The Swiss event's own pages: its stage, its draft round, what the demo has not.
    pages += walk(reader, [f"/manage/{swiss.slug}/"], "en", keep=lambda route: staff_only(
        route) and (route not in seen or route in ("director:stage_detail",
                                                   "director:round_detail")))
    as_device = Client()
    as_device.force_login(User.objects.get(username=device))
    own = walk(as_device, ["/manage/", "/device/"], "en", keep=staff_only)  # its terminal
    documents = [(page.route, page.url) for page in pages if not page.fragment]
    return documents, [(page.route, page.url) for page in own if not page.fragment], device


def in_language(route: str, url: str, code: str) -> str:
    if code != "en" and (route.startswith("public:") or url == "/"):
        return f"/{code}{url}"
    return url


def log_in(page, live_server, user) -> None:
    """The browser as the user (no one: logged out): a session made by the test client,
    its cookie given over."""
    page.context.clear_cookies()
    if user is None:
        return
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])


def test_every_page_in_both_languages_on_a_phone_and_a_wide_screen(page, live_server,
                                                                  screenshot_dir):
    source = axe_source()  # skips (fails in CI) before anything is built when it is missing
    documents, device_pages, device = addresses()
    User = get_user_model()
    found: dict[str, list[dict]] = {}
    checked = 0
    # Logged out: the log-in page and the terminal's sign-in step.
    signed_out = [("login", "/accounts/login/"), ("terminal", "/device/")]
    for who, pages in (("axe-director", documents), (device, device_pages),
                       ("no one", signed_out)):
        log_in(page, live_server, User.objects.filter(username=who).first())
        for language, code in LANGUAGES.items():
            page.context.add_cookies([{"name": "django_language", "value": code,
                                       "url": live_server.url}])
            page.set_extra_http_headers({"Accept-Language": code})
            for route, url in pages:
                address = in_language(route, url, code)
                response = page.goto(live_server.url + address)
                assert response.ok, address
                assert page.get_attribute("html", "lang") == code, address
                for width, viewport in VIEWPORTS.items():
                    page.set_viewport_size(viewport)
                    view = f"{language}-{width}"
                    if route in FIT_THE_PHONE:
                        page.screenshot(path=str(screenshot_dir / f"axe-{route}-{view}.png"),
                                        full_page=True)
                        scroll = page.evaluate("document.documentElement.scrollWidth")
                        assert scroll <= viewport["width"], f"{address} scrolls sideways ({view})"
                    violations = axe_violations(page, source)
                    checked += 1
                    if violations:
                        found[f"{address} ({view}, {who})"] = violations
    assert not found, "axe-core finds:\n" + "\n\n".join(
        f"{where}:\n{describe(violations)}" for where, violations in found.items())
    assert checked >= 4 * 70, checked  # every kind of page, four times
