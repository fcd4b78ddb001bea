"""The director area in a real browser, on a desktop and on a 360 px phone."""

import pytest
from django.urls import reverse

from tournament.models import Role, Team

pytestmark = pytest.mark.browser

PASSWORD = "a-Long-pass-123"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def director_page(page, live_server, tournament, staff_user, make_team):
    user = staff_user(tournament, Role.DIRECTOR, username="chen")
    user.set_password(PASSWORD)
    user.save()
    make_team(tournament, code="CHN", name="中国红队", country="China", seed="1",
              player1="李伟", player2="张敏", reserve="王芳")
    make_team(tournament, code="ITA", name="Italia", country="Italy", seed="2")
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "chen")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")
    return page


def overflows(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_director_pages_fit_the_screen(director_page, live_server, tournament, viewport,
                                       screenshot_dir):
    page = director_page
    page.set_viewport_size(viewport)
    name = "phone" if viewport == PHONE else "desktop"
    for url_name in ("dashboard", "team_list", "team_create", "team_import",
                     "tournament_edit", "staff"):
        page.goto(live_server.url + reverse(f"director:{url_name}", args=[tournament.slug]))
        assert page.locator("h1").first.is_visible()
        assert not overflows(page), f"{url_name} scrolls sideways at {viewport['width']} px"
        page.screenshot(path=str(screenshot_dir / f"{url_name}-{name}.png"), full_page=True)


def test_add_a_team_with_the_keyboard(director_page, live_server, tournament):
    page = director_page
    page.goto(live_server.url + reverse("director:team_create", args=[tournament.slug]))
    page.focus("#id_code")
    # The name in the other script (issue 56) follows the name: left empty here.
    for text in ("bra", "Brasil", "", "Brazil", "3", "João Silva", "", "Ana Souza"):
        page.keyboard.type(text)
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url("**/teams/")
    assert "João Silva, Ana Souza" in page.locator("table").inner_text()
    assert Team.objects.get(code="BRA").seed == 3


def test_error_appears_next_to_the_field(director_page, live_server, tournament):
    page = director_page
    page.goto(live_server.url + reverse("director:team_create", args=[tournament.slug]))
    page.fill("#id_code", "CHN")
    page.fill("#id_name", "Another China")
    page.fill("#id_player1", "A")
    page.fill("#id_player2", "B")
    page.click("button.primary")
    error = page.locator(".has-error .error, .form-errors").first
    assert "team code CHN is already used" in error.inner_text()


def test_public_page_in_chinese(page, live_server, tournament, make_team, screenshot_dir):
    make_team(tournament, code="CHN", name="中国红队", player1="李伟", player2="张敏")
    page.set_viewport_size(PHONE)
    address = reverse("public:teams", args=[tournament.slug])
    page.goto(live_server.url + address)
    with page.expect_navigation():
        page.click(".language a[hreflang='zh-hans']")  # the same page at its Chinese address
    assert page.url == live_server.url + "/zh-hans" + address
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    assert "李伟" in page.locator("table.team-list").inner_text()
    assert not overflows(page)
    page.screenshot(path=str(screenshot_dir / "public-tournament-zh.png"), full_page=True)
