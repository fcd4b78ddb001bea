"""Every public page of a tournament with two closed rounds in a real browser, on a phone
(360 px) and a wide desktop (1920 px): the key content is there, nothing scrolls sideways,
the Content-Security-Policy holds (conftest fails a test on any violation), and a
screenshot of each page is saved to be looked at (SCREENSHOT_DIR keeps them)."""

import pytest
from django.urls import reverse

from tests.tournament.views.public_event import build_event
from tournament.models import Deal, HandResult, Match, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1920, "height": 1080}
TEAMS = [("CHN", "中国红队"), ("ITA", "Italia"), ("GER", "Deutschland"),
         ("TPE", "中華台北"), ("FRA", "France Équipe de Bretagne-Normandie"), ("ESP", "España")]


def overflow(page) -> str:
    """The elements reaching past the window's right edge; empty when none does."""
    return page.evaluate("""() => document.documentElement.scrollWidth > window.innerWidth
        ? [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 8).map(e => e.tagName + '.' + e.className).join('; ') || 'page'
        : ''""")


def scrolled_tables(page) -> list[str]:
    """Tables that scroll inside their frame (sideways scrolling all the same)."""
    return page.evaluate("""() => [...document.querySelectorAll('.table-wrap')]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => (e.querySelector("table") || e).className
                  + " " + e.scrollWidth + ">" + e.clientWidth)""")


def clipped_cells(page) -> list[str]:
    """Table cells whose text reaches past their table's right edge: on a phone, where
    rows fold into cards, it is cut at the card's edge ("Pts +37" for "Pts +371")."""
    return page.evaluate("""() => [...document.querySelectorAll('td')].filter(cell => {
            if (cell.offsetParent === null) return false;
            const text = document.createRange();
            text.selectNodeContents(cell);
            return text.getBoundingClientRect().right
                > cell.closest('table').getBoundingClientRect().right + 1;
        }).slice(0, 8).map(e => e.className + " '" + e.innerText.trim() + "'")""")


@pytest.fixture
def event(director_actor, tournament, make_team):
    return build_event(director_actor, tournament, make_team, closed=2, open_round=False,
                       codes=TEAMS)


def checks(tournament, event) -> list[tuple[str, str, str, str]]:
    """(name, url, CSS selector, text it must contain) for every public page."""
    slug = tournament.slug
    closed = event.closed[0]
    match = Match.objects.filter(round=closed).order_by("number").first()
    result = HandResult.objects.filter(table__match=match, hand=1, table__position=1).get()
    player = Player.objects.get(team__code="CHN", number=1)
    china = next(team for team in event.teams if team.code == "CHN")
    deal = Deal.objects.filter(round=closed, hand=1).order_by("deal_set").first()

    def url(name, *args, query=""):
        return reverse(f"public:{name}", args=[slug, *args]) + query

    return [
        ("list", reverse("public:home"), ".tiles", tournament.name),
        ("home", url("tournament"), ".leader-list", "mp"),
        ("rounds", url("rounds"), ".round-list", "Round 2"),
        ("round", url("round", closed.pk), "table.matches", "official"),
        ("draw-table", url("round", closed.pk, query="?by=table"), "table.draw",
         "deals hands 1, 3"),
        ("draw-team", url("round", closed.pk, query="?by=team"), "table.draw", "中国红队"),
        ("hand-records", url("hand_records", closed.pk), ".hand-record", "Dealer (11)"),
        ("match", url("match", match.pk), "table.duplicate", result.explanation),
        ("standings", url("standings"), "table.standings", "中華台北"),
        ("standings-after-1", url("standings", query="?after=1"), ".standings-note",
         "After round 1"),
        ("individual", url("individual"), "table.individual", player.name),
        ("teams", url("teams"), "table.team-list", "España"),
        ("team", url("team", china.pk), "table.lineups", "Round 1"),
        ("player", url("player", player.pk), "dl.figures", "Per hand"),
        ("penalties", url("penalties"), "table.penalties", "Late for the start"),
        ("deal-check", url("deal_check"), ".card", "Commitment"),
        ("travellers", url("travellers", closed.pk), "table.boxes", "Hand 1"),
        ("traveller", url("traveller", closed.pk, deal.pk, query="?table=1"), "tr.reader",
         "your table"),
        ("field", url("field"), "h1", "Players against the field"),
    ]


# The pages are shared between two tests, each looking at its own on a phone and a wide
# screen: a page is opened once and looked at on both (the window resized).
EVENT_PAGES = ("list", "home", "rounds", "round", "draw-table", "draw-team", "hand-records",
               "match", "standings")


@pytest.mark.parametrize("part", ["event", "teams and players"])
def test_every_public_page_reads_on_a_phone_and_a_wide_screen(page, live_server, tournament,
                                                               event, part, screenshot_dir):
    widths = [("phone", PHONE), ("wide", WIDE)]
    pages = [check for check in checks(tournament, event)
             if (check[0] in EVENT_PAGES) == (part == "event")]
    for key, path, selector, text in pages:
        page.goto(live_server.url + path)
        for name, viewport in widths:
            page.set_viewport_size(viewport)
            page.screenshot(path=str(screenshot_dir / f"public-{key}-{name}.png"),
                            full_page=True)
            assert page.locator("h1").count() == 1, key
            assert text in page.locator(selector).first.inner_text(), (key, selector, text)
            assert page.locator("nav.public-nav").count() == (0 if key == "list" else 1), key
            assert not overflow(page), f"{key} scrolls sideways at {name}: {overflow(page)}"
            assert not scrolled_tables(page), f"{key}: {scrolled_tables(page)} wider at {name}"
            assert not clipped_cells(page), f"{key}: {clipped_cells(page)} cut at {name}"
        widths.reverse()  # the next page opens at the width this one ended at


def test_a_match_in_play_holds_back_unfinished_boxes_on_a_phone(page, live_server,
                                                                director_actor, tournament,
                                                                make_team, screenshot_dir):
    tournament.live_results = "finished_boxes"
    tournament.save()
    event = build_event(director_actor, tournament, make_team, closed=1, codes=TEAMS[:4])
    match = Match.objects.filter(round=event.open).order_by("number").first()
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("public:match", args=[tournament.slug, match.pk]))
    page.screenshot(path=str(screenshot_dir / "public-match-in-play-phone.png"), full_page=True)
    hands = page.locator("table.duplicate tbody tr")
    assert event.finished[0] in hands.nth(0).inner_text()
    assert "the result is held back" in hands.nth(1).inner_text()
    assert "shown once every table has played its boxes" in page.locator(".match-head") \
        .inner_text()
    assert not overflow(page)


def test_the_network_is_off_for_every_browser_test(page, live_server, browser_problems):
    """conftest refuses and reports any request outside the site (no CDN at run time)."""
    from playwright.sync_api import Error as PlaywrightError

    page.goto(live_server.url + reverse("public:home"))
    assert not browser_problems
    with pytest.raises(PlaywrightError):
        page.goto("https://cdn.example.org/htmx.min.js")
    assert browser_problems == ["request outside the site: https://cdn.example.org/htmx.min.js"]
    browser_problems.clear()
