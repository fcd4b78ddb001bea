"""The dealer of each hand is ``scoring.seating``'s alone (issue 52): with its rule flipped
(seat 2 deals the odd hands), the comparison with the field, the individual ranking and the
traveller all follow it. No copy of the rule is left in SQL or in a selector."""

import uuid

import pytest

from scoring import seating
from tests.conftest import new_staff, new_tournament, seeded_teams
from tournament.models import Deal, Stage, Table, Tournament
from tournament.selectors.field import field_standings
from tournament.selectors.individual import individual
from tournament.selectors.travellers import box_traveller
from tournament.services.base import Actor
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import allot_groups, create_stage
from tournament.services.team_results import write_seat_tallies

pytestmark = pytest.mark.django_db

# Table number → its hands 1 and 2: all different, so that every player's figures move.
HANDS = {
    1: (HandEntry("gin", 1, None, 30), HandEntry("knock", 2, 4, 12)),
    2: (HandEntry("knock", 1, 3, 5), HandEntry("gin", 1, None, 20)),
    3: (HandEntry("knock", 2, 2, 7), HandEntry("knock", 1, 7, 7)),
    4: (HandEntry("gin", 2, None, 15), HandEntry("knock", 2, 3, 8)),
}


@pytest.fixture(scope="module")
def built(module_db):
    """A group of four, two hands a match, one deal set for the field: every hand entered
    (the event is built once for the module)."""
    tournament = new_tournament(name="Dealer Cup", slug="dealer-cup", hands_per_match=2,
                                field_minimum_hands=1)
    director = Actor(new_staff(tournament, "director", "director"))
    stage = create_stage(director, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director, stage, [seeded_teams(tournament, 4)])
    round_ = generate_round(director, stage)
    generate_deals(director, round_)
    publish_round(director, round_)
    start_round(director, round_)
    for table in round_.tables.all():
        for hand, entry in enumerate(HANDS[table.number], 1):
            record_hand_result(director, table, hand, entry, seen_version=0,
                               request_token=uuid.uuid4())
    return tournament.pk


def flipped(hand: int) -> int:
    """Seat 2 deals the odd hands, seat 1 the even ones."""
    return 2 if hand % 2 else 1


def figures(tournament):
    field = {row.player.pk: (row.points, row.dealer_points, row.non_dealer_points)
             for row in field_standings(tournament).rows}
    ranking = {row.player.pk: (row.line.hands, row.line.points, row.line.as_dealer.hands,
                               row.line.as_dealer.points)
               for row in individual(tournament).rows}
    deal = Deal.objects.select_related("round__stage__tournament").get(
        round__stage__tournament=tournament, hand=1)
    traveller = {row.table: (row.dealer.player.pk, row.non_dealer.player.pk, row.dealer_points)
                 for row in box_traveller(deal).rows}
    return field, ranking, traveller


def test_flipping_the_dealer_rule_in_scoring_seating_is_followed_everywhere(built,
                                                                            monkeypatch):
    tournament = Tournament.objects.get(pk=built)
    field, ranking, traveller = figures(tournament)
    assert len(field) == len(ranking) == 8 and len(traveller) == 4

    monkeypatch.setattr(seating, "dealer_seat", flipped)
    # The seats' tallies are written with each hand saved: written again under the rule.
    write_seat_tallies(Table.objects.filter(round__stage__tournament=tournament))
    flipped_field, flipped_ranking, flipped_traveller = figures(tournament)

    # Every player's points with the dealer cards are those made without them before.
    assert flipped_field == {player: (points, non_dealer, dealer)
                             for player, (points, dealer, non_dealer) in field.items()}
    assert flipped_ranking == {player: (hands, points, hands - dealer_hands,
                                        points - dealer_points)
                               for player, (hands, points, dealer_hands, dealer_points)
                               in ranking.items()}
    # Hand 1's dealer cards went to the other seat of every table.
    assert flipped_traveller == {table: (non_dealer, dealer, -points)
                                 for table, (dealer, non_dealer, points) in traveller.items()}
    assert any(dealer for _points, dealer, _other in field.values())
