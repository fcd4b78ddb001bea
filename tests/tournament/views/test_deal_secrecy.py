"""No page, export or API shows a deal before its round is closed, except to directors."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.tournament.views.routes import all_routes, fill
from tournament.models import Deal, Player, Stage
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams


def start_dealt_round(director_actor, tournament, stage, field):
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    deal = Deal.objects.filter(round=round_).first()
    values = {
        "slug": [tournament.slug], "rounds": [round_.pk], "stages": [stage.pk],
        "teams": [field[0].pk], "team_pk": [field[0].pk], "deal_pk": [deal.pk],
        "matches": list(round_.matches.values_list("pk", flat=True)),
        "tables": list(round_.tables.values_list("pk", flat=True)),
        "players": list(Player.objects.filter(team=field[0]).values_list("pk", flat=True)),
        # Routes whose path does not say what their id is (staff, penalties, imports).
        "pk": [round_.pk, stage.pk, field[0].pk],
    }
    return round_, values


@pytest.fixture
def open_round(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=5)
    field = teams(4)
    enter_teams(director_actor, stage, field)
    return start_dealt_round(director_actor, tournament, stage, field)


@pytest.fixture
def open_round_after_reveal(director_actor, tournament, teams, finish_round):
    """A first stage played, closed and its key revealed; then a new stage dealt and in
    play: its deals must stay as secret as the first ones were."""
    from tournament.services.deals import reveal_key

    first = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.SWISS,
                         swiss_rounds=1)
    field = teams(4)
    enter_teams(director_actor, first, field)
    played = generate_round(director_actor, first)
    generate_deals(director_actor, played)
    finish_round(played)
    reveal_key(director_actor, tournament)
    final = create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, final, field[:2])
    round_, values = start_dealt_round(director_actor, tournament, final, field)
    values["rounds"].append(played.pk)
    return round_, values


def secrets_of(round_):
    """Runs of three cards of every deal, in the notations a page might use."""
    runs = set()
    for cards in Deal.objects.filter(round=round_).values_list("cards", flat=True):
        tokens = cards.split()
        for i in range(0, 52 - 3, 3):
            runs.add(" ".join(tokens[i:i + 3]))
    return runs


# The cards field's help gives this example whatever the box (tournament/forms.py); a deal
# holding three of its cards in a row is no leak.
CARDS_EXAMPLE = "AS 2S 3S 7H 7D 7C"


def leaks(response, runs):
    if response.status_code != 200:
        return []
    if response.get("Content-Type", "").startswith("application/pdf"):
        reader = PdfReader(io.BytesIO(response.content))
        text = " ".join(page.extract_text() for page in reader.pages)
    else:
        text = b"".join(response).decode(errors="replace") if response.streaming else \
            response.content.decode(errors="replace")
    text = text.replace(CARDS_EXAMPLE, "")
    return [run for run in runs if run in text]


@pytest.mark.parametrize("scenario", ["open_round", "open_round_after_reveal"])
@pytest.mark.parametrize("who", ["anonymous", "scorer", "referee"])
def test_no_page_shows_an_open_round_deal(client, tournament, staff_user, request, scenario,
                                          who):
    round_, values = request.getfixturevalue(scenario)
    if who != "anonymous":
        client.force_login(staff_user(tournament, who))
    runs = secrets_of(round_)
    visited = 0
    for route in all_routes():
        if route.startswith("admin/"):
            continue  # the admin is for superusers; it has its own test below
        for url in fill(route, values):
            response = client.get(url)
            visited += 1
            assert response.status_code < 500, f"{url} fails with {response.status_code}"
            assert not leaks(response, runs), f"{url} shows cards of an open round"
    assert visited > 30


def test_director_sees_the_deals_and_the_download_is_recorded(client, tournament, staff_user,
                                                              open_round):
    round_, _values = open_round
    client.force_login(staff_user(tournament, "director", username="boss"))
    url = reverse("director:round_deals_pdf", args=[tournament.slug, round_.pk, "deal-sheet"])
    response = client.get(url)
    assert response.status_code == 200
    assert leaks(response, secrets_of(round_))  # the director's sheet carries the cards
    from tournament.models import AuditEntry

    entry = AuditEntry.objects.get(action="deals.download")
    assert entry.actor_name == "boss" and "deal sheet" in entry.summary


def test_hand_records_appear_only_after_the_round_closes(client, tournament, open_round,
                                                         finish_round):
    round_, _values = open_round
    url = reverse("public:hand_records", args=[tournament.slug, round_.pk])
    assert client.get(url).status_code == 404
    finish_round(round_)
    page = client.get(url).content.decode()
    first = Deal.objects.filter(round=round_).order_by("hand").first()
    from scoring.deals import deal_from_text

    for card in deal_from_text(first.cards).dealer:
        assert f">{card.display}<" in page


def test_hand_records_show_every_tables_result_on_the_deal(
        client, tournament, open_round, director_actor, finish_round,
        django_assert_max_num_queries):
    import uuid

    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry

    round_, _values = open_round
    table = round_.tables.get(number=3)
    record_hand_result(director_actor, table, 1, HandEntry("knock", 1, 4, 12),
                       seen_version=0, request_token=uuid.uuid4())
    finish_round(round_)
    url = reverse("public:hand_records", args=[tournament.slug, round_.pk])
    with django_assert_max_num_queries(12):
        page = client.get(url).content.decode()
    assert "Knock 4 vs 12: 15 + 8 = 23" in page


def test_deal_pages_have_pinned_query_counts(client, tournament, staff_user, open_round,
                                             django_assert_max_num_queries):
    round_, _values = open_round
    client.force_login(staff_user(tournament, "director", username="boss"))
    with django_assert_max_num_queries(12):
        assert client.get(reverse("director:deal_key", args=[tournament.slug])).status_code \
            == 200
    with django_assert_max_num_queries(12):
        page = client.get(reverse("director:round_deals", args=[tournament.slug, round_.pk]))
        assert page.status_code == 200 and "Use a reserve deal" in page.content.decode()


def test_commitment_is_on_the_public_home_page_before_any_deal(client, tournament,
                                                              director_actor):
    from tournament.services.deals import make_key

    key = make_key(director_actor, tournament)
    assert key.commitment in client.get(reverse("public:home")).content.decode()
    assert key.key_hex not in client.get(reverse("public:deal_check",
                                                 args=[tournament.slug])).content.decode()


@pytest.mark.parametrize("who", ["anonymous", "scorer", "director"])
def test_no_url_fails_on_an_empty_or_odd_post(client, tournament, staff_user, open_round, who):
    """Bad input gets a message or a 4xx, never a server error, whoever sends it."""
    _round, values = open_round
    values = {**values, "hand": [1, 99], "seat": [1, 7], "team_pk": [values["team_pk"][0], 999]}
    if who != "anonymous":
        client.force_login(staff_user(tournament, who, username=f"{who}-x"))
    for route in all_routes():
        if route.startswith(("admin/", "i18n/", "accounts/logout")):
            continue
        for url in fill(route, values):
            for data in ({}, {"expected_number": "x", "team_a": "abc", "pin": "\x00",
                              "group_count": "-1", "reason": "\x00", "name": "\x00"}):
                response = client.post(url, data)
                assert response.status_code < 500, f"POST {url} {data} -> {response.status_code}"


def test_opening_the_deals_page_never_makes_a_key(client, tournament, staff_user):
    from tournament.models import DealKey

    client.force_login(staff_user(tournament, "director", username="boss"))
    page = client.get(reverse("director:deal_key", args=[tournament.slug])).content.decode()
    assert not DealKey.objects.exists() and "Make the next key now" in page
    client.post(reverse("director:deal_key_new", args=[tournament.slug]))
    assert DealKey.objects.get().number == 1


def test_the_check_page_lists_every_key_with_a_pinned_query_count(
        client, tournament, open_round_after_reveal, django_assert_max_num_queries):
    from tournament.models import DealKey

    with django_assert_max_num_queries(6):
        page = client.get(reverse("public:deal_check", args=[tournament.slug])).content.decode()
    first, second = DealKey.objects.order_by("number")
    assert first.key_hex in page and "--stage 1 --round 1 --hands 8" in page
    assert second.commitment in page and second.key_hex not in page
    assert "Final · Final" in page  # a knockout of two: its one round is the final


def test_hand_records_put_each_result_under_the_deal_it_was_played_on(
        client, tournament, open_round, director_actor, finish_round):
    import uuid

    from tournament.services.deals import replace_deal
    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry

    round_, _values = open_round
    one, two = round_.tables.order_by("number")[:2]
    record_hand_result(director_actor, one, 1, HandEntry("knock", 1, 4, 12),
                       seen_version=0, request_token=uuid.uuid4())
    replace_deal(director_actor, Deal.objects.get(round=round_, hand=1), "box dropped")
    record_hand_result(director_actor, two, 1, HandEntry("gin", 2, None, 30),
                       seen_version=0, request_token=uuid.uuid4())
    finish_round(round_)
    page = client.get(reverse("public:hand_records", args=[tournament.slug, round_.pk]))
    sections = page.content.decode().split('<section class="card hand-record')
    old = next(s for s in sections if "the tables below had played it already" in s)
    new = next(s for s in sections if "reserve deal 1" in s)
    assert "Knock 4 vs 12" in old and "Gin" not in old
    assert "Gin vs 30" in new and "Knock 4 vs 12" not in new


# No card inferable from the referees' anomaly lists (issue 22, item 4) ----------------------

# Three final hands of gin whose cards cover the whole deck: whichever two cards a box keeps
# at the end of its stock, one of these entries names them.
GINS = [
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "JS QS KS AH 2H 3H 4H 5H 6H 7H"),
    ("8H 9H TH JH QH KH AD 2D 3D 4D", "5D 6D 7D 8D 9D TD JD QD KD AC"),
    ("2C 3C 4C 5C 6C 7C 8C 9C TC JC", "QC KC AS 2S 3S 4S 5S 6S 7S 8S"),
]


def enter_the_deck(client, tournament, round_):
    import uuid

    for table, (gin, opponent) in zip(round_.tables.order_by("number"), GINS, strict=False):
        response = client.post(
            reverse("director:hand_save", args=[tournament.slug, table.pk, 1]),
            {"h1-outcome": "gin", "h1-declarer_seat": "1", "h1-declarer_cards": gin,
             "h1-opponent_cards": opponent, "h1-seen_version": "0",
             "h1-request_token": str(uuid.uuid4())})
        assert response.status_code in (200, 302), response.content[:300]


@pytest.mark.parametrize("draw_rule", ["two_cards_left", "stock_exhausted"])
def test_no_referee_page_names_a_card_of_a_box_in_play(
        client, tournament, staff_user, director_actor, teams, draw_rule):
    from tests.tournament.views.public_event import cards_in, page_text
    from tournament.models import HandResult

    tournament.draw_rule = draw_rule
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    field = teams(6)
    enter_teams(director_actor, stage, field)
    round_, values = start_dealt_round(director_actor, tournament, stage, field)
    values["hand"] = [1]
    values["seat"] = [1]
    referee = staff_user(tournament, "referee", username="ref")
    chief = staff_user(tournament, "referee", chief=True, username="chief")
    client.force_login(referee)
    enter_the_deck(client, tournament, round_)
    conflicts = HandResult.objects.filter(table__round=round_).exclude(box_conflict="")
    assert conflicts.exists() == (draw_rule == "two_cards_left")
    for who in (referee, chief):
        client.force_login(who)
        for route in all_routes():
            if route.startswith("admin/"):
                continue
            for url in fill(route, values):
                response = client.get(url)
                if response.status_code != 200 or response.streaming:
                    continue
                if not response.get("Content-Type", "").startswith("text/html"):
                    continue
                # (The cards field's help gives the same example whatever the box.)
                text = page_text(response.content.decode()).replace(
                    "e.g. “AS 2S 3S 7H 7D 7C …”", "")
                assert "can never be in a player's hand" not in text, url
                assert not cards_in(text), (who.username, url, cards_in(text)[:4])
        progress = page_text(client.get(reverse(
            "director:round_progress", args=[tournament.slug, round_.pk])).content.decode())
        # Not even that an entry contradicts its box (issue 49: saving made-up hands and
        # watching the flag found the box's last two stock cards).
        assert "contradict the box" not in progress
    # The director sees which cards.
    client.force_login(staff_user(tournament, "director", username="boss"))
    progress = page_text(client.get(reverse(
        "director:round_progress", args=[tournament.slug, round_.pk])).content.decode())
    for conflict in conflicts:
        assert conflict.box_conflict.split(";")[0] in progress
