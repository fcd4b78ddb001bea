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


WIDE = {"width": 1920, "height": 1080}


def fits(page) -> bool:
    """No sideways scrolling: the page is no wider than the window."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def too_wide(page) -> str:
    """The elements that reach past the window's right edge (for a failure message)."""
    return page.evaluate("""[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 12).map(e => `${e.tagName}.${e.className} ends at `
                              + Math.round(e.getBoundingClientRect().right)).join('; ')""")


def enter_hand(page, hand, outcome, seat=None, mine=None, theirs=None):
    form = page.locator(f"#hand-{hand}")
    form.locator(f"#id_h{hand}-outcome").select_option(outcome)
    if seat:
        form.locator(f"#id_h{hand}-declarer_seat").select_option(str(seat))
    if mine is not None:
        form.locator(f"#id_h{hand}-declarer_deadwood").fill(str(mine))
    if theirs is not None:
        form.locator(f"#id_h{hand}-opponent_deadwood").fill(str(theirs))
    form.locator("button.primary").click()
    page.locator(f"#hand-{hand} .badge", has_text="saved").wait_for()


def approve_and_sign(page, hands):
    for hand in range(1, hands + 1):
        for seat in (1, 2):
            button = page.locator(f"#hand-{hand} button", has_text=f"Seat {seat} approves")
            button.click()
            button.wait_for(state="detached")  # the row came back approved
    for seat in (1, 2):
        # The sign-off posts its form: wait for the page it leads to (a load state read
        # at once may be the page before the post).
        with page.expect_navigation():
            page.locator("button", has_text=f"Seat {seat} (").click()


