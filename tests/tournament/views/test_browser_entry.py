"""The FCG procedure end to end in a real browser: enter, approve, sign, sign off, correct."""

import pytest
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tournament.models import Match, Role, Stage
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"


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


def log_in(page, live_server, user):
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")


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
    try:
        page.locator(f"#hand-{hand} .badge", has_text="saved").wait_for()
    except PlaywrightTimeout as timeout:
        raise AssertionError(not_saved(page, hand)) from timeout


def not_saved(page, hand) -> str:
    """What the page and the server showed when a save's "saved" never came (CI once, on
    a loaded machine, not reproduced): the hand's row, the queue's banner, the hands kept."""
    from tournament.models import HandResult

    row = page.locator(f"#hand-{hand}")
    banner = page.locator("#queue-status")
    stored = list(HandResult.objects.filter(hand=hand).values_list(
        "table__position", "version", "is_current", "outcome"))
    return (f"hand {hand} not shown saved; its row: {row.inner_text()!r}; the queue's "
            f"banner{' (hidden)' if banner.is_hidden() else ''}: {banner.inner_text()!r}; "
            f"stored (table, version, current, outcome): {stored}")


def approve_and_sign(page):
    for hand in range(1, 9):
        for seat in (1, 2):
            button = page.locator(f"#hand-{hand} button", has_text=f"Seat {seat} approves")
            if button.count():
                button.click()
                # The hand's row comes back without the seat's button: until then the
                # next row may be in the middle of being replaced.
                button.wait_for(state="detached")
    for seat in (1, 2):
        # The sign-off posts its form: wait for the page it leads to (a load state read
        # at once may be the page before the post).
        with page.expect_navigation():
            page.locator("button", has_text=f"Seat {seat} (").click()


def test_fcg_procedure_in_the_browser(page, live_server, tournament, staff_user, match,
                                      screenshot_dir):
    scorer = staff_user(tournament, Role.SCORER, username="li")
    referee = staff_user(tournament, Role.REFEREE, username="chen")
    log_in(page, live_server, scorer)
    table_url = {t.position: live_server.url + reverse("director:table_entry",
                                                         args=[tournament.slug, t.pk])
                 for t in match.tables.all()}

    page.goto(table_url[1])
    for hand in range(1, 9):
        enter_hand(page, hand, "knock", seat=1, mine=4, theirs=12)
    assert "Knock 4 vs 12: 15 + 8 = 23" in page.locator("#hand-8").inner_text()
    page.screenshot(path=str(screenshot_dir / "entry-table-1.png"), full_page=True)
    approve_and_sign(page)
    assert page.locator(".badge", has_text="Seat 2 (").count() == 1  # both signed

    # Table 2 has its own scorer on a phone: a device scores one table per round.
    page.context.clear_cookies()
    log_in(page, live_server, staff_user(tournament, Role.SCORER, username="wang"))
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(table_url[2])
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
    for hand in range(1, 9):
        enter_hand(page, hand, "draw")
    page.screenshot(path=str(screenshot_dir / "entry-table-2-phone.png"), full_page=False)
    approve_and_sign(page)

    # The scorer has no sign-off button; the referee signs the match off.
    match_url = live_server.url + reverse("director:match_page", args=[tournament.slug, match.pk])
    page.goto(match_url)
    assert page.locator("button", has_text="Sign the match off").count() == 0
    page.context.clear_cookies()  # the scorer's session ends
    log_in(page, live_server, referee)
    page.goto(match_url)
    with page.expect_navigation():
        page.locator("button", has_text="Sign the match off").click()
    assert "CHN +184 : −184 ITA, 3 : 1" in page.locator(".score-line").inner_text()
    official = Match.objects.get(pk=match.pk)
    assert (official.home_total, official.away_total) == (184, -184)

    # A referee corrects hand 5 at table 1 with a reason: the sign-off is cleared.
    page.goto(table_url[1])
    form = page.locator("#hand-5")
    form.locator("#id_h5-opponent_deadwood").fill("9")
    form.locator("#id_h5-reason").fill("lay-off missed")
    form.locator("button.primary").click()
    page.locator("#hand-5 .badge", has_text="saved").wait_for()
    assert Match.objects.get(pk=match.pk).signed_off_at is None
    page.goto(table_url[1])
    approve_and_sign(page)
    page.goto(match_url)
    history = page.locator(".history").inner_text()
    assert "changed hand 5 at table 1: knock by seat 1 4 vs 12 → knock by seat 1 4 vs 9" in \
        history and "reason: lay-off missed" in history
    with page.expect_navigation():
        page.locator("button", has_text="Sign the match off").click()
    assert "CHN +181 : −181 ITA, 3 : 1" in page.locator(".score-line").inner_text()
    page.screenshot(path=str(screenshot_dir / "match-page.png"), full_page=True)
