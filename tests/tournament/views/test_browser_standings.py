"""The standings page in a real browser: a group stage with a penalty and a provisional
result, on a phone and a desktop, under the site's Content-Security-Policy."""

import uuid

import pytest
from django.urls import reverse

from tournament.models import Penalty, Role, Stage
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import allot_groups, create_stage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def stage(director_actor, tournament, make_team, finish_round):
    names = [("CHN", "中国红队"), ("ITA", "Italia"), ("GER", "Deutschland"),
             ("TPE", "中華台北"), ("FRA", "France"), ("ESP", "España"), ("JPN", "日本"),
             ("BRA", "Brasil")]
    field = [make_team(tournament, code=code, name=name, seed=str(n))
             for n, (code, name) in enumerate(names, 1)]
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [field[0::2], field[1::2]])
    first = generate_round(director_actor, stage)
    finish_round(first, {1: 35, 2: -12, 3: 0, 4: 60})
    Penalty.objects.create(tournament=tournament, team=field[0], round=first,
                           kind=Penalty.Kind.MATCH_POINTS, amount=1, reason="late",
                           recorded_by=director_actor.user)
    second = generate_round(director_actor, stage)
    publish_round(director_actor, second)
    start_round(director_actor, second)
    match = second.matches.get(number=1)
    record_hand_result(director_actor, match.tables.get(position=1), 1,
                       HandEntry("gin", 1, None, 20), seen_version=0,
                       request_token=uuid.uuid4())
    return stage


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_standings_page_fits_and_breaks_no_policy(page, live_server, tournament, staff_user,
                                                  stage, viewport, screenshot_dir):
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
    page.goto(live_server.url + reverse("director:stage_standings",
                                        args=[tournament.slug, stage.pk]))
    assert page.locator("table.standings").count() == 2
    assert page.locator("tr.provisional").count() == 2
    assert "−1 mp" in page.locator("table.standings").first.inner_text()
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
    page.screenshot(path=str(screenshot_dir / f"standings-{name}.png"), full_page=True)
    page.get_by_role("link", name="1", exact=True).click()
    page.wait_for_url("**?after=1")
    assert page.locator("tr.provisional").count() == 0
    page.screenshot(path=str(screenshot_dir / f"standings-after-1-{name}.png"), full_page=True)
