"""The time zone field in a real browser (issue 27): the browser's zone chosen for a new
tournament and offered for an existing one, the finder above the grouped list, the
keyboard, and the list alone without JavaScript. The browser runs in Paris
(``timezone_id``); the Content-Security-Policy stays on (conftest fails on a violation)."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament.models import Role, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
PARIS = "Europe/Paris"
PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1920, "height": 1080}


@pytest.fixture
def context(new_context):
    """Every page of this module in a browser whose clock says Paris."""
    return new_context(timezone_id=PARIS)


def log_in(page, live_server, user):
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")


def option_values(page) -> list[str]:
    return page.eval_on_selector("#id_time_zone",
                                 "select => Array.from(select.options, o => o.value)")


def test_a_new_tournament_takes_the_browsers_zone_and_the_finder_narrows_the_list(
        page, live_server, admin_user, screenshot_dir):
    log_in(page, live_server, admin_user)
    page.set_viewport_size(WIDE)
    page.goto(live_server.url + reverse("director:tournament_create"))
    select = page.locator("#id_time_zone")
    expect(select).to_have_value(PARIS)
    expect(page.locator("[data-zone-said]")).to_have_text(
        "Your browser's time zone, Europe/Paris, is chosen: choose the venue's if it is "
        "elsewhere.")
    expect(page.locator(".time-zone-suggestion")).to_be_hidden()
    search = page.get_by_label("Find (a city, a country or a region)")
    expect(search).to_be_visible()
    assert len(option_values(page)) == 599

    # A city: only its zones are left, and the first is chosen (Paris is filtered out).
    search.fill("shang")
    assert option_values(page) == ["Asia/Shanghai"]
    expect(select).to_have_value("Asia/Shanghai")
    expect(page.locator("#id_time_zone_matches")).to_have_text(
        "Time zones that match: Asia/Shanghai")
    # The region's name counts too, and words in any order, "_" as a space.
    search.fill("york america new")
    assert option_values(page) == ["America/New_York"]
    search.fill("europe par")
    assert option_values(page) == [PARIS]
    assert page.locator("#id_time_zone optgroup").evaluate_all(
        "groups => groups.map(g => g.label)") == ["Europe"]
    # Nothing matches: the whole list stays, and it says so.
    search.fill("atlantis")
    assert len(option_values(page)) == 599
    expect(page.locator("#id_time_zone_matches")).to_have_text(
        "No time zone matches; the list shows them all.")

    # The keyboard: Enter in the finder moves to the list and never sends the form.
    search.fill("")
    search.type("buenos")
    search.press("Enter")
    assert page.evaluate("document.activeElement.id") == "id_time_zone"
    assert page.url.endswith(reverse("director:tournament_create"))
    expect(select).to_have_value("America/Argentina/Buenos_Aires")
    page.screenshot(path=str(screenshot_dir / "time-zone-finder.png"), full_page=True)

    # Another zone chosen: the browser's is offered; the button brings it back.
    use = page.get_by_role("button", name="Use my time zone (Europe/Paris)")
    expect(use).to_be_visible()
    use.click()
    expect(select).to_have_value(PARIS)
    expect(use).to_be_hidden()
    assert search.input_value() == "" and len(option_values(page)) == 599

    # Create it: the zone chosen is stored.
    page.fill("#id_name", "Paris Open")
    page.fill("#id_slug", "paris-open")
    page.fill("#id_starts_on", "2026-06-01")
    page.fill("#id_ends_on", "2026-06-02")
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_url("**/paris-open/**")
    assert Tournament.objects.get(slug="paris-open").time_zone == PARIS


def test_an_existing_tournament_keeps_its_zone_and_is_offered_the_browsers(
        page, live_server, tournament, staff_user, screenshot_dir):
    tournament.time_zone = "Asia/Shanghai"
    tournament.save()
    log_in(page, live_server, staff_user(tournament, Role.DIRECTOR, username="chen"))
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("director:tournament_edit", args=[tournament.slug]))
    select = page.locator("#id_time_zone")
    expect(select).to_have_value("Asia/Shanghai")  # never changed behind the director's back
    expect(page.locator("[data-zone-said]")).to_be_hidden()
    use = page.get_by_role("button", name="Use my time zone (Europe/Paris)")
    expect(use).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(screenshot_dir / "time-zone-settings-phone.png"), full_page=True)
    # Chosen with the keyboard: Tab from the list reaches the button; Enter presses it.
    select.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.useZone") == ""
    page.keyboard.press("Enter")
    expect(select).to_have_value(PARIS)
    with page.expect_navigation():
        page.get_by_role("button", name="Save settings").click()
    tournament.refresh_from_db()
    assert tournament.time_zone == PARIS


def test_without_javascript_the_grouped_list_works_with_the_keyboard(
        new_context, live_server, tournament, staff_user, screenshot_dir):
    context = new_context(timezone_id=PARIS, java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server, staff_user(tournament, Role.DIRECTOR, username="chen"))
    page.goto(live_server.url + reverse("director:tournament_edit", args=[tournament.slug]))
    expect(page.locator(".time-zone-search")).to_be_hidden()
    expect(page.locator(".time-zone-suggestion")).to_be_hidden()
    expect(page.locator("#id_time_zone")).to_have_value("UTC")  # nothing chosen by itself
    groups = page.locator("#id_time_zone optgroup").evaluate_all(
        "groups => groups.map(g => g.label)")
    assert groups[:5] == ["Africa", "America", "Antarctica", "Arctic", "Asia"]
    # Typing a city's name in the list jumps to it.
    page.locator("#id_time_zone").focus()
    page.keyboard.type("Shanghai")
    expect(page.locator("#id_time_zone")).to_have_value("Asia/Shanghai")
    page.screenshot(path=str(screenshot_dir / "time-zone-no-js.png"), full_page=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Save settings").click()
    tournament.refresh_from_db()
    assert tournament.time_zone == "Asia/Shanghai"


def test_a_zone_refused_is_said_next_to_the_field(page, live_server, tournament, staff_user):
    log_in(page, live_server, staff_user(tournament, Role.DIRECTOR, username="chen"))
    page.goto(live_server.url + reverse("director:tournament_edit", args=[tournament.slug]))
    # A value no option has (a tampered form): the server says why, beside the field.
    page.eval_on_selector("#id_time_zone", """select => {
        const option = new Option("Mars", "Mars/Olympus_Mons", true, true);
        select.append(option);
    }""")
    page.get_by_role("button", name="Save settings").click()
    error = page.locator("#id_time_zone_error")
    expect(error).to_have_text("“Mars/Olympus_Mons” is not a time zone. Give a name of the "
                               "IANA time zone database, such as Europe/Paris or "
                               "Asia/Shanghai.")
    assert re.search(r"has-error", page.locator(".time-zone").get_attribute("class"))
    tournament.refresh_from_db()
    assert tournament.time_zone == "UTC"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_field_passes_axe_with_the_finder_and_the_offer_shown(
        page, live_server, tournament, staff_user, language):
    from tests.axe import assert_no_violation, axe_source  # issue 27's axe helper

    source = axe_source()
    log_in(page, live_server, staff_user(tournament, Role.DIRECTOR, username="chen"))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    address = live_server.url + reverse("director:tournament_edit", args=[tournament.slug])
    for viewport in (PHONE, WIDE):
        page.set_viewport_size(viewport)
        page.goto(address)
        expect(page.locator(".time-zone-suggestion")).to_be_visible()
        page.locator("#id_time_zone_search").fill("pari")
        assert_no_violation(page, f"the time zone field ({language}, {viewport['width']} px)",
                            source)
