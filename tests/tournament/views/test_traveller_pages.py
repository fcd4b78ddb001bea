"""Travellers, players against the field and the referee's anomalies as pages (issue 12,
items 2 to 5): who sees what, the reader's table highlighted, no card of a box before its
round is closed, query counts that do not grow with the field."""
# The scenarios' fixtures are imported from the selector tests, and pytest hands them to the
# tests by name: ruff takes each test's argument for a redefinition.
# ruff: noqa: F811

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from scoring.cards import DECK
from scoring.deals import deal_from_text
from tests.tournament.services.test_field_comparison import (  # noqa: F401 - fixtures
    EIGHT,
    begin,
    eight_tables,
    group_of_five,
    make_teams,
    per_match,
    sign_off,
)
from tournament.models import Deal, Stage
from tournament.services.rounds import close_round
from tournament.services.stages import allot_groups, create_stage


class _Text(HTMLParser):
    """The text a reader sees: every text node joined as it comes, so that a card split by
    markup (``8</span><span>♣``) reads as one."""

    def __init__(self):
        super().__init__()
        self.parts = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style") and self.skip > 0

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def page_text(response) -> str:
    parser = _Text()
    parser.feed(response.content.decode())
    return "".join(parser.parts)


def notations(card) -> set[str]:
    """Every way a page might write a card: 8C, 8c, 8♣, 8 ♣, 10♦, T♦, TD, 10D."""
    ranks = {str(card)[0]}
    if card.rank == 10:
        ranks.add("10")
    written = set()
    for rank in ranks:
        for suit in (card.suit.letter, card.suit.symbol):
            written |= {rank + suit, f"{rank} {suit}", f"{rank}\u00a0{suit}"}
        if rank[0].isdigit():  # "as", "ad", "ah" are words; "8c" is not
            written.add(rank + card.suit.letter.lower())
    return written


def cards_in(text: str, deal: Deal) -> list[str]:
    found = []
    for card in deal_from_text(deal.cards).order:
        for written in notations(card):
            if re.search(rf"(?<![\w]){re.escape(written)}(?![\w])", text):
                found.append(written)
    return found


def traveller_url(tournament, deal, table=None):
    url = reverse("public:traveller", args=[tournament.slug, deal.round_id, deal.pk])
    return url if table is None else f"{url}?table={table}"


def test_the_check_finds_a_card_however_it_is_written():
    """The secrecy checks below must be able to fail."""
    deal = Deal(cards=" ".join(str(card) for card in DECK))
    for html in ("<td>8<span>♣</span></td>", "<p>the 10♦ was there</p>", "<b>TD</b>",
                 "<i>8 ♣</i>", "<i>8c</i>", "<i>AS</i>"):
        parser = _Text()
        parser.feed(html)
        assert cards_in("".join(parser.parts), deal), html
    assert not cards_in("as the dealer, 23 points; Table 8; T1 v T2; ♦ Duplicate Gin", deal)


# The public traveller -------------------------------------------------------------------------

def test_before_the_close_a_traveller_shows_neither_cards_nor_results(client, tournament,
                                                                      eight_tables):
    deal = Deal.objects.get(round=eight_tables, hand=1)
    response = client.get(traveller_url(tournament, deal, 5))
    assert response.status_code == 200
    text = page_text(response)
    assert cards_in(text, deal) == []
    assert "8 tables have played this box" in text and "Against the datum" not in text
    assert "your table" not in text
    index = client.get(reverse("public:travellers", args=[tournament.slug, eight_tables.pk]))
    assert index.status_code == 200 and cards_in(page_text(index), deal) == []


def test_a_closed_round_s_traveller_lists_every_table_and_highlights_the_readers(
        client, tournament, director_actor, eight_tables, django_assert_max_num_queries):
    sign_off(director_actor, eight_tables)
    close_round(director_actor, eight_tables)
    deal = Deal.objects.get(round=eight_tables, hand=1)
    with django_assert_max_num_queries(9):
        response = client.get(traveller_url(tournament, deal, 5))
    html = response.content.decode()
    rows = re.findall(r'<tr class="([^"]*)"[^>]*>\s*<th scope="row" class="num table-no">(\d+)',
                      html)
    assert [int(number) for _classes, number in rows] == [2, 5, 8, 3, 6, 1, 7, 4]
    assert [number for classes, number in rows if "reader" in classes] == ["5"]
    assert html.count('aria-current="true"') == 1
    text = page_text(response)
    assert "Datum, dealer cards" in text and "\N{MINUS SIGN}0.83" in text
    assert "+55.83" in text  # table 2 against the datum
    for card in deal_from_text(deal.cards).dealer:
        assert f'<span class="card-{card.suit.letter}">{card.display}</span>' in html
    index = client.get(reverse("public:travellers", args=[tournament.slug, eight_tables.pk]))
    assert traveller_url(tournament, deal) in index.content.decode()
    assert "+1.25" in page_text(index)  # the dealer cards' plain mean


