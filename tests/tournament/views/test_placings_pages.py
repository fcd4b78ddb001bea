"""The seeding page, the qualification settings and the final ranking page with its
downloads; query counts pinned for two sizes of event (issue 11, item 5)."""

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.conftest import kept_stage_queries
from tournament.models import AuditEntry, Stage
from tournament.services import ServiceError
from tournament.services.draw import generate_round
from tournament.services.seeding import seed_from_standings
from tournament.services.stages import allot_groups, create_stage


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def words(response) -> str:
    return " ".join(response.content.decode().split())


@pytest.fixture
def director(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "director", username="boss"))
    return client


@pytest.fixture
def event(director_actor, tournament, teams, finish_round):
    """``groups`` groups of ``size`` teams played to the end (random results), and a
    knockout seeded from them with ``per_group`` per group; ``play`` plays it to the end,
    the home team winning every match by 10."""

    def make(groups, size, per_group=2, *, seed=True, play=False, third_place=False):
        stage = create_stage(director_actor, tournament, name="Groups",
                             kind=Stage.Kind.GROUPS)
        field = teams(groups * size)
        allot_groups(director_actor, stage, [field[i::groups] for i in range(groups)])
        for number in range(1, size + (size % 2)):
            finish_round(generate_round(director_actor, stage, expected_number=number),
                         seed=number)
        knockout = create_stage(director_actor, tournament, name="Knockout",
                                kind=Stage.Kind.KNOCKOUT, qualify_from=stage,
                                qualifiers_per_group=per_group,
                                third_place_match=third_place)
        if seed:
            seed_from_standings(director_actor, knockout)
        while play:
            try:
                round_ = generate_round(director_actor, knockout)
            except ServiceError:  # the final has been played
                break
            finish_round(round_, {m.number: 10 for m in round_.matches.all()})
        return stage, knockout

    return make


def test_seeding_page_shows_the_standings_used_and_seeds(director, tournament, event):
    _groups, knockout = event(2, 4, seed=False)
    page = words(director.get(url("stage_seeding", tournament.slug, knockout.pk)))
    assert "Proposed seeds" in page and "official standings used" in page
    assert page.count('class="qualified') == 4  # the top 2 of each group, marked
    assert "Seed the knockout" in page
    response = director.post(url("stage_seeding", tournament.slug, knockout.pk))
    assert response.status_code == 302
    assert knockout.entries.count() == 4
    assert AuditEntry.objects.filter(action="stage.seeded").count() == 1
    # The stage page links to the seeding page.
    stage_page = words(director.get(url("stage_detail", tournament.slug, knockout.pk)))
    assert url("stage_seeding", tournament.slug, knockout.pk) in stage_page


def test_seeding_refused_while_a_round_is_open_says_why(director, director_actor,
                                                        tournament, teams):
    groups = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, groups, [teams(4)])
    generate_round(director_actor, groups)
    knockout = create_stage(director_actor, tournament, name="Knockout",
                            kind=Stage.Kind.KNOCKOUT, qualify_from=groups,
                            qualifiers_per_group=2)
    page = words(director.get(url("stage_seeding", tournament.slug, knockout.pk)))
    assert "cannot be seeded from the standings now" in page
    assert "Round 1 of Groups is draft; every round must be closed." in page
    assert "Seed the knockout" not in page
    response = director.post(url("stage_seeding", tournament.slug, knockout.pk), follow=True)
    assert "Round 1 of Groups is draft" in words(response)
    assert not knockout.entries.exists()


