"""The public site (issue 12, items 1 and 8): every page of a tournament as an anonymous
visitor sees it, what a round in play shows under each live-results setting, the
switches, set-up, and pinned query counts."""

import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from tests.tournament.views.public_event import (
    build_event,
    leaked_runs,
    one_event_per_module,
    page_text,
    public_runs,
    secret_runs,
)
from tests.tournament.views.routes import all_routes, fill
from tournament.models import HandResult, Match, Player, Tournament
from tournament.selectors.bulletin import bulletin_days

# The JSON API has its own walk (tests/tournament/api/test_api.py).
PUBLIC_SKIP = ("manage/", "admin/", "accounts/", "i18n/", "api/", "device/")  # device: the terminal


def public_routes():
    """The public pages; the downloads (``….<slug:kind>``) have their own walk
    (test_public_exports.py)."""
    return [route for route in all_routes()
            if not route.startswith(PUBLIC_SKIP) and not route.endswith(".<slug:kind>")]


def values_for(route: str, tournament, event) -> dict:
    """What to put in a route's parameters: the objects its path names."""
    rounds = [r.pk for r in event.closed] + ([event.open.pk] if event.open else [])
    matches = list(Match.objects.filter(round__stage=event.stage).values_list("pk", flat=True))
    players = list(Player.objects.filter(team__tournament=tournament)
                   .values_list("pk", flat=True))
    groups = list(event.stage.groups.values_list("pk", flat=True)) or [1]
    deals = list(event.open.deals.values_list("pk", flat=True)) if event.open else [1]
    kind = route.split("<slug:slug>/")[-1].split("/")[0]
    pk = {"rounds": rounds, "matches": matches, "teams": [t.pk for t in event.teams],
          "players": players, "stages": [event.stage.pk]}.get(kind, rounds)
    if route.startswith("persons/"):  # the persons across events (issue 55)
        pk = list(Player.objects.filter(team__tournament=tournament)
                  .values_list("person_id", flat=True))
    # The bulletin of the day of the closed rounds, which is the day of the round in play.
    days = [day.isoformat() for day in bulletin_days(tournament)] or ["2026-01-01"]
    return {"slug": [tournament.slug], "pk": pk, "group_pk": groups, "deal_pk": deals,
            "hand": [1, 2, 3], "deal_set": [1], "set": [1], "number": [1, 2, 3],
            "day": days}


def public_urls(tournament, event) -> list[str]:
    urls = []
    for route in public_routes():
        urls += fill(route, values_for(route, tournament, event))
    round_url = reverse("public:round", args=[tournament.slug, event.open.pk])
    standings = reverse("public:standings", args=[tournament.slug])
    return [*urls, round_url + "?by=table", round_url + "?by=team", standings + "?after=1"]


built_event, event, tournament = one_event_per_module()


def get_text(client, url) -> str:
    response = client.get(url)
    assert response.status_code < 500, url
    if response.status_code != 200:
        return ""
    if response["Content-Type"] == "application/pdf":  # the bulletins
        return "\n".join(page.extract_text()
                         for page in PdfReader(io.BytesIO(response.content)).pages)
    assert response["Content-Type"].startswith("text/html"), url
    return page_text(response.content.decode())


# Item 8: a round in play leaks no card and no result the setting keeps back -------------

@pytest.mark.parametrize("setting", ["closed", "finished_boxes", "live"])
def test_no_public_url_shows_a_card_or_a_kept_back_result_of_a_round_in_play(
        client, tournament, event, setting):
    tournament.live_results = setting
    tournament.save()
    kept_back = {"closed": event.kept_back + event.finished,
                 "finished_boxes": event.kept_back, "live": []}[setting]
    shown = {"closed": [], "finished_boxes": event.finished,
             "live": event.kept_back + event.finished}[setting]
    runs, closed_cards = secret_runs(event.open), public_runs(event.closed)
    assert runs and closed_cards and (kept_back or setting == "live")
    seen: set[str] = set()
    visited = 0
    for url in public_urls(tournament, event):
        text = get_text(client, url)
        visited += 1
        assert not leaked_runs(text, runs, closed_cards), \
            f"{url} shows cards of the round in play"
        leaks = [result for result in kept_back if result in text]
        assert not leaks, f"{url} shows {leaks} under {setting}"
        seen |= {result for result in shown if result in text}
    assert visited > 40
    # What the setting allows is shown somewhere (the match pages), so the test can fail.
    assert seen == set(shown)


