"""The table's queue never drops a command silently (issue 51), in a real browser: for each
way a kept command can be refused — the devices made again while offline, the account moved
to another table, another account logged in on the same browser, the hand changed
meanwhile, refused as typed, the server restarting — no command disappears, the screen
says why and offers the way on, and nothing is done twice once sent. The queue is the
account's, encrypted: after a log-out and a log-in as another table's account, nothing of
the first table is in the browser's storage in clear, and no CSRF token at all."""

import json
import re
import uuid

import pytest
from django.urls import reverse

from tournament.models import Approval, AuditEntry, HandResult, Stage, TableBinding
from tournament.queue_keys import queue_name
from tournament.services import commands
from tournament.services.devices import create_table_devices, move_binding
from tournament.services.draw import generate_round
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
DECLARER = "AS 2S 3S 4S 5H 6H 7H 8D 8C 8S"  # a gin: A-4 of spades, 5-7 of hearts, three 8s
OPPONENT = "KD KC QH JH 9C 9D 2D 3D 4C TH"


@pytest.fixture
def expected_browser_problems():
    """The browser logs each request the dropped network, the stopped server or a refusal
    answered without its answer: here that is the point, not a fault of the page."""
    return ("ERR_INTERNET_DISCONNECTED", "net::ERR_FAILED", "ERR_CONNECTION_REFUSED",
            "ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE", "htmx:sendError",
            "htmx:afterRequest", "the server responded with a status of 403",
            "the server responded with a status of 503")


@pytest.fixture
def tables(director_actor, tournament, teams):
    """Tables 1 and 2 of a round in play (one match)."""
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_, override_reason="test")
    start_round(director_actor, round_)
    return {table.number: table for table in round_.matches.get().tables.all()}


def entry_url(live_server, tournament, table):
    return live_server.url + reverse("director:table_entry", args=[tournament.slug, table.pk])


def log_in(page, live_server, username, password=PASSWORD, *, at=None):
    """Log in on the log-in page (``at``: already there, sent back to the page after)."""
    if at is None:
        page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.keyboard.press("Enter")
    # A table's device lands on its terminal, anyone else on "Your tournaments".
    page.wait_for_url(at or re.compile(r".*/(manage|device)/$"))


def scorer(tournament, staff_user, username):
    user = staff_user(tournament, "scorer", username=username)
    user.set_password(PASSWORD)
    user.save()
    return user


@pytest.fixture
def li(tournament, staff_user):
    return scorer(tournament, staff_user, "li")


@pytest.fixture
def li_page(page, live_server, tournament, tables, li):
    """li's screen at table 1 (which li scores from then on)."""
    log_in(page, live_server, "li")
    page.goto(entry_url(live_server, tournament, tables[1]))
    return page


def enter(page, hand, outcome, seat=None, mine=None, theirs=None):
    row = page.locator(f"#hand-{hand}")
    row.locator(f"#id_h{hand}-outcome").select_option(outcome)
    if seat:
        row.locator(f"#id_h{hand}-declarer_seat").select_option(str(seat))
    if mine is not None:
        row.locator(f"#id_h{hand}-declarer_deadwood").fill(str(mine))
    if theirs is not None:
        row.locator(f"#id_h{hand}-opponent_deadwood").fill(str(theirs))
    row.locator("button.primary").click()


def enter_cards(page, hand):
    row = page.locator(f"#hand-{hand}")
    row.locator(f"#id_h{hand}-outcome").select_option("gin")
    row.locator(f"#id_h{hand}-declarer_seat").select_option("1")
    row.locator(".cards-mode summary").click()
    row.locator(f"#id_h{hand}-declarer_cards").fill(DECLARER)
    row.locator(f"#id_h{hand}-opponent_cards").fill(OPPONENT)
    row.locator("button.primary").click()


def status(page) -> str:
    return page.locator("#queue-status").inner_text()


