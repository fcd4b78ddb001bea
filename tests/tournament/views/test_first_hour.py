"""Small things that tripped a new director (issue 27): the group count kept after
"Allot groups", "Start play" before the deals exist, the false knock explained where its
line appears, the time zone field."""

import json
import re
import uuid
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse

from tournament.exchange.export import export_text
from tournament.exchange.import_ import import_tournament
from tournament.exchange.problems import ImportRefused
from tournament.models import AuditEntry, Round, Stage, Tournament
from tournament.services import ServiceError
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams


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


# "Start play" before the deals exist -------------------------------------------------------

@pytest.fixture
def published(director_actor, tournament, teams):
    """Round 1 of a Swiss stage of four teams, published, no deals made."""
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    return round_


def start_entries(round_):
    return list(AuditEntry.objects.filter(action="round.start", data__round=round_.pk))


def test_start_play_without_deals_asks_for_a_confirmation(client, director, tournament,
                                                          published):
    page = client.get(url("round_detail", tournament.slug, published.pk)).content.decode()
    form = re.search(r'<form[^>]*class="start-without-deals".*?</form>', page, re.S).group(0)
    assert "This round has no deals" in form
    assert url("round_deals", tournament.slug, published.pk) in form  # make them first
    assert re.search(r'<input type="checkbox" name="deals_elsewhere" id="id_deals_elsewhere" '
                     r'required aria-describedby="no-deals-note">', form)
    assert '<label class="choice" for="id_deals_elsewhere">' in form
    assert "dealt elsewhere (by hand or by another program)" in form
    # Sent without the tick (no browser checks it here): refused, nothing started.
    response = client.post(url("round_start", tournament.slug, published.pk), follow=True)
    assert "has no deals yet" in text(response)
    published.refresh_from_db()
    assert published.status == Round.Status.PUBLISHED and not start_entries(published)
    # With the tick: play starts, and the audit log says it started without deals.
    response = client.post(url("round_start", tournament.slug, published.pk),
                           {"deals_elsewhere": "on"}, follow=True)
    assert "Play has started in Round 1." in text(response)
    published.refresh_from_db()
    assert published.status == Round.Status.IN_PLAY
    [entry] = start_entries(published)
    assert entry.data["without_deals"] is True


def test_start_play_with_deals_asks_nothing(client, director, director_actor, tournament,
                                            published):
    generate_deals(director_actor, published)
    page = client.get(url("round_detail", tournament.slug, published.pk)).content.decode()
    assert "start-without-deals" not in page and "deals_elsewhere" not in page
    assert "This round has no deals" not in page
    assert ">Start play</button>" in page
    response = client.post(url("round_start", tournament.slug, published.pk), follow=True)
    assert "Play has started in Round 1." in text(response)
    published.refresh_from_db()
    assert published.status == Round.Status.IN_PLAY
    [entry] = start_entries(published)
    assert entry.data["without_deals"] is False


def test_the_service_refuses_a_round_without_deals_unless_told(director_actor, published):
    with pytest.raises(ServiceError, match="has no deals yet"):
        start_round(director_actor, published, deals_elsewhere=False)
    published.refresh_from_db()
    assert published.status == Round.Status.PUBLISHED
    start_round(director_actor, published, deals_elsewhere=True)
    published.refresh_from_db()
    assert published.status == Round.Status.IN_PLAY


def test_code_that_starts_rounds_by_itself_is_not_asked(director_actor, published):
    start_round(director_actor, published)
    published.refresh_from_db()
    assert published.status == Round.Status.IN_PLAY


# The false knock explained where its line appears -------------------------------------------

NOTE = "What “false knock at N” means:"


@pytest.fixture
def in_play(round_in_play, tournament):
    """A match in play, live results public (every result shown as entered)."""
    tournament.live_results = Tournament.LiveResults.LIVE
    tournament.save()
    round_ = round_in_play(4, hands=4)
    return round_.matches.order_by("number").first()


def enter(actor, match, hand, entry, *, table=1):
    return record_hand_result(actor, match.tables.get(position=table), hand, entry,
                              seen_version=0, request_token=uuid.uuid4())


def match_pages(client, tournament, match):
    staff = client.get(url("match_page", tournament.slug, match.pk)).content.decode()
    public = Client().get(reverse("public:match", args=[tournament.slug, match.pk]))
    assert public.status_code == 200
    return staff, public.content.decode()


def test_a_false_knock_is_explained_on_the_match_pages(client, director, director_actor,
                                                       tournament, in_play):
    enter(director_actor, in_play, 1, HandEntry("knock", 1, 4, 12))
    enter(director_actor, in_play, 2, HandEntry("gin", 2, None, 30), table=2)
    for page in match_pages(client, tournament, in_play):
        assert "Knock 4 vs 12" in page and "Gin vs 30" in page
        assert NOTE not in page and "false-knock-note" not in page
    # Seat 2 false-knocked with 23; seat 1 then knocked with 3.
    enter(director_actor, in_play, 2, HandEntry("knock", 1, 3, 23, false_knock_seat=2,
                                                false_knock_deadwood=23))
    for page in match_pages(client, tournament, in_play):
        assert "Knock 3 vs 23: 15 + 20 = 35 (false knock at 23)" in page
        note = re.search(r'<p class="note false-knock-note" id="false-knock-note">(.*?)</p>',
                         page, re.S).group(1)
        assert NOTE in note and "more deadwood than the knock limit (10)" in note
        assert "fixed at N" in note and "draw: 0 for both" in note
        assert page.count('href="#false-knock-note"') == 1  # from its line
        assert "What a false knock is" in page