def test_the_card_check_finds_a_card_split_by_markup(event):
    """The walk above would see a box printed in any notation, even cut up by tags."""
    from tournament.models import Deal

    cards = Deal.objects.filter(round=event.open).first().cards.split()[:3]
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    written = "".join(f"<span>{c[0].replace('T', '10')}</span><b>{symbols[c[1]]}</b> "
                      for c in cards)
    assert leaked_runs(page_text(f"<p>{written}</p>"), secret_runs(event.open))
    assert leaked_runs(page_text(f"<td>{' '.join(cards)}</td>"), secret_runs(event.open))


# Pinned query counts: the same for a small and a larger event --------------------------

# Pages listing matches read the matches' rounds apart, once (selectors.public.match_lines).
PINNED = {
    "list": 2, "home": 17, "rounds": 4, "round": 9, "round_closed": 7, "by_table": 6,
    "by_team": 6, "hand_records": 8, "match": 14, "match_closed": 12, "standings": 12,
    "stage_standings": 12, "standings_after": 12, "individual": 9, "stage_individual": 10,
    "teams": 3, "team": 12, "player": 17, "penalties": 2, "deal_check": 4,
}


def pages(tournament, event) -> dict[str, str]:
    slug = tournament.slug
    first_closed, open_ = event.closed[0], event.open
    open_match = Match.objects.filter(round=open_).order_by("number").first()
    closed_match = Match.objects.filter(round=first_closed).order_by("number").first()
    player = Player.objects.filter(team=event.teams[0]).order_by("number").first()

    def url(name, *args, query=""):
        return reverse(f"public:{name}", args=[slug, *args]) + query

    return {
        "list": reverse("public:home"), "home": url("tournament"), "rounds": url("rounds"),
        "round": url("round", open_.pk), "round_closed": url("round", first_closed.pk),
        "by_table": url("round", open_.pk, query="?by=table"),
        "by_team": url("round", open_.pk, query="?by=team"),
        "hand_records": url("hand_records", first_closed.pk),
        "match": url("match", open_match.pk), "match_closed": url("match", closed_match.pk),
        "standings": url("standings"), "stage_standings": url("stage_standings", event.stage.pk),
        "standings_after": url("standings", query="?after=1"),
        "individual": url("individual"),
        "stage_individual": url("stage_individual", event.stage.pk),
        "teams": url("teams"), "team": url("team", event.teams[0].pk),
        "player": url("player", player.pk), "penalties": url("penalties"),
        "deal_check": url("deal_check"),
    }


def query_counts(client, tournament, event) -> dict[str, int]:
    counts = {}
    for name, url in pages(tournament, event).items():
        client.get(url)  # a second visit is counted: what the process keeps is read
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, url
        counts[name] = len(queries)
    return counts


def test_every_public_page_reads_in_a_pinned_number_of_queries(
        client, tournament, event, make_tournament, make_team, staff_user, actor,
        django_assert_max_num_queries):
    larger = make_tournament(name="Asian Cup", slug="asian-cup",
                             live_results=Tournament.LiveResults.FINISHED_BOXES)
    tournament.live_results = Tournament.LiveResults.FINISHED_BOXES
    tournament.save()
    director = actor(staff_user(larger, "director", username="director2"))
    big = build_event(director, larger, make_team, teams=8, closed=3,
                      codes=[(f"A{i}", f"Asia {i}") for i in range(1, 9)])
    small, large = query_counts(client, tournament, event), query_counts(client, larger, big)
    assert small == large
    assert set(small) == set(PINNED)
    for name, url in pages(larger, big).items():
        with django_assert_max_num_queries(PINNED[name]):
            client.get(url)


# The switches and set-up -----------------------------------------------------------------

SWITCHED = {
    "public_standings": ["standings", "stage_standings", "standings_after"],
    "public_results": ["match", "match_closed"],
    "public_players": ["individual", "stage_individual", "player"],
    "public_penalties": ["penalties"],
}


