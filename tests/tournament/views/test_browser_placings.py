"""The seeding page, the final ranking and the individual standings in a real browser, on a
phone and a desktop, under the site's Content-Security-Policy (issue 11)."""

import uuid

import pytest
from django.urls import reverse

from tournament.models import Role, Stage
from tournament.services import ServiceError
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.seeding import seed_from_standings
from tournament.services.stages import allot_groups, create_stage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
NAMES = [("CHN", "中国红队"), ("ITA", "Italia"), ("GER", "Deutschland"), ("TPE", "中華台北"),
         ("FRA", "France"), ("ESP", "España"), ("JPN", "日本"), ("BRA", "Brasil")]


@pytest.fixture
def event(director_actor, tournament, make_team, finish_round):
    """Two groups of four played to the end, the top 2 and the best third seeding a
    knockout with a third-place match; ``play`` plays the knockout (home wins by 10), with
    hands entered in its first match."""

    def make(play):
        field = [make_team(tournament, code=code, name=name, seed=str(n))
                 for n, (code, name) in enumerate(NAMES, 1)]
        groups = create_stage(director_actor, tournament, name="Groups",
                              kind=Stage.Kind.GROUPS)
        allot_groups(director_actor, groups, [field[0::2], field[1::2]])
        for number in (1, 2, 3):
            finish_round(generate_round(director_actor, groups), seed=number)
        knockout = create_stage(director_actor, tournament, name="Knockout",
                                kind=Stage.Kind.KNOCKOUT, third_place_match=True,
                                qualify_from=groups, qualifiers_per_group=2,
                                extra_qualifiers=1)
        if not play:
            return knockout
        seed_from_standings(director_actor, knockout)
        entered = False
        while True:
            try:
                round_ = generate_round(director_actor, knockout)
            except ServiceError:
                return knockout
            if not entered:
                publish_round(director_actor, round_)
                start_round(director_actor, round_)
                match = round_.matches.get()
                for position in (1, 2):
                    for hand, entry in enumerate([HandEntry("gin", 1, None, 20),
                                                  HandEntry("knock", 2, 7, 7),
                                                  HandEntry("big_gin", 2, None, 30)], 1):
                        record_hand_result(director_actor, match.tables.get(position=position),
                                           hand, entry, seen_version=0,
                                           request_token=uuid.uuid4())
                entered = True
            finish_round(round_, {m.number: 10 for m in round_.matches.all()})

    return make


def log_in(page, live_server, tournament, staff_user, viewport):
    user = staff_user(tournament, Role.DIRECTOR, username="li")
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "li")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")
    page.set_viewport_size(viewport)


def fits(page) -> bool:
    return not page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_seeding_page(page, live_server, tournament, staff_user, event, viewport,
                      screenshot_dir):
    knockout = event(play=False)
    log_in(page, live_server, tournament, staff_user, viewport)
    name = "phone" if viewport == PHONE else "desktop"
    page.goto(live_server.url + reverse("director:stage_seeding",
                                        args=[tournament.slug, knockout.pk]))
    assert page.locator("table.seeds tbody tr").count() == 5
    assert page.locator("tr.qualified").count() == 5
    assert fits(page)
    page.screenshot(path=str(screenshot_dir / f"seeding-{name}.png"), full_page=True)
    page.get_by_role("button", name="Seed the knockout").click()
    page.wait_for_url(f"**/stages/{knockout.pk}/")
    assert knockout.entries.count() == 5
    page.goto(live_server.url + reverse("director:final_ranking", args=[tournament.slug]))
    assert page.locator("ul.missing").inner_text() == \
        "Quarter-finals of Knockout is not drawn yet."
    assert fits(page)
    page.screenshot(path=str(screenshot_dir / f"final-ranking-missing-{name}.png"),
                    full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_final_ranking_and_individual_pages(page, live_server, tournament, staff_user, event,
                                            viewport, screenshot_dir):
    event(play=True)
    log_in(page, live_server, tournament, staff_user, viewport)
    name = "phone" if viewport == PHONE else "desktop"
    page.goto(live_server.url + reverse("director:final_ranking", args=[tournament.slug]))
    assert page.locator("table.final-ranking tbody tr").count() == 8
    assert fits(page)
    page.screenshot(path=str(screenshot_dir / f"final-ranking-{name}.png"), full_page=True)
    page.get_by_role("link", name="Individual standings").click()
    page.wait_for_url("**/individual/")
    assert page.locator("table.individual tbody tr").count() == 4
    assert fits(page)
    page.screenshot(path=str(screenshot_dir / f"individual-{name}.png"), full_page=True)
    page.fill("#min-hands", "4")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**?min=4")
    assert page.locator("table.individual tbody tr").count() == 0
