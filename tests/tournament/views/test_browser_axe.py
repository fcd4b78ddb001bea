"""axe-core in a real browser (issue 27): the big screen, the API's docs, the tournament's
settings (the time zone field) and the match page, staff's and the public's, each on a
phone (360 px) and a wide screen (1920 px), in English and in Chinese: no violation of
WCAG 2.2 A/AA or of axe's best practices (tests/axe.py). The big screen also fits the
phone's width (it is made for the hall's 1920×1080 projector).

The Content-Security-Policy stays in force (axe is evaluated through the DevTools protocol):
conftest fails a test on any violation or console error."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.axe import assert_no_violation, axe_source
from tests.tournament.views.public_event import build_event
from tournament.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "wide": {"width": 1920, "height": 1080}}
LANGUAGES = {"en": "en", "zh": "zh-hans"}
TEAMS = [("CHN", "中国红队"), ("ITA", "Italia"), ("GER", "Deutschland"),
         ("TPE", "中華台北")]


@pytest.fixture
def source():
    return axe_source()  # skips (fails in CI) before anything is built when it is missing


@pytest.fixture
def event(source, director_actor, tournament, make_team):
    """A closed round and a round in play (results entered, some held back)."""
    return build_event(director_actor, tournament, make_team, closed=1, codes=TEAMS)


def each_view(page, live_server, urls_in):
    """Every page of ``urls_in(code)`` in every language × width, each page opened once a
    language and looked at on a phone and on a wide screen (the window resized, as the
    browser lays a page out again). The language as each part of the site takes it: a public
    page from its address (``urls_in`` reverses them in the language), a staff page from the
    cookie the site's menu sets, the API's docs from the browser's languages."""
    for language, code in LANGUAGES.items():
        page.context.add_cookies([{"name": "django_language", "value": code,
                                   "url": live_server.url}])
        page.set_extra_http_headers({"Accept-Language": code})
        with translation.override(code):
            urls = urls_in(code)
        for url in urls:
            response = page.goto(url)
            assert response.ok, url
            assert page.get_attribute("html", "lang") == code, url
            for width, viewport in VIEWPORTS.items():
                page.set_viewport_size(viewport)
                yield url, f"{language}-{width}", viewport


def wide(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def log_in(page, live_server, user):
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")


def test_the_big_screen_and_the_public_match_page(page, live_server, tournament, event,
                                                  source, screenshot_dir):
    match = Match.objects.filter(round=event.open).order_by("number").first()

    def urls_in(_code):
        return [live_server.url + reverse("public:screen", args=[tournament.slug]),
                live_server.url + reverse("public:match", args=[tournament.slug, match.pk])]

    for url, view, viewport in each_view(page, live_server, urls_in):
        if "/screen/" in url:
            page.screenshot(path=str(screenshot_dir / f"axe-screen-{view}.png"),
                            full_page=True)
            assert wide(page) <= viewport["width"], f"the big screen scrolls sideways ({view})"
            assert_no_violation(page, f"the big screen ({view})", source)
        else:
            assert_no_violation(page, f"the public match page ({view})", source)


def test_the_settings_and_the_staff_match_page(page, live_server, tournament, event,
                                               director_actor, source, screenshot_dir):
    log_in(page, live_server, director_actor.user)
    match = Match.objects.filter(round=event.open).order_by("number").first()
    settings_page = live_server.url + reverse("director:tournament_edit",
                                              args=[tournament.slug])
    staff_match = live_server.url + reverse("director:match_page",
                                            args=[tournament.slug, match.pk])
    for url, view, _viewport in each_view(page, live_server,
                                          lambda _code: [settings_page, staff_match]):
        if url == settings_page:
            page.screenshot(path=str(screenshot_dir / f"axe-settings-{view}.png"),
                            full_page=True)
            assert_no_violation(page, f"the tournament's settings ({view})", source)
        else:
            assert_no_violation(page, f"staff's match page ({view})", source)


def test_the_api_docs(page, live_server, source, screenshot_dir):
    for _url, view, viewport in each_view(page, live_server,
                                          lambda _code: [live_server.url + "/api/docs"]):
        assert page.locator("section.api-operation").count() >= 20
        page.screenshot(path=str(screenshot_dir / f"axe-api-docs-{view}.png"))
        assert wide(page) <= viewport["width"], f"/api/docs scrolls sideways ({view})"
        assert_no_violation(page, f"/api/docs ({view})", source)
