"""Stages, rounds and the draw, through the test client: director pages and the public draw."""

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournament.models import Round, Stage
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round
from tournament.services.stages import create_stage, enter_teams


@pytest.fixture
def logged_in(client, tournament, staff_user):
    user = staff_user(tournament, "director", username="lin")
    client.force_login(user)
    return user


@pytest.fixture
def swiss(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=7)
    enter_teams(director_actor, stage, teams(40))
    return stage


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def test_create_a_stage_and_allot_groups_by_seed(client, logged_in, tournament, teams):
    teams(8)
    response = client.post(url("stage_list", tournament.slug),
                           {"name": "Groups", "kind": "groups"})
    stage = Stage.objects.get(name="Groups")
    assert response["Location"] == url("stage_detail", tournament.slug, stage.pk)
    client.post(url("stage_groups", tournament.slug, stage.pk), {"group_count": 2})
    groups = {g.name: [e.team.code for e in g.entries.order_by("position")]
              for g in stage.groups.all()}
    assert groups == {"A": ["T1", "T4", "T5", "T8"], "B": ["T2", "T3", "T6", "T7"]}


def test_manual_groups_name_the_unknown_code(client, logged_in, tournament, teams):
    teams(4)
    stage = create_stage_via_client(client, tournament, "groups")
    response = client.post(url("stage_groups", tournament.slug, stage.pk),
                           {"groups": "A: T1, T2\nB: T3, XX9"})
    assert response.status_code == 200
    assert "line 2: no team with the code XX9" in response.content.decode()
    assert not stage.entries.exists()


def create_stage_via_client(client, tournament, kind):
    client.post(url("stage_list", tournament.slug), {"name": kind.title(), "kind": kind,
                                                     "swiss_rounds": 5})
    return Stage.objects.get(kind=kind)


def test_generate_review_and_publish(client, logged_in, tournament, swiss):
    response = client.post(url("round_generate", tournament.slug, swiss.pk),
                           {"expected_number": 1})
    round_ = Round.objects.get()
    assert response["Location"] == url("round_detail", tournament.slug, round_.pk)
    page = client.get(response["Location"]).content.decode()
    assert "Table" in page and "deals hands 1, 3, 5, 7" in page

    # Pressing "generate" again from the stale page draws nothing new.
    response = client.post(url("round_generate", tournament.slug, swiss.pk),
                           {"expected_number": 1}, follow=True)
    assert "already been generated" in response.content.decode()
    assert Round.objects.count() == 1

    client.post(url("round_publish", tournament.slug, round_.pk), {"override_reason": ""})
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_swap_preview_then_swap(client, logged_in, tournament, swiss, director_actor):
    round_ = generate_round(director_actor, swiss)
    a, b = (e.team for e in round_.entries.select_related("team")[:2])
    page = client.get(url("round_detail", tournament.slug, round_.pk),
                      {"team_a": a.pk, "team_b": b.pk})
    assert page.context["swap_check"] is not None
    response = client.post(url("round_swap", tournament.slug, round_.pk),
                           {"team_a": a.pk, "team_b": b.pk, "accept_warnings": "on"})
    assert response.status_code == 302


def test_bad_generate_request_is_a_message_not_an_error(client, logged_in, tournament, swiss):
    response = client.post(url("round_generate", tournament.slug, swiss.pk),
                           {"expected_number": "x"}, follow=True)
    assert response.status_code == 200
    assert "out of date" in response.content.decode()


