"""What a scorer may learn while a round is played (issue 9).

- The preview checks entered cards against the rules alone: its reply is the same whatever
  the box holds, and there is none for a round that is not in play.
- A conflict between entered cards and the box is flagged for the referee, never shown to
  the scorer.
- A scorer sees the results of the table the device scores, and another table's result of a
  box only once every table that plays the box has entered it: tested on the response of
  every URL of the site.
"""

import uuid

import pytest
from django.urls import reverse

from scoring.cards import DECK
from tests.tournament.views.public_event import cards_in, page_text
from tests.tournament.views.routes import all_routes, fill
from tournament.models import Deal, HandResult, Round, Stage
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

KNOCKER = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"
OPPONENT = "4S 5S KH KD QH QD JH JD 8H 8D"
CARDS = {"h1-outcome": "knock", "h1-declarer_seat": "1", "h1-declarer_cards": KNOCKER,
         "h1-opponent_cards": OPPONENT, "h1-seen_version": "0",
         "h1-request_token": "6f1c1b9e-6a55-4bb4-9c43-5a8b9e1d2f00"}


@pytest.fixture
def dealt_round(director_actor, tournament, teams):
    """Four teams, one deal set for the field, the classic draw rule (so a box has cards
    that can never be in a hand), published but not started."""
    tournament.draw_rule = "two_cards_left"
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    publish_round(director_actor, round_)
    return round_


def box_ending_with(last_two):
    """A deal whose last two stock cards are ``last_two``."""
    rest = [str(card) for card in DECK if str(card) not in last_two]
    return " ".join(rest + list(last_two))


def preview(client, tournament, table):
    url = reverse("director:hand_preview", args=[tournament.slug, table.pk, 1])
    return client.post(url, CARDS).content.decode()


def test_the_preview_says_the_same_whatever_the_box_holds(client, tournament, staff_user,
                                                          director_actor, dealt_round):
    start_round(director_actor, dealt_round)
    client.force_login(staff_user(tournament, "scorer", username="li"))
    table = dealt_round.tables.order_by("number").first()
    replies = []
    for last_two in (("9C", "TC"), ("2H", "3H")):  # the knocker's cards, then others
        Deal.objects.filter(round=dealt_round, hand=1).update(cards=box_ending_with(last_two))
        replies.append(preview(client, tournament, table))
    assert replies[0] == replies[1]
    assert "Knock 4 vs 16" in replies[0] and "9C" not in cards_in(page_text(replies[0]))


@pytest.mark.parametrize("who", ["scorer", "referee"])
def test_no_preview_for_a_round_that_is_not_in_play(client, tournament, staff_user,
                                                    dealt_round, who):
    client.force_login(staff_user(tournament, who, username=f"{who}-x"))
    table = dealt_round.tables.order_by("number").first()
    reply = preview(client, tournament, table)
    assert "entered only while it is in play" in reply and "Knock" not in reply
    page = client.get(reverse("director:table_entry", args=[tournament.slug, table.pk]))
    assert "entered only while it is in play" in page.content.decode()
    assert 'name="h1-outcome"' not in page.content.decode()  # no form to fill


def test_a_closed_round_previews_only_for_a_referees_correction(
        client, tournament, staff_user, director_actor, dealt_round, finish_round):
    finish_round(dealt_round)
    table = dealt_round.tables.order_by("number").first()
    client.force_login(staff_user(tournament, "scorer", username="li"))
    assert "only a referee can correct" in preview(client, tournament, table)
    client.force_login(staff_user(tournament, "referee", username="chen"))
    assert "Knock 4 vs 16" in preview(client, tournament, table)


def test_a_conflict_with_the_box_is_for_the_referees_eyes_only(
        client, tournament, staff_user, director_actor, dealt_round):
    start_round(director_actor, dealt_round)
    Deal.objects.filter(round=dealt_round, hand=1).update(cards=box_ending_with(("9C", "TC")))
    table = dealt_round.tables.order_by("number").first()
    client.force_login(staff_user(tournament, "scorer", username="li"))
    save = reverse("director:hand_save", args=[tournament.slug, table.pk, 1])
    for response in (client.post(save, CARDS, HTTP_HX_REQUEST="true"),
                     client.post(save, CARDS, follow=True)):
        assert response.status_code == 200
        page = response.content.decode()
        assert "never be in a player" not in page and "stock cards" not in page
    result = HandResult.objects.get(table=table, hand=1)
    assert "9C can never be in a player's hand" in result.box_conflict
    progress = reverse("director:round_progress", args=[tournament.slug, dealt_round.pk])
    for url in (progress, reverse("director:table_entry", args=[tournament.slug, table.pk])):
        assert "never be in a player" not in client.get(url).content.decode()
    # While the round is in play a referee learns not even that an entry contradicts its
    # box (issue 49: the flag was an oracle for the box's cards); the director sees which.
    client.force_login(staff_user(tournament, "referee", username="chen"))
    page = client.get(progress).content.decode()
    # Cards as a reader sees them: a CSRF token is random letters and may hold "9C".
    assert "contradict the box" not in page and "9C" not in cards_in(page_text(page))
    client.force_login(staff_user(tournament, "director", username="boss"))
    page = client.get(progress).content.decode()
    assert "Cards that contradict the box" in page and "9C can never be" in page


