"""Names in two scripts (issue 56, item 2): a team, a stage and a tournament have a name and
optionally the same name in the other script; the reader's language picks which is shown
(a Chinese reader the one in Chinese characters), the other beside it where there is room.
A team's other-script name is read here on the public page, in the API, in a printed
standings (pypdf) and in a spreadsheet (openpyxl), in both languages."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.conftest import new_team
from tournament import names
from tournament.models import Stage
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams

DUCK, DUCK_ZH = "Beijing Roast Duck", "北京烤鸭队"
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.mark.parametrize(("name", "other", "language", "shown"), [
    (DUCK, DUCK_ZH, "zh-hans", (DUCK_ZH, DUCK)),
    (DUCK, DUCK_ZH, "en", (DUCK, DUCK_ZH)),
    (DUCK_ZH, DUCK, "en", (DUCK, DUCK_ZH)),  # the Latin one for a Latin reader
    (DUCK_ZH, DUCK, "zh-hans", (DUCK_ZH, DUCK)),
    (DUCK, "", "zh-hans", (DUCK, "")),  # no other name: the one there is
    (DUCK_ZH, "", "en", (DUCK_ZH, "")),
    ("", DUCK_ZH, "en", (DUCK_ZH, "")),
    (DUCK, DUCK, "en", (DUCK, "")),  # the same twice is shown once
    ("Roma", "Rome", "zh-hans", ("Roma", "Rome")),  # neither in Chinese: as written
    ("北京", "北京队", "en", ("北京", "北京队")),  # both in Chinese: as written
    ("Team 北京", "Beijing", "zh-hans", ("Team 北京", "Beijing")),  # Han somewhere in it
])
def test_the_readers_language_picks_the_name(name, other, language, shown):
    assert names.in_order(name, other, language) == shown
    with translation.override(language):
        assert names.shown_name({"name": name, "other_name": other}) == shown[0]
        both = names.both_names({"name": name, "other_name": other})
        assert both == (f"{shown[0]} · {shown[1]}" if shown[1] else shown[0])


def test_both_names_on_a_page_mark_the_chinese_one_and_escape_them():
    html = names.both_names_html({"name": "<b>Duck</b>", "other_name": DUCK_ZH}, "en")
    assert html == ('&lt;b&gt;Duck&lt;/b&gt; <span class="other-name" lang="zh-Hans">· '
                    f'{DUCK_ZH}</span>')
    assert names.both_names_html({"name": DUCK, "other_name": ""}, "en") == DUCK


@pytest.fixture
def event(director_actor, tournament, teams, finish_round):
    """A closed Swiss round of four teams, one of them the Beijing Roast Duck (北京烤鸭队),
    in a stage and a tournament named in both scripts too."""
    tournament.other_name = "世界杯"
    tournament.save()
    duck = new_team(tournament, 9, name=DUCK, other_name=DUCK_ZH, seed="9")
    stage = create_stage(director_actor, tournament, name="Swiss", other_name="瑞士制",
                         kind=Stage.Kind.SWISS, swiss_rounds=3)
    enter_teams(director_actor, stage, [*teams(3), duck])
    finish_round(generate_round(director_actor, stage))
    return tournament, stage, duck


def text_of(response) -> str:
    return response.content.decode()


@pytest.mark.django_db
def test_the_public_page_shows_the_readers_name_first_and_the_other_beside_it(client, event):
    tournament, stage, duck = event
    url = reverse("public:team", args=[tournament.slug, duck.pk])
    english = text_of(client.get(url))
    assert (f'<h1><span class="team-code">T9</span> {DUCK} '
            f'<span class="other-name" lang="zh-Hans">· {DUCK_ZH}</span></h1>') in english
    with translation.override("zh-hans"):
        url = reverse("public:team", args=[tournament.slug, duck.pk])
        standings = reverse("public:stage_standings", args=[tournament.slug, stage.pk])
    chinese = text_of(client.get(url))
    assert (f'<h1><span class="team-code">T9</span> {DUCK_ZH} '
            f'<span class="other-name">· {DUCK}</span></h1>') in chinese
    assert "<title>T9 北京烤鸭队 · 世界杯" in chinese
    # The standings: the reader's name, the other beside it (left out on a phone by CSS).
    page = text_of(client.get(standings))
    assert f'{DUCK_ZH} <span class="other-name">· {DUCK}</span>' in page
    assert "瑞士制" in page


@pytest.mark.django_db
def test_the_api_gives_both_names_and_the_one_the_reader_sees(client, event):
    tournament, stage, duck = event
    url = f"/api/tournaments/{tournament.slug}/teams/{duck.pk}"
    english, chinese = client.get(url).json(), client.get(url, **CHINESE).json()
    for answer in (english, chinese):
        assert (answer["name"], answer["other_name"]) == (DUCK, DUCK_ZH)
    assert (english["display_name"], chinese["display_name"]) == (DUCK, DUCK_ZH)
    standings = client.get(f"/api/tournaments/{tournament.slug}/stages/{stage.pk}/standings",
                           **CHINESE).json()
    assert standings["stage"]["display_name"] == "瑞士制"
    detail = client.get(f"/api/tournaments/{tournament.slug}", **CHINESE).json()
    assert (detail["name"], detail["other_name"], detail["display_name"]) == (
        "World Cup", "世界杯", "世界杯")


def standings_download(client, tournament, stage, kind, language):
    with translation.override(language):
        url = reverse("public:stage_standings_export", args=[tournament.slug, stage.pk, kind])
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content


@pytest.mark.django_db
def test_a_spreadsheet_gives_the_readers_name_and_the_other_in_the_last_column(client,
                                                                               event):
    tournament, stage, _duck = event
    for language, team, other in (("en", DUCK, DUCK_ZH), ("zh-hans", DUCK_ZH, DUCK)):
        book = load_workbook(io.BytesIO(standings_download(client, tournament, stage, "xlsx",
                                                           language)))
        rows = list(book.active.iter_rows(values_only=True))
        duck = next(row for row in rows if row[1] == "T9")  # "#", code, team, …
        assert duck[2] == team and duck[-1] == other, (language, duck)
        assert rows[0][-1] == ("Team name in the other script" if language == "en"
                              else "另一种文字的队名")


@pytest.mark.django_db
def test_a_printed_standings_names_the_team_in_both_scripts(client, event, django_user_model):
    tournament, stage, _duck = event
    client.force_login(django_user_model.objects.get(username="director"))
    url = reverse("director:standings_download", args=[tournament.slug, stage.pk, "pdf"])
    for language, first, second in (("en", DUCK, DUCK_ZH), ("zh-hans", DUCK_ZH, DUCK)):
        client.cookies["django_language"] = language
        text = "\n".join(page.extract_text() for page in
                         PdfReader(io.BytesIO(client.get(url).content)).pages)
        assert f"T9 {first} · {second}" in text, text
        assert ("World Cup · 世界杯" if language == "en" else "世界杯 · World Cup") in text