@pytest.mark.parametrize("kind", ["draw-by-table", "draw-by-team", "table-cards"])
def test_printouts_are_pdfs_with_the_draw(client, logged_in, tournament, swiss, director_actor,
                                          kind):
    round_ = generate_round(director_actor, swiss)
    response = client.get(url("round_pdf", tournament.slug, round_.pk, kind),
                          {"paper": "letter"})
    assert response["Content-Type"] == "application/pdf"
    import io

    reader = PdfReader(io.BytesIO(response.content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    first = round_.matches.select_related("home").first()
    assert first.home.code in text or first.home.name in text
    if kind == "table-cards":
        assert len(reader.pages) == 2 * round_.matches.count()


def test_unknown_printout_is_404(client, logged_in, tournament, swiss, director_actor):
    round_ = generate_round(director_actor, swiss)
    assert client.get(url("round_pdf", tournament.slug, round_.pk, "secrets")).status_code == 404


def test_round_page_query_count_does_not_grow(client, logged_in, tournament, swiss,
                                              director_actor, django_assert_max_num_queries):
    round_ = generate_round(director_actor, swiss)
    with django_assert_max_num_queries(23):
        assert client.get(url("round_detail", tournament.slug, round_.pk)).status_code == 200


def test_stage_pages_query_counts(client, logged_in, tournament, swiss, director_actor,
                                  django_assert_max_num_queries):
    generate_round(director_actor, swiss)
    with django_assert_max_num_queries(15):
        assert client.get(url("stage_list", tournament.slug)).status_code == 200
    with django_assert_max_num_queries(15):
        assert client.get(url("stage_detail", tournament.slug, swiss.pk)).status_code == 200


def test_public_draw_shows_published_rounds_only(client, tournament, swiss, director_actor,
                                                 django_assert_max_num_queries):
    round_ = generate_round(director_actor, swiss)
    public = reverse("public:round", args=[tournament.slug, round_.pk])
    assert client.get(public).status_code == 404
    publish_round(director_actor, round_)
    with django_assert_max_num_queries(12):
        by_table = client.get(public)
    assert by_table.status_code == 200
    table_page = client.get(public, {"by": "table"}).content.decode()
    # The public draw is the staff's rows without their links to entry and line-ups.
    assert table_page.count("deals hands 1, 3, 5, 7") == 40
    assert "/manage/" not in table_page.split('<table class="draw">')[1]
    with django_assert_max_num_queries(12):
        by_team = client.get(public, {"by": "team"})
    page = by_team.content.decode()
    assert "Team 001" in page and "Table 1, seat 1" in page
    assert round_.label in client.get(tournament.get_absolute_url()).content.decode()


def test_reserve_comes_in_through_the_line_up_page(client, logged_in, tournament,
                                                   director_actor, make_team):
    from tournament.models import RoundEntry

    chn = make_team(tournament, code="CHN", name="China", player1="Li", player2="Zhang",
                    reserve="Wang")
    ita = make_team(tournament, code="ITA", name="Italia")
    stage = create_stage(director_actor, tournament, name="KO", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, [chn, ita])
    round_ = generate_round(director_actor, stage)
    reserve = chn.players.get(is_reserve=True)
    first = chn.players.get(number=1)
    response = client.post(url("round_lineup", tournament.slug, round_.pk, chn.pk),
                           {"first_player": reserve.pk, "second_player": first.pk})
    assert response.status_code == 302
    entry = RoundEntry.objects.get(round=round_, team=chn)
    assert (entry.first_player, entry.second_player) == (reserve, first)
    page = client.get(url("round_detail", tournament.slug, round_.pk)).content.decode()
    assert "Wang" in page and "reserve" in page
    response = client.post(url("round_lineup", tournament.slug, round_.pk, chn.pk),
                           {"first_player": first.pk, "second_player": first.pk})
    assert "a player cannot sit at both tables" in response.content.decode()


def test_a_swap_that_would_break_the_round_robin_shows_the_reason(
        client, logged_in, tournament, director_actor, teams, finish_round):
    from tournament.services.stages import allot_groups

    field = teams(4)
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [field])
    finish_round(generate_round(director_actor, stage))
    round_ = generate_round(director_actor, stage)
    before = list(round_.matches.values_list("home_id", "away_id"))
    reason = ("T1 has met T4 already and T2 has not: after the swap T1 would meet T4 again "
              "in round 2 and T2 never")
    swap = {"team_a": field[1].pk, "team_b": field[3].pk}
    preview = client.get(url("round_detail", tournament.slug, round_.pk), swap)
    assert reason in preview.content.decode()
    response = client.post(url("round_swap", tournament.slug, round_.pk),
                           {**swap, "accept_warnings": "on"})
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert list(round_.matches.values_list("home_id", "away_id")) == before


def test_the_draw_by_table_links_each_table_and_line_up_and_escapes_every_name(
        client, logged_in, tournament, director_actor, make_team):
    """The rows of the draw are written in one pass (templatetags/draw.py): each table
    links to its entry screen, each team's line-up is linked once (on its match's first
    table), a group match names its group, a reserve has its badge, and names are text."""
    import re

    from tournament.services.stages import allot_groups

    field = [make_team(tournament, code=f"G{n}", name=f"Team {n}", player1=f"Ann {n}",
                       player2=f"O'Brien & <b>{n}</b>", reserve=f"Res {n}")
             for n in range(1, 5)]
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [field])
    round_ = generate_round(director_actor, stage)
    team = field[0]
    client.post(url("round_lineup", tournament.slug, round_.pk, team.pk),
                {"first_player": team.players.get(is_reserve=True).pk,
                 "second_player": team.players.get(number=1).pk})
    page = client.get(url("round_detail", tournament.slug, round_.pk)).content.decode()
    rows = re.findall(r"<tr[^>]*>\s*<td class=\"num\"><strong>.*?</tr>", page, re.S)
    tables = list(round_.tables.order_by("number"))
    assert len(rows) == len(tables) == 4
    for row, table in zip(rows, tables, strict=True):
        entry = reverse("director:table_entry", args=[tournament.slug, table.pk])
        assert f'<a href="{entry}">{table.number}</a>' in row
        assert f'<span class="muted">{table.match.group.name}</span>' in row
        lineups = re.findall(r'href="([^"]*/lineup/\d+/)"', row)
        if table.position == 1:
            assert sorted(lineups) == sorted(
                url("round_lineup", tournament.slug, round_.pk, side.pk)
                for side in (table.match.home, table.match.away))
        else:
            assert not lineups
    assert "O&#x27;Brien &amp; &lt;b&gt;2&lt;/b&gt;" in page and "<b>2</b>" not in page
    assert page.count('<span class="badge">reserve</span>') == 1  # Res 1 plays one table
    assert page.count("deals hands 1, 3, 5, 7") == 4


