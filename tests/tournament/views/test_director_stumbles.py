"""What a new director tripped over: the match score, deleting a team that has played, the
PIN page, groups by hand, dates, the signature box, the deal-set choice, the creator."""

import datetime as dt
import re
import uuid
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from tournament.models import AuditEntry, Stage, Team
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import allot_groups, create_stage, enter_teams
from tournament.services.tournaments import create_tournament
from tournament.templatetags.scores import score_line, signed

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def text(response) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


@pytest.fixture
def director(client, tournament, staff_user):
    user = staff_user(tournament, "director", username="lin")
    client.force_login(user)
    return user


@pytest.fixture
def played(director_actor, tournament, make_team):
    """Round 1 of a Swiss stage in play: CHN1 v TPE in match 1."""
    chn = make_team(tournament, code="CHN1", name="中国一队", seed="1")
    tpe = make_team(tournament, code="TPE", name="中華台北", seed="2")
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, [chn, tpe])
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_


def make_official(match, home_total):
    match.home_total, match.away_total = home_total, -home_total
    match.signed_off_at = timezone.now()
    match.save()


# The match score.


def test_signed_totals_use_a_real_minus_sign():
    assert (signed(7), signed(-7), signed(0)) == ("+7", "\N{MINUS SIGN}7", "0")


def test_the_score_names_the_winner_and_the_match_points_of_the_round(
        client, director, tournament, played):
    match = played.matches.select_related("home", "away", "round").get()
    assert score_line(match) is None  # not official yet
    # A later change of the settings does not touch a round already drawn.
    tournament.match_points_win = 4
    tournament.save()
    make_official(match, 7)
    line = score_line(match)
    assert line.text == "CHN1 +7 : −7 TPE, 3 : 1" and line.winner == "home"
    for page in (url("match_page", tournament.slug, match.pk),
                 url("round_progress", tournament.slug, played.pk),
                 url("round_detail", tournament.slug, played.pk)):
        words = text(client.get(page))
        assert "CHN1 +7 : −7 TPE, 3 : 1" in words, page
        assert "– -7" not in words and "7 – " not in words
    html = client.get(url("match_page", tournament.slug, match.pk)).content.decode()
    assert "<strong>CHN1</strong>" in html


def test_a_tie_and_an_away_win_read_right(tournament, played):
    match = played.matches.select_related("home", "away", "round").get()
    make_official(match, 0)
    assert score_line(match).text == "CHN1 0 : 0 TPE, 2 : 2"
    assert score_line(match).winner == ""
    make_official(match, -31)
    assert score_line(match).text == "CHN1 −31 : +31 TPE, 1 : 3"
    assert score_line(match).winner == "away"


# Deleting a team.


def test_the_delete_page_says_up_front_that_a_team_that_played_stays(
        client, director, tournament, played):
    chn = Team.objects.get(code="CHN1")
    page = client.get(url("team_delete", tournament.slug, chn.pk))
    words = text(page)
    assert "中国一队 cannot be deleted" in words
    assert "中国一队 has played (Swiss, Round 1): its results stay" in words
    assert 'class="danger"' not in page.content.decode()  # no Delete button
    response = client.post(url("team_delete", tournament.slug, chn.pk), follow=True)
    assert response.status_code == 200 and "has played" in text(response)
    assert Team.objects.filter(pk=chn.pk).exists()


def test_a_team_in_a_draw_or_a_stage_names_what_keeps_it(
        client, director, tournament, make_team, director_actor):
    teams = [make_team(tournament, code=f"G{i}", name=f"Gamma {i}") for i in range(1, 5)]
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [teams[:2], teams[2:]])
    words = text(client.get(url("team_delete", tournament.slug, teams[0].pk)))
    assert "Gamma 1 is entered in the stage Groups, so it cannot be deleted" in words
    generate_round(director_actor, stage)
    words = text(client.get(url("team_delete", tournament.slug, teams[0].pk)))
    assert "Gamma 1 is in the draw of Groups, Round 1, so it cannot be deleted" in words

    free = make_team(tournament, code="FREE", name="Free")
    page = client.get(url("team_delete", tournament.slug, free.pk))
    assert "Delete Free?" in text(page) and 'class="danger"' in page.content.decode()
    client.post(url("team_delete", tournament.slug, free.pk))
    assert not Team.objects.filter(pk=free.pk).exists()


# The PIN page and groups by hand.


def test_the_team_page_links_to_the_pin_page_even_before_pins_are_asked(
        client, director, tournament, make_team):
    team = make_team(tournament, code="ITA", name="Italia")
    assert not tournament.approvals_need_pin
    page = client.get(url("team_edit", tournament.slug, team.pk)).content.decode()
    assert url("team_pins", tournament.slug, team.pk) in page
    pins = text(client.get(url("team_pins", tournament.slug, team.pk)))
    assert "PINs are not asked for now" in pins


