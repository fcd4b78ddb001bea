"""The Content-Security-Policy in a real browser: nothing on the site breaks it, htmx and the
site's own script still work under it, and a violation is caught when one happens.

Every browser test fails on a CSP violation or a console error (tests/conftest.py); these
tests show that the net is there and that the real pages pass through it.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament.models import Role, Stage
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
POLICY = "Content Security Policy"


@pytest.fixture
def match(director_actor, tournament, make_team):
    home = make_team(tournament, code="CHN", name="中国红队", player1="李伟", player2="张敏",
                     seed="1")
    away = make_team(tournament, code="ITA", name="Italia", seed="2")
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, [home, away])
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_.matches.get()


def settle(page):
    """Let the browser deliver what it has logged so far."""
    page.evaluate("0")


def visit(page, url):
    response = page.goto(url)
    assert response.ok, url
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_load_state("load")
    settle(page)


def test_an_inline_handler_and_an_inline_style_are_blocked_and_reported(
        page, live_server, browser_problems):
    visit(page, live_server.url + reverse("public:home"))
    assert browser_problems == []
    with page.expect_console_message(lambda message: POLICY in message.text):
        page.evaluate("""() => {
            const button = document.createElement("button");
            button.setAttribute("onclick", "window.inlineHandlerRan = true");
            document.body.append(button);
            button.click();
        }""")
    with page.expect_console_message(lambda message: POLICY in message.text):
        page.evaluate("""() => document.head.insertAdjacentHTML(
            "beforeend", "<style>body { background: rgb(255, 0, 0); }</style>")""")
    settle(page)
    assert page.evaluate("window.inlineHandlerRan") is None
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(255, 0, 0)"
    reported = [problem for problem in browser_problems if POLICY in problem]
    assert len(reported) >= 2, browser_problems
    assert any("inline event handler" in problem for problem in reported)
    assert any("inline style" in problem for problem in reported)
    browser_problems.clear()  # seen and checked: the test itself must not fail for them


def test_the_real_pages_break_no_policy_and_htmx_still_saves_a_hand(
        page, live_server, tournament, staff_user, match, browser_problems):
    site = live_server.url
    table = match.tables.get(position=1)
    visit(page, site + reverse("public:home"))
    visit(page, site + reverse("public:tournament", args=[tournament.slug]))
    visit(page, site + reverse("public:round", args=[tournament.slug, match.round_id]))
    visit(page, site + reverse("login"))
    assert browser_problems == []

    scorer = staff_user(tournament, Role.DIRECTOR, username="chen")
    scorer.set_password(PASSWORD)
    scorer.save()
    page.fill("#id_username", "chen")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")
    visit(page, site + reverse("director:dashboard", args=[tournament.slug]))
    visit(page, site + reverse("director:match_page", args=[tournament.slug, match.pk]))
    visit(page, site + reverse("director:table_entry", args=[tournament.slug, table.pk]))
    assert browser_problems == []

    # htmx runs: the preview fills in as the scorer types, and saving swaps the hand's row
    # in place, without reloading the page.
    page.evaluate("window.samePage = true")
    old_row = page.locator("#hand-1").element_handle()
    form = page.locator("#hand-1")
    form.locator("#id_h1-outcome").select_option("knock")
    form.locator("#id_h1-declarer_seat").select_option("1")
    form.locator("#id_h1-declarer_deadwood").fill("4")
    form.locator("#id_h1-opponent_deadwood").fill("12")
    expect(page.locator("#preview-1")).to_contain_text("Knock 4 vs 12: 15 + 8 = 23")
    with page.expect_response(lambda r: r.url.endswith("/hands/1/")
                              and r.request.method == "POST") as saved:
        form.locator("button.primary").click()
    assert saved.value.request.headers.get("hx-request") == "true"
    assert "no-store" in saved.value.headers["cache-control"]
    page.locator("#hand-1 .badge", has_text="saved").wait_for()
    assert page.evaluate("window.samePage") is True
    assert not old_row.evaluate("row => row.isConnected")
    assert "Knock 4 vs 12: 15 + 8 = 23" in page.locator("#hand-1").inner_text()
    settle(page)
    assert browser_problems == []


def test_the_language_menu_switches_without_an_inline_handler(page, live_server,
                                                               browser_problems):
    """The menu of the pages outside the public site (a public page links to its other
    language's address instead)."""
    visit(page, live_server.url + reverse("login"))
    assert page.get_attribute("#language", "onchange") is None
    with page.expect_navigation():
        page.select_option("#language", "zh-hans")
    assert page.get_attribute("html", "lang") == "zh-hans"
    assert "简体中文" in page.locator("#language option:checked").inner_text()
    settle(page)
    assert browser_problems == []