@pytest.mark.parametrize("switch", list(SWITCHED))
def test_a_switch_turned_off_hides_its_pages_and_their_links(client, tournament, event,
                                                              switch):
    setattr(tournament, switch, False)
    tournament.save()
    urls = pages(tournament, event)
    hidden = {urls[name] for name in SWITCHED[switch]}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == (404 if url in hidden else 200), (switch, name)
    home = client.get(urls["home"]).content.decode()
    for url in hidden:
        assert f'href="{url}"' not in home
    setattr(tournament, switch, True)
    tournament.save()
    home = client.get(urls["home"]).content.decode()
    for name in SWITCHED[switch]:
        if name in ("standings", "individual", "penalties"):
            assert f'href="{urls[name]}"' in home  # the navigation links it again


def test_without_public_results_no_score_shows_anywhere(client, tournament, event):
    tournament.public_results = False
    tournament.live_results = Tournament.LiveResults.LIVE
    tournament.save()
    closed_match = Match.objects.filter(round=event.closed[0]).order_by("number").first()
    score = f"{closed_match.home_total:+d}".replace("-", "\N{MINUS SIGN}")
    explanations = list(HandResult.objects.filter(table__match=closed_match, is_current=True)
                        .values_list("explanation", flat=True))
    for name, url in pages(tournament, event).items():
        text = get_text(client, url)
        assert not [e for e in explanations + event.finished if e in text], name
        if name in ("round_closed", "team"):
            assert "official" in text and f"{score} :" not in text, name
    records = get_text(client, pages(tournament, event)["hand_records"])
    assert "Dealer (11)" in records  # the cards of a closed round stay public


def test_a_tournament_in_set_up_shows_nothing(client, tournament, event, staff_user):
    tournament.status = Tournament.Status.SETUP
    tournament.save()
    visited = 0
    names = list(Player.objects.filter(team__tournament=tournament)
                 .values_list("name", flat=True))
    for url in public_urls(tournament, event):
        if url == "/":
            assert tournament.name not in get_text(client, url)
            continue
        if url in ("/persons/", "/persons/master-points/"):  # the site's lists: not its
            shown = get_text(client, url)
            assert not [name for name in names if name in shown], url
            continue
        assert client.get(url).status_code == 404, url
        visited += 1
    assert visited > 30
    client.force_login(staff_user(tournament, "scorer", username="li"))
    assert client.get(pages(tournament, event)["home"]).status_code == 200  # staff preview


# What the pages say ------------------------------------------------------------------------

def row_text(page: str, css_class: str) -> list[str]:
    """The text of each body row of the page's table with this class."""
    table = page.split(f'class="{css_class}"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [" ".join(re.sub(r"<[^>]+>", " ", "<tr" + row).split())
            for row in body.split("<tr")[1:]]


@pytest.fixture
def played_open_round(own_tournament, make_team):
    """In a tournament of its own: two closed rounds, then round 3 with every hand entered
    and approved at every table, and only match 1 signed off."""
    from tests.tournament.views.public_event import entry_for, start
    from tournament.services.approvals import sign_table
    from tournament.services.draw import generate_round
    from tournament.services.signoff import sign_off_match

    tournament, director_actor = own_tournament
    event = build_event(director_actor, tournament, make_team, open_round=False)
    round_ = start(director_actor, generate_round(director_actor, event.stage))
    for table in round_.tables.order_by("number"):
        for hand in range(1, table.match.hands + 1):
            from tests.tournament.views.public_event import enter

            enter(director_actor, table, hand, entry_for(table.number + 10, hand))
    first = round_.matches.get(number=1)
    for table in first.tables.all():
        for seat in (1, 2):
            sign_table(director_actor, table, seat)
    sign_off_match(director_actor, first)
    event.open = round_
    return event


def played(tournament, event, setting):
    from tournament.selectors.public import tournament_views
    from tournament.selectors.public_standings import public_standings

    tournament.live_results = setting
    tournament.save()
    event.stage.tournament = tournament
    _rounds, views = tournament_views(tournament)
    standings = public_standings(event.stage, views)
    [table] = standings.tables
    return standings, {line.team.code: (line.played, line.provisional) for line in table.lines}


