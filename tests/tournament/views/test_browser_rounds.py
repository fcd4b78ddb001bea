"""Drawing a round in a real browser, and the public draw on a 360 px phone."""

import pytest
from django.urls import reverse

from tournament.models import Role, Round, Stage
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def overflows(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


@pytest.fixture
def swiss(director_actor, tournament, make_team):
    names = [("CHN", "中国红队", "李伟", "张敏"),
             ("ITA", "Italia", "Giulia Rossi", "Marco Bianchi"),
             ("BRA", "Brasil", "João Silva", "Ana Souza"),
             ("USA", "United States Gin Federation", "Bob Smith", "Alice Johnson"),
             ("HKG", "香港", "陳大文", "黃小明")]
    teams = [make_team(tournament, code=c, name=n, player1=a, player2=b, seed=str(i))
             for i, (c, n, a, b) in enumerate(names, 1)]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=4)
    enter_teams(director_actor, stage, teams)
    return stage


def test_director_draws_and_publishes_then_the_public_sees_it(
        page, live_server, tournament, staff_user, swiss, screenshot_dir):
    user = staff_user(tournament, Role.DIRECTOR, username="chen")
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "chen")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")

    page.set_viewport_size(DESKTOP)
    page.goto(live_server.url + reverse("director:stage_detail",
                                        args=[tournament.slug, swiss.pk]))
    page.click("text=Draw round 1")
    page.wait_for_url("**/rounds/*/")
    assert "deals hands 1, 3, 5, 7" in page.locator("table.draw").inner_text()
    page.screenshot(path=str(screenshot_dir / "round-draft-desktop.png"), full_page=True)
    page.click("text=Publish the draw")
    page.wait_for_selector(".badge-published")
    round_ = Round.objects.get()
    assert round_.status == Round.Status.PUBLISHED

    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("director:round_detail",
                                        args=[tournament.slug, round_.pk]))
    assert not overflows(page)
    for by in ("table", "team"):
        page.goto(live_server.url + reverse("public:round", args=[tournament.slug, round_.pk])
                  + f"?by={by}")
        assert page.locator("table.draw").is_visible()
        assert not overflows(page), f"the public draw by {by} scrolls sideways on a phone"
        page.screenshot(path=str(screenshot_dir / f"public-draw-{by}-phone.png"),
                        full_page=True)
    assert "李伟" in page.content() or "張" in page.content() or "CHN" in page.content()