def test_qualification_form_saves_and_refuses_with_reasons(director, director_actor,
                                                           tournament, event):
    groups, knockout = event(2, 4, seed=False)
    address = url("stage_qualification", tournament.slug, knockout.pk)
    response = director.post(address, {"qualify_from": groups.pk,
                                       "qualifiers_per_group": "", "extra_qualifiers": "1"})
    assert response.status_code == 200
    assert "say how many teams of each group qualify" in words(response)
    response = director.post(address, {"qualify_from": groups.pk,
                                       "qualifiers_per_group": "1", "extra_qualifiers": "1"})
    assert response.status_code == 302
    knockout.refresh_from_db()
    assert (knockout.qualifiers_per_group, knockout.extra_qualifiers) == (1, 1)
    # A later stage is not a choice.
    later = create_stage(director_actor, tournament, name="Later", kind=Stage.Kind.SWISS,
                         swiss_rounds=2)
    response = director.post(address, {"qualify_from": later.pk, "qualifiers_per_group": "1"})
    assert "Select a valid choice" in words(response)


def test_creating_a_knockout_with_its_qualification(director, tournament, event):
    groups, _knockout = event(2, 4, seed=False)
    response = director.post(url("stage_list", tournament.slug), {
        "name": "Cup", "kind": "knockout", "qualify_from": groups.pk,
        "qualifiers_per_group": "1", "extra_qualifiers": "0"})
    assert response.status_code == 302
    cup = tournament.stages.get(name="Cup")
    assert (cup.qualify_from, cup.qualifiers_per_group) == (groups, 1)
    response = director.post(url("stage_list", tournament.slug), {
        "name": "Plate", "kind": "swiss", "swiss_rounds": "3", "qualify_from": groups.pk,
        "qualifiers_per_group": "1"})
    assert "only a knockout is seeded" in words(response)
    assert not tournament.stages.filter(name="Plate").exists()


def test_final_ranking_page_before_and_after_the_final(director, tournament, event):
    event(2, 4, seed=True)
    response = director.get(url("final_ranking", tournament.slug))
    page = words(response)
    # No download offered before the ranking is final (it would answer 404).
    assert "final-ranking.csv" not in response.content.decode()
    assert "Still missing:" in page and "Semi-finals of Knockout is not drawn yet." in page
    # The teams that did not qualify are placed already (5 to 8); the seeds still play.
    assert page.count("still playing") == 4 and page.count("did not qualify; by group place") == 4
    assert director.get(url("final_ranking_download", tournament.slug, "csv")).status_code \
        == 404


def test_final_ranking_page_and_downloads(director, tournament, event):
    _groups, knockout = event(2, 4, play=True)
    seeds = [e.team.code for e in knockout.entries.order_by("position")]
    page = words(director.get(url("final_ranking", tournament.slug)))
    assert "won the final" in page and "did not qualify" in page
    response = director.get(url("final_ranking_download", tournament.slug, "csv"))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["#", "Code", "Team", "Decided by", "Stage before", "Match points",
                       "Small points", "Team name in the other script"]
    assert [row[0] for row in rows[1:]] == [str(n) for n in range(1, 9)]
    # Home wins every match: seed 1 beats seed 4, then seed 2 (who beat seed 3).
    assert [row[1] for row in rows[1:3]] == [seeds[0], seeds[1]]
    assert rows[1][3] == "won the final" and rows[5][3].startswith("did not qualify")
    assert rows[5][4] == "Group A, place 3" or rows[5][4] == "Group B, place 3"
    book = load_workbook(io.BytesIO(director.get(
        url("final_ranking_download", tournament.slug, "xlsx")).content))
    assert book.active["B2"].value == seeds[0]


# Session, user, tournament, role, then the page's own reads: the same for every size (the
# bracket's matches read their rounds apart, once: selectors.public.match_lines).
SEEDING_PAGE_QUERIES = 15
FINAL_RANKING_QUERIES = 19


@pytest.mark.parametrize("size", [(2, 4), (4, 6)])
def test_seeding_page_query_count_is_pinned(director, tournament, event, size,
                                            django_assert_num_queries):
    _groups, knockout = event(*size, seed=False)
    director.get(url("stage_seeding", tournament.slug, knockout.pk))  # the session once
    with django_assert_num_queries(SEEDING_PAGE_QUERIES - kept_stage_queries()):
        response = director.get(url("stage_seeding", tournament.slug, knockout.pk))
    assert words(response).count('class="qualified') == size[0] * 2


