"""The hand records of a big round: an index of its boxes, a page for each (issue 15)."""

import re
import uuid

import pytest
from django.urls import reverse

from tests.tournament.views.test_deal_secrecy import start_dealt_round
from tournament.models import Stage
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.stages import create_stage, enter_teams
from tournament.views.public import event


@pytest.fixture
def closed_round(director_actor, tournament, teams, finish_round):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=5)
    field = teams(4)
    enter_teams(director_actor, stage, field)
    round_, _values = start_dealt_round(director_actor, tournament, stage, field)
    record_hand_result(director_actor, round_.tables.get(number=3), 2,
                       HandEntry("knock", 1, 4, 12), seen_version=0,
                       request_token=uuid.uuid4())
    finish_round(round_)
    return round_


def test_a_round_of_a_handful_of_boxes_is_one_page(client, tournament, closed_round):
    page = client.get(reverse("public:hand_records", args=[tournament.slug,
                                                           closed_round.pk])).content.decode()
    assert page.count('class="card hand-record') == 8 and "box-index" not in page


def test_a_round_of_many_boxes_has_an_index_and_a_page_per_box(
        client, tournament, closed_round, monkeypatch):
    monkeypatch.setattr(event, "HANDFUL_OF_DEALS", 4)  # 8 boxes are now many
    url = reverse("public:hand_records", args=[tournament.slug, closed_round.pk])
    index = client.get(url).content.decode()
    assert "hand-record" not in index  # no cards, no results: only links
    links = re.findall(rf'href="{re.escape(url)}\?box=(\d+)"', index)
    deals = {deal.pk: deal for deal in closed_round.deals.all()}
    assert sorted(map(int, links)) == sorted(deals)
    second = next(deal for deal in deals.values() if deal.hand == 2)
    page = client.get(f"{url}?box={second.pk}").content.decode()
    assert page.count('class="card hand-record') == 1
    assert "Hand 2 · set 1" in page and "Knock 4 vs 12: 15 + 8 = 23" in page
    assert f'href="{url}"' in page  # back to the index
    assert client.get(f"{url}?box=999999").status_code == 404
    assert client.get(f"{url}?box=x").status_code == 404


def test_many_results_split_the_records_too(client, tournament, closed_round, monkeypatch):
    monkeypatch.setattr(event, "MOST_RESULTS_ON_ONE_PAGE", 4 * 8 - 1)  # 4 tables, 8 boxes
    url = reverse("public:hand_records", args=[tournament.slug, closed_round.pk])
    assert "?box=" in client.get(url).content.decode()
