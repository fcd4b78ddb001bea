"""The first start in a real browser (issue 27, item 1): quickstart's "starting" page
reloads itself until the site answers; the home page follows the demo's build by itself
(htmx, under the Content-Security-Policy: conftest fails the test on any violation or
console error), passes axe on a phone and a wide screen, and shows the demo once it is
saved, without anyone reloading the page."""

import threading
from wsgiref.simple_server import WSGIRequestHandler

import pytest
from playwright.sync_api import expect

from tests.axe import assert_no_violation, axe_source
from tests.tournament.test_quickstart import Build, free_port
from tournament.models import Tournament
from tournament.starting import StartingServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def build(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    build = Build(tmp_path)
    yield build
    build.ends()


def test_the_home_page_follows_the_build_and_shows_the_demo_when_done(
        page, live_server, build, make_tournament, screenshot_dir):
    source = axe_source()
    build.building(played=2)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(live_server.url + "/")
    progress = page.locator("#demo-build")
    expect(progress).to_contain_text("The demo tournament is being built")
    expect(progress).to_contain_text("2 of 10 rounds played")
    page.screenshot(path=str(screenshot_dir / "demo-build-phone.png"), full_page=True)
    assert_no_violation(page, "the demo's progress (360 px)", source)
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert_no_violation(page, "the demo's progress (1920 px)", source)

    build.building(played=6)
    expect(progress).to_contain_text("6 of 10 rounds played", timeout=10_000)  # polled
    assert page.locator("progress").get_attribute("value") == "6"

    make_tournament(name="Demo Team Cup", slug="demo", status=Tournament.Status.FINISHED)
    build.done()
    expect(page.get_by_role("link", name="Demo Team Cup")).to_be_visible(timeout=10_000)
    expect(page.locator("#demo-build")).to_have_count(0)
    page.screenshot(path=str(screenshot_dir / "demo-build-done.png"), full_page=True)


def test_a_failed_build_stops_the_polling(page, live_server, build):
    build.building(played=3)
    page.goto(live_server.url + "/")
    expect(page.locator("#demo-build")).to_contain_text("3 of 10 rounds played")
    build.write(state="failed", played=3, rounds=10, error="RuntimeError: boom", log="x")
    build.ends()
    expect(page.locator("#demo-build")).to_contain_text(
        "The demo tournament could not be built", timeout=10_000)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.wait_for_timeout(4_500)  # two polls' time
    assert not [url for url in requests if "demo-build" in url]


def test_the_starting_page_loads_itself_again_until_the_site_answers(browser, screenshot_dir):
    """Before the demo, the migrations: quickstart's "starting" page (a 503, which the
    browser logs as a failed load, hence a page of our own rather than the ``page`` that
    fails on any console error) reloads itself and becomes the site once it is up."""
    port = free_port()
    starting = StartingServer(f"127.0.0.1:{port}")
    page = browser.new_page(viewport={"width": 360, "height": 740}, locale="zh-CN")
    httpd = serving = None
    try:
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator("h1")).to_have_text("复式金拉米正在启动")  # the reader's language
        assert page.get_attribute("html", "lang") == "zh-hans"
        page.screenshot(path=str(screenshot_dir / "starting-phone.png"), full_page=True)

        def app(environ, start_response):
            start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
            return [b"<!doctype html><title>Site</title><h1>The site</h1>"]

        httpd = starting.hand_over()(("127.0.0.1", port), WSGIRequestHandler)
        httpd.set_app(app)
        serving = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1})
        serving.start()
        expect(page.locator("h1")).to_have_text("The site", timeout=10_000)
    finally:
        page.close()
        if httpd is not None:
            httpd.shutdown()
            serving.join()
        starting.close()
