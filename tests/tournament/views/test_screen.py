"""The big screen (issue 13, item 1) without a browser: what the page and its fragment show
under each live-results setting, the first page of each section without script, the
switches, a fragment the same for everyone (cacheable), pinned query counts. The browser
test is test_browser_screen.py."""

import importlib
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import kept_stage_queries
from tests.tournament.views.public_event import (
    build_event,
    leaked_runs,
    one_event_per_module,
    page_text,
    public_runs,
    secret_runs,
)
from tournament.models import Match, Tournament
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round

screen_view = importlib.import_module("tournament.views.public.screen")


built_event, event, tournament = one_event_per_module()


def urls(tournament):
    return (reverse("public:screen", args=[tournament.slug]),
            reverse("public:screen_fragment", args=[tournament.slug]))


def rows(page: str, section: str) -> list[tuple[str, str]]:
    """(data-page, text) of every row of a section of the screen."""
    part = page.split(f'id="screen-{section}"', 1)[1].split("</section>", 1)[0]
    return [(number, page_text(body)) for number, body in
            re.findall(r"<tr data-page=\"(\d+)\"(.*?)</tr>", part, flags=re.S)]


@pytest.mark.parametrize("setting", ["closed", "finished_boxes", "live"])
def test_the_screen_shows_what_the_setting_allows_and_no_card(client, tournament, event,
                                                             setting):
    tournament.live_results = setting
    tournament.save()
    kept_back = {"closed": event.kept_back + event.finished,
                 "finished_boxes": event.kept_back, "live": []}[setting]
    for url in urls(tournament):
        response = client.get(url)
        assert response.status_code == 200
        text = page_text(response.content.decode())
        assert not leaked_runs(text, secret_runs(event.open), public_runs(event.closed))
        assert not [result for result in kept_back if result in text]
        assert "Team 001" in text and event.open.label in text
    fragment = client.get(urls(tournament)[1]).content.decode()
    matches = rows(fragment, "matches")
    assert len(matches) == event.open.matches.count()
    scored = [text for _page, text in matches if " : " in text]
    if setting == "live":
        assert len(scored) == len(matches) and "are provisional" in fragment
    else:
        assert not scored  # no match has every box finished everywhere


def test_a_sign_off_reaches_the_fragment(client, own_tournament, make_team):
    tournament, director_actor = own_tournament
    event = build_event(director_actor, tournament, make_team, closed=1)
    url = urls(tournament)[1]
    assert "official" not in page_text(client.get(url).content.decode())
    sign_off_everything(director_actor, event.open)
    tournament.live_results = Tournament.LiveResults.FINISHED_BOXES
    tournament.save()
    text = page_text(client.get(url).content.decode())
    assert text.count(" MP") >= 2


def sign_off_everything(actor, round_):
    """Every hand of the round entered and approved, every table signed, every match
    signed off."""
    from tests.tournament.views.public_event import enter, entry_for
    from tournament.models import HandResult
    from tournament.services.approvals import approve_hand, sign_table
    from tournament.services.signoff import sign_off_match

    for match in round_.matches.order_by("number"):
        for table in match.tables.order_by("position"):
            for hand in range(1, match.hands + 1):
                result = HandResult.objects.filter(table=table, hand=hand,
                                                   is_current=True).first()
                if result is None:
                    enter(actor, table, hand, entry_for(table.number, hand))
                elif result.approvals.count() < 2:
                    for seat in (1, 2):
                        if not result.approvals.filter(seat=seat).exists():
                            approve_hand(actor, result, seat)
            for seat in (1, 2):
                sign_table(actor, table, seat)
        sign_off_match(actor, Match.objects.get(pk=match.pk))