def test_groups_by_hand_start_from_the_current_groups(
        client, director, tournament, teams):
    teams(8)
    client.post(url("stage_list", tournament.slug), {"name": "Groups", "kind": "groups"})
    stage = Stage.objects.get(name="Groups")
    client.post(url("stage_groups", tournament.slug, stage.pk), {"group_count": 2})
    page = client.get(url("stage_detail", tournament.slug, stage.pk))
    assert page.context["manual_form"]["groups"].value() == "A: T1, T4, T5, T8\nB: T2, T3, T6, T7"
    textarea = re.search(r'<textarea name="groups"[^>]*>(.*?)</textarea>',
                         page.content.decode(), re.S).group(1)
    assert textarea.strip() == "A: T1, T4, T5, T8\nB: T2, T3, T6, T7"
    # Saving them unchanged keeps them.
    client.post(url("stage_groups", tournament.slug, stage.pk), {"groups": textarea})
    groups = {g.name: [e.team.code for e in g.entries.order_by("position")]
              for g in stage.groups.all()}
    assert groups == {"A": ["T1", "T4", "T5", "T8"], "B": ["T2", "T3", "T6", "T7"]}


# Dates.


def test_one_date_format_per_language(client, director, tournament):
    dashboard = url("dashboard", tournament.slug)
    assert "20 Nov 2026 – 22 Nov 2026" in text(client.get(dashboard))
    assert "2026年11月20日 – 2026年11月22日" in text(
        client.get(dashboard, HTTP_ACCEPT_LANGUAGE="zh-Hans"))
    public = reverse("public:tournament", args=[tournament.slug])
    assert "20 Nov 2026" in text(client.get(public))
    assert "2026年11月20日" in text(client.get("/zh-hans" + public))


def test_the_audit_log_writes_the_date_as_everywhere_else(client, director, tournament,
                                                          make_team):
    make_team(tournament, code="ITA", name="Italia")
    AuditEntry.objects.create(tournament=tournament, action="test", summary="something",
                              actor_name="lin")
    AuditEntry.objects.update(created_at=dt.datetime(2026, 11, 23, 6, 5, 4, tzinfo=dt.UTC))
    tournament.time_zone = "Asia/Shanghai"
    tournament.save()
    assert "23 Nov 2026 14:05:04" in text(client.get(url("audit", tournament.slug)))


def test_no_template_writes_a_date_format_of_its_own():
    literal = re.compile(r"\|date:\s*['\"](?!c['\"])")
    offenders = [str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html")
                 if literal.search(path.read_text())]
    assert not offenders, f"use |date (the language's format): {offenders}"


# The signature box, the deal-set choice, the creator.


def test_the_signature_box_says_signed_once_both_players_signed(
        client, director, tournament, played, director_actor):
    table = played.tables.get(position=1)
    for hand in range(1, played.hands_per_match + 1):
        result = record_hand_result(director_actor, table, hand, HandEntry("draw"),
                                    seen_version=0, request_token=uuid.uuid4())
        for seat in (1, 2):
            approve_hand(director_actor, result, seat)
    entry = url("table_entry", tournament.slug, table.pk)
    sign_table(director_actor, table, 1)
    assert "Signed: both players have signed" not in text(client.get(entry))
    sign_table(director_actor, table, 2)
    words = text(client.get(entry))
    assert "✓ Signed: both players have signed the table." in words
    assert "Both players sign the table" not in words
    match_page = text(client.get(url("match_page", tournament.slug, table.match_id)))
    assert "✓ signed" in match_page


def test_the_deal_set_choice_shows_its_whole_words(client, director, tournament):
    html = client.get(url("tournament_edit", tournament.slug)).content.decode()
    choice = re.search(r'<fieldset class="field span-all choices.*?</fieldset>', html, re.S)
    assert choice is not None
    assert choice.group(0).count('type="radio"') == 2
    assert "One deal set per round for the whole field" in choice.group(0)
    assert '<select name="deal_scope"' not in html


def test_the_staff_page_names_who_created_the_tournament(client, admin_user, actor):
    created = create_tournament(actor(admin_user), name="Asia Open", slug="asia-open",
                                starts_on=dt.date(2026, 11, 23), ends_on=dt.date(2026, 11, 25))
    client.force_login(admin_user)
    words = text(client.get(url("staff", created.slug)))
    today = timezone.localdate(timezone=ZoneInfo(created.time_zone))
    assert f"Created by root on {today.day} {today:%b} {today.year}." in words
    assert "An administrator" in words