def test_the_public_standings_count_a_round_in_play_by_the_setting(client, played_open_round):
    event = played_open_round
    tournament = event.tournament
    first, _second = event.open.matches.order_by("number")
    teams_of_first = {first.home.code, first.away.code}
    standings, rows = played(tournament, event, "closed")
    assert rows == {team.code: (2, False) for team in event.teams}
    assert standings.last_round == 2 and standings.rounds == [1, 2]
    standings, rows = played(tournament, event, "finished_boxes")
    assert rows == {team.code: (3 if team.code in teams_of_first else 2, False)
                    for team in event.teams}
    assert standings.partly and (standings.counted_in_play, standings.matches_in_play) == (1, 2)
    page = get_text(client, reverse("public:standings", args=[tournament.slug]))
    assert "After round 2, with 1 of the 2 matches of round 3 (in play)" in page
    standings, rows = played(tournament, event, "live")
    assert rows == {team.code: (3, team.code not in teams_of_first) for team in event.teams}
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert len(re.findall(r'<tr class="[^"]*provisional', page)) == 2
    assert "After round 3 (in play, provisional)" in page_text(page)
    # "After round 1" is round 1 alone, whatever the setting.
    after = get_text(client, reverse("public:standings", args=[tournament.slug]) + "?after=1")
    assert "After round 1." in after


def test_a_signed_off_match_waits_for_its_boxes_everywhere(client, played_open_round):
    """With one deal set for the field a match's boxes are finished only when every table
    has played them: a result withdrawn at another table hides the signed-off match."""
    event = played_open_round
    tournament = event.tournament
    _first, second = event.open.matches.order_by("number")
    HandResult.objects.filter(table__match=second, hand=4).delete()
    _standings, rows = played(tournament, event, "finished_boxes")
    assert {played for played, _p in rows.values()} == {2}
    page = client.get(reverse("public:round", args=[tournament.slug, event.open.pk]))
    rows = row_text(page.content.decode(), "matches")
    assert "shown once every table has played its boxes" in rows[0]
    assert "official" in rows[0] and "in play: 6 of 8 results entered" in rows[1]


def test_the_match_page_sets_both_tables_side_by_side(client, own_tournament, make_team):
    """RULES.md §8's example: at table 1 A's first player (dealer) knocks 4 against 12,
    A +23; at table 2 B's second player holds the same dealer cards and goes gin against
    30, B +55: the swing for A is −32."""
    from tests.tournament.views.public_event import enter, start
    from tournament.services.draw import generate_round
    from tournament.services.hands import HandEntry

    tournament, director_actor = own_tournament
    tournament.live_results = Tournament.LiveResults.LIVE
    tournament.save()
    event = build_event(director_actor, tournament, make_team, closed=0, open_round=False)
    round_ = start(director_actor, generate_round(director_actor, event.stage))
    match = round_.matches.get(number=1)
    one, two = match.tables.order_by("position")
    enter(director_actor, one, 1, HandEntry("knock", 1, 4, 12))
    enter(director_actor, two, 1, HandEntry("gin", 1, None, 30), approve=False)
    enter(director_actor, one, 2, HandEntry("draw"))
    page = client.get(reverse("public:match", args=[tournament.slug, match.pk]))
    rows = row_text(page.content.decode(), "duplicate")
    home, away = match.home, match.away
    a1 = match.entries.get(team=home).first_player.name
    b2 = match.entries.get(team=away).second_player.name
    assert rows[0].startswith("1 ")
    assert f"dealer cards: {home.code} {a1} Knock 4 vs 12: 15 + 8 = 23 +23" in rows[0]
    assert f"dealer cards: {away.code} {b2} Gin vs 30: 25 + 30 = 55 −55 not approved yet" \
        in rows[0]
    assert rows[0].endswith("−32")
    assert "Draw: 0 (stock exhausted) 0" in rows[1] and "not played yet" in rows[1]
    assert rows[1].endswith("·")  # no swing until both tables have played the box
    text = page_text(page.content.decode())
    assert "−32 : +32 1 : 3 mp provisional" in text
    assert f"Swing {home.code}" in text


@pytest.mark.parametrize("name", ["public:team", "public:player"])
def test_the_rows_addresses_are_the_ones_reverse_makes(name):
    """The standings reverse a team's or a player's address once and fill in each row's
    key: the same address as ``reverse`` for every key, a slug made of the stand-in key's
    digits included."""
    from django.urls import reverse

    from tournament.templatetags.links import _MARK
    from tournament.views.public.standings import _url_of_key

    for slug in ("world-cup", f"open-{_MARK}", str(_MARK)):
        url = _url_of_key(name, slug)
        for key in (1, 7, 653, 10_000, _MARK):
            assert url(key) == reverse(name, args=[slug, key]), (slug, key)
