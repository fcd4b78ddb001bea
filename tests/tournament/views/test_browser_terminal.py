"""The table terminal (issue 57), in a real browser on a phone (360 px, touch only): two
devices follow their slips' QR links and play a whole match at two tables, the players
approving each hand by a tap, every tap counted and printed per hand; both players sign;
they are told to wait for the draw, then, once round 2 is published, where each goes next.
A second tournament approves and signs by PIN. The offline and "changed meanwhile" cases
of the table's queue on the terminal. The pages are axe-clean in English and Chinese."""

from __future__ import annotations

import re
import uuid
from collections import Counter
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.axe import axe_source, axe_violations, describe
from tests.tournament.views.public_event import enter as enter_by_services
from tests.tournament.views.public_event import start
from tournament.models import (
    Approval,
    HandResult,
    Match,
    Round,
    Stage,
    TableSeat,
    TableSignature,
    Tournament,
)
from tournament.pdf.devices import qr_link
from tournament.services import commands
from tournament.services.approvals import sign_table
from tournament.services.devices import bind_table_devices, create_table_devices
from tournament.services.draw import generate_round
from tournament.services.hands import HandEntry
from tournament.services.rounds import close_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams
from tournament.services.teams import set_player_pin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
SHOTS = "terminal"
DECLARER = "AS 2S 3S 4S 5H 6H 7H 8D 8C 8S"  # a gin: A-4 of spades, 5-7 of hearts, three 8s
OPPONENT = "KD KC QH JH 9C 9D 2D 3D 4C TH"


@pytest.fixture
def expected_browser_problems():
    """A dropped network's requests are logged by the browser: the point, not a fault."""
    return ("ERR_INTERNET_DISCONNECTED", "net::ERR_FAILED")


def event(director_actor, tournament, teams, *, hands=4, **settings):
    """A Swiss stage of four teams, round 1 dealt and in play (two matches, four tables),
    and the slips of its tables' devices by table number."""
    tournament.hands_per_match = hands
    for name, value in settings.items():
        setattr(tournament, name, value)
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = start(director_actor, generate_round(director_actor, stage))
    slips = {slip.table: slip for slip in create_table_devices(director_actor, round_)}
    return stage, round_, slips


