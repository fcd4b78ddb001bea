"""Issue 27 in a real browser: the false knock explained on the match pages, and "Start
play" on a round without deals, each on a phone and a wide screen, checked by axe-core;
the Content-Security-Policy stays on (conftest fails on a violation)."""

import uuid

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament.models import Role, Round, Stage, Tournament
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "wide": {"width": 1920, "height": 1080}}


@pytest.fixture
def published(director_actor, tournament, make_team):
    tournament.live_results = Tournament.LiveResults.LIVE
    tournament.save()
    teams = [make_team(tournament, code=code, name=name, seed=str(n))
             for n, (code, name) in enumerate([("CHN", "中国红队"), ("ITA", "Italia")], 1)]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams)
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    return round_


def log_in(page, live_server, user):
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_start_play_without_deals_needs_the_tick(page, live_server, tournament, staff_user,
                                                 published, screenshot_dir):
    from tests.axe import assert_no_violation, axe_source  # issue 27's axe helper

    source = axe_source()
    log_in(page, live_server, staff_user(tournament, Role.DIRECTOR, username="chen"))
    page.goto(live_server.url + reverse("director:round_detail",
                                        args=[tournament.slug, published.pk]))
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        expect(page.locator("#no-deals-note")).to_contain_text("This round has no deals")
        assert fits(page), f"the round page scrolls sideways ({name})"
        page.screenshot(path=str(screenshot_dir / f"start-without-deals-{name}.png"),
                        full_page=True)
        assert_no_violation(page, f"the round page without deals ({name})", source)
    button = page.get_by_role("button", name="Start play without deals")
    # The browser will not send it unticked (the server refuses it too: test_first_hour).
    button.click()
    assert page.locator("#id_deals_elsewhere:invalid").count() == 1
    published.refresh_from_db()
    assert published.status == Round.Status.PUBLISHED
    # Ticked with the keyboard, then sent.
    page.get_by_label("The boxes are dealt elsewhere").focus()
    page.keyboard.press("Space")
    button.click()
    page.wait_for_selector(".badge-in_play")
    published.refresh_from_db()
    assert published.status == Round.Status.IN_PLAY


def test_the_false_knock_note_on_both_match_pages(page, live_server, tournament, staff_user,
                                                  director_actor, published, screenshot_dir):
    from tests.axe import assert_no_violation, axe_source  # issue 27's axe helper

    source = axe_source()
    start_round(director_actor, published)
    match = published.matches.get()
    table = match.tables.get(position=1)
    record_hand_result(director_actor, table, 1, HandEntry("knock", 1, 4, 12), seen_version=0,
                       request_token=uuid.uuid4())
    record_hand_result(director_actor, table, 2,
                       HandEntry("knock", 1, 3, 23, false_knock_seat=2, false_knock_deadwood=23),
                       seen_version=0, request_token=uuid.uuid4())
    log_in(page, live_server, staff_user(tournament, Role.DIRECTOR, username="chen"))
    pages = {"staff": reverse("director:match_page", args=[tournament.slug, match.pk]),
             "public": reverse("public:match", args=[tournament.slug, match.pk])}
    for which, address in pages.items():
        page.goto(live_server.url + address)
        for name, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            note = page.locator("#false-knock-note")
            expect(note).to_contain_text("more deadwood than the knock limit (10)")
            expect(page.get_by_text("(false knock at 23)").first).to_be_visible()
            assert fits(page), f"the {which} match page scrolls sideways ({name})"
            page.screenshot(path=str(screenshot_dir / f"false-knock-{which}-{name}.png"),
                            full_page=True)
            assert_no_violation(page, f"the {which} match page ({name})", source)
        # The mark on the line leads to the note.
        page.get_by_role("link", name="What a false knock is").click()
        assert page.url.endswith("#false-knock-note")