def accept_dialogs(page) -> list[str]:
    """Every dialog accepted; their questions, in order."""
    asked: list[str] = []

    def accept(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    return asked


def results(table) -> list[tuple]:
    return [(r.hand, r.outcome, r.version)
            for r in HandResult.objects.filter(table=table).order_by("hand", "version")]


def test_devices_made_again_while_offline_the_kept_saves_wait_for_the_new_log_in(
        page, live_server, tournament, tables, director_actor):
    table = tables[1]
    slip = next(s for s in create_table_devices(director_actor, table.match.round)
                if s.table == 1)
    log_in(page, live_server, slip.username, slip.password)
    page.goto(entry_url(live_server, tournament, table))
    page.context.set_offline(True)
    enter(page, 1, "knock", 1, 4, 12)
    enter(page, 2, "draw")
    page.locator("#hand-1 .queued-approve", has_text="Seat 2 approves").click()
    # The director makes the devices again: a new password, the device's session ends.
    new = next(s for s in create_table_devices(director_actor, table.match.round,
                                               replace=True) if s.table == 1)
    page.context.set_offline(False)
    page.locator("#queue-status", has_text="this device was logged out").wait_for()
    assert f"log in again as {slip.username} and it will be sent" in status(page)
    assert "All sent" not in status(page)
    assert page.locator("#hand-1 .queued-note", has_text="Not sent yet: seat 2").count() == 1
    assert page.locator("#hand-2 .queued-note", has_text="Not sent yet").count() == 1
    assert not HandResult.objects.exists()
    # Logged in again with the new slip: sent, each once.
    page.locator("#queue-status").get_by_role("link", name="Log in").click()
    log_in(page, live_server, new.username, new.password,
           at=entry_url(live_server, tournament, table))
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert results(table) == [(1, "knock", 1), (2, "draw", 1)]
    assert list(Approval.objects.values_list("result__hand", "seat")) == [(1, 2)]
    assert page.evaluate("localStorage.length") == 0


def test_moved_to_another_table_the_kept_commands_go_there_after_a_confirmation(
        li_page, live_server, tournament, tables, director_actor, li):
    from tests.axe import assert_no_violation, axe_source

    source = axe_source()
    page = li_page
    page.context.set_offline(True)
    enter(page, 1, "knock", 1, 4, 12)
    page.locator("#hand-1 .queued-approve", has_text="Seat 1 approves").click()
    enter(page, 2, "draw")
    move_binding(director_actor, li, tables[2])  # a referee moves li to table 2
    page.context.set_offline(False)
    moved = page.locator(".queue-moved")
    moved.wait_for()
    assert ("This account now scores table 2 (moved by a referee or the director): 3 "
            "entries or approvals kept for table 1 were not sent.") in moved.inner_text()
    assert "All sent" not in status(page) and "wait for your choice" in status(page)
    assert page.locator("#hand-2 .queued-note", has_text="Not sent yet: Outcome: Draw").count()
    assert not HandResult.objects.exists()
    assert_no_violation(page, "the entry screen with a table moved", source)
    asked = accept_dialogs(page)
    moved.get_by_role("button", name="Send them to table 2").click()
    page.wait_for_url(entry_url(live_server, tournament, tables[2]))
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert asked[0].startswith("Send what this device kept for table 1 to table 2?")
    assert results(tables[1]) == []
    assert results(tables[2]) == [(1, "knock", 1), (2, "draw", 1)]
    assert list(Approval.objects.values_list("result__table", "result__hand", "seat")) == [
        (tables[2].pk, 1, 1)]
    page.locator("#hand-1", has_text="seat 1 approved").wait_for()


def test_moved_to_another_table_the_kept_commands_may_be_discarded_and_the_log_says_so(
        li_page, tournament, tables, director_actor, li):
    page = li_page
    page.context.set_offline(True)
    enter_cards(page, 1)
    enter(page, 2, "knock", 2, 3, 20)
    move_binding(director_actor, li, tables[2])
    page.context.set_offline(False)
    moved = page.locator(".queue-moved")
    moved.wait_for()
    asked = accept_dialogs(page)
    moved.get_by_role("button", name="Discard them").click()
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert asked == ["Discard the 2 entries or approvals kept for table 1? They are never "
                     "sent, and the log shows that this device discarded them."]
    assert not HandResult.objects.exists()
    discarded = AuditEntry.objects.filter(action="device.discard").order_by("data__hand")
    assert [entry.summary for entry in discarded] == [
        "li discarded a save of hand 1 at table 1, kept on the device and never sent: typed "
        "by its cards; the account had been moved to another table",
        "li discarded a save of hand 2 at table 1, kept on the device and never sent: knock "
        "by seat 2 3 vs 20; the account had been moved to another table"]
    assert not any("AS 2S" in json.dumps(entry.data) for entry in discarded)
    assert page.evaluate("localStorage.length") == 0


def test_another_account_logged_in_on_the_same_browser_neither_reads_nor_sends_the_queue(
        li_page, live_server, tournament, tables, staff_user):
    scorer(tournament, staff_user, "wu")
    page = li_page
    page.route("**/hands/*/", lambda route: route.abort())  # no answer to li's saves
    enter(page, 1, "knock", 1, 4, 12)
    enter(page, 2, "draw")
    page.locator("#queue-status", has_text="Not sent yet (2)").wait_for()
    # wu, another table's device, logs in on the same browser (another tab).
    other = page.context.new_page()
    log_in(other, live_server, "wu")
    other.goto(entry_url(live_server, tournament, tables[2]))
    assert other.locator("#queue-status").is_hidden()
    page.unroute("**/hands/*/")
    page.locator("#queue-status").get_by_role("button", name="Send them now").click()
    page.locator("#queue-status", has_text="another account is logged in").wait_for()
    assert "log in again as li and it will be sent" in status(page)
    assert not HandResult.objects.exists()
    assert not TableBinding.objects.filter(user__username="wu", table=tables[1]).exists()
    other.reload()
    assert other.locator("#queue-status").is_hidden()  # wu's pages never send li's queue
    assert not HandResult.objects.exists()
    other.close()
    page.locator("#queue-status").get_by_role("link", name="Log in").click()
    log_in(page, live_server, "li", at=entry_url(live_server, tournament, tables[1]))
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert results(tables[1]) == [(1, "knock", 1), (2, "draw", 1)]
    assert results(tables[2]) == []


STORAGE = """async () => {
  const all = (store) => Array.from({length: store.length}, (_, i) => store.key(i))
    .map((key) => [key, store.getItem(key)]);
  const databases = indexedDB.databases ? await indexedDB.databases() : [];
  return {local: all(localStorage), session: all(sessionStorage),
          indexeddb: databases.map((d) => d.name)};
}"""


def csrf_values(page) -> set[str]:
    cookies = {c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"}
    fields = set(page.eval_on_selector_all("input[name=csrfmiddlewaretoken]",
                                           "fields => fields.map(f => f.value)"))
    return cookies | fields


def test_after_a_log_out_another_tables_account_finds_nothing_of_the_first_in_clear(
        li_page, live_server, tournament, tables, staff_user, li):
    scorer(tournament, staff_user, "wu")
    page = li_page
    page.route("**/hands/*/", lambda route: route.abort())
    enter_cards(page, 1)
    enter(page, 2, "knock", 1, 4, 12)
    page.locator("#hand-2 .queued-approve", has_text="Seat 1 approves").click()
    page.locator("#queue-status", has_text="Not sent yet (3)").wait_for()
    secrets = csrf_values(page)
    asked = accept_dialogs(page)
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(live_server.url + "/")
    assert asked == ["This device keeps entries or approvals of li that were not sent. They "
                     "stay on this device for li alone and are sent when li logs in again. "
                     "Log out?"]
    page.unroute("**/hands/*/")
    log_in(page, live_server, "wu")
    page.goto(entry_url(live_server, tournament, tables[2]))
    secrets |= csrf_values(page)
    kept = page.evaluate(STORAGE)
    assert [key for key, _value in kept["local"]] == [f"dupgin-queue-{queue_name(li)}"]
    # htmx keeps the address of the page shown (wu's table's), nothing else is kept there.
    assert kept["session"] in ([], [["htmx-current-path-for-history",
                                     reverse("director:table_entry",
                                             args=[tournament.slug, tables[2].pk])]])
    assert kept["indexeddb"] == []
    everything = json.dumps(kept)
    for clear in ["AS 2S", "KD KC", "Knock", "knock", "Outcome", "approves",
                  f"/tables/{tables[1].pk}/", "csrf", *secrets]:
        assert clear not in everything, clear
    assert set(json.loads(kept["local"][0][1])) == {"v", "iv", "data"}  # AES-GCM, sealed
    assert page.locator("#queue-status").is_hidden()
    # wu keeps nothing: logging out asks nothing; li logs in again and it is sent.
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(live_server.url + "/")
    assert len(asked) == 1
    log_in(page, live_server, "li")
    page.goto(entry_url(live_server, tournament, tables[1]))
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert results(tables[1]) == [(1, "gin", 1), (2, "knock", 1)]
    assert list(Approval.objects.values_list("result__hand", "seat")) == [(2, 1)]
    assert page.evaluate("localStorage.length") == 0


def test_a_hand_changed_meanwhile_taking_theirs_is_recorded_and_nothing_of_mine_saved(
        li_page, tables, director_actor):
    page = li_page
    page.context.set_offline(True)
    enter(page, 1, "knock", 1, 4, 12)
    page.locator("#hand-1 .queued-approve", has_text="Seat 1 approves").click()
    enter(page, 2, "draw")
    commands.enter(director_actor, tables[1].pk, 1, HandEntry("gin", 2, None, 25),
                   seen_version=0, request_token=uuid.uuid4())
    page.context.set_offline(False)
    conflict = page.locator("#hand-1 .queue-conflict")
    conflict.wait_for()
    page.locator("#hand-2", has_text="saved").wait_for()  # the other hand went on
    assert "wait for your choice" in status(page) and "All sent" not in status(page)
    conflict.get_by_role("button", name="Take theirs").click()
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert results(tables[1]) == [(1, "gin", 1), (2, "draw", 1)]
    assert not Approval.objects.exists()
    assert AuditEntry.objects.get(action="device.discard").summary == (
        "li discarded a save of hand 1 at table 1, kept on the device and never sent: knock "
        "by seat 1 4 vs 12, with 1 approvals of it; the hand had been changed on another "
        "device")
    page.locator("#hand-1", has_text="Gin").wait_for()


def test_a_save_refused_as_typed_is_kept_until_corrected(li_page, tables):
    from tests.axe import assert_no_violation, axe_source

    source = axe_source()
    page = li_page
    page.context.set_offline(True)
    enter(page, 1, "knock", 1, 4)  # the opponent's deadwood is missing
    page.context.set_offline(False)
    refused = page.locator("#hand-1 .queue-refused")
    refused.wait_for()
    assert "It is kept on this device: correct the hand and save it again" in \
        refused.inner_text()
    assert "Not sent yet (0)" not in status(page) and "All sent" not in status(page)
    assert not HandResult.objects.exists()
    assert_no_violation(page, "the entry screen with a save refused as typed", source)
    page.locator("#id_h1-opponent_deadwood").fill("12")
    page.locator("#hand-1 button.primary").click()
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert results(tables[1]) == [(1, "knock", 1)]


def test_an_approval_refused_is_kept_with_its_reason_and_discarded_after_a_confirmation(
        li_page, tables, director_actor):
    commands.enter(director_actor, tables[1].pk, 1, HandEntry("knock", 1, 4, 12),
                   seen_version=0, request_token=uuid.uuid4())
    page = li_page
    page.reload()
    page.context.set_offline(True)
    page.locator("#hand-1 button", has_text="Seat 1 approves").click()
    commands.enter(director_actor, tables[1].pk, 1, HandEntry("knock", 1, 4, 9),
                   seen_version=1, request_token=uuid.uuid4())
    page.context.set_offline(False)
    refused = page.locator("#hand-1 .queue-refused")
    refused.wait_for()
    assert "Not done:" in refused.inner_text() and "send it again, or discard it" in \
        refused.inner_text()
    assert not Approval.objects.exists()
    asked = accept_dialogs(page)
    refused.get_by_role("button", name="Discard").click()
    page.locator("#queue-status", has_text="All sent").wait_for()
    assert asked == ["Discard this: Seat 1 approves? It is never sent, and the log shows "
                     "that this device discarded it."]
    assert AuditEntry.objects.get(action="device.discard").summary == (
        "li discarded seat 1's approval of hand 1 at table 1, kept on the device and never "
        "sent; the server had refused it")
    assert not Approval.objects.exists()


def test_the_server_restarting_a_save_is_kept_and_never_done_twice(li_page, tables):
    page = li_page
    answers = []

    def restarting(route):
        # Twice the proxy's "unavailable" while the server restarts; then the save is
        # made but its answer lost on the way back.
        if route.request.method != "POST":
            route.continue_()
        elif len(answers) < 2:
            answers.append(503)
            route.fulfill(status=503, body="restarting")
        else:
            answers.append(route.fetch().status)
            route.abort()

    page.route("**/hands/*/", restarting)
    enter(page, 1, "knock", 1, 4, 12)
    page.locator("#queue-status", has_text="Not sent yet (1)").wait_for()
    for _ in range(60):  # the retries, every 3 s
        if len(answers) >= 3:
            break
        page.wait_for_timeout(500)
    assert answers[:3] == [503, 503, 200]
    assert results(tables[1]) == [(1, "knock", 1)]  # saved, its answer lost
    assert "Not sent yet (1)" in status(page)
    page.unroute("**/hands/*/")
    page.locator("#queue-status", has_text="All sent").wait_for(timeout=15_000)
    assert results(tables[1]) == [(1, "knock", 1)]  # sent again with its token: once
    page.locator("#hand-1", has_text="saved").wait_for()