def test_the_traveller_query_count_does_not_grow_with_the_field(
        client, tournament, director_actor, per_match, django_assert_max_num_queries):
    sign_off(director_actor, per_match)
    close_round(director_actor, per_match)
    deal = Deal.objects.get(round=per_match, deal_set=1)
    with django_assert_max_num_queries(9):
        response = client.get(traveller_url(tournament, deal, 1))
    assert "the field of this box is the two tables of its match" in page_text(response)


def test_the_settings_can_keep_travellers_and_players_from_the_public(
        client, tournament, staff_user, director_actor, eight_tables):
    sign_off(director_actor, eight_tables)
    close_round(director_actor, eight_tables)
    deal = Deal.objects.get(round=eight_tables, hand=1)
    tournament.public_results = False
    tournament.public_players = False
    tournament.save()
    field = reverse("public:field", args=[tournament.slug])
    for url in (traveller_url(tournament, deal), field,
                reverse("public:travellers", args=[tournament.slug, eight_tables.pk])):
        assert client.get(url).status_code == 404
    client.force_login(staff_user(tournament, "referee"))  # the staff have their pages
    assert client.get(traveller_url(tournament, deal)).status_code == 404
    staff = reverse("director:traveller", args=[tournament.slug, eight_tables.pk, deal.pk])
    assert client.get(staff).status_code == 200
    assert client.get(reverse("director:field", args=[tournament.slug])).status_code == 200


def test_a_replaced_deal_has_its_own_traveller(client, tournament, director_actor,
                                               eight_tables):
    from tournament.services.deals import replace_deal

    old = Deal.objects.get(round=eight_tables, hand=1)
    new = replace_deal(director_actor, old, "seen by a player")
    sign_off(director_actor, eight_tables)
    close_round(director_actor, eight_tables)
    assert "No table has a result on this box yet" in page_text(
        client.get(traveller_url(tournament, new)))
    text = page_text(client.get(traveller_url(tournament, old)))
    assert "replaced during the round" in text and "Tables in the field" in text


# The referees' traveller and anomalies --------------------------------------------------------

def test_referees_see_every_result_of_a_box_in_play_but_never_its_cards(
        client, tournament, staff_user, eight_tables):
    deal = Deal.objects.get(round=eight_tables, hand=1)
    url = reverse("director:traveller", args=[tournament.slug, eight_tables.pk, deal.pk])
    client.force_login(staff_user(tournament, "scorer"))
    assert client.get(url).status_code == 403
    client.force_login(staff_user(tournament, "referee"))
    response = client.get(f"{url}?table=3")
    text = page_text(response)
    assert response.status_code == 200 and cards_in(text, deal) == []
    assert "Against the datum" in text and "provisional" in text
    assert len(re.findall(r'class="num table-no"', response.content.decode())) == 8


def test_anomalies_are_for_referees_and_directors_never_scorers(
        client, tournament, staff_user, eight_tables, django_assert_max_num_queries):
    """Threshold 50: table 2's 55 is 55.83 from the datum (eight_tables)."""
    tournament.box_balance_threshold = 1
    tournament.save()
    url = reverse("director:round_progress", args=[tournament.slug, eight_tables.pk])
    client.force_login(staff_user(tournament, "scorer"))
    text = page_text(client.get(url))
    assert "far from the field" not in text and "Table 2, hand 1" not in text
    assert "favoured one seat" not in text
    for role in ("referee", "director"):
        client.force_login(staff_user(tournament, role))
        with django_assert_max_num_queries(20):
            response = client.get(url)
        text = page_text(response)
        assert "Results far from the field" in text and "Table 2, hand 1" in text
        assert "+55.83" in text and "Boxes that favoured one seat" in text
        table = eight_tables.tables.get(number=2)
        assert reverse("director:table_entry", args=[tournament.slug, table.pk]) in \
            response.content.decode()
        deal = Deal.objects.get(round=eight_tables, hand=1)
        traveller = reverse("director:traveller", args=[tournament.slug, eight_tables.pk,
                                                        deal.pk])
        assert f'<a href="{traveller}?table=2">traveller</a>' in response.content.decode()


def test_the_directors_round_page_lists_the_boxes_that_favoured_a_seat(
        client, tournament, staff_user, eight_tables):
    url = reverse("director:round_detail", args=[tournament.slug, eight_tables.pk])
    client.force_login(staff_user(tournament, "director"))
    assert "favoured one seat" not in page_text(client.get(url))  # 1.25 < 25
    tournament.box_balance_threshold = 1
    tournament.save()
    text = page_text(client.get(url))
    assert "Boxes that favoured one seat" in text
    assert "the dealer cards, +1.25 on average over 8 tables" in text


def test_the_match_page_links_each_hand_to_its_traveller(client, tournament, staff_user,
                                                         eight_tables):
    deal = Deal.objects.get(round=eight_tables, hand=1)
    match = eight_tables.matches.get(number=1)
    url = reverse("director:match_page", args=[tournament.slug, match.pk])
    client.force_login(staff_user(tournament, "referee"))
    html = client.get(url).content.decode()
    staff = reverse("director:traveller", args=[tournament.slug, eight_tables.pk, deal.pk])
    assert f"{staff}?table=1" in html and f"{staff}?table=2" in html