@pytest.mark.parametrize("size", [(2, 4), (4, 6)])
def test_final_ranking_query_count_is_pinned(director, tournament, event, size,
                                             django_assert_num_queries):
    event(*size, play=True, third_place=True)
    director.get(url("final_ranking", tournament.slug))  # the session once
    with django_assert_num_queries(FINAL_RANKING_QUERIES - kept_stage_queries()):
        response = director.get(url("final_ranking", tournament.slug))
    # Every team once in the ranking, whatever the size (the bracket names the qualifiers
    # again).
    assert words(response).count('<td class="num rank">') == size[0] * size[1]


def test_a_knockout_seeded_from_the_standings_shows_where_its_seeding_stands(
        director, tournament, event):
    _groups, knockout = event(2, 4, seed=False)
    page = words(director.get(url("stage_detail", tournament.slug, knockout.pk)))
    assert "Enter the teams of this stage first" not in page
    assert "Seed this knockout from the standings of Groups first" in page
    assert "Ready: the official standings give 4 seeds." in page
    assert "Review and seed" in page
    # The form for seeds typed by hand is still there, folded away.
    assert "<details" in page and "Enter the seeds by hand instead" in page
    # Once seeded: the bracket, its rounds named, no seeding card.
    director.post(url("stage_seeding", tournament.slug, knockout.pk))
    page = words(director.get(url("stage_detail", tournament.slug, knockout.pk)))
    assert "Ready:" not in page and "Draw round 1" in page
    assert '<h3 class="bracket-round-name">Semi-finals</h3>' in page
    assert '<h3 class="bracket-round-name">Final</h3>' in page


def test_a_knockout_not_ready_to_seed_says_why(director, director_actor, tournament, teams):
    groups = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, groups, [teams(4)])
    knockout = create_stage(director_actor, tournament, name="Knockout",
                            kind=Stage.Kind.KNOCKOUT, qualify_from=groups,
                            qualifiers_per_group=2)
    page = words(director.get(url("stage_detail", tournament.slug, knockout.pk)))
    assert "Not ready to seed yet:" in page and "Groups has no round yet." in page
    assert "Enter the teams of this stage first" not in page


def test_the_staff_standings_of_a_knockout_lead_to_its_ranking(director, tournament, event):
    _groups, knockout = event(2, 4, play=True)
    response = director.get(url("stage_standings", tournament.slug, knockout.pk))
    assert response.status_code == 302 and response.url == url("final_ranking",
                                                                tournament.slug)
    assert director.get(url("standings", tournament.slug)).url == url("final_ranking",
                                                                      tournament.slug)
    response = director.get(url("standings_download", tournament.slug, knockout.pk, "pdf"))
    assert response.url == url("bracket_pdf", tournament.slug, knockout.pk)


def test_the_bracket_pdf(director, tournament, event):
    from pypdf import PdfReader

    _groups, knockout = event(2, 4, play=True, third_place=True)
    response = director.get(url("bracket_pdf", tournament.slug, knockout.pk))
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert page.mediabox.width > page.mediabox.height  # landscape
    text = " ".join(page.extract_text().split())
    for name in ("Semi-finals", "Final", "Match for third place", "as the public sees it",
                 "won by 10"):
        assert name in text, name
    seeds = [e.team.code for e in knockout.entries.order_by("position")]
    assert all(code in text for code in seeds)


def test_a_new_stage_without_teams_leads_to_where_they_are_entered(client, director_actor,
                                                                   tournament):
    """Issue 56: "Enter the teams of this stage first." with no way there."""
    from django.contrib.auth import get_user_model

    from tournament.models import Stage
    from tournament.services.stages import create_stage

    client.force_login(get_user_model().objects.get(pk=director_actor.user.pk))
    groups = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    swiss = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    for stage, place in ((groups, "groups"), (swiss, "stage-teams")):
        page = client.get(f"/manage/{tournament.slug}/stages/{stage.pk}/").content.decode()
        assert f"<a href='#{place}'>" in page and f'id="{place}"' in page