# A scorer sees only what the table may see -------------------------------------------------

def enter(actor, table, hand, entry):
    return record_hand_result(actor, table, hand, entry, seen_version=0,
                              request_token=uuid.uuid4())


@pytest.fixture
def half_played(client, tournament, staff_user, actor, director_actor, dealt_round):
    """Hand 1 entered at all four tables; hand 2 at every table but table 1, whose scorer
    (the test client's device) has not played it yet."""
    start_round(director_actor, dealt_round)
    li = staff_user(tournament, "scorer", username="li")
    wang = actor(staff_user(tournament, "scorer", username="wang"))
    client.force_login(li)
    one, *others = list(dealt_round.tables.order_by("number"))
    client.get(reverse("director:table_entry", args=[tournament.slug, one.pk]))  # li's table
    enter(actor(li), one, 1, HandEntry("knock", 1, 4, 12))
    hidden = []
    for number, table in enumerate(others):
        enter(wang, table, 1, HandEntry("knock", 2, 2, 30 + number))
        hidden.append(enter(wang, table, 2, HandEntry("knock", 1, 3, 40 + number)))
    return one, hidden


def test_no_url_shows_a_scorer_a_result_of_a_box_still_to_be_played(
        client, tournament, dealt_round, half_played):
    table, hidden = half_played
    secrets = [result.explanation for result in hidden]
    match = table.match
    values = {"slug": [tournament.slug], "rounds": [dealt_round.pk],
              "stages": [dealt_round.stage_id],
              "tables": list(dealt_round.tables.values_list("pk", flat=True)),
              "matches": list(dealt_round.matches.values_list("pk", flat=True)),
              "deal_pk": list(dealt_round.deals.values_list("pk", flat=True)),
              "hand": [1, 2], "seat": [1, 2]}
    visited = 0
    for route in all_routes():
        if route.startswith(("admin/", "i18n/", "accounts/")):
            continue
        for url in fill(route, values):
            response = client.get(url)
            visited += 1
            assert response.status_code < 500, url
            if response.status_code == 200 and not response.streaming:
                page = response.content.decode(errors="replace")
                assert not [s for s in secrets if s in page], f"{url} shows a hidden result"
    assert visited > 40
    # Hand 1 is finished everywhere: the other table's result of it is shown.
    other = match.tables.exclude(pk=table.pk).get()
    page = client.get(reverse("director:match_page", args=[tournament.slug, match.pk]))
    shown = HandResult.objects.get(table=other, hand=1).explanation
    assert shown in page.content.decode() and "shown once every table" in page.content.decode()


def test_once_the_scorers_table_has_played_the_box_its_results_appear(
        client, tournament, staff_user, actor, dealt_round, half_played):
    table, hidden = half_played
    li = staff_user(tournament, "scorer", username="li2")
    enter(actor(li), table, 2, HandEntry("draw"))
    page = client.get(reverse("director:match_page", args=[tournament.slug, table.match.pk]))
    other = next(result for result in hidden if result.table.match_id == table.match_id)
    assert other.explanation in page.content.decode()


def test_a_device_that_entered_hands_at_one_table_cannot_open_another(
        client, tournament, dealt_round, half_played):
    table, _hidden = half_played
    other = dealt_round.tables.exclude(pk=table.pk).first()
    response = client.get(reverse("director:table_entry", args=[tournament.slug, other.pk]))
    assert response.status_code == 403
    assert f"scores table {table.number}" in response.content.decode()


def test_a_scorer_keeps_its_table_until_a_referee_moves_it(client, tournament, staff_user,
                                                           director_actor, actor,
                                                           dealt_round):
    """The table a scorer account scores is kept in the database (issue 21): logging out
    and in again keeps it, another table stays refused, and only a referee or the
    director moves it (audited)."""
    from tournament.models import AuditEntry
    from tournament.services.devices import move_binding

    start_round(director_actor, dealt_round)
    scorer = staff_user(tournament, "scorer", username="li")
    client.force_login(scorer)
    first, second = dealt_round.tables.order_by("number")[:2]

    def opens(table):
        return client.get(reverse("director:table_entry",
                                  args=[tournament.slug, table.pk])).status_code

    assert opens(first) == 200
    assert AuditEntry.objects.filter(action="device.bind").count() == 1
    response = client.get(reverse("director:table_entry", args=[tournament.slug, second.pk]))
    assert response.status_code == 403
    assert f"scores table {first.number} in this round" in response.content.decode()
    client.logout()
    client.force_login(scorer)  # a new log-in: still bound to the first table
    assert opens(second) == 403 and opens(first) == 200
    referee = actor(staff_user(tournament, "referee", username="chen"))
    move_binding(referee, scorer, second)
    assert opens(second) == 200 and opens(first) == 403
    moved = AuditEntry.objects.get(action="device.move")
    assert f"from table {first.number} to table {second.number}" in moved.summary


def test_referees_see_every_result(client, tournament, staff_user, dealt_round, half_played):
    _table, hidden = half_played
    client.force_login(staff_user(tournament, "referee", username="chen"))
    for result in hidden:
        page = client.get(reverse("director:match_page",
                                  args=[tournament.slug, result.table.match_id]))
        assert result.explanation in page.content.decode()
    assert Round.objects.get(pk=dealt_round.pk).status == Round.Status.IN_PLAY