def test_a_round_from_the_draw_to_its_close_and_the_next_draw(
        page, live_server, tournament, staff_user, director_actor, make_team, screenshot_dir):
    """draw → publish (and open the public pages) → deals → start → enter → sign off →
    close → draw round 2, all through the pages, on a desk and on a phone."""
    tournament.status = tournament.Status.SETUP
    tournament.hands_per_match = 2
    tournament.save()
    names = [("CHN1", "中国红队", "李伟", "张敏"), ("TPE", "中華台北", "陳大文", "黃小明"),
             ("ITA", "Italia", "Giulia Rossi", "Marco Bianchi"),
             ("USA", "United States Gin Federation", "Bob Smith", "Alice Johnson")]
    teams = [make_team(tournament, code=c, name=n, player1=a, player2=b, seed=str(i))
             for i, (c, n, a, b) in enumerate(names, 1)]
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams)
    user = staff_user(tournament, Role.DIRECTOR, username="chen")
    user.set_password(PASSWORD)
    user.save()
    page.set_viewport_size(WIDE)
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "chen")
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")

    # Draw and publish; the public pages are still hidden, and one click opens them.
    page.goto(live_server.url + reverse("director:stage_detail", args=[tournament.slug,
                                                                         stage.pk]))
    page.click("text=Draw round 1")
    page.wait_for_url("**/rounds/*/")
    page.click("text=Publish the draw")
    page.wait_for_selector(".badge-published")
    assert "The public pages are hidden" in page.locator(".public-hidden").inner_text()
    page.click("text=Open the public pages")
    page.wait_for_selector(".badge-published")
    assert page.locator(".public-hidden").count() == 0
    tournament.refresh_from_db()
    assert tournament.status == tournament.Status.RUNNING
    round_ = Round.objects.get()
    round_url = live_server.url + reverse("director:round_detail",
                                          args=[tournament.slug, round_.pk])

    # The deals, checked on a phone too.
    page.click("text=Deals and boxes")
    page.locator("button", has_text="Make the deals").click()
    page.wait_for_selector(".messages >> text=deals made")
    page.set_viewport_size(PHONE)
    page.reload()
    page.screenshot(path=str(screenshot_dir / "deals-phone.png"), full_page=True)
    assert fits(page), f"the deals page scrolls sideways on a phone: {too_wide(page)}"
    page.set_viewport_size(WIDE)

    page.goto(round_url)
    page.locator("button", has_text="Start play").click()
    page.wait_for_selector(".badge-in_play")
    assert page.locator("a", has_text="Close Round 1").count() == 0

    # Every table enters, approves and signs; the referee (here the director) signs off.
    for table in round_.tables.order_by("number"):
        page.goto(live_server.url + reverse("director:table_entry",
                                            args=[tournament.slug, table.pk]))
        enter_hand(page, 1, "knock", seat=1, mine=4, theirs=12 + table.number)
        enter_hand(page, 2, "draw")
        approve_and_sign(page, 2)
        assert "Signed: both players have signed the table" in page.content()
    for match in round_.matches.order_by("number"):
        match_url = live_server.url + reverse("director:match_page",
                                              args=[tournament.slug, match.pk])
        page.goto(match_url)
        page.locator("button", has_text="Sign the match off").click()
        page.wait_for_selector(".badge-closed")
    # The score names the winner, with signed totals and the match points.
    match = round_.matches.select_related("home", "away").get(number=1)
    winner = match.home if match.home_total > 0 else match.away
    page.goto(live_server.url + reverse("director:match_page",
                                        args=[tournament.slug, match.pk]))
    score = page.locator(".score-line").inner_text()
    total = abs(match.home_total)
    assert score == (f"{match.home.code} {'+' if match.home_total > 0 else '−'}{total} : "
                     f"{'−' if match.home_total > 0 else '+'}{total} {match.away.code}, "
                     + ("3 : 1" if winner == match.home else "1 : 3"))
    assert page.locator(".score-line strong").inner_text() == winner.code
    page.set_viewport_size(PHONE)
    page.reload()
    assert fits(page), f"the match page scrolls sideways on a phone: {too_wide(page)}"
    page.screenshot(path=str(screenshot_dir / "match-phone.png"), full_page=True)

    # The progress page on a phone: each match's state in view; it offers to close.
    page.goto(live_server.url + reverse("director:round_progress",
                                        args=[tournament.slug, round_.pk]))
    assert fits(page), f"the progress page scrolls sideways: {too_wide(page)}"
    for cell in page.locator("table.progress td.state").all():
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert cell.inner_text().startswith("official")
    page.screenshot(path=str(screenshot_dir / "progress-phone.png"), full_page=True)
    assert page.locator(".close-offer a", has_text="Close Round 1").is_visible()
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(screenshot_dir / "progress-desktop.png"), full_page=True)

    # The round page before the close, then the confirmation, then the close.
    for name, size in (("phone", PHONE), ("desktop", WIDE)):
        page.set_viewport_size(size)
        page.goto(round_url)
        assert fits(page), f"the round page scrolls sideways ({name}): {too_wide(page)}"
        page.screenshot(path=str(screenshot_dir / f"round-before-close-{name}.png"),
                        full_page=True)
    page.click("text=Close Round 1")
    page.wait_for_url("**/close/")
    confirmation = page.locator(".close-round").inner_text()
    assert "publishes its hand records" in confirmation
    assert "draw the next round" in confirmation and "never reveals" in confirmation
    page.screenshot(path=str(screenshot_dir / "round-close-confirm.png"), full_page=True)
    page.locator(".close-round button", has_text="Close Round 1").click()
    page.wait_for_selector(".badge-closed")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    assert "hand records are public" in page.locator(".messages").inner_text()
    for name, size in (("phone", PHONE), ("desktop", WIDE)):
        page.set_viewport_size(size)
        page.goto(round_url)
        assert fits(page), f"the closed round page scrolls ({name}): {too_wide(page)}"
        page.screenshot(path=str(screenshot_dir / f"round-after-close-{name}.png"),
                        full_page=True)
    assert page.locator(".match-states .state", has_text="official").count() == 2

    # The public sees the hand records; the director draws round 2.
    page.click("text=Public hand records")
    page.wait_for_url("**/hands/")
    page.goto(live_server.url + reverse("director:stage_detail", args=[tournament.slug,
                                                                         stage.pk]))
    page.click("text=Draw round 2")
    page.wait_for_url("**/rounds/*/")
    assert Round.objects.get(number=2).status == Round.Status.DRAFT
    assert "Round 2" in page.locator("h1").inner_text()
