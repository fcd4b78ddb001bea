"""The persons' pages in a real browser (issue 55): the rating list, the master points list
and a profile with its chart, on a phone (360 px) and a wide screen (1920 px), in English
and Chinese: no axe violation, nothing wider than the phone, screenshots to look at."""

import datetime as dt

import pytest
from django.urls import reverse

from tests.axe import assert_no_violation, axe_source
from tests.tournament.services.test_person_ratings import event
from tournament.models import Player, Tournament
from tournament.services.master_points import set_category
from tournament.services.ratings import set_rated
from tournament.services.tournaments import update_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "wide": {"width": 1920, "height": 1080}}
LANGUAGES = {"en": "en", "zh": "zh-hans"}


def each_view(page, live_server, urls_in):
    """Every page of ``urls_in(code)`` in each language, on a phone and a wide screen (the
    public pages carry their language in the address)."""
    for language, code in LANGUAGES.items():
        for url in urls_in(code):
            if code != "en":
                url = url.replace(live_server.url, f"{live_server.url}/{code}", 1)
            response = page.goto(url)
            assert response.ok, url
            assert page.get_attribute("html", "lang") == code, url
            for width, viewport in VIEWPORTS.items():
                page.set_viewport_size(viewport)
                yield url, f"{language}-{width}", viewport


def wide(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.fixture
def season(make_tournament, make_team, make_user, actor):
    source = axe_source()  # skips (fails in CI) before anything is built when missing
    superuser = actor(make_user(superuser=True))
    first, _ = event(make_tournament, make_team, superuser, 1, dt.date(2026, 11, 22),
                     closed=3)
    second, _ = event(make_tournament, make_team, superuser, 2, dt.date(2026, 12, 20))
    for tournament, category in ((first, "national"), (second, "club")):
        set_rated(superuser, tournament, True)  # recomputed as each commits
        set_category(superuser, tournament, category)
    update_tournament(superuser, first, status=Tournament.Status.FINISHED)
    return source, first


def test_the_persons_pages(page, live_server, season, screenshot_dir):
    source, first = season
    person = Player.objects.filter(team__tournament=first).order_by("pk").first().person

    def urls_in(_code):
        return [live_server.url + reverse(name, args=args) for name, args in (
            ("public:persons", []), ("public:master_points", []),
            ("public:person", [person.pk]))]

    for url, view, viewport in each_view(page, live_server, urls_in):
        name = url.rstrip("/").rsplit("/", 1)[-1] or "persons"
        page.screenshot(path=str(screenshot_dir / f"persons-{name}-{view}.png"),
                        full_page=True)
        assert wide(page) <= viewport["width"], f"{url} scrolls sideways ({view})"
        if url.endswith(f"/{person.pk}/"):
            assert page.locator("figure.rating-chart svg polyline").count() == 1
        assert_no_violation(page, f"{url} ({view})", source)
