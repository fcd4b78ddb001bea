"""Small things that tripped a new director (issue 27): the group count kept after
"Allot groups", "Start play" before the deals exist, the false knock explained where its
line appears, the time zone field."""

import re

import pytest
from django.urls import reverse

from tournament.models import Stage


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


# The group count ------------------------------------------------------------------------------

def group_count_shown(client, tournament, stage) -> str:
    page = client.get(url("stage_detail", tournament.slug, stage.pk)).content.decode()
    return re.search(r'<input[^>]*name="group_count"[^>]*>', page).group(0)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_the_group_count_shows_the_groups_last_allotted(client, director, tournament, teams,
                                                        count):
    teams(9)
    client.post(url("stage_list", tournament.slug), {"name": "Groups", "kind": "groups"})
    stage = Stage.objects.get(name="Groups")
    assert 'value="2"' in group_count_shown(client, tournament, stage)  # nothing allotted yet
    response = client.post(url("stage_groups", tournament.slug, stage.pk),
                           {"group_count": count})
    assert response.status_code == 302
    assert stage.groups.count() == count
    assert f'value="{count}"' in group_count_shown(client, tournament, stage)


def test_groups_typed_by_hand_set_the_count_too(client, director, tournament, teams):
    teams(6)
    client.post(url("stage_list", tournament.slug), {"name": "Groups", "kind": "groups"})
    stage = Stage.objects.get(name="Groups")
    client.post(url("stage_groups", tournament.slug, stage.pk),
                {"groups": "A: T1, T2\nB: T3, T4\nC: T5, T6"})
    assert 'value="3"' in group_count_shown(client, tournament, stage)
    # A count refused is shown as typed, with its reason.
    response = client.post(url("stage_groups", tournament.slug, stage.pk), {"group_count": 4})
    assert response.status_code == 200
    assert 'value="4"' in re.search(r'<input[^>]*name="group_count"[^>]*>',
                                    response.content.decode()).group(0)
    assert stage.groups.count() == 3
