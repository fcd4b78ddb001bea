"""Travellers, players against the field and the referees' anomalies in a real browser, on a
phone and a desktop, under the site's Content-Security-Policy (issue 12)."""
# The scenarios' fixtures come from the selector tests, handed to the tests by name.
# ruff: noqa: F811

import pytest
from django.urls import reverse

from tests.tournament.services.test_field_comparison import (  # noqa: F401 - fixtures
    eight_tables,
    sign_off,
)
from tournament.models import Deal, Player, Role
from tournament.services.rounds import close_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1920, "height": 1080}
FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.fixture
def long_names(eight_tables):
    """Names as long as a real field's, in two scripts."""
    names = ["Alexandra Konstantinopoulou-Villanueva", "欧阳娜娜", "Jean-Baptiste Delacroix",
             "Nguyễn Thị Minh Khai"]
    for player, name in zip(Player.objects.order_by("pk")[:4], names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    return eight_tables


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_public_traveller_index_and_field_page(page, live_server, tournament, director_actor,
                                               long_names, viewport, screenshot_dir):
    round_ = long_names
    tournament.field_minimum_hands = 1
    tournament.save()
    round_.rule_settings = {**round_.rule_settings, "field_minimum_hands": 1}
    round_.save(update_fields=["rule_settings"])
    sign_off(director_actor, round_)
    close_round(director_actor, round_)
    deal = Deal.objects.get(round=round_, hand=1)
    name = "phone" if viewport == PHONE else "desktop"
    page.set_viewport_size(viewport)
    page.goto(live_server.url + reverse("public:traveller",
                                        args=[tournament.slug, round_.pk, deal.pk]) + "?table=5")
    assert page.locator("table.traveller tbody tr").count() == 8
    reader = page.locator("table.traveller tr.reader")
    assert reader.count() == 1 and "your table" in reader.inner_text()
    assert reader.is_visible()
    assert page.locator(".box-cards .cards span").count() == 52
    assert page.evaluate(FITS), "the traveller scrolls sideways"
    page.screenshot(path=str(screenshot_dir / f"traveller-{name}.png"), full_page=True)
    page.get_by_role("link", name="Every box").click()
    page.wait_for_url("**/boxes/")
    assert page.locator("table.boxes tbody tr").count() == 1
    assert page.evaluate(FITS), "the box index scrolls sideways"
    page.screenshot(path=str(screenshot_dir / f"travellers-{name}.png"), full_page=True)
    page.goto(live_server.url + reverse("public:field", args=[tournament.slug]))
    assert page.locator("table.field tbody tr").count() == 16
    assert page.evaluate(FITS), "the field page scrolls sideways"
    page.screenshot(path=str(screenshot_dir / f"field-{name}.png"), full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_referees_progress_page_and_traveller(page, live_server, tournament, staff_user,
                                             long_names, viewport, screenshot_dir):
    round_ = long_names
    tournament.box_balance_threshold = 1
    tournament.save()
    user = staff_user(tournament, Role.REFEREE, username="li")
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "li")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")
    page.set_viewport_size(viewport)
    name = "phone" if viewport == PHONE else "desktop"
    page.goto(live_server.url + reverse("director:round_progress",
                                        args=[tournament.slug, round_.pk]))
    assert "Table 2, hand 1" in page.locator(".far-results").inner_text()
    assert page.locator(".unbalanced-boxes li").count() == 1
    assert page.evaluate(FITS), "the progress page scrolls sideways"
    page.screenshot(path=str(screenshot_dir / f"progress-anomalies-{name}.png"),
                    full_page=True)
    page.locator(".far-results").get_by_role("link", name="traveller").click()
    page.wait_for_url("**/boxes/*/?table=2")
    assert page.locator("table.traveller tr.reader").count() == 1
    assert page.locator(".box-cards").count() == 0  # never the cards before the close
    assert page.evaluate(FITS), "the staff traveller scrolls sideways"
    page.screenshot(path=str(screenshot_dir / f"staff-traveller-{name}.png"), full_page=True)
