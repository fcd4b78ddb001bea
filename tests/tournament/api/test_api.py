"""The read-only JSON API (issue 13, item 2): every endpoint walked during an open round
under each live-results setting finds no card and no held-back result; the switches and
set-up give 404 like the pages; bad parameters a 422 that says what is wrong; pinned query
counts; the same answer for the same data."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournament.views.public_event import (
    build_event,
    leaked_runs,
    one_event_per_module,
    public_runs,
    secret_runs,
)
from tournament.models import Deal, Match, Player, Tournament

built_event, event, tournament = one_event_per_module()


def schema(client) -> dict:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def endpoint_urls(client, tournament, event) -> dict[str, list[str]]:
    """Every path of the OpenAPI document filled with each object of the event it names
    (the open round's boxes, every round, match, team, player)."""
    rounds = [*event.closed, event.open]
    ids = {
        "slug": [tournament.slug],
        "round_id": [r.pk for r in rounds],
        "match_id": list(Match.objects.filter(round__stage=event.stage)
                         .order_by("pk").values_list("pk", flat=True)),
        "team_id": [t.pk for t in event.teams],
        "player_id": list(Player.objects.filter(team__tournament=tournament)
                          .order_by("pk").values_list("pk", flat=True)),
        "stage_id": [event.stage.pk],
        # A Swiss stage has no groups: the group table is walked on a group stage below.
        "group_id": list(event.stage.groups.values_list("pk", flat=True)),
        # The persons behind the players (issue 55): their profiles, by person id.
        "person_id": list(Player.objects.filter(team__tournament=tournament)
                          .order_by("pk").values_list("person_id", flat=True)),
    }
    urls: dict[str, list[str]] = {}
    for path, operations in schema(client)["paths"].items():
        if "get" not in operations or operations["get"].get("security"):
            continue  # the table devices' API (tests/tournament/api/test_table_api.py)
        names = re.findall(r"{(\w+)}", path)
        filled = [path]
        for name in names:
            if name == "box_id":
                continue
            filled = [url.replace(f"{{{name}}}", str(value))
                      for url in filled for value in ids[name]]
        if "box_id" in names:
            filled = [url.replace("{box_id}", str(deal.pk))
                      for url in filled for deal in Deal.objects.filter(
                          round_id=int(url.split("/rounds/")[1].split("/")[0]))]
        urls[path] = filled
    queries = {"/api/tournaments/{slug}/standings": ["?after=1", "?after=2", "?after=3"],
               "/api/tournaments/{slug}/individual": [f"?stage={event.stage.pk}", "?min=4"],
               "/api/tournaments": ["?limit=1&offset=0"]}
    for path, extra in queries.items():
        urls[path] += [urls[path][0] + query for query in extra]
    return urls


def text_of(response) -> str:
    """The answer as a reader of the JSON sees it (no \\u escapes)."""
    return json.dumps(response.json(), ensure_ascii=False)


# A round in play leaks no card and no result the setting keeps back ----------------------

@pytest.mark.parametrize("setting", ["closed", "finished_boxes", "live"])
def test_no_endpoint_shows_a_card_or_a_kept_back_result_of_a_round_in_play(
        client, tournament, event, setting):
    tournament.live_results = setting
    tournament.save()
    kept_back = {"closed": event.kept_back + event.finished,
                 "finished_boxes": event.kept_back, "live": []}[setting]
    shown = {"closed": [], "finished_boxes": event.finished,
             "live": event.kept_back + event.finished}[setting]
    runs, closed_cards = secret_runs(event.open), public_runs(event.closed)
    seen: set[str] = set()
    visited = 0
    for path, urls in endpoint_urls(client, tournament, event).items():
        assert urls or "{group_id}" in path, path
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            assert response["Content-Type"] == "application/json; charset=utf-8", url
            text = text_of(response)
            visited += 1
            assert not leaked_runs(text, runs, closed_cards), \
                f"{url} shows cards of the round in play"
            leaks = [result for result in kept_back if result in text]
            assert not leaks, f"{url} shows {leaks} under {setting}"
            seen |= {result for result in shown if result in text}
            if "/boxes/" in url and f"/rounds/{event.open.pk}/" in url:
                assert response.json()["cards"] is None
    assert visited > 45
    # What the setting allows is shown somewhere, so the walk can fail.
    assert seen == set(shown)


def test_a_closed_rounds_box_has_its_cards(client, tournament, event):
    deal = Deal.objects.filter(round=event.closed[0]).order_by("pk").first()
    url = f"/api/tournaments/{tournament.slug}/rounds/{event.closed[0].pk}/boxes/{deal.pk}"
    cards = client.get(url).json()["cards"]
    assert cards["dealer"] + cards["non_dealer"] + cards["stock"] == deal.cards.split()
    assert (len(cards["dealer"]), len(cards["non_dealer"])) == (11, 10)


# Set-up and the switches -----------------------------------------------------------------

SWITCHED = {
    "public_standings": ["/standings", "/final-ranking"],
    "public_results": ["/matches/", "/boxes"],
    "public_players": ["/individual", "/players", "/persons/"],
}
# The site's lists of persons (issue 55): an event in set-up or with its players' switch
# off only leaves its persons out of them.
SITE_LISTS = ("/api/tournaments", "/api/persons", "/api/ratings")


def test_a_tournament_in_set_up_is_404_everywhere_even_for_its_staff(
        client, tournament, event, staff_user):
    tournament.status = Tournament.Status.SETUP
    tournament.save()
    urls = endpoint_urls(client, tournament, event)
    client.force_login(staff_user(tournament, "director", username="preview"))
    listed = client.get("/api/tournaments").json()
    assert listed["count"] == 0 and listed["items"] == []
    visited = 0
    for path in SITE_LISTS[1:]:
        assert client.get(path).json()["count"] == 0
    for path, found in urls.items():
        if path in SITE_LISTS:
            continue
        for url in found:
            response = client.get(url)
            assert response.status_code == 404, url
            assert response.json() == {"detail": "no such person" if "/persons/" in path
                                       else "no such tournament"}
            visited += 1
    assert visited > 45


@pytest.mark.parametrize("switch", list(SWITCHED))
def test_a_switch_turned_off_hides_its_endpoints(client, tournament, event, switch):
    setattr(tournament, switch, False)
    tournament.save()
    for path, urls in endpoint_urls(client, tournament, event).items():
        hidden = any(part in path for part in SWITCHED[switch])
        for url in urls:
            response = client.get(url)
            assert response.status_code == (404 if hidden else 200), (switch, url)
            if hidden and "/persons/" in path:
                # A profile with no event shown: nothing says the person played anywhere.
                assert response.json() == {"detail": "no such person"}
            elif hidden:
                assert switch.replace("_", " ") in response.json()["detail"]


def test_without_public_results_no_score_and_no_hand_shows(client, tournament, event):
    tournament.public_results = False
    tournament.live_results = Tournament.LiveResults.LIVE
    tournament.save()
    slug = tournament.slug
    for round_ in [*event.closed, event.open]:
        body = client.get(f"/api/tournaments/{slug}/rounds/{round_.pk}").json()
        assert body["matches"] and all(
            m["home_total"] is None and not m["shown"] for m in body["matches"])
    team = client.get(f"/api/tournaments/{slug}/teams/{event.teams[0].pk}").json()
    assert all(m["home_total"] is None for m in team["matches"])


# Bad parameters: a 4xx that says what is wrong, never a 500 --------------------------------

@pytest.mark.parametrize(("query", "field"), [
    ("/standings?after=x", "after"), ("/standings?after=0", "after"),
    ("/standings?after=99999999999999999999", "after"),
    ("/teams?limit=0", "limit"), ("/teams?limit=501", "limit"), ("/teams?offset=-1", "offset"),
    ("/individual?min=-3", "min"), ("/individual?stage=abc", "stage"),
    ("/rounds?limit=ten", "limit"),
])
def test_a_bad_query_parameter_is_a_422_naming_it(client, tournament, query, field):
    response = client.get(f"/api/tournaments/{tournament.slug}{query}")
    assert response.status_code == 422, query
    [error] = response.json()["detail"]
    assert error["loc"][-1] == field and error["msg"]


@pytest.mark.parametrize("path", [
    "/rounds/0", "/rounds/99999999999999999999", "/matches/-1", "/teams/abc",
    "/rounds/1/boxes/0",
])
def test_a_bad_id_is_a_4xx(client, tournament, path):
    response = client.get(f"/api/tournaments/{tournament.slug}{path}")
    assert response.status_code in (404, 422), path
    assert response.json()["detail"]


def test_objects_of_another_tournament_or_a_draft_are_404(client, tournament, event,
                                                         make_tournament):
    other = make_tournament(name="Other Cup", slug="other-cup")
    slug = other.slug
    match = Match.objects.filter(round=event.open).first()
    for path in (f"/rounds/{event.open.pk}", f"/matches/{match.pk}",
                 f"/teams/{event.teams[0].pk}", f"/stages/{event.stage.pk}/standings"):
        assert client.get(f"/api/tournaments/{slug}{path}").status_code == 404, path
    assert client.get("/api/tournaments/no-such-thing").json() == {
        "detail": "no such tournament"}
    draft = event.open
    draft.status = "draft"
    draft.save()
    response = client.get(f"/api/tournaments/{tournament.slug}/rounds/{draft.pk}")
    assert response.status_code == 404
    listed = client.get(f"/api/tournaments/{tournament.slug}/rounds").json()
    assert draft.pk not in {r["id"] for r in listed["items"]}


# Pagination, order, the same answer for the same data ------------------------------------

def test_lists_page_in_a_stable_order(client, tournament, event):
    url = f"/api/tournaments/{tournament.slug}/players"
    everyone = client.get(url).json()
    assert everyone["count"] == len(everyone["items"]) == 8
    pages = [client.get(f"{url}?limit=3&offset={offset}").json() for offset in (0, 3, 6)]
    assert [p["id"] for page in pages for p in page["items"]] == \
        [p["id"] for p in everyone["items"]]
    assert client.get(f"{url}?offset=100").json()["items"] == []


def test_every_answer_is_the_same_for_the_same_data(client, tournament, event):
    for urls in endpoint_urls(client, tournament, event).values():
        for url in urls:
            assert client.get(url).content == client.get(url).content, url


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_docs_page_writes_out_every_operation_and_schema(client, language):
    """/api/docs is the OpenAPI document as a page of the site (tournament/api/docs.py), in
    the reader's language; the document's own English is marked as such."""
    document = schema(client)
    response = client.get("/api/docs", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{language}"' in page
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert f'id="op-{operation["operationId"]}"' in page, (method, path)
            assert f"<code class=\"api-path\">{path}</code>" in page
    for name in document["components"]["schemas"]:
        assert f'id="schema-{name}"' in page, name
    assert page.count('href="#schema-') > len(document["components"]["schemas"])
    assert '<div lang="en">' in page and 'href="/api/openapi.json"' in page
    assert "Authorization: Bearer" in page  # the table devices' operations say so
    assert "cdn" not in page.lower() and "https://" not in page and "swagger" not in page
    if language == "zh-hans":
        assert "赛事" in page  # the tag "tournaments" in the reader's language
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_the_docs_escape_the_documents_text():
    from tournament.api.docs import prose, read_document, type_html

    assert prose("Use ``<b>`` and `x`.\n\nTwo") == [
        "Use <code>&lt;b&gt;</code> and <code>x</code>.", "Two"]
    assert type_html({"anyOf": [{"$ref": "#/components/schemas/Team"}, {"type": "null"}]}) \
        == '<a href="#schema-Team"><code>Team</code></a> | <code>null</code>'
    assert type_html({"type": "array", "items": {"type": "integer"}}) \
        == "<code>integer</code><code>[]</code>"
    assert type_html({"enum": ["home", "<away>"]}) \
        == '<code>&quot;home&quot;</code> | <code>&quot;&lt;away&gt;&quot;</code>'
    read = read_document({"info": {"title": "<T>"}, "paths": {"/x": {"get": {
        "operationId": "x", "tags": ["odd <tag>"], "responses": {"299": {"description": "?"}},
        "parameters": [{"name": "n", "in": "cookie", "schema": {"minimum": 1}}]}}}})
    tag = read["tags"][0]
    assert tag.english and tag.label == "odd <tag>" and tag.anchor == "tag-odd-tag-"
    operation = tag.operations[0]
    assert operation.answers[0].meaning == "?" and operation.answers[0].english
    assert operation.parameters[0].where == "cookie"
    read = read_document({"paths": {"/y": {"post": {"responses": {409: {"description": "C"}}}}}})
    answer = read["tags"][0].operations[0].answers[0]
    assert answer.status == "409" and answer.meaning.startswith("Conflict: the data changed")
    assert operation.parameters[0].limits == ["≥ 1"]


# Pinned query counts: the same for a small and a larger event (the matches' rounds are
# read apart, once: selectors.public.match_lines) -----------------------------------------

PINNED = {
    "tournaments": 2, "tournament": 5, "rounds": 4, "round": 8, "round_closed": 6,
    "match": 13, "match_closed": 11, "standings": 11, "standings_after": 11,
    "stage_standings": 11, "individual": 8, "teams": 4, "team": 11, "players": 3,
    "player": 17, "boxes": 7, "boxes_closed": 5, "box": 8, "box_closed": 6,
    "final_ranking": 18,
}


def endpoints(tournament, event) -> dict[str, str]:
    slug = f"/api/tournaments/{tournament.slug}"
    closed, open_ = event.closed[0], event.open
    open_match = Match.objects.filter(round=open_).order_by("number").first()
    closed_match = Match.objects.filter(round=closed).order_by("number").first()
    player = Player.objects.filter(team=event.teams[0]).order_by("number").first()
    open_deal = Deal.objects.filter(round=open_).order_by("pk").first()
    closed_deal = Deal.objects.filter(round=closed).order_by("pk").first()
    return {
        "tournaments": "/api/tournaments", "tournament": slug,
        "rounds": f"{slug}/rounds", "round": f"{slug}/rounds/{open_.pk}",
        "round_closed": f"{slug}/rounds/{closed.pk}",
        "match": f"{slug}/matches/{open_match.pk}",
        "match_closed": f"{slug}/matches/{closed_match.pk}",
        "standings": f"{slug}/standings", "standings_after": f"{slug}/standings?after=1",
        "stage_standings": f"{slug}/stages/{event.stage.pk}/standings",
        "individual": f"{slug}/individual", "teams": f"{slug}/teams",
        "team": f"{slug}/teams/{event.teams[0].pk}", "players": f"{slug}/players",
        "player": f"{slug}/players/{player.pk}",
        "boxes": f"{slug}/rounds/{open_.pk}/boxes",
        "boxes_closed": f"{slug}/rounds/{closed.pk}/boxes",
        "box": f"{slug}/rounds/{open_.pk}/boxes/{open_deal.pk}",
        "box_closed": f"{slug}/rounds/{closed.pk}/boxes/{closed_deal.pk}",
        "final_ranking": f"{slug}/final-ranking",
    }


def query_counts(client, tournament, event) -> dict[str, int]:
    counts = {}
    for name, url in endpoints(tournament, event).items():
        client.get(url)  # a second visit is counted: what the process keeps is read
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, url
        counts[name] = len(queries)
    return counts


def test_every_endpoint_reads_in_a_pinned_number_of_queries(
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
    for name, url in endpoints(larger, big).items():
        with django_assert_max_num_queries(PINNED[name]):
            client.get(url)


def test_a_group_stage_has_a_table_per_group_and_each_groups_own(
        client, own_tournament, make_team, django_assert_max_num_queries):
    from tests.tournament.views.public_event import play_round
    from tournament.models import Stage
    from tournament.services.draw import generate_round
    from tournament.services.stages import allot_groups, create_stage

    tournament, director_actor = own_tournament
    field = [make_team(tournament, code=f"G{i}", name=f"Group team {i}", seed=str(i))
             for i in range(1, 9)]
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    groups = allot_groups(director_actor, stage, [field[0::2], field[1::2]])
    play_round(director_actor, generate_round(director_actor, stage))
    url = f"/api/tournaments/{tournament.slug}/stages/{stage.pk}/standings"
    with django_assert_max_num_queries(PINNED["stage_standings"]):
        whole = client.get(url).json()
    assert [t["group"]["name"] for t in whole["tables"]] == ["A", "B"]
    assert [g["name"] for g in whole["groups"]] == ["A", "B"]
    with django_assert_max_num_queries(PINNED["stage_standings"] + 1):  # the group
        one = client.get(f"{url.removesuffix('/standings')}/groups/{groups[1].pk}/standings")
    assert one.status_code == 200
    assert one.json()["tables"] == whole["tables"][1:]
    assert client.get(f"{url.removesuffix('/standings')}/groups/999/standings"
                      ).status_code == 404