def test_the_round_and_progress_pages_name_each_match_s_state(
        client, logged_in, tournament, director_actor, round_in_play):
    """Written in one pass (templatetags/progress.py): every state a match can be in, on the
    progress page's rows and the round page's list, each with its words and links."""
    import re
    import uuid

    from tournament.services.approvals import approve_hand, sign_table
    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry
    from tournament.services.penalties import record_penalty
    from tournament.services.signoff import sign_off_match

    round_ = round_in_play(12, hands=1)
    matches = list(round_.matches.order_by("number"))

    def play(match, *, approve=False, sign=False, one_seat=False):
        for table in match.tables.order_by("position"):
            # The home team knocks at both tables (it holds seat 1 at table 1, seat 2 at 2).
            knock = HandEntry("knock", table.position, 4, 12)
            result = record_hand_result(director_actor, table, 1, knock, seen_version=0,
                                        request_token=uuid.uuid4())
            for seat in (1, 2) if approve else ():
                approve_hand(director_actor, result, seat)
            if one_seat and table.position == 1:  # one player's approval: not approved yet
                approve_hand(director_actor, result, 1)
            for seat in (1, 2) if sign else ():
                sign_table(director_actor, table, seat)

    play(matches[1], one_seat=True)
    play(matches[2], approve=True)
    play(matches[3], approve=True, sign=True)
    play(matches[4], approve=True, sign=True)
    sign_off_match(director_actor, matches[4])
    record_penalty(director_actor, team=matches[5].away, round=round_, kind="default",
                   match=matches[5], reason="did not come")
    expected = ["waiting", "awaiting_approval", "awaiting_signatures", "awaiting_sign_off",
                "official", "forfeited"]
    # One word a state on both pages (tournament.states; the round page said "provisional"
    # for the first four before issue 56).
    words = ["not started", "awaiting approval", "awaiting signatures", "awaiting sign-off",
             "official", f"forfeited by {matches[5].away.code}"]

    progress = client.get(url("round_progress", tournament.slug, round_.pk)).content.decode()
    rows = re.findall(r'<tr class="state-([a-z_]+)">(.*?)</tr>', progress, re.S)
    assert [state for state, _row in rows] == expected
    for (_state, row), match, word, (entered, approved, signed) in zip(
            rows, matches, words,
            ((0, 0, 0), (2, 0, 0), (2, 2, 0), (2, 2, 4), (2, 2, 4), (0, 0, 0)), strict=True):
        assert f'aria-label="Match {match.number}"' in row
        assert re.search(rf'<td class="state">(<strong>)?{re.escape(word)}<', row), row
        assert f'data-label="entered">{entered} / 2<' in row
        assert f'data-label="approved">{approved} / 2<' in row
        assert f'data-label="signed">{signed} / 4<' in row
        for table in match.tables.all():
            entry = reverse("director:table_entry", args=[tournament.slug, table.pk])
            assert f'<a href="{entry}">table {table.number}</a>' in row
    official = matches[4]
    assert f"<strong>{official.home.code}</strong> +46 : −46 {official.away.code}, 3 : 1" \
        in rows[4][1]

    page = client.get(url("round_detail", tournament.slug, round_.pk)).content.decode()
    items = re.findall(r'<li class="state-([a-z_]+)">(.*?)</li>', page, re.S)
    assert [state for state, _item in items] == expected
    for (_state, item), match, word in zip(items, matches, words, strict=True):
        link = url("match_page", tournament.slug, match.pk)
        assert f'<a href="{link}">Match {match.number}</a>' in item
        assert f'<span class="state">{word}</span>' in item
