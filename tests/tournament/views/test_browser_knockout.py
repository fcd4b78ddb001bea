"""The knockout in a real browser (issue 20): the finished demo and the demo with its final
in play, on a phone (360 px) and a projector (1920 px), in English and Chinese. The
overview names the champion once the final is public, every bracket round is named, the
bracket scrolls inside its own box on a phone while the page does not, and a 16-team
bracket fits the big screen whole."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournament.views.test_browser_public import overflow
from tests.tournament.views.test_knockout_pages import finish, pair
from tournament.demo import SLUG, build_demo
from tournament.models import Stage
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1920, "height": 1080}
ROUND_NAMES = {
    "en": ["Quarter-finals", "Semi-finals", "Final", "Match for third place"],
    "zh-Hans": ["四分之一决赛", "半决赛", "决赛", "三四名决赛"],
}
CHAMPION = {"en": "Champion", "zh-Hans": "冠军"}


def bracket_fits(page) -> str:
    """Bracket boxes reaching past the window (right or bottom); empty when none does."""
    return page.evaluate("""() => [...document.querySelectorAll('.bracket-match')]
        .filter(e => { const r = e.getBoundingClientRect();
                       return r.right > window.innerWidth + 1
                           || r.bottom > window.innerHeight + 1; })
        .map(e => e.innerText.replace(/\\s+/g, ' ').slice(0, 40)).join('; ')""")


def labels_broken(page) -> list[str]:
    """The words beside a match's number (its group, "third place") on more lines than they
    have words: a column too narrow for them breaks them letter by letter."""
    return page.evaluate("""() => [...document.querySelectorAll('td.match-no .muted')]
        .filter(e => e.getClientRects().length > e.innerText.trim().split(/\\s+/).length)
        .map(e => e.innerText)""")


def look_at_the_knockout(page, live_server, final, *, live, screenshot_dir):
    """The overview, the standings and the big screen in English and Chinese on a phone and
    a projector: the teams still in while the final is in play, the champion after it. Each
    page is opened once a language and looked at on both (the window resized); each
    language at its own address."""
    widths = (("phone", PHONE), ("wide", WIDE))
    for language in ("en", "zh-Hans"):
        with translation.override(language):
            home, standings, screen = (live_server.url + reverse(f"public:{name}", args=[SLUG])
                                       for name in ("tournament", "standings", "screen"))
        state = f"knockout-{'live' if live else 'finished'}-{language}"
        page.goto(home)
        for name, viewport in widths:
            shot = f"{state}-{name}"
            page.set_viewport_size(viewport)
            page.screenshot(path=str(screenshot_dir / f"{shot}-home.png"), full_page=True)
            assert not overflow(page), (shot, overflow(page))
            assert not labels_broken(page), (shot, labels_broken(page))
            leaders = page.locator("section.knockout-state").inner_text()
            if live:
                assert page.locator(".champion").count() == 0, shot
                for team in (final.home, final.away):
                    assert team.code in page.locator("ul.still-in").inner_text(), shot
            else:
                champion = final.home if final.home_total > 0 else final.away
                assert CHAMPION[language] in leaders, shot
                assert champion.name in page.locator(".champion").inner_text(), shot

        page.goto(standings)
        for name, viewport in widths:
            shot = f"{state}-{name}"
            page.set_viewport_size(viewport)
            page.screenshot(path=str(screenshot_dir / f"{shot}-standings.png"),
                            full_page=True)
            assert not overflow(page), (shot, overflow(page))
            names = [text.strip() for text in
                     page.locator(".bracket-round-name").all_inner_texts()]
            assert names == ROUND_NAMES[language], shot
            assert page.locator("table.final-ranking tbody tr").count() == 16, shot
            wrap = page.locator(".bracket-wrap")
            scrolls = wrap.evaluate("e => e.scrollWidth > e.clientWidth")
            assert scrolls == (name == "phone"), shot  # sideways inside its own box only

        shot = f"{state}-wide"  # the big screen is the projector's
        page.set_viewport_size(WIDE)
        page.goto(screen)
        page.screenshot(path=str(screenshot_dir / f"{shot}-screen.png"))
        assert not overflow(page), (shot, overflow(page))
        if live:
            screen_names = page.locator(".screen-bracket .bracket-round-name")
            assert [t.strip() for t in screen_names.all_inner_texts()] == \
                ROUND_NAMES[language], shot
            assert not bracket_fits(page), (shot, bracket_fits(page))
        else:
            assert page.locator(".screen-podium-list li").count() == 3, shot


def test_a_sixteen_team_bracket_fits_the_projector(page, live_server, director_actor,
                                                   tournament, teams, screenshot_dir):
    tournament.status = "running"
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT,
                         third_place_match=True)
    enter_teams(director_actor, stage, teams(16))
    finish(director_actor, generate_round(director_actor, stage), upsets={pair("T8", "T9")})
    generate_round(director_actor, stage)  # the quarter-finals drawn, not published
    page.set_viewport_size(WIDE)
    page.goto(live_server.url + reverse("public:screen", args=[tournament.slug]))
    page.screenshot(path=str(screenshot_dir / "knockout-16-screen.png"))
    assert not overflow(page), overflow(page)
    assert not bracket_fits(page), bracket_fits(page)
    assert page.locator(".screen-bracket .bracket-match").count() == 16  # 8 + 4 + 2 + 1 + 1
    assert [t.strip() for t in page.locator(".screen-bracket .bracket-round-name")
            .all_inner_texts()] == ["Round of 16", "Quarter-finals", "Semi-finals", "Final",
                                    "Match for third place"]


def test_the_final_played_to_the_end_in_the_pages_crowns_the_champion(
        page, live_server, staff_user, screenshot_dir):
    """The demo with its final in play, on a phone and a projector in both languages; then a
    director enters the hands still missing at the four tables of the final round, has them
    approved and signed, signs both matches off, closes the round, reveals the key and
    marks the tournament finished, all in the pages; a spectator then sees the champion and
    the podium, and the finished event on a phone and a projector. (One build of the demo
    for both states: it is the slowest part.)"""
    from tests.tournament.views.test_browser_entry import approve_and_sign, enter_hand, log_in
    from tournament.models import HandResult, Round

    built = build_demo(5, live=True)
    tournament = built.tournament
    final_round = Round.objects.get(stage__tournament=tournament, status=Round.Status.IN_PLAY)
    final = final_round.matches.select_related("home", "away").get(number=1)
    look_at_the_knockout(page, live_server, final, live=True, screenshot_dir=screenshot_dir)
    spectator = page.context.browser.new_page()
    spectator.goto(live_server.url + reverse("public:tournament", args=[SLUG]))
    assert spectator.locator(".champion").count() == 0

    log_in(page, live_server, staff_user(tournament, "director", username="walker"))
    for match in final_round.matches.order_by("number"):
        for table in match.tables.order_by("position"):
            page.goto(live_server.url + reverse("director:table_entry",
                                                args=[SLUG, table.pk]))
            entered = set(HandResult.objects.filter(table=table, is_current=True)
                          .values_list("hand", flat=True))
            for hand in range(1, match.hands + 1):
                if hand not in entered:  # the home seat of table 1 knocks: no tie
                    enter_hand(page, hand, "knock", seat=1 if table.position == 1 else 2,
                               mine=3, theirs=25)
            approve_and_sign(page)
        page.goto(live_server.url + reverse("director:match_page", args=[SLUG, match.pk]))
        with page.expect_navigation():
            page.locator("button", has_text="Sign the match off").click()
        assert "won by" in page.locator(".score-line").inner_text()
        assert " 3 : 1" not in page.locator(".score-line").inner_text()
    page.goto(live_server.url + reverse("director:round_close", args=[SLUG, final_round.pk]))
    with page.expect_navigation():
        page.locator("button.primary", has_text="Close").click()

    final, third = final_round.matches.order_by("number").select_related("home", "away")
    final.refresh_from_db()
    third.refresh_from_db()
    champion = final.home if final.home_total > 0 else final.away
    runner_up = final.away if champion == final.home else final.home
    bronze = third.home if third.home_total > 0 else third.away
    spectator.goto(live_server.url + reverse("public:tournament", args=[SLUG]))
    spectator.screenshot(path=str(screenshot_dir / "knockout-walk-home.png"), full_page=True)
    assert champion.name in spectator.locator(".champion").inner_text()
    assert [t.split()[1] for t in spectator.locator(".podium-list li").all_inner_texts()] == [
        champion.code, runner_up.code, bronze.code]
    spectator.goto(live_server.url + reverse("public:standings", args=[SLUG]))
    assert spectator.locator("h2#ranking").inner_text() == "Final ranking"
    # Every name in the bracket whole: wrapped, never cut short (issue 56).
    assert spectator.evaluate("""() => [...document.querySelectorAll(
        '.bracket-tree .team-name')].filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => e.textContent)""") == []
    spectator.goto(live_server.url + reverse("public:screen", args=[SLUG]))
    assert champion.name in spectator.locator(".screen-champion").inner_text()

    # The end of the event, as the director does it: the key revealed, the event finished.
    page.goto(live_server.url + reverse("director:dashboard", args=[SLUG]))
    assert "Reveal the deal key" in page.locator(".next-steps").inner_text()
    assert "mark the tournament finished" in page.locator(".next-steps").inner_text()
    page.goto(live_server.url + reverse("director:deal_key", args=[SLUG]))
    page.locator("form[action$='/deals/reveal/'] input[name=confirm]").check()
    with page.expect_navigation():
        page.locator("form[action$='/deals/reveal/'] button").click()
    page.goto(live_server.url + reverse("director:tournament_edit", args=[SLUG]))
    page.select_option("select[name=status]", "finished")
    with page.expect_navigation():
        page.locator("form button[type=submit].primary").first.click()
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert tournament.deal_keys.get().revealed_at is not None
    look_at_the_knockout(spectator, live_server, final, live=False,
                         screenshot_dir=screenshot_dir)
