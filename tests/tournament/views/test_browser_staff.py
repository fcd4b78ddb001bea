"""Every staff and entry page in a real browser, on a phone (360 px) and a wide desktop
(1920 px), as the director, a referee and a scorer (issue 12, item 7): one h1, headings in
order, no sideways scrolling of the page or of a table inside its frame, a caption on every
data table and a scope on its header cells, a label on every form field, the favicon linked;
a screenshot of each page is saved to be looked at (SCREENSHOT_DIR keeps them). Then the key
forms without JavaScript: entering a hand, approving, signing, signing off, and the
director's round page."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tests.tournament.views.public_event import build_event, enter, entry_for
from tournament.exchange.export import export_text
from tournament.models import Deal, HandResult, Match, Penalty, Role, Stage, Table
from tournament.services.approvals import sign_table
from tournament.services.stages import create_stage
from tournament.services.teams import parse_team_entry, team_entry_fields, update_team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-123"
PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1920, "height": 1080}
TEAMS = [("CHN", "中国红队"), ("ITA", "Italia"), ("FRA", "France Équipe de Bretagne-Normandie"),
         ("ESP", "España")]

# What is wrong with a page, as a list of sentences; empty when nothing is.
AUDIT = r"""() => {
  const problems = [];
  const visible = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  if (document.documentElement.scrollWidth > window.innerWidth) {
    const wide = [...document.querySelectorAll('body *')]
      .filter(e => visible(e) && e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 6).map(e => e.tagName + '.' + e.className);
    problems.push('the page scrolls sideways: ' + (wide.join('; ') || 'page'));
  }
  for (const e of document.querySelectorAll('.table-wrap'))
    if (e.scrollWidth > e.clientWidth + 1)
      problems.push('a table scrolls in its frame: ' + (e.querySelector('table') || e).className
                    + ' ' + e.scrollWidth + '>' + e.clientWidth);
  const h1 = document.querySelectorAll('h1').length;
  if (h1 !== 1) problems.push(h1 + ' h1 elements');
  let last = 0;
  for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const level = +h.tagName[1];
    if (level > last + 1) problems.push('heading ' + h.tagName + ' "' + h.textContent.trim()
                                        .slice(0, 40) + '" after h' + last);
    last = level;
  }
  for (const table of document.querySelectorAll('main table')) {
    if (!table.querySelector(':scope > caption') || !table.caption.textContent.trim())
      problems.push('a table without a caption: ' + table.className);
    const unscoped = [...table.querySelectorAll('th')].filter(th => !th.hasAttribute('scope'));
    if (unscoped.length)
      problems.push('header cells without scope in ' + table.className + ': '
                    + unscoped.map(th => '"' + th.textContent.trim().slice(0, 20) + '"').join(' '));
  }
  for (const field of document.querySelectorAll('input, select, textarea')) {
    if (['hidden', 'submit', 'button'].includes(field.type)) continue;
    const labelled = (field.labels && field.labels.length) || field.getAttribute('aria-label')
      || field.getAttribute('aria-labelledby') || field.title;
    if (!labelled) problems.push('a field without a label: ' + (field.name || field.id));
  }
  for (const e of document.querySelectorAll('[aria-describedby]'))
    for (const id of e.getAttribute('aria-describedby').split(/\s+/))
      if (id && !document.getElementById(id))
        problems.push('aria-describedby of ' + (e.name || e.id) + ' names no element: ' + id);
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length) problems.push('ids used twice: ' + [...new Set(twice)].join(', '));
  const icon = document.querySelector('link[rel~="icon"]');
  if (!icon || !icon.href.endsWith('favicon.svg')) problems.push('no favicon');
  if (!document.documentElement.lang) problems.push('no lang on html');
  if (!document.title.trim()) problems.push('no title');
  return problems;
}"""


def audit(page) -> list[str]:
    return page.evaluate(AUDIT)


@pytest.fixture
def event(director_actor, tournament, make_team):
    tournament.anomaly_threshold = 1  # low: the round in play shows anomalies
    tournament.save()
    event = build_event(director_actor, tournament, make_team, closed=1, codes=TEAMS)
    # A reserve with a long name: the PIN page's row of a reserve overflowed 360 px.
    team = event.teams[0]
    update_team(director_actor, team, parse_team_entry({
        **team_entry_fields(team), "reserve": "Maximilian von Hohenberg-Schwarzenfeld"}))
    create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT,
                 qualify_from=event.stage, qualifiers_per_group=2)
    return event


def log_in(page, live_server, user) -> None:
    user.set_password(PASSWORD)
    user.save()
    page.context.clear_cookies()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/")


def director_pages(tournament, event) -> list[tuple[str, str]]:
    slug = tournament.slug
    closed, open_ = event.closed[0], event.open
    swiss = event.stage
    final = tournament.stages.get(kind=Stage.Kind.KNOCKOUT)
    team = event.teams[0]
    match = Match.objects.filter(round=open_).order_by("number").first()
    table = match.tables.order_by("position").first()
    deal = Deal.objects.filter(round=closed, hand=1).order_by("deal_set").first()
    penalty = Penalty.objects.filter(tournament=tournament).first()

    def url(name, *args, query=""):
        return reverse(f"director:{name}", args=[slug, *args]) + query

    return [
        ("home", reverse("director:home")),
        ("dashboard", url("dashboard")),
        ("settings", url("tournament_edit")),
        ("teams", url("team_list")),
        ("team-new", url("team_create")),
        ("team-import", url("team_import")),
        ("team-edit", url("team_edit", team.pk)),
        ("team-delete", url("team_delete", team.pk)),
        ("team-pins", url("team_pins", team.pk)),
        ("staff", url("staff")),
        ("audit", url("audit")),
        ("penalties", url("penalty_list")),
        ("penalty-new", url("penalty_create")),
        ("penalty-new-match", url("penalty_create", query=f"?match={match.pk}")),
        ("penalty-undo", url("penalty_undo", penalty.pk)),
        ("stages", url("stage_list")),
        ("stage-swiss", url("stage_detail", swiss.pk)),
        ("stage-final", url("stage_detail", final.pk)),
        ("seeding", url("stage_seeding", final.pk)),
        ("standings", url("standings")),
        ("stage-standings", url("stage_standings", swiss.pk)),
        ("final-ranking", url("final_ranking")),
        ("individual", url("individual")),
        ("field", url("field")),
        ("traveller", url("traveller", closed.pk, deal.pk)),
        ("round-closed", url("round_detail", closed.pk)),
        ("round-open", url("round_detail", open_.pk)),
        ("round-close", url("round_close", open_.pk)),
        ("lineup", url("round_lineup", open_.pk, team.pk)),
        ("deal-key", url("deal_key")),
        ("round-deals", url("round_deals", closed.pk)),
        ("progress", url("round_progress", open_.pk)),
        ("match", url("match_page", match.pk)),
        ("table", url("table_entry", table.pk)),
    ]


class Walk:
    """Pages looked at on a phone and on a wide screen, each visited once: the page is
    audited at the width it was opened at, then at the other (the browser lays it out again
    as a window resized). What is wrong goes into ``found``, by page and width."""

    def __init__(self, page, screenshot_dir):
        self.page, self.screenshot_dir = page, screenshot_dir
        self.found: dict[str, list[str]] = {}
        self.widths = [("phone", PHONE), ("wide", WIDE)]
        page.set_viewport_size(PHONE)

    def look(self, key: str, page=None) -> None:
        page = page or self.page
        for name, viewport in self.widths if page is self.page else self.widths[:1]:
            page.set_viewport_size(viewport)
            page.screenshot(path=str(self.screenshot_dir / f"staff-{key}-{name}.png"),
                            full_page=True)
            problems = audit(page)
            if problems:
                self.found[f"{key} at {name}"] = problems
        if page is self.page:
            self.widths.reverse()  # the next page opens at the width this one ended at

    def visit(self, who: str, pages) -> None:
        for key, path in pages:
            response = self.page.goto(self.live_server_url + path)
            if not response.ok:
                self.found[f"{who} {key}"] = [f"status {response.status}"]
                continue
            self.look(f"{who}-{key}")

    def post(self, button, key: str) -> None:
        """Click a button that posts its form and look at the page the post answers with
        (once it has come: the page before may still be there right after the click)."""
        with self.page.expect_navigation():
            button.click()
        self.look(f"director-{key}")

    def check(self) -> None:
        assert not self.found, "\n".join(f"{key}: {problems}"
                                          for key, problems in self.found.items())


@pytest.fixture
def walk(page, live_server, screenshot_dir):
    walk = Walk(page, screenshot_dir)
    walk.live_server_url = live_server.url
    return walk


# Each test looks at its pages on a phone (360 px) and a wide screen (1920 px); the two
# share the pages between them.
def test_every_director_page_reads_on_a_phone_and_a_wide_screen(
        page, live_server, tournament, event, director_actor, walk, settings, tmp_path):
    log_in(page, live_server, director_actor.user)
    walk.visit("director", director_pages(tournament, event))
    # Pages that answer a POST: the integrity check, the preview of a team import, a
    # penalty form sent without its reason.
    slug = tournament.slug
    page.goto(live_server.url + reverse("director:standings", args=[slug]))
    walk.post(page.locator("form[action$='/standings/check/'] button"), "check")
    page.goto(live_server.url + reverse("director:team_import", args=[slug]))
    page.set_input_files("input[type=file]", files=[{
        "name": "teams.csv", "mimeType": "text/csv",
        "buffer": (Path(settings.BASE_DIR) / "tournament/static/tournament/teams-sample.csv"
                   ).read_bytes()}])
    walk.post(page.locator("main button.primary"), "import-preview")
    assert page.locator("table.import-preview").count(), "no import preview"
    page.goto(live_server.url + reverse("director:penalty_create", args=[slug]))
    walk.post(page.locator("form.penalty-form button[type=submit]"), "penalty-errors")

    # An administrator: the import page and its preview, the backups.
    settings.BACKUP_DIR = tmp_path / "backups"
    call_command("backup", stdout=io.StringIO())
    admin = get_user_model().objects.create_superuser("admin", "", PASSWORD)
    log_in(page, live_server, admin)
    walk.visit("admin", [("import", reverse("director:import_upload")),
                         ("backups", reverse("director:backups"))])
    page.goto(live_server.url + reverse("director:import_upload"))
    page.set_input_files("input[type=file]", files=[{
        "name": "world-cup.json", "mimeType": "application/json",
        "buffer": export_text(tournament, secrets=True).encode()}])
    walk.post(page.locator("main button.primary"), "tournament-preview")
    assert page.locator("input[name=account_0]").count(), "no import preview"
    walk.check()


def test_every_page_of_a_referee_a_scorer_and_a_stranger_reads_on_a_phone_and_a_wide_screen(
        page, live_server, tournament, event, staff_user, walk):
    # The log-in page and the error pages, logged out.
    page.goto(live_server.url + reverse("login"))
    walk.look("login")
    # (A page of its own: the 404 is logged on the console, which fails the test's page.)
    for name, viewport in (("phone", PHONE), ("wide", WIDE)):
        other = page.context.new_page()
        other.set_viewport_size(viewport)
        other.goto(live_server.url + "/no-such-page/")
        other.screenshot(path=str(walk.screenshot_dir / f"staff-404-{name}.png"),
                         full_page=True)
        if audit(other):
            walk.found[f"404 at {name}"] = audit(other)
        other.close()

    slug = tournament.slug
    match = Match.objects.filter(round=event.open).order_by("number").first()
    table = match.tables.order_by("position").first()
    referee = staff_user(tournament, Role.REFEREE, chief=True, username="referee")
    log_in(page, live_server, referee)
    walk.visit("referee", [
        ("home", reverse("director:home")),
        ("dashboard", reverse("director:dashboard", args=[slug])),
        ("progress", reverse("director:round_progress", args=[slug, event.open.pk])),
        ("match", reverse("director:match_page", args=[slug, match.pk])),
        ("table", reverse("director:table_entry", args=[slug, table.pk])),
        ("penalties", reverse("director:penalty_list", args=[slug])),
        ("penalty-new", reverse("director:penalty_create", args=[slug])),
    ])
    page.goto(live_server.url + reverse("director:round_progress", args=[slug, event.open.pk]))
    if not page.locator("section.far-results li").count():
        walk.found["referee progress"] = ["no result far from the field is listed"]

    scorer = staff_user(tournament, Role.SCORER, username="scorer")
    log_in(page, live_server, scorer)
    last = event.open.tables.order_by("-number").first()
    walk.visit("scorer", [
        ("home", reverse("director:home")),
        ("table", reverse("director:table_entry", args=[slug, last.pk])),
        ("match", reverse("director:match_page", args=[slug, last.match.pk])),
    ])
    page.goto(live_server.url + reverse("director:dashboard", args=[slug]))
    walk.look("scorer-403")
    walk.check()


def test_the_error_pages_stand_alone(client):
    """The 500 page renders without a request context: it still links the stylesheet and
    the favicon, fits a phone, and has one h1."""
    from django.template.loader import render_to_string

    for name in ("400.html", "500.html"):
        text = render_to_string(name)
        assert 'rel="icon"' in text and "favicon.svg" in text, name
        assert 'name="viewport"' in text, name
        assert text.count("<h1") == 1, name


# Without JavaScript ------------------------------------------------------------------------

@pytest.fixture
def no_script(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    yield page
    context.close()


def test_entry_sign_off_and_the_round_page_work_without_javascript(
        no_script, live_server, tournament, event, director_actor, staff_user,
        screenshot_dir):
    page = no_script
    slug = tournament.slug
    # The last table of the round in play has hand 3 entered, not approved, hands 2 and 4
    # empty; the other table of its match is finished and signed through the services.
    table = event.open.tables.order_by("-number").first()
    for other in table.match.tables.exclude(pk=table.pk):
        for hand in range(1, table.match.hands + 1):
            if not HandResult.objects.filter(table=other, hand=hand).exists():
                enter(director_actor, other, hand, entry_for(other.number, hand))
        for seat in (1, 2):
            sign_table(director_actor, other, seat)
    scorer = staff_user(tournament, Role.SCORER, username="scorer")
    log_in(page, live_server, scorer)
    page.goto(live_server.url + reverse("director:table_entry", args=[slug, table.pk]))
    hands = table.match.hands
    for hand in range(1, hands + 1):
        if not HandResult.objects.filter(table=table, hand=hand).exists():
            form = page.locator(f"#hand-{hand}")
            form.locator(f"#id_h{hand}-outcome").select_option("knock")
            form.locator(f"#id_h{hand}-declarer_seat").select_option("1")
            form.locator(f"#id_h{hand}-declarer_deadwood").fill("3")
            form.locator(f"#id_h{hand}-opponent_deadwood").fill("20")
            with page.expect_navigation():
                form.locator("button.primary").click()
    assert HandResult.objects.filter(table=table).count() == hands
    page.screenshot(path=str(screenshot_dir / "nojs-table-entered.png"), full_page=True)
    # Approvals (the players' PIN is not asked in this tournament) and signatures.
    for hand in range(1, hands + 1):
        for seat in (1, 2):
            button = page.locator(f"#hand-{hand} button", has_text=f"Seat {seat} approves")
            if button.count():
                with page.expect_navigation():
                    button.click()
    for seat in (1, 2):
        with page.expect_navigation():
            page.locator("button", has_text=f"Seat {seat} (").click()
    assert Table.objects.get(pk=table.pk).signatures.count() == 2
    page.screenshot(path=str(screenshot_dir / "nojs-table-signed.png"), full_page=True)

    # The director signs the match off and opens the round's page.
    log_in(page, live_server, director_actor.user)
    match = table.match
    page.goto(live_server.url + reverse("director:match_page", args=[slug, match.pk]))
    page.screenshot(path=str(screenshot_dir / "nojs-match.png"), full_page=True)
    with page.expect_navigation():
        page.locator("form[action$='/sign-off/'] button").click()
    assert Match.objects.get(pk=match.pk).signed_off_at is not None
    page.screenshot(path=str(screenshot_dir / "nojs-signed-off.png"), full_page=True)
    page.goto(live_server.url + reverse("director:round_detail", args=[slug, event.open.pk]))
    page.screenshot(path=str(screenshot_dir / "nojs-round.png"), full_page=True)
    assert not audit(page)
    assert "official" in page.locator("main").inner_text()


def test_the_new_stage_form_shows_each_kinds_own_fields(page, live_server, tournament,
                                                        director_actor):
    """Issue 56: a group stage was offered a knockout's fields."""
    log_in(page, live_server, director_actor.user)
    page.goto(live_server.url + reverse("director:stage_list", args=[tournament.slug]))
    swiss, knockout = (page.locator(f"fieldset[data-for-kind={kind}]")
                       for kind in ("swiss", "knockout"))
    page.select_option("select[name=kind]", "groups")
    assert not swiss.is_visible() and not knockout.is_visible()
    page.select_option("select[name=kind]", "knockout")
    assert knockout.is_visible() and not swiss.is_visible()
    assert page.locator("input[name=third_place_match]").is_visible()
    page.select_option("select[name=kind]", "swiss")
    assert swiss.is_visible() and not knockout.is_visible()
    page.fill("input[name=name]", "Swiss")
    page.fill("input[name=swiss_rounds]", "5")
    with page.expect_navigation():
        page.locator("form[data-stage-form] button[type=submit]").click()
    assert tournament.stages.get(name="Swiss").swiss_rounds == 5