class Device:
    """One table's phone: a browser context of its own, touch only, its taps counted."""

    def __init__(self, browser, live_server, slip, shots):
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.live_server, self.slip, self.shots = live_server, slip, shots
        self.taps: Counter = Counter()
        self.hand = 0
        self.pages: list[str] = []  # every page the device was shown
        self.errors: list[str] = []  # the page's script errors, for a failure's message
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("framenavigated", lambda frame: frame == self.page.main_frame
                     and self.pages.append(urlsplit(frame.url).path))

    def open_slip(self):
        self.page.goto(qr_link(self.live_server.url + "/device/", self.slip))
        self.step("who")

    def tap(self, locator):
        self.taps[self.hand] += 1
        locator.tap()

    def button(self, name, *, within="main"):
        return self.page.locator(within).get_by_role("button", name=name, exact=True)

    def step(self, name):
        locator = self.page.locator(f"#step-{name}")
        self.wait(locator, f"the step {name!r}")
        return locator

    def wait(self, locator, what):
        """Wait for it; if it never comes, what the screen, its script and the server held
        (a failure on a slow machine says why, not only that it waited)."""
        try:
            locator.wait_for(state="visible")
        except PlaywrightTimeout:
            raise AssertionError(f"table {self.slip.table} (hand {self.hand}) never showed "
                                 f"{what}: {self.state()}") from None

    def declare(self, seat, how):
        who = self.step("who")
        if how == "draw":
            self.tap(who.locator("[data-declare=draw]"))
        else:
            self.tap(who.locator(f"[data-declare={how}][data-seat='{seat}']"))

    def keypad(self, number):
        pad = self.step("keypad")
        for digit in str(number):
            self.tap(pad.locator(f"[data-digit='{digit}']"))
        self.tap(pad.locator("#keypad-ok"))

    def save(self, reading=None):
        step = self.step("reading")
        if reading is not None:
            self.wait(self.page.locator("#reading-words", has_text=reading), repr(reading))
        self.wait(self.page.locator("#reading-save:not([disabled])"), "Save enabled")
        self.shot("reading")
        self.tap(step.locator("#reading-save"))

    def approve_by_tap(self, seat):
        step = self.step("approve")
        self.wait(self.page.locator("#approve-q", has_text=f"seat {seat}"),
                  f"the approval of seat {seat}")
        self.tap(step.locator("#approve-tap"))

    def pin(self, code):
        self.step("keypad")
        self.keypad(code)

    def at_hand(self, hand):
        self.wait(self.page.locator("#term-hand-title", has_text=f"hand {hand} of"),
                  f"hand {hand}")

    def state(self) -> str:
        screen = self.page.evaluate("""() => ({
            title: document.getElementById("term-hand-title").textContent,
            steps: Array.from(document.querySelectorAll(".term-step:not([hidden])"),
                              s => s.id + ": " + s.innerText.slice(0, 160)),
            queue: (document.querySelector(".queue-status") || {}).className + " " +
                   ((document.querySelector(".queue-status") || {}).innerText || ""),
            hands: Array.from(document.querySelectorAll(".hands .hand"), b => ({
                hand: b.dataset.hand, version: b.dataset.version, token: b.dataset.token,
                approved: b.dataset.approved,
                held: (b.querySelector(".queue-conflict, .queue-refused") || {}).innerText}))})""")
        rows = HandResult.objects.filter(table__number=self.slip.table).order_by("hand", "version")
        server = [(r.hand, r.version, r.is_current, str(r.request_token),
                   sorted(r.approvals.values_list("seat", flat=True))) for r in rows]
        return (f"screen {screen}; script errors {self.errors}; "
                f"server (hand, version, current, token, approved) {server}")

    def play(self, hand, seat, how, mine=None, theirs=None, *, pins=None, reading=None):
        """One hand from the first step to both approvals."""
        self.hand = hand
        self.at_hand(hand)
        self.declare(seat, how)
        if how == "knock":
            self.keypad(mine)
        if how != "draw":
            self.keypad(theirs)
        self.save(reading)
        for approving in (1, 2):
            if pins:
                self.page.locator("#keypad-q", has_text=f"Seat {approving}").wait_for()
                self.pin(pins[approving])
            else:
                self.approve_by_tap(approving)

    def sign(self, pins=None):
        for seat in (1, 2):
            if pins:
                self.page.locator("#keypad-q", has_text=f"Seat {seat}").wait_for()
                self.pin(pins[seat])
            else:
                button = self.page.locator(f"#sign-tap[data-seat='{seat}']:not([disabled])")
                button.wait_for()
                self.tap(button)
        self.step("done")

    def shot(self, name):
        self.page.screenshot(path=self.shots / f"{SHOTS}-t{self.slip.table}-{name}.png",
                             full_page=True)


