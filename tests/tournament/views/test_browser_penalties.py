"""Recording a default from the match page in a real browser, the penalty list, its undo,
and the group round drawn without the withdrawn team, on a desktop and on a phone."""

import uuid

import pytest
from django.urls import reverse

from tournament.models import HandResult, Match, Penalty, Role, Stage
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.penalties import record_penalty
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def overflows(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


def play(actor, match):
    for table in match.tables.all():
        record_hand_result(actor, table, 1, HandEntry("knock", 1, 4, 12), seen_version=0,
                           request_token=uuid.uuid4())
    for result in HandResult.objects.filter(table__match=match, is_current=True):
        approve_hand(actor, result, 1)
        approve_hand(actor, result, 2)
    for table in match.tables.all():
        sign_table(actor, table, 1)
        sign_table(actor, table, 2)
    sign_off_match(actor, match)


def test_a_default_from_the_match_page_to_the_next_round(
        page, live_server, tournament, staff_user, actor, make_team, screenshot_dir):
    tournament.hands_per_match = 1
    tournament.save()
    user = staff_user(tournament, Role.DIRECTOR, username="chen")
    user.set_password(PASSWORD)
    user.save()
    director = actor(user)
    names = [("CHN", "中国红队"), ("ITA", "Italia"), ("BRA", "Brasil"),
             ("USA", "United States Gin Federation"), ("HKG", "香港")]
    teams = [make_team(tournament, code=c, name=n, seed=str(i))
             for i, (c, n) in enumerate(names, 1)]
    stage = create_stage(director, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director, stage, [teams])
    for _ in range(2):
        round_ = generate_round(director, stage)
        publish_round(director, round_)
        start_round(director, round_)
        for match in round_.matches.all():
            play(director, match)
        close_round(director, round_)
    three = generate_round(director, stage)
    publish_round(director, three)
    start_round(director, three)
    brasil = teams[2]
    match = Match.objects.get(round=three, home=brasil)  # BRA – CHN in round 3
    record_penalty(director, team=teams[3], round=three, kind="match_points", amount=1,
                   reason="slow play after two warnings")

    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "chen")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")
    page.set_viewport_size(DESKTOP)
    page.goto(live_server.url + reverse("director:match_page", args=[tournament.slug,
                                                                     match.pk]))
    page.click("text=record a penalty for this match")
    page.wait_for_url("**/penalties/new/?match=*")
    page.check("input[name=kind][value=default]")
    page.select_option("#id_team", str(brasil.pk))
    page.select_option("#id_match", str(match.pk))
    page.fill("#id_reason", "Did not come back after the break")
    page.screenshot(path=str(screenshot_dir / "penalty-form-desktop.png"), full_page=True)
    page.click("button:has-text('Record')")
    # Shown first (issue 51): the results it clears, who sits out later, the rules.
    page.wait_for_selector(".penalty-plan")
    assert not Penalty.objects.filter(kind="default").exists()
    plan = page.locator(".penalty-plan").inner_text()
    assert "Default by BRA of match" in plan and "Rules, section 11" in plan
    results = page.locator(".penalty-effects tbody tr")
    assert results.count() == 3  # BRA's two played matches cleared, this one forfeited
    assert "forfeited by BRA" in results.nth(2).inner_text()
    later = page.locator(".penalty-later").inner_text()
    assert "sits out (its scheduled opponent BRA is withdrawn)" in later
    page.screenshot(path=str(screenshot_dir / "penalty-confirm-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert not overflows(page)
    page.screenshot(path=str(screenshot_dir / "penalty-confirm-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.click("button:has-text('Record the default')")
    page.wait_for_selector(".badge-forfeited")
    assert page.locator(".page-head .badge-forfeited").inner_text() == "forfeited by BRA"
    page.screenshot(path=str(screenshot_dir / "match-forfeited-desktop.png"), full_page=True)
    assert Penalty.objects.get(kind="default").match == match

    page.goto(live_server.url + reverse("director:penalty_list", args=[tournament.slug]))
    assert page.locator("table tbody tr").count() == 2
    page.screenshot(path=str(screenshot_dir / "penalty-list-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert not overflows(page) or page.locator(".table-wrap").count() == 1
    page.screenshot(path=str(screenshot_dir / "penalty-list-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    for other in three.matches.exclude(pk=match.pk):
        play(director, other)
    page.goto(live_server.url + reverse("director:round_detail", args=[tournament.slug,
                                                                       three.pk]))
    page.click("text=Close Round 3")
    page.wait_for_url("**/close/")
    page.click("button:has-text('Close')")
    page.goto(live_server.url + reverse("director:stage_detail", args=[tournament.slug,
                                                                       stage.pk]))
    page.click("text=Draw round 4")
    page.wait_for_url("**/rounds/*/")
    left_out = page.locator(".left-out").inner_text()
    assert "BRA" in left_out and "Sitting out" in left_out
    page.screenshot(path=str(screenshot_dir / "round-4-left-out-desktop.png"), full_page=True)

    penalty = Penalty.objects.get(kind="default")
    page.goto(live_server.url + reverse("director:penalty_undo", args=[tournament.slug,
                                                                       penalty.pk]))
    page.fill("#id_reason", "entered against the wrong team")
    page.click("button:has-text('Undo the penalty')")
    assert "was drawn without BRA" in page.locator(".form-errors").inner_text()
    page.screenshot(path=str(screenshot_dir / "penalty-undo-refused-desktop.png"),
                    full_page=True)

    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("director:team_edit", args=[tournament.slug,
                                                                    brasil.pk]))
    assert "Did not come back" in page.locator(".team-penalties").inner_text()
    assert not overflows(page)
    page.screenshot(path=str(screenshot_dir / "team-penalties-phone.png"), full_page=True)
    page.goto(live_server.url + reverse("director:penalty_create", args=[tournament.slug]))
    assert not overflows(page)
    page.screenshot(path=str(screenshot_dir / "penalty-form-phone.png"), full_page=True)