# Players against the field --------------------------------------------------------------------

def test_the_public_field_page(client, tournament, group_of_five,
                               django_assert_max_num_queries):
    stage, _one, _two = group_of_five
    for url in (reverse("public:field", args=[tournament.slug]),
                reverse("public:stage_field", args=[tournament.slug, stage.pk])):
        with django_assert_max_num_queries(10):
            response = client.get(url)
        text = page_text(response)
        assert response.status_code == 200
        assert "+10.69" in text and "\N{MINUS SIGN}4.94" in text
        assert "4 players have fewer" in text
        assert text.index("T2b") < text.index("T3a") < text.index("T5b")


def test_the_staff_field_page_for_a_scorer_and_a_referee(
        client, tournament, staff_user, director_actor, group_of_five,
        django_assert_max_num_queries):
    stage, _one, _two = group_of_five
    three = begin(director_actor, stage)
    from tests.tournament.services.test_field_comparison import KNOCK_1, enter, match_of

    enter(director_actor, match_of(three, "T3", "T1").tables.get(position=1), 1, KNOCK_1)
    url = reverse("director:field", args=[tournament.slug])
    client.force_login(staff_user(tournament, "scorer"))
    text = page_text(client.get(url))
    assert "Official hands of closed rounds only" in text and "provisional" not in text
    client.force_login(staff_user(tournament, "referee"))
    with django_assert_max_num_queries(12):
        text = page_text(client.get(url))
    assert "provisional" in text


def test_the_field_page_says_when_the_field_is_the_match(client, tournament, director_actor,
                                                         per_match):
    sign_off(director_actor, per_match)
    close_round(director_actor, per_match)
    text = page_text(client.get(reverse("public:field", args=[tournament.slug])))
    assert "the field of each box is the two tables of the match only" in text


@pytest.mark.parametrize("teams", [4, 8])
def test_the_field_page_query_count_does_not_grow(client, tournament, director_actor,
                                                  make_team, teams,
                                                  django_assert_max_num_queries):
    from tests.tournament.services.test_field_comparison import DRAW, enter

    tournament.hands_per_match = 1
    tournament.field_minimum_hands = 1
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [make_teams(tournament, make_team, teams)])
    round_ = begin(director_actor, stage)
    for table in round_.tables.all():
        enter(director_actor, table, 1, EIGHT[table.number][0] if teams == 8 else DRAW)
    sign_off(director_actor, round_)
    close_round(director_actor, round_)
    with django_assert_max_num_queries(10):
        response = client.get(reverse("public:field", args=[tournament.slug]))
    assert len(re.findall(r'<td class="num rank">', response.content.decode())) == 2 * teams
    deal = Deal.objects.get(round=round_)
    with django_assert_max_num_queries(9):
        client.get(traveller_url(tournament, deal))


@pytest.mark.parametrize("setting", ["closed", "finished_boxes", "live"])
def test_a_box_in_play_shows_what_the_live_results_setting_allows_and_never_cards(
        client, tournament, director_actor, eight_tables, setting):
    """Hand 1 is entered at all eight tables; approved by both seats only at seven of them
    at first: under "finished_boxes" the box is finished once the eighth is approved."""
    from tournament.models import HandResult
    from tournament.services.approvals import approve_hand

    tournament.live_results = setting
    tournament.save()
    deal = Deal.objects.get(round=eight_tables, hand=1)
    results = list(HandResult.objects.filter(table__round=eight_tables).order_by("table__number"))
    for result in results[:-1]:
        approve_hand(director_actor, result, 1)
        approve_hand(director_actor, result, 2)
    shows = {"closed": False, "finished_boxes": False, "live": True}[setting]
    text = page_text(client.get(traveller_url(tournament, deal, 5)))
    assert cards_in(text, deal) == []
    assert ("Against the datum" in text) is shows and ("provisional" in text) is shows
    approve_hand(director_actor, results[-1], 1)
    approve_hand(director_actor, results[-1], 2)
    shows = setting != "closed"
    response = client.get(traveller_url(tournament, deal, 5))
    text = page_text(response)
    assert cards_in(text, deal) == [] and ("Against the datum" in text) is shows
    assert ('class="reader' in response.content.decode()) is shows
    field = page_text(client.get(reverse("public:field", args=[tournament.slug])))
    assert ("No hand has been compared yet" in field) is not shows


@pytest.mark.parametrize("scenario", ["per_match", "eight_tables"])
def test_the_referees_progress_page_query_count_does_not_grow(
        client, tournament, staff_user, request, scenario, django_assert_max_num_queries):
    round_ = request.getfixturevalue(scenario)
    client.force_login(staff_user(tournament, "referee"))
    url = reverse("director:round_progress", args=[tournament.slug, round_.pk])
    with django_assert_max_num_queries(18):
        assert client.get(url).status_code == 200
    deal = Deal.objects.filter(round=round_).first()
    with django_assert_max_num_queries(9):
        assert client.get(reverse("director:traveller", args=[
            tournament.slug, round_.pk, deal.pk])).status_code == 200
