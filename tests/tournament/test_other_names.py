"""Names in the other script through every door that writes them (issue 56, item 2): the
services and forms check them like the names (no NUL, no control or invisible character,
within the length), the CSV import takes an optional column, a stage is renamed on its page,
the tournament file carries them (version 4) and reads an older file without them; the time
zone field names its places in the reader's language where CLDR has them."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import new_team
from tournament.audit_wording import sentence
from tournament.exchange.export import export_text
from tournament.exchange.import_ import import_tournament
from tournament.forms import StageNamesForm, TeamForm
from tournament.models import AuditEntry, Stage, Team
from tournament.services import ServiceError
from tournament.services.stages import create_stage, rename_stage
from tournament.services.team_import import import_teams
from tournament.services.teams import TeamEntryError, parse_team_entry
from tournament.services.tournaments import update_tournament
from tournament.time_zones import time_zone_choices, zone_label

L, R = "\uff08", "\uff09"  # the full-width brackets of the Chinese texts
TEAM = {"code": "BJ", "name": "Beijing Roast Duck", "player1": "Li Wei", "player2": "Wang Fang"}


@pytest.mark.parametrize(("other", "message"), [
    ("北京\x00烤鸭队", "team name in the other script contains a NUL character"),
    ("北京\u200b烤鸭队", "team name in the other script contains an invisible character "
                       "(U+200B)"),
    ("北京\n烤鸭队", "team name in the other script contains a line break (U+000A)"),
    ("鸭" * 101, "team name in the other script is longer than 100 characters"),
])
def test_a_teams_other_name_is_checked_like_its_name(other, message):
    with pytest.raises(TeamEntryError) as refused:
        parse_team_entry({**TEAM, "other_name": other})
    assert refused.value.field_errors == {"other_name": [message]}


def test_a_teams_other_name_is_optional_trimmed_and_normalised():
    assert parse_team_entry(TEAM).other_name == ""
    assert parse_team_entry({**TEAM, "other_name": "  北京烤鸭队 "}).other_name == "北京烤鸭队"
    assert parse_team_entry({**TEAM, "other_name": "Cafe\u0301"}).other_name == "Café"


@pytest.mark.django_db
def test_the_team_form_takes_the_other_name_and_refuses_a_long_one():
    form = TeamForm({**TEAM, "other_name": "北京烤鸭队"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["entry"].other_name == "北京烤鸭队"
    form = TeamForm({**TEAM, "other_name": "鸭" * 101})
    assert not form.is_valid() and "other_name" in form.errors


@pytest.mark.django_db
def test_the_csv_import_takes_an_optional_other_name_column(director_actor, tournament):
    text = ("code,name,other_name,player1,player2\n"
            "BJ,Beijing Roast Duck,北京烤鸭队,Li Wei,Wang Fang\n"
            "IT,Italia,,Marco Rossi,Giulia Bianchi\n")
    report = import_teams(director_actor, tournament, text.encode(), dry_run=False,
                          filename="teams.csv")
    assert report.imported and report.problems == []
    assert dict(Team.objects.filter(tournament=tournament).values_list("code", "other_name")
                ) == {"BJ": "北京烤鸭队", "IT": ""}
    bad = "code,name,other_name,player1,player2\nCN,China,中\x01国,A,B\n"
    report = import_teams(director_actor, tournament, bad.encode(), dry_run=True,
                          filename="teams.csv")
    assert [str(p) for p in report.problems] == [
        "line 2: team name in the other script contains a control character (U+0001)"]


@pytest.mark.django_db
def test_a_stage_is_named_in_both_scripts_and_renamed_with_an_audit_entry(director_actor,
                                                                          tournament):
    stage = create_stage(director_actor, tournament, name="Groups", other_name=" 小组赛 ",
                         kind=Stage.Kind.GROUPS)
    assert (stage.name, stage.other_name) == ("Groups", "小组赛")
    for other in ("小组\x00赛", "赛" * 61):
        with pytest.raises(ServiceError):
            create_stage(director_actor, tournament, name="Swiss", other_name=other,
                         kind=Stage.Kind.SWISS, swiss_rounds=3)
        with pytest.raises(ServiceError):
            rename_stage(director_actor, stage, name="Groups", other_name=other)
    rename_stage(director_actor, stage, name="Group stage", other_name="小组赛阶段")
    stage.refresh_from_db()
    assert (stage.name, stage.other_name) == ("Group stage", "小组赛阶段")
    entry = AuditEntry.objects.get(tournament=tournament, action="stage.rename")
    assert sentence(entry) == ("director renamed the stage Groups · 小组赛: "
                               "Group stage · 小组赛阶段")
    with translation.override("zh-hans"):
        assert sentence(entry) == ("director 将阶段 Groups · 小组赛 重命名为 "
                                   "Group stage · 小组赛阶段")
    # Saving the same names again writes nothing.
    rename_stage(director_actor, stage, name="Group stage", other_name="小组赛阶段")
    assert AuditEntry.objects.filter(action="stage.rename").count() == 1


@pytest.mark.django_db
def test_the_stage_page_renames_and_says_what_is_wrong(client, director_actor, tournament):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    client.force_login(director_actor.user)
    url = reverse("director:stage_names", args=[tournament.slug, stage.pk])
    refused = client.post(url, {"name": "Swiss", "other_name": "瑞士\u202e制"})
    assert refused.status_code == 200
    assert ("stage name in the other script contains an invisible text-direction character "
            "(U+202E)") in refused.content.decode()
    assert not StageNamesForm({"name": "Swiss", "other_name": "制" * 61}).is_valid()
    done = client.post(url, {"name": "Swiss", "other_name": "瑞士制"})
    assert done.status_code == 302
    page = client.get(reverse("director:stage_detail", args=[tournament.slug, stage.pk]),
                      HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert '<h1>瑞士制 <span class="other-name">· Swiss</span>' in page


@pytest.mark.django_db
def test_the_tournaments_other_name_is_checked_like_its_name(director_actor, tournament):
    for other, message in (("世界\x00杯", "contains a NUL character"),
                           ("杯" * 121, "is longer than 120 characters")):
        with pytest.raises(ServiceError) as refused:
            update_tournament(director_actor, tournament, other_name=other)
        assert message in str(refused.value)
        assert list(refused.value.field_errors) == ["other_name"]
    update_tournament(director_actor, tournament, other_name=" 世界杯 ")
    tournament.refresh_from_db()
    assert tournament.other_name == "世界杯"
    entry = AuditEntry.objects.get(tournament=tournament, action="tournament.update")
    assert entry.data["changes"] == {"other_name": ["", "世界杯"]}


@pytest.fixture
def named(director_actor, tournament):
    """A tournament, a team and a stage named in both scripts."""
    tournament.other_name = "世界杯"
    tournament.save()
    new_team(tournament, 1, name="Beijing Roast Duck", other_name="北京烤鸭队")
    new_team(tournament, 2, name="Italia")
    create_stage(director_actor, tournament, name="Swiss", other_name="瑞士制",
                 kind=Stage.Kind.SWISS, swiss_rounds=3)
    return tournament


def other_names(tournament) -> tuple:
    return (tournament.other_name,
            sorted(tournament.teams.values_list("code", "other_name")),
            list(tournament.stages.values_list("name", "other_name")))


@pytest.mark.django_db
def test_the_tournament_file_carries_the_other_names(named):
    document = json.loads(export_text(named, secrets=True))
    assert document["version"] == 4
    assert document["tournament"]["other_name"] == "世界杯"
    people = {p["username"]: p["username"] for p in document["people"]}
    copy_ = import_tournament(copy.deepcopy(document), slug="copy", map_users=people)
    assert other_names(copy_) == other_names(named) == (
        "世界杯", [("T1", "北京烤鸭队"), ("T2", "")], [("Swiss", "瑞士制")])
    # The history of the copy carries them too: exported again, the same file.
    assert export_text(copy_, secrets=True).replace('"slug": "copy"', '"slug": "world-cup"') \
        == export_text(named, secrets=True)


@pytest.mark.django_db
def test_a_version_3_file_is_read_with_every_other_name_empty(named):
    document = json.loads(export_text(named, secrets=True))
    document["version"] = 3
    del document["tournament"]["other_name"]
    for part in (*document["teams"], *document["stages"]):
        del part["other_name"]
    for kind in ("tournament", "teams", "stages"):
        for version in document["history"][kind]:
            del version["fields"]["other_name"]
    people = {p["username"]: p["username"] for p in document["people"]}
    copy_ = import_tournament(copy.deepcopy(document), slug="old", map_users=people)
    assert other_names(copy_) == ("", [("T1", ""), ("T2", "")], [("Swiss", "")])
    # A version 3 file with an other_name is not a version 3 file.
    document["teams"][0]["other_name"] = "北京烤鸭队"
    with pytest.raises(Exception, match="other_name: unknown field"):
        import_tournament(document, slug="odd", map_users=people)


def test_the_time_zones_are_named_in_the_readers_language_where_cldr_has_them():
    with translation.override("zh-hans"):
        choices = dict(time_zone_choices())
        asia = dict(choices["亚洲"])
        assert asia["Asia/Shanghai"] == f"上海{L}Shanghai{R}"
        assert dict(choices["欧洲"])["Europe/Paris"] == f"巴黎{L}Paris{R}"
        assert zone_label("Asia/Shanghai") == f"上海{L}Asia/Shanghai{R}"
        others = dict(choices["其他名称"])
        assert others["US/Eastern"] == f"纽约{L}US/Eastern{R}"
        assert others["Etc/GMT+5"] == "Etc/GMT+5"  # no place in CLDR: the IANA name
    with translation.override("en"):
        choices = dict(time_zone_choices())
        assert dict(choices["Asia"])["Asia/Shanghai"] == "Shanghai"  # as it always was
        assert zone_label("Asia/Shanghai") == "Asia/Shanghai"
