"""The event's ranking and the bracket as every public door shows them (issue 20): the API,
the public standings page, the CSV, the XLSX, the big screen and the staff's page list the
same places, written out by hand below from each bracket (never computed by
``scoring.placings``), for knockouts of 2, 4, 6, 8, 12 and 16 teams (6 and 12 with byes),
with and without a match for third place, a final decided by a default, a semi-final
decided by extra hands and a group stage before with a withdrawn team."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from tournament.models import Match, Round, Stage
from tournament.services.draw import generate_round
from tournament.services.penalties import record_penalty
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.seeding import seed_from_standings
from tournament.services.stages import allot_groups, create_stage, enter_teams
from tournament.services.team_results import write_bye_results, write_match_results

MARGIN = 20


def begin(actor, round_: Round) -> Round:
    publish_round(actor, round_, override_reason="test")
    return start_round(actor, Round.objects.get(pk=round_.pk))


def finish(actor, round_: Round, *, upsets=frozenset(), extra=frozenset(),
           defaults=None) -> Round:
    """Every match of a round official: the better seed (the lower number in its code)
    wins by ``MARGIN`` unless its pair is in ``upsets``; a pair in ``extra`` was level
    after its hands and won after two extra hands; ``defaults`` maps a pair to the team
    that defaults it (recorded as a referee records it)."""
    round_.refresh_from_db()
    if round_.status != Round.Status.IN_PLAY:
        round_ = begin(actor, round_)
    defaults = defaults or {}
    for match in round_.matches.select_related("home", "away"):
        pair = frozenset((match.home.code, match.away.code))
        if pair in defaults:
            team = match.home if match.home.code == defaults[pair] else match.away
            record_penalty(actor, team=team, round=round_, kind="default", match=match,
                           reason="did not come back after the break")
            continue
        match.refresh_from_db()
        if match.forfeited_by_id is not None:
            continue
        better = min((match.home, match.away), key=lambda team: int(team.code[1:]))
        winner = better if pair not in upsets else (
            match.away if better == match.home else match.home)
        home = MARGIN if winner == match.home else -MARGIN
        match.home_total, match.away_total = home, -home
        match.extra_hands = 2 if pair in extra else 0
        match.signed_off_at = timezone.now()
        match.save()
        write_match_results(match)
    write_bye_results(round_)
    return close_round(actor, Round.objects.get(pk=round_.pk))


def pair(a, b):
    return frozenset((a, b))


# Each knockout: its teams T1…Tn seeded in that order, who beat the better seed, and the
# places that follow, worked out by hand from the bracket.
SCENARIOS = {
    "2 teams": dict(
        teams=2, third=False, upsets={pair("T1", "T2")}, expected=["T2", "T1"]),
    # Semi-finals T1–T4, T2–T3 (T3 wins); final T1–T3 (T3 wins); third place T4–T2 (T4).
    "4 with third place": dict(
        teams=4, third=True, upsets={pair("T2", "T3"), pair("T1", "T3"), pair("T2", "T4")},
        expected=["T3", "T1", "T4", "T2"]),
    # Without it the semi-final losers go by seed: T2 before T4.
    "4 without": dict(
        teams=4, third=False, upsets={pair("T2", "T3"), pair("T1", "T3")},
        expected=["T3", "T1", "T2", "T4"]),
    # Byes for T1 and T2; round 1 T4–T5 (T5), T3–T6 (T3); semi-finals T1–T5 (T1), T3–T2
    # (T3); final T1–T3 (T3); third place T5–T2 (T2). Round 1's losers 5th and 6th by seed.
    "6 with third place": dict(
        teams=6, third=True,
        upsets={pair("T4", "T5"), pair("T2", "T3"), pair("T1", "T3")},
        expected=["T3", "T1", "T2", "T5", "T4", "T6"]),
    "6 without": dict(
        teams=6, third=False,
        upsets={pair("T4", "T5"), pair("T2", "T3"), pair("T1", "T3")},
        expected=["T3", "T1", "T2", "T5", "T4", "T6"]),
    # Quarter-finals T1–T8, T4–T5 (T5), T3–T6, T2–T7; semi-finals T1–T5 (T1), T3–T2 (T2);
    # the final T1–T2 defaulted by T1; third place T5–T3 (T3).
    "8 with a default in the final": dict(
        teams=8, third=True, upsets={pair("T4", "T5")}, defaults={pair("T1", "T2"): "T1"},
        expected=["T2", "T1", "T3", "T5", "T4", "T6", "T7", "T8"]),
    # Byes for T1–T4; round 1 T8–T9 (T9), T5–T12 (T5), T6–T11 (T6), T7–T10 (T10);
    # quarter-finals T1–T9 (T1), T5–T4 (T5), T3–T6 (T3), T10–T2 (T2); semi-finals T1–T5
    # (T5, after two extra hands), T3–T2 (T2); final T5–T2 (T5).
    "12 without, a semi-final after extra hands": dict(
        teams=12, third=False,
        upsets={pair("T8", "T9"), pair("T7", "T10"), pair("T4", "T5"), pair("T1", "T5"),
                pair("T2", "T5")},
        extra={pair("T1", "T5")},
        expected=["T5", "T2", "T1", "T3", "T4", "T6", "T9", "T10", "T7", "T8", "T11",
                  "T12"]),
    "12 with third place": dict(
        teams=12, third=True,
        upsets={pair("T8", "T9"), pair("T7", "T10"), pair("T4", "T5"), pair("T1", "T5"),
                pair("T2", "T5"), pair("T1", "T3")},
        expected=["T5", "T2", "T3", "T1", "T4", "T6", "T9", "T10", "T7", "T8", "T11",
                  "T12"]),
    # Round 1: T9 beats T8, T12 beats T5; quarter-finals T1–T9 (T1), T12–T4 (T4), T3–T6
    # (T6), T7–T2 (T2); semi-finals T1–T4 (T1), T6–T2 (T6); final T1–T6 (T1); third place
    # T4–T2 (T2).
    "16 with third place": dict(
        teams=16, third=True,
        upsets={pair("T8", "T9"), pair("T5", "T12"), pair("T3", "T6"), pair("T2", "T6")},
        expected=["T1", "T6", "T2", "T4", "T3", "T7", "T9", "T12", "T5", "T8", "T10",
                  "T11", "T13", "T14", "T15", "T16"]),
    "16 without": dict(
        teams=16, third=False,
        upsets={pair("T8", "T9"), pair("T5", "T12"), pair("T3", "T6"), pair("T2", "T6")},
        expected=["T1", "T6", "T2", "T4", "T3", "T7", "T9", "T12", "T5", "T8", "T10",
                  "T11", "T13", "T14", "T15", "T16"]),
}


def play_knockout(actor, stage, scenario):
    while True:
        round_ = generate_round(actor, stage)
        finish(actor, round_, upsets=scenario.get("upsets", set()),
               extra=scenario.get("extra", set()), defaults=scenario.get("defaults"))
        stage.refresh_from_db()  # its bracket is stored when round 1 is drawn
        if round_.number == stage.bracket_rounds:
            return


# What each door says ------------------------------------------------------------------------

def api_places(client, slug):
    answer = client.get(f"/api/tournaments/{slug}/final-ranking").json()
    return answer["final"], [(item["place"], item["team"]["code"], item["decided_by"])
                             for item in answer["items"]]


RANKING_ROW = re.compile(
    r'<tr[^>]*>\s*<td class="num rank">(?:<span[^>]*>)?([^<]*)(?:</span>)?</td>\s*'
    r'<td class="team"><a href="[^"]*"><span class="team-code">([^<]+)</span>')


def page_places(client, slug):
    html = client.get(reverse("public:standings", args=[slug])).content.decode()
    table = html[html.index('class="standings final-ranking"'):]
    table = table[:table.index("</table>")]
    return [(int(place) if place.strip().isdigit() else None, code)
            for place, code in RANKING_ROW.findall(table)]


def csv_places(client, slug):
    response = client.get(reverse("public:final_ranking_export", args=[slug, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["#", "Code", "Team", "Decided by", "Team name in the other script"]
    return [(int(row[0]) if row[0] else None, row[1]) for row in rows[1:]]


def xlsx_places(client, slug):
    response = client.get(reverse("public:final_ranking_export", args=[slug, "xlsx"]))
    sheet = load_workbook(io.BytesIO(response.content)).active
    return [(row[0], row[1]) for row in sheet.iter_rows(min_row=2, values_only=True)]


def screen_podium(client, slug):
    html = client.get(reverse("public:screen_fragment", args=[slug])).content.decode()
    return re.findall(r'<li class="place-(\d)"><span class="medal">\d</span> '
                      r'<span class="code">([^<]+)</span>', html)


def staff_places(client, slug):
    response = client.get(reverse("director:final_ranking_download", args=[slug, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    return [(int(row[0]) if row[0] else None, row[1]) for row in rows[1:]]


def assert_every_door(client, director, slug, expected, *, withdrawn=()):
    places = [(n, code) for n, code in enumerate(expected, 1)]
    places += [(None, code) for code in withdrawn]
    final, items = api_places(client, slug)
    assert final is True
    assert [(place, code) for place, code, _how in items] == places
    assert page_places(client, slug) == places
    assert csv_places(client, slug) == places
    assert xlsx_places(client, slug) == places
    assert screen_podium(client, slug) == [(str(n), code) for n, code in places[:3]]
    assert staff_places(director, slug) == places
    return items


@pytest.fixture
def director(client, tournament, staff_user):
    from django.test import Client

    staff = Client()
    staff.force_login(staff_user(tournament, "director", username="boss"))
    return staff


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_door_lists_the_hand_written_places(client, director, director_actor,
                                                  tournament, teams, name):
    scenario = SCENARIOS[name]
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT,
                         third_place_match=scenario["third"])
    enter_teams(director_actor, stage, teams(scenario["teams"]))
    play_knockout(director_actor, stage, scenario)
    items = assert_every_door(client, director, tournament.slug, scenario["expected"])
    how = {code: decided for _place, code, decided in items}
    assert how[scenario["expected"][0]] == "final_won"
    assert how[scenario["expected"][1]] == "final_lost"
    if scenario["third"]:
        assert how[scenario["expected"][2]] == "third_place_won"
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    if "defaults" in scenario:
        assert "T2 won by default" in page
    if "extra" in scenario:
        assert f"T5 won by {MARGIN} after 2 extra hands" in page
    # The rounds are named by the bracket, never "Round 1".
    names = re.findall(r'<h3 class="bracket-round-name">(?:<a [^>]*>)?([^<]+)', page)
    assert names[-1] == "Final" and "Round 1" not in names
    if scenario["teams"] >= 12:
        assert names[:2] == ["Round of 16", "Quarter-finals"]


def test_a_group_stage_before_with_a_withdrawn_team(client, director, director_actor,
                                                    tournament, teams):
    """Groups A (T1 T3 T5 T7) and B (T2 T4 T6 T8), the better seed winning every match;
    T8 defaults in round 2 and is withdrawn (its results cleared). A: T1 9 mp, T3 7, T5 5,
    T7 3. B: T2 6 (two wins), T4 4, T6 2. Seeds: T1, T2 (winners), T3, T4 (runners-up).
    Semi-finals T1–T4 (T1), T2–T3 (T3); final T1–T3 (T1); third place T4–T2 (T2). Then
    the third-placed T5 (5 mp) before T6 (2 mp), then T7; T8 unranked."""
    field = teams(8)
    groups = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, groups, [field[0::2], field[1::2]])
    for number in (1, 2, 3):
        round_ = generate_round(director_actor, groups, expected_number=number)
        eight = next((m for m in round_.matches.select_related("home", "away")
                      if "T8" in (m.home.code, m.away.code)), None)
        defaults = {pair(eight.home.code, eight.away.code): "T8"} if number == 2 else None
        finish(director_actor, round_, defaults=defaults)
    cup = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT,
                       third_place_match=True, qualify_from=groups, qualifiers_per_group=2)
    seed_from_standings(director_actor, cup)
    assert [e.team.code for e in cup.entries.order_by("position")] == ["T1", "T2", "T3", "T4"]
    play_knockout(director_actor, cup, {"upsets": {pair("T2", "T3")}})
    items = assert_every_door(client, director, tournament.slug,
                              ["T1", "T3", "T2", "T4", "T5", "T6", "T7"], withdrawn=["T8"])
    assert [how for _place, _code, how in items] == [
        "final_won", "final_lost", "third_place_won", "third_place_lost", "not_qualified",
        "not_qualified", "not_qualified", "withdrawn"]
    answer = client.get(f"/api/tournaments/{tournament.slug}/final-ranking").json()
    assert answer["items"][0] == {
        "place": 1, "team": {"id": field[0].pk, "code": "T1", "name": "Team 001",
                             "other_name": "", "display_name": "Team 001"},
        "decided_by": "final_won", "round": None, "label": "won the final"}
    chinese = client.get(f"/api/tournaments/{tournament.slug}/final-ranking",
                         HTTP_ACCEPT_LANGUAGE="zh-Hans").json()
    assert [item["label"] for item in chinese["items"][:3]] == [
        "赢得决赛", "输掉决赛", "赢得三四名决赛"]


def test_out_in_round_gives_the_round(client, director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(8))
    play_knockout(director_actor, stage, {})
    items = client.get(f"/api/tournaments/{tournament.slug}/final-ranking").json()["items"]
    assert [(item["team"]["code"], item["decided_by"], item["round"], item["label"])
            for item in items[2:5]] == [
        ("T3", "out_in_round", 2, "out in the semi-finals"),
        ("T4", "out_in_round", 2, "out in the semi-finals"),
        ("T5", "out_in_round", 1, "out in the quarter-finals")]


def test_the_ranking_while_the_knockout_runs(client, director_actor, tournament, teams):
    """After the quarter-finals of 8: four still playing (places open), the losers 5–8."""
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT,
                         third_place_match=True)
    enter_teams(director_actor, stage, teams(8))
    finish(director_actor, generate_round(director_actor, stage), upsets={pair("T4", "T5")})
    final, items = api_places(client, tournament.slug)
    assert final is False
    assert items == [(None, "T1", "still_playing"), (None, "T2", "still_playing"),
                     (None, "T3", "still_playing"), (None, "T5", "still_playing"),
                     (5, "T4", "out_in_round"), (6, "T6", "out_in_round"),
                     (7, "T7", "out_in_round"), (8, "T8", "out_in_round")]
    assert page_places(client, tournament.slug) == [
        (None, "T1"), (None, "T2"), (None, "T3"), (None, "T5"), (5, "T4"), (6, "T6"),
        (7, "T7"), (8, "T8")]
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert "Ranking so far" in page and page.count(">1–4</span>") == 4
    home = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert "still in" in home and "Champion" not in home
    # The big screen shows the bracket, not a podium, and no match-point table.
    screen = client.get(reverse("public:screen_fragment",
                                args=[tournament.slug])).content.decode()
    assert "screen-bracket" in screen and "screen-podium" not in screen
    assert "screen-standings" not in screen


def test_knockout_matches_read_as_knockout_matches(client, director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(2))
    final = generate_round(director_actor, stage)
    finish(director_actor, final)
    match = Match.objects.get(round=final)
    for page in (reverse("public:round", args=[tournament.slug, final.pk]),
                 reverse("public:match", args=[tournament.slug, match.pk]),
                 reverse("public:tournament", args=[tournament.slug])):
        html = client.get(page).content.decode()
        assert f"T1 won by {MARGIN}" in html, page
        assert " mp<" not in html and "3 : 1" not in html, page


# What a round in play shows, under each live-results setting -------------------------------

@pytest.fixture
def semi_finals_in_play(director_actor, tournament, teams):
    """Four teams, no third-place match, the semi-finals in play with one deal set for the
    field: T1–T4 played to the end and signed off; T2–T3 has its first box entered and
    approved at both tables, its second entered and not approved."""
    from tests.tournament.views.public_event import HANDS, enter, entry_for, start
    from tournament.services.approvals import sign_table
    from tournament.services.signoff import sign_off_match

    tournament.hands_per_match = HANDS
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(4))
    semis = start(director_actor, generate_round(director_actor, stage))
    first, second = semis.matches.order_by("number")
    for table in first.tables.order_by("position"):
        for hand in range(1, HANDS + 1):
            enter(director_actor, table, hand, entry_for(table.number, hand))
        for seat in (1, 2):
            sign_table(director_actor, table, seat)
    first = sign_off_match(director_actor, Match.objects.get(pk=first.pk))
    assert first.home_total != 0  # decided: no extra hands
    for table in second.tables.order_by("position"):
        enter(director_actor, table, 1, entry_for(table.number, 1))
        enter(director_actor, table, 2, entry_for(table.number, 2), approve=False)
    winner = first.home if first.home_total > 0 else first.away
    loser = first.away if winner == first.home else first.home
    return semis, winner.code, loser.code


@pytest.mark.parametrize("setting", ["closed", "finished_boxes", "live"])
def test_nothing_of_a_round_in_play_beyond_the_setting(client, tournament, setting,
                                                       semi_finals_in_play):
    _semis, winner, loser = semi_finals_in_play
    tournament.live_results = setting
    tournament.save()
    final, items = api_places(client, tournament.slug)
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    screen = client.get(reverse("public:screen_fragment",
                                args=[tournament.slug])).content.decode()
    assert final is False
    decided = {code: (place, how) for place, code, how in items}
    if setting == "live":
        # Every result shows as entered; only the signed-off match decides anything.
        assert decided[loser] == (None, "out_in_round")
        assert f"{winner} won by" in page
        assert "leads by" in page or "provisional" in page
    else:
        # Under "closed", and under "finished boxes" while the other match has not
        # finished the same boxes: nothing of the round shows, the signed-off match
        # included.
        assert {how for _place, how in decided.values()} == {"still_playing"}
        assert "won by" not in page and "leads by" not in page
        assert "won by" not in screen and 'class="bm-score"' not in screen
        assert 'class="bm-score"' not in page


def test_finished_boxes_show_the_signed_off_match_once_every_box_is_finished(
        client, director_actor, tournament, semi_finals_in_play):
    from tests.tournament.views.public_event import HANDS, enter, entry_for
    from tournament.services.approvals import approve_hand

    semis, winner, loser = semi_finals_in_play
    tournament.live_results = "finished_boxes"
    tournament.save()
    second = semis.matches.order_by("number")[1]
    for table in second.tables.order_by("position"):
        for result in table.results.filter(is_current=True, hand=2):
            for seat in (1, 2):
                approve_hand(director_actor, result, seat)
        for hand in range(3, HANDS + 1):
            enter(director_actor, table, hand, entry_for(table.number, hand))
    _final, items = api_places(client, tournament.slug)
    decided = {code: (place, how) for place, code, how in items}
    assert decided[loser] == (None, "out_in_round")  # 3rd or 4th: the other semi decides
    assert decided[winner] == (None, "still_playing")
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert f"{winner} won by" in page


# Queries: the same for a knockout of 4 and of 16 teams --------------------------------------

# The bracket reads its matches' rounds apart, once (selectors.public.match_lines).
KNOCKOUT_QUERIES = {"standings": 12, "home": 18, "screen": 11, "api": 10, "csv": 11, "staff": 12}


def knockout_query_counts(client, director, slug) -> dict[str, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    addresses = {
        "standings": (client, reverse("public:standings", args=[slug])),
        "home": (client, reverse("public:tournament", args=[slug])),
        "screen": (client, reverse("public:screen_fragment", args=[slug])),
        "api": (client, f"/api/tournaments/{slug}/final-ranking"),
        "csv": (client, reverse("public:final_ranking_export", args=[slug, "csv"])),
        "staff": (director, reverse("director:final_ranking", args=[slug])),
    }
    director.get(addresses["staff"][1])  # the session once
    counts = {}
    for name, (reader, address) in addresses.items():
        reader.get(address)  # a second visit is counted: what the process keeps is read
        with CaptureQueriesContext(connection) as queries:
            assert reader.get(address).status_code == 200, address
        counts[name] = len(queries)
    return counts


def test_the_knockout_pages_read_in_a_pinned_number_of_queries(
        client, director, director_actor, tournament, make_tournament, make_team, staff_user,
        actor, teams):
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT,
                         third_place_match=True)
    enter_teams(director_actor, stage, teams(4))
    play_knockout(director_actor, stage, {})
    larger = make_tournament(name="Asian Cup", slug="asian-cup")
    boss = actor(staff_user(larger, "director", username="director2"))
    director.force_login(staff_user(larger, "director", username="director3"))
    cup = create_stage(boss, larger, name="Cup", kind=Stage.Kind.KNOCKOUT,
                       third_place_match=True)
    enter_teams(boss, cup, [make_team(larger, code=f"T{n}", name=f"Asia {n}")
                            for n in range(1, 17)])
    play_knockout(boss, cup, {})
    large = knockout_query_counts(client, director, larger.slug)
    director.force_login(staff_user(tournament, "director", username="director4"))
    small = knockout_query_counts(client, director, tournament.slug)
    assert small == large
    assert small == KNOCKOUT_QUERIES


def test_every_team_of_three_stages_is_ranked_once(client, director, director_actor,
                                                   tournament, teams):
    """A Swiss stage of six (the better seed winning: T1…T6 in that order), a group of its
    top four (the same), a final of the group's top two (T2 beats T1). Places: T2, T1,
    then the group's T3 and T4, then the Swiss stage's T5 and T6."""
    field = teams(6)
    swiss = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=2)
    enter_teams(director_actor, swiss, field)
    for _number in (1, 2):
        finish(director_actor, generate_round(director_actor, swiss))
    groups = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, groups, [field[:4]])
    for number in (1, 2, 3):
        finish(director_actor, generate_round(director_actor, groups, expected_number=number))
    final = create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT,
                         qualify_from=groups, qualifiers_per_group=2)
    seed_from_standings(director_actor, final)
    play_knockout(director_actor, final, {"upsets": {pair("T1", "T2")}})
    items = assert_every_door(client, director, tournament.slug,
                              ["T2", "T1", "T3", "T4", "T5", "T6"])
    assert [how for _place, _code, how in items] == [
        "final_won", "final_lost", "not_qualified", "not_qualified", "not_qualified",
        "not_qualified"]


def test_a_large_bracket_prints_its_first_rounds_on_pages_of_their_own(
        director, director_actor, tournament, teams):
    from pypdf import PdfReader

    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(32))
    play_knockout(director_actor, stage, {})
    response = director.get(reverse("director:bracket_pdf", args=[tournament.slug, stage.pk]))
    pages = [" ".join(page.extract_text().split())
             for page in PdfReader(io.BytesIO(response.content)).pages]
    assert len(pages) == 2
    assert "Round of 32" in pages[0] and "T17 Team 017" in pages[0]
    assert "Round of 16" in pages[1] and "Final" in pages[1]
    assert "Round of 32" not in pages[1]


def test_a_scorer_learns_nothing_more_of_a_round_in_play_from_the_staff_ranking(
        client, tournament, staff_user, semi_finals_in_play):
    """A signed-off semi-final of a round whose boxes the other semi-final still plays:
    the referee sees it decide the loser's place; a scorer sees what the public sees."""
    _semis, winner, _loser = semi_finals_in_play
    address = reverse("director:final_ranking", args=[tournament.slug])
    client.force_login(staff_user(tournament, "referee", username="ref"))
    page = client.get(address).content.decode()
    assert f"{winner} won by" in page and "out in the semi-finals" in page
    client.force_login(staff_user(tournament, "scorer", username="scorer-1"))
    page = client.get(address).content.decode()
    assert "won by" not in page and "out in the semi-finals" not in page
    assert 'class="bm-score"' not in page