def test_each_section_shows_its_first_page_without_script(client, own_tournament, make_team,
                                                          monkeypatch):
    tournament, director_actor = own_tournament
    monkeypatch.setattr(screen_view, "STANDINGS_ROWS", 3)
    monkeypatch.setattr(screen_view, "MATCH_ROWS", 2)
    monkeypatch.setattr(screen_view, "DRAW_ROWS", 2)
    event = build_event(director_actor, tournament, make_team, teams=8, closed=1,
                        open_round=False)
    publish_round(director_actor, generate_round(director_actor, event.stage))
    page = client.get(urls(tournament)[0]).content.decode()
    standings = rows(page, "standings")
    assert [number for number, _text in standings] == ["0"] * 3 + ["1"] * 3 + ["2"] * 2
    assert page.count('data-page="0" ') + page.count('data-page="0">') == 3 + 2 + 2
    assert len(re.findall(r'data-page="[1-9]"[^>]*hidden', page)) == 5 + 2 + 2
    assert 'data-pages="3"' in page and "1 / 3" in page
    assert rows(page, "draw") and rows(page, "matches")  # the next draw, the last results
    # The page polls the fragment and turns its pages, CSP-clean.
    assert f'data-hx-get="{urls(tournament)[1]}"' in page
    assert 'data-hx-trigger="every 15000ms"' in page
    assert "screen.js" in page and "<script>" not in page and "style=" not in page


def test_the_fragment_is_the_same_for_everyone(client, tournament, event, staff_user):
    """No user, no token, no clock: a cache may serve one copy to every reader."""
    url = urls(tournament)[1]
    anonymous = client.get(url)
    client.force_login(staff_user(tournament, "director", username="boss"))
    staff = client.get(url)
    assert anonymous.content == staff.content
    assert b"csrf" not in anonymous.content.lower()
    assert client.get(url).content == anonymous.content
    assert client.post(url).status_code == 405
    # Both marked for the public cache, under the tournament (invalidated with it).
    for address in urls(tournament):
        assert getattr(client.get(address), "_public_cache_scope", None) == tournament.slug


def test_the_screen_follows_the_switches_and_set_up(client, tournament, event):
    page, fragment = urls(tournament)
    tournament.public_standings = False
    tournament.public_results = False
    tournament.live_results = Tournament.LiveResults.LIVE
    tournament.save()
    text = client.get(fragment).content.decode()
    assert 'id="screen-standings"' not in text
    assert " : " not in page_text(text.split('id="screen-matches"', 1)[1])
    tournament.status = Tournament.Status.SETUP
    tournament.save()
    assert client.get(page).status_code == 404 and client.get(fragment).status_code == 404


def test_the_tournament_page_links_the_screen(client, tournament, event):
    home = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert f'href="{urls(tournament)[0]}"' in home


def counts(client, tournament) -> list[int]:
    """The queries of a second visit of each (the first: what the process keeps is read)."""
    result = []
    for url in urls(tournament):
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        result.append(len(queries))
    return result


# The page and the fragment: a round in play; the last closed round and the next draw.
# Under "live" the rule needs no query of the round's tables and results.
# The matches' rounds are read apart, once (selectors.public.match_lines).
IN_PLAY = {"closed": 14, "finished_boxes": 15, "live": 12}
WITH_DRAW = 16


def test_the_screen_reads_in_a_pinned_number_of_queries(
        client, tournament, event, make_tournament, make_team, staff_user, actor):
    larger = make_tournament(name="Asian Cup", slug="asian-cup")
    director = actor(staff_user(larger, "director", username="director2"))
    build_event(director, larger, make_team, teams=8, closed=3,
                codes=[(f"A{i}", f"Asia {i}") for i in range(1, 9)])
    for setting in Tournament.LiveResults.values:
        for t in (tournament, larger):
            t.live_results = setting
            t.save()
        expected = [IN_PLAY[setting] - kept_stage_queries()] * 2
        assert counts(client, tournament) == counts(client, larger) == expected, setting


def test_the_screen_with_the_next_draw_reads_in_a_pinned_number_of_queries(
        client, own_tournament, make_tournament, make_team, staff_user, actor):
    tournament, director_actor = own_tournament
    larger = make_tournament(name="Asian Cup", slug="asian-cup")
    director = actor(staff_user(larger, "director", username="director2"))
    for who, where, teams, closed in ((director_actor, tournament, 4, 1),
                                      (director, larger, 8, 3)):
        played = build_event(who, where, make_team, teams=teams, closed=closed,
                             open_round=False,
                             codes=[(f"{where.slug[:2]}{i}", f"{where.name} {i}")
                                    for i in range(1, teams + 1)])
        publish_round(who, generate_round(who, played.stage))
    expected = [WITH_DRAW - kept_stage_queries()] * 2
    assert counts(client, tournament) == counts(client, larger) == expected