def fits_the_phone(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_whole_match_at_two_tables_by_tap_then_each_player_sees_the_next_table(
        browser, live_server, tournament, teams, director_actor, screenshot_dir):
    stage, round_, slips = event(director_actor, tournament, teams,
                                 live_results=Tournament.LiveResults.FINISHED_BOXES)
    first, second = round_.matches.order_by("number")
    # The other match's tables play every box first: the field has played a box once both
    # tables of the first match have it approved.
    for table in second.tables.order_by("position"):
        for hand in (1, 2, 3, 4):
            enter_by_services(director_actor, table, hand, HandEntry("gin", 1, None, 20))
    numbers = [t.number for t in first.tables.order_by("position")]
    one, two = (Device(browser, live_server, slips[n], screenshot_dir) for n in numbers)
    one.open_slip()
    two.open_slip()
    one.shot("who")
    fits_the_phone(one.page)

    # Hand 1: the example, both approvals by tap.
    one.play(1, 2, "knock", 6, 13,
             reading="Seat 2 knocks with 6, seat 1 has 13 after lay-offs: seat 2 scores 22.")
    one.at_hand(2)
    # From the QR code to the first hand saved: the terminal's page alone.
    assert set(one.pages) == {"/device/"}, one.pages
    two.play(1, 1, "gin", theirs=9, reading="Seat 1 goes gin, seat 2 has 9: seat 1 scores 34.")
    assert set(two.pages) == {"/device/"}, two.pages
    # Hand 1 is finished everywhere: its traveller under hand 2 (the setting allows it).
    two.page.locator("#hand-1 .term-traveller summary").tap()
    two.page.locator("#hand-1 .term-traveller .term-own").wait_for()
    two.shot("traveller")
    fits_the_phone(two.page)
    # Hand 2: an undercut (entered as the knock it was), a correction one step back.
    one.play(2, 1, "knock", 8, 6, reading="an undercut, seat 2 scores 27")
    two.hand = 2
    two.declare(2, "knock")
    two.keypad(5)
    two.keypad(30)
    two.page.locator("#reading-words", has_text="seat 2 scores 40").wait_for()
    two.tap(two.step("reading").locator(".term-back"))  # the opponent had 20, not 30
    two.tap(two.step("keypad").locator("[data-digit=del]"))
    two.tap(two.step("keypad").locator("[data-digit=del]"))
    two.keypad(20)
    two.save("seat 2 scores 30")
    two.approve_by_tap(1)
    two.tap(two.page.locator("#approve-back"))  # seat 2 says it is not right
    two.page.locator("#reading-words", has_text="seat 2 scores 30").wait_for()
    two.tap(two.step("reading").locator(".term-back"))
    two.tap(two.step("keypad").locator("[data-digit=del]"))
    two.keypad(1)
    two.save("seat 2 knocks with 5, seat 1 has 21 after lay-offs: seat 2 scores 31")
    two.approve_by_tap(1)
    two.approve_by_tap(2)
    # Hands 3 and 4: Big Gin, a draw, a gin, a knock.
    one.play(3, 2, "big_gin", theirs=18, reading="Seat 2 has Big Gin, seat 1 has 18: seat 2 "
             "scores 53.")
    two.play(3, 1, "draw", reading="A draw: nobody scores.")
    one.play(4, 1, "gin", theirs=0, reading="seat 1 scores 25")
    two.play(4, 2, "knock", 3, 10, reading="seat 2 scores 22")
    for device in (one, two):
        device.hand = "signatures"
        device.sign()
        device.page.locator(".term-wait").first.wait_for()
        device.shot("wait")
    print("\ntaps per hand:", {n: dict(d.taps) for n, d in zip(numbers, (one, two), strict=True)})
    assert one.taps[1] <= 10
    results = {(r.table.number, r.hand): (r.outcome, r.seat1_points)
               for r in HandResult.objects.filter(is_current=True, table__match=first)
               .select_related("table")}
    assert results == {
        (numbers[0], 1): ("knock", -22), (numbers[0], 2): ("undercut", -27),
        (numbers[0], 3): ("big_gin", -53), (numbers[0], 4): ("gin", 25),
        (numbers[1], 1): ("gin", 34), (numbers[1], 2): ("knock", -31),
        (numbers[1], 3): ("draw", 0), (numbers[1], 4): ("knock", -22)}
    assert Approval.objects.filter(result__table__match=first, result__is_current=True,
                                   method="tap").count() == 16
    assert TableSignature.objects.filter(table__match=first).count() == 4

    # Round 2 published: each player is told the table and seat.
    for table in second.tables.all():
        for seat in (1, 2):
            sign_table(director_actor, table, seat)
    for match in Match.objects.filter(round=round_):
        sign_off_match(director_actor, match)
    close_round(director_actor, Round.objects.get(pk=round_.pk))
    round2 = start(director_actor, generate_round(director_actor, stage))
    bind_table_devices(director_actor, round2)
    for device in (one, two):
        device.tap(device.page.get_by_role("link", name="Look again"))
        device.page.locator(".term-go").first.wait_for()
        seats = TableSeat.objects.filter(round=round2).select_related("player", "table")
        shown = device.page.locator(".term-next").inner_text()
        at_table = TableSeat.objects.filter(table__number=device.slip.table, round=round_)
        for sat in at_table.select_related("player"):
            there = next(s for s in seats if s.player_id == sat.player_id)
            assert f"{sat.player.name}" in shown
            assert f"table {there.table.number}, seat {there.seat}" in shown
        device.shot("next")
        fits_the_phone(device.page)
    # The next round on the same device: its first step.
    one.tap(one.page.get_by_role("link", name="Start Round 2"))
    one.at_hand(1)


def test_approving_and_signing_by_pin(browser, live_server, tournament, teams,
                                      director_actor, screenshot_dir):
    _stage, round_, slips = event(director_actor, tournament, teams, hands=3,
                                  approvals_need_pin=True)
    match = round_.matches.order_by("number").first()
    table, other = match.tables.get(position=1), match.tables.get(position=2)
    pins = {}  # (table, seat) → the PIN of the player sitting there
    for sat in TableSeat.objects.filter(table__match=match).select_related("player"):
        pins[sat.table_id, sat.seat] = f"{sat.seat}{sat.table.position}{sat.seat}{sat.seat}"
        set_player_pin(director_actor, sat.player, pins[sat.table_id, sat.seat])
    second_device = Device(browser, live_server, slips[other.number], screenshot_dir)
    second_device.open_slip()
    theirs = {seat: pins[other.pk, seat] for seat in (1, 2)}
    device = Device(browser, live_server, slips[table.number], screenshot_dir)
    device.open_slip()
    pins = {seat: pins[table.pk, seat] for seat in (1, 2)}
    device.hand = 1
    device.declare(2, "knock")
    device.keypad(6)
    device.keypad(13)
    device.save("seat 2 scores 22")
    device.page.locator("#keypad-q", has_text="Seat 1").wait_for()
    device.shot("pin")
    device.pin("9999")  # a wrong PIN: refused in words, nothing approved
    device.page.locator("#keypad-error", has_text="PIN").wait_for()
    assert not Approval.objects.exists()
    device.pin(pins[1])
    device.page.locator("#keypad-q", has_text="Seat 2").wait_for()
    device.pin(pins[2])
    # Hand 2: a gin entered by its cards.
    device.hand = 2
    page = device.page
    page.locator("#term-hand-title", has_text="hand 2 of").wait_for()
    device.declare(1, "gin")
    device.tap(device.step("keypad").locator("#keypad-cards"))
    device.step("cards").locator("#cards-declarer").fill(DECLARER)
    page.locator("#cards-opponent").fill(OPPONENT)
    device.tap(page.locator("#cards-ok"))
    device.save("Seat 1 goes gin, seat 2 has 47: seat 1 scores 72.")
    for seat in (1, 2):
        page.locator("#keypad-q", has_text=f"Seat {seat}").wait_for()
        device.pin(pins[seat])
    # Hand 3: a false knock first (by the counts: the cards are not taken then), a draw.
    device.hand = 3
    page.locator("#term-hand-title", has_text="hand 3 of").wait_for()
    device.tap(device.step("who").locator("#who-false-knock"))
    device.tap(device.step("false").locator("[data-false-seat='2']"))
    device.keypad(23)
    page.locator("#who-false", has_text="Seat 2 knocked falsely with 23.").wait_for()
    device.declare(None, "draw")
    device.save("Seat 2 knocked falsely with 23. A draw: nobody scores.")
    for seat in (1, 2):
        page.locator("#keypad-q", has_text=f"Seat {seat}").wait_for()
        device.pin(pins[seat])
    device.hand = "signatures"
    device.sign(pins)
    # The other table of the match, by PIN too.
    second_device.play(1, 1, "knock", 4, 12, pins=theirs, reading="seat 1 scores 23")
    second_device.play(2, 2, "gin", theirs=30, pins=theirs, reading="seat 2 scores 55")
    second_device.play(3, 1, "big_gin", theirs=18, pins=theirs, reading="seat 1 scores 53")
    second_device.hand = "signatures"
    second_device.sign(theirs)
    print("\ntaps per hand (PIN):", dict(device.taps), dict(second_device.taps))
    assert list(Approval.objects.values_list("method", flat=True).distinct()) == ["pin"]
    assert Approval.objects.filter(result__is_current=True).count() == 12
    assert TableSignature.objects.filter(table__match=match, method="pin").count() == 4
    second, third = HandResult.objects.filter(table=table, hand__in=(2, 3),
                                              is_current=True).order_by("hand")
    assert (second.outcome, second.seat1_points, bool(second.cards)) == ("gin", 72, True)
    assert (third.outcome, third.false_knock_seat, third.false_knock_deadwood) == (
        "draw", 2, 23)
    assert TableSignature.objects.filter(table=table).count() == 2
    device.page.locator(".term-wait").first.wait_for()


def test_offline_and_changed_meanwhile_on_the_terminal(browser, live_server, tournament, teams,
                                                       director_actor, screenshot_dir):
    _stage, round_, slips = event(director_actor, tournament, teams, hands=2)
    table = round_.matches.order_by("number").first().tables.get(position=1)
    device = Device(browser, live_server, slips[table.number], screenshot_dir)
    device.open_slip()
    page = device.page
    # Offline: the hand and both approvals are kept, said, and sent once back.
    device.context.set_offline(True)
    device.hand = 1
    device.declare(1, "knock")
    device.keypad(4)
    device.keypad(12)
    device.step("reading")
    page.locator("#reading-line", has_text="No network").wait_for()
    device.save("Seat 1 knocks with 4, seat 2 has 12 after lay-offs.")
    status = page.locator("#queue-status")
    status.get_by_text("Not sent yet").first.wait_for()
    assert "*" not in status.inner_text()
    device.approve_by_tap(1)
    device.approve_by_tap(2)
    page.locator("#term-hand-title", has_text="hand 2 of").wait_for()
    device.shot("offline")
    assert not HandResult.objects.exists()
    device.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    status.get_by_text("All sent").wait_for()
    assert not status.locator(".queue-send").is_visible()
    current = HandResult.objects.get(table=table, hand=1, is_current=True)
    assert (current.outcome, current.seat1_points) == ("knock", 23)
    assert Approval.objects.filter(result=current).count() == 2
    # Changed meanwhile on another device: shown, nothing overwritten until chosen.
    device.context.set_offline(True)
    device.hand = 2
    device.declare(2, "gin")
    device.keypad(30)
    device.save()
    commands.enter(director_actor, table.pk, 2, HandEntry("draw"), seen_version=0,
                   request_token=uuid.uuid4())
    device.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    conflict = page.locator("#hand-2 .queue-conflict")
    conflict.wait_for()
    device.shot("conflict")
    assert not page.locator("#step-approve").is_visible()  # the choice first
    assert HandResult.objects.get(table=table, hand=2, is_current=True).outcome == "draw"
    conflict.get_by_role("button", name="Keep mine as a new version").tap()
    status.get_by_text("All sent").wait_for()
    mine = HandResult.objects.get(table=table, hand=2, is_current=True)
    assert (mine.outcome, mine.version) == ("gin", 2)
    device.approve_by_tap(1)
    device.approve_by_tap(2)
    page.locator("#sign-tap").wait_for(state="visible")  # once the queue has sent it all
    assert Approval.objects.filter(result=mine).count() == 2


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_terminal_is_axe_clean(browser, live_server, tournament, teams, director_actor,
                                   language, screenshot_dir):
    _stage, round_, slips = event(director_actor, tournament, teams, hands=1,
                                  live_results=Tournament.LiveResults.LIVE)
    table = round_.matches.order_by("number").first().tables.get(position=1)
    device = Device(browser, live_server, slips[table.number], screenshot_dir)
    device.context.add_cookies([{"name": "django_language", "value": language,
                                 "url": live_server.url}])
    source = axe_source()
    page = device.page
    page.goto(live_server.url + reverse("terminal"))
    checked = []

    def check(name):
        violations = axe_violations(page, source)
        assert not violations, f"{name} ({language}):\n" + describe(violations)
        checked.append(name)
        device.shot(f"axe-{language}-{name}")

    check("start")
    device.open_slip()
    check("who")
    page.locator("#step-who [data-declare=knock][data-seat='1']").tap()
    device.step("keypad")
    check("keypad")
    device.keypad(4)
    device.keypad(12)
    device.step("reading")
    page.locator("#reading-save:not([disabled])").wait_for()
    check("reading")
    page.locator("#reading-save").tap()
    device.step("approve")
    check("approve")
    page.locator("#approve-tap").tap()
    page.locator("#approve-q", has_text="2").wait_for()
    page.locator("#approve-tap").tap()
    page.locator("#sign-tap").wait_for(state="visible")
    check("sign")
    device.sign()
    check("done")
    assert checked == ["start", "who", "keypad", "reading", "approve", "sign", "done"]


def test_on_a_phone_the_header_and_menu_take_an_eighth_of_the_entry_pages(
        browser, live_server, tournament, teams, director_actor, staff_user, screenshot_dir):
    _stage, round_, slips = event(director_actor, tournament, teams, hands=1)
    match = round_.matches.order_by("number").first()
    table = match.tables.get(position=1)
    boss = staff_user(tournament, "director", username="boss")
    boss.set_password("a-Long-pass-123")
    boss.save()
    pages = [reverse("director:table_entry", args=[tournament.slug, table.pk]),
             reverse("director:round_progress", args=[tournament.slug, round_.pk]),
             reverse("director:match_page", args=[tournament.slug, match.pk])]
    for username, password in ((slips[table.number].username, slips[table.number].password),
                               ("boss", "a-Long-pass-123")):
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.goto(live_server.url + reverse("login"))
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.keyboard.press("Enter")
        # A device lands on its terminal, the director on "Your tournaments".
        page.wait_for_url(re.compile(r".*/(manage|device)/$"))
        for address in pages[:1] if username != "boss" else pages:
            page.goto(live_server.url + address)
            top = page.evaluate("document.getElementById('main').getBoundingClientRect().top")
            assert top <= 740 / 8, (username, address, top)
            fits_the_phone(page)
            page.screenshot(path=screenshot_dir / f"{SHOTS}-entry-{username}-{len(address)}.png")
        context.close()


def type_the_correction(device):
    """Seat 2 says the gin against 9 is wrong: the opponent had 10."""
    device.tap(device.page.locator("#approve-back"))
    device.tap(device.step("reading").locator(".term-back"))
    device.tap(device.step("keypad").locator("[data-digit=del]"))
    device.keypad(10)
    device.save("seat 1 scores 35")


def both_approve_the_correction(device, table) -> HandResult:
    """Both seats approve the corrected hand; everything sent, nothing held, and the
    server holds the correction as the second version."""
    device.approve_by_tap(1)
    device.approve_by_tap(2)
    device.page.locator("#sign-tap").wait_for(state="visible")
    device.page.locator("#queue-status").get_by_text("All sent").wait_for()
    assert not device.page.locator(".queue-conflict, .queue-refused").count()
    current = HandResult.objects.get(table=table, hand=1, is_current=True)
    assert (current.outcome, current.seat1_points, current.version) == ("gin", 35, 2)
    return current


def test_a_correction_typed_while_the_save_is_on_its_way_goes_after_it(
        browser, live_server, tournament, teams, director_actor, screenshot_dir):
    """Seat 1 approves, seat 2 says it is wrong, the hand is typed again and saved: all
    before the server has answered the first save. The second goes over the first (this
    screen's own), never held as "changed meanwhile", and the players approve it."""
    _stage, round_, slips = event(director_actor, tournament, teams, hands=1)
    table = round_.matches.order_by("number").first().tables.get(position=1)
    device = Device(browser, live_server, slips[table.number], screenshot_dir)
    device.open_slip()
    page = device.page
    held = []

    def hold_the_first_save(route):
        if route.request.method == "POST" and not held:
            held.append(route)  # answered below, once the correction is typed
        else:
            route.continue_()

    page.route(re.compile(r"/tables/\d+/hands/1/$"), hold_the_first_save)
    device.hand = 1
    device.declare(1, "gin")
    device.keypad(9)
    device.save("seat 1 scores 34")
    device.approve_by_tap(1)
    type_the_correction(device)
    page.wait_for_function("() => true")
    assert len(held) == 1 and not HandResult.objects.exists()
    held[0].continue_()  # the first save reaches the server now
    current = both_approve_the_correction(device, table)
    assert sorted(Approval.objects.filter(result=current).values_list("seat", flat=True)) == [
        1, 2]


def test_a_correction_saved_before_the_screen_reads_the_first_save_again_goes_after_it(
        browser, live_server, tournament, teams, director_actor, screenshot_dir):
    """The first save is answered, but the screen's reading of the hand as the server holds
    it is slow to come: meanwhile seat 2 says it is wrong and the hand is saved again. The
    second goes over the first (this device's own), never held as "changed meanwhile"."""
    _stage, round_, slips = event(director_actor, tournament, teams, hands=1)
    table = round_.matches.order_by("number").first().tables.get(position=1)
    device = Device(browser, live_server, slips[table.number], screenshot_dir)
    device.open_slip()
    page = device.page
    held, holding = [], [True]
    page.route(re.compile(r"/device/(\?.*)?$"), lambda route: held.append(route)
               if holding and route.request.method == "GET" else route.continue_())
    device.hand = 1
    device.declare(1, "gin")
    device.keypad(9)
    device.save("seat 1 scores 34")
    device.approve_by_tap(1)
    page.wait_for_function("() => true")
    for _ in range(100):  # the first save stored and answered; its reading held
        if held and HandResult.objects.filter(table=table, hand=1).exists():
            break
        page.wait_for_timeout(100)
    assert held, "the screen never read the hand again"
    type_the_correction(device)
    for _ in range(100):
        if HandResult.objects.filter(table=table, hand=1, version=2).exists() or \
                page.locator(".queue-conflict").count():
            break
        page.wait_for_timeout(100)
    holding.clear()
    for route in held:
        route.continue_()
    both_approve_the_correction(device, table)


def test_an_approval_refused_brings_the_hand_back_until_discarded(
        browser, live_server, tournament, teams, director_actor, screenshot_dir):
    _stage, round_, slips = event(director_actor, tournament, teams, hands=1)
    table = round_.matches.order_by("number").first().tables.get(position=1)
    device = Device(browser, live_server, slips[table.number], screenshot_dir)
    device.open_slip()
    page = device.page
    page.on("dialog", lambda dialog: dialog.accept())
    device.hand = 1
    device.declare(1, "knock")
    device.keypad(4)
    device.keypad(12)
    device.save("seat 1 scores 23")
    page.locator("#hand-1[data-version='1']").wait_for(state="attached")
    device.context.set_offline(True)
    device.approve_by_tap(1)
    page.locator("#approve-q", has_text="seat 2").wait_for()
    # The referee changes the hand meanwhile: seat 1's approval was of the old version.
    commands.enter(director_actor, table.pk, 1, HandEntry("draw"), seen_version=1,
                   request_token=uuid.uuid4())
    device.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    refused = page.locator("#hand-1 .queue-refused")
    refused.wait_for()
    assert not page.locator("#step-approve").is_visible()  # the refusal first
    device.shot("refused")
    refused.get_by_role("button", name="Discard").tap()
    page.locator("#approve-words", has_text="A draw: nobody scores.").wait_for()
    device.approve_by_tap(1)
    device.approve_by_tap(2)
    page.locator("#sign-tap").wait_for(state="visible")
    current = HandResult.objects.get(table=table, hand=1, is_current=True)
    assert (current.outcome, current.version) == ("draw", 2)
    assert sorted(Approval.objects.values_list("result__version", "seat")) == [(2, 1), (2, 2)]


def test_the_entry_pages_queue_says_all_sent_without_a_button_and_no_asterisk(
        browser, live_server, tournament, teams, director_actor):
    _stage, round_, slips = event(director_actor, tournament, teams, hands=1)
    table = round_.matches.order_by("number").first().tables.get(position=1)
    slip = slips[table.number]
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", slip.username)
    page.fill("#id_password", slip.password)
    page.keyboard.press("Enter")
    page.wait_for_url("**/device/")  # a device logged in by hand lands on its terminal
    page.goto(live_server.url + reverse("director:table_entry", args=[tournament.slug, table.pk]))
    context.set_offline(True)
    page.locator("#id_h1-outcome").select_option("draw")
    page.locator("#hand-1 button.primary").tap()
    status = page.locator("#queue-status")
    page.locator("#hand-1 .queued-note").wait_for()
    summary = page.locator("#hand-1 .queued-note").inner_text()
    assert "Outcome: Draw" in summary and "*" not in summary
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    status.get_by_text("All sent").wait_for()
    assert not status.get_by_role("button", name="Send them now").is_visible()