def test_the_note_never_tells_of_a_false_knock_held_back(client, director, director_actor,
                                                         tournament, in_play):
    tournament.live_results = Tournament.LiveResults.CLOSED
    tournament.save()
    enter(director_actor, in_play, 1, HandEntry("draw", false_knock_seat=1,
                                                false_knock_deadwood=17))
    staff, public = match_pages(client, tournament, in_play)
    assert "Draw: 0 (stock exhausted; false knock at 17)" in staff and NOTE in staff
    assert "false knock" not in public.lower() and NOTE not in public


# The time zone field ------------------------------------------------------------------------

def settings_data(client, tournament) -> dict:
    form = client.get(url("tournament_edit", tournament.slug)).context["form"]
    return {field.name: "" if field.value() is None else field.value() for field in form}


def test_the_time_zones_are_grouped_by_region_with_a_hidden_finder(client, director,
                                                                  admin_user, tournament):
    tournament.time_zone = "Asia/Shanghai"
    tournament.save()
    page = client.get(url("tournament_edit", tournament.slug)).content.decode()
    select = re.search(r'<select name="time_zone"[^>]*>.*?</select>', page, re.S).group(0)
    assert 'id="id_time_zone"' in select and 'aria-describedby="id_time_zone_helptext"' in select
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups == ["Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic Ocean",
                      "Australia", "Europe", "Indian Ocean", "Pacific Ocean", "Other names"]
    values = re.findall(r'<option value="([^"]+)"', select)
    assert sorted(values) == sorted(zoneinfo.available_timezones())  # every one, once
    assert values[0] == "UTC"
    assert '<option value="Asia/Shanghai" selected>Shanghai</option>' in select
    assert '<option value="America/New_York">New York</option>' in select
    assert ('<option value="America/Argentina/Buenos_Aires">Argentina/Buenos Aires</option>'
            in select)
    assert '<option value="US/Eastern">US/Eastern</option>' in select
    europe = re.search(r'<optgroup label="Europe">(.*?)</optgroup>', select, re.S).group(1)
    assert '<option value="Europe/Paris">Paris</option>' in europe
    # The finder and the browser's zone: hidden until the script shows them; labelled.
    assert '<div class="time-zone-search" hidden>' in page
    assert '<label class="sub-label" for="id_time_zone_search">' in page
    assert re.search(r'<input type="search" id="id_time_zone_search"[^>]*'
                     r'aria-controls="id_time_zone"', page)
    assert '<p class="time-zone-suggestion" hidden>' in page
    assert 'data-suggest="offer"' in page  # an existing tournament: offered, never chosen
    assert re.search(r'<script src="/static/tournament/time_zone\.js[^"]*" defer>', page)
    client.force_login(admin_user)
    new = client.get(url("tournament_create"))
    assert new.status_code == 200
    assert 'data-suggest="preselect"' in new.content.decode()  # a new one: chosen


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "europe/paris", "Paris", " UTC",
                                  "Europe/Paris\x00"])
def test_an_unknown_time_zone_is_refused_with_a_clear_message(client, director, tournament,
                                                              zone):
    data = settings_data(client, tournament)
    data["time_zone"] = zone
    response = client.post(url("tournament_edit", tournament.slug), data)
    assert response.status_code == 200
    errors = response.context["form"].errors["time_zone"]
    assert errors == [f"“{zone[:64]}” is not a time zone. Give a name of the IANA time zone "
                      "database, such as Europe/Paris or Asia/Shanghai."]
    assert 'id="id_time_zone_error"' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.time_zone == "UTC"


def test_a_time_zone_of_the_list_is_saved(client, director, tournament):
    data = settings_data(client, tournament)
    data["time_zone"] = "America/Argentina/Buenos_Aires"
    response = client.post(url("tournament_edit", tournament.slug), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.time_zone == "America/Argentina/Buenos_Aires"


def test_the_tournament_file_refuses_an_unknown_time_zone_with_the_same_message(
        director_actor, tournament):
    document = json.loads(export_text(tournament, secrets=True))
    document["tournament"]["time_zone"] = "Mars/Olympus_Mons"
    with pytest.raises(ImportRefused) as refused:
        import_tournament(document, slug="from-mars")
    assert ("tournament.time_zone: “Mars/Olympus_Mons” is not a time zone. Give a name of the "
            "IANA time zone database, such as Europe/Paris or Asia/Shanghai."
            in refused.value.messages), refused.value.messages
    document["tournament"]["time_zone"] = "Asia/Macau"
    imported = import_tournament(document, slug="from-macau",
                                 map_users={"director": "macau-director"})
    assert imported.time_zone == "Asia/Macau"
