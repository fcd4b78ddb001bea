"""The comparison with the field read from the database (issue 12, RULES.md §14): results
entered through the services, every figure worked out by hand.

Seating (RULES.md §8): match m plays at tables 2m − 1 (its table 1: home's first player in
seat 1 against away's first in seat 2) and 2m (its table 2: away's second player in seat 1
against home's second in seat 2). Seat 1 holds the dealer cards in odd hands, seat 2 in
even hands, at both tables. Points: knock 4 v 12 = 23, knock 3 v 5 = 17, knock 2 v 7 = 20,
undercut 7 v 7 = 25 to the opponent, gin v 30 = 55, gin v 20 = 45, gin v 15 = 40.
"""

import uuid
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import connection
from django.db.models import Q

from scoring.field import DEALER
from tournament.models import Deal, HandResult, Stage
from tournament.selectors.anomalies import result_anomalies
from tournament.selectors.box_summaries import round_box_summaries, unbalanced_boxes
from tournament.selectors.field import field_standings
from tournament.selectors.penalties import withdrawn_teams
from tournament.selectors.travellers import box_traveller
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.penalties import record_penalty
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage, enter_teams

DRAW = HandEntry("draw")
KNOCK_1 = HandEntry("knock", 1, 4, 12)  # seat 1 +23
KNOCK_2 = HandEntry("knock", 2, 4, 12)  # seat 2 +23


def enter(actor, table, hand, entry):
    return record_hand_result(actor, table, hand, entry, seen_version=0,
                              request_token=uuid.uuid4())


def sign_off(actor, round_):
    """Approve, sign and sign off every match of the round as entered."""
    for result in HandResult.objects.filter(table__round=round_, is_current=True):
        approve_hand(actor, result, 1)
        approve_hand(actor, result, 2)
    for match in round_.matches.filter(forfeited_by__isnull=True):
        for table in match.tables.all():
            sign_table(actor, table, 1)
            sign_table(actor, table, 2)
        sign_off_match(actor, match)


def begin(actor, stage, *, deals=True):
    round_ = generate_round(actor, stage)
    if deals:
        generate_deals(actor, round_)
    publish_round(actor, round_)
    return start_round(actor, round_)


def make_teams(tournament, make_team, n):
    return [make_team(tournament, code=f"T{i}", name=f"Team {i:03d}", seed=str(i),
                      player1=f"T{i}a", player2=f"T{i}b") for i in range(1, n + 1)]


def match_of(round_, home, away):
    return round_.matches.get(home__code=home, away__code=away)


def table_of(round_, home, away, position):
    return match_of(round_, home, away).tables.get(position=position)


# Eight tables on one box: the datum is trimmed -----------------------------------------------

# Table number → the hand-1 entry (seat 1 holds the dealer cards) and what the dealer cards
# made there.
EIGHT = {
    1: (HandEntry("knock", 2, 2, 7), -20),  # the non-dealer knocks
    2: (HandEntry("gin", 1, None, 30), 55),
    3: (DRAW, 0),
    4: (HandEntry("gin", 2, None, 15), -40),
    5: (KNOCK_1, 23),
    6: (DRAW, 0),
    7: (HandEntry("knock", 1, 7, 7), -25),  # the dealer knocks and is undercut
    8: (HandEntry("knock", 1, 3, 5), 17),
}


@pytest.fixture
def eight_tables(director_actor, tournament, make_team):
    """A group of eight, one hand a match, one deal set for the field: hand 1 entered at
    all eight tables (round 1, in play)."""
    tournament.hands_per_match = 1
    tournament.anomaly_threshold = 50
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [make_teams(tournament, make_team, 8)])
    round_ = begin(director_actor, stage)
    for table in round_.tables.all():
        enter(director_actor, table, 1, EIGHT[table.number][0])
    return round_


def the_box(round_):
    return Deal.objects.select_related("round__stage__tournament").get(round=round_, hand=1)


def test_a_box_of_eight_tables_sorted_counted_and_trimmed(eight_tables):
    """Dealer cards: 55, 23, 17, 0, 0, −20, −25, −40. Eight tables: 55 and −40 are left out,
    the datum is (23 + 17 + 0 + 0 − 20 − 25) / 6 = −5/6."""
    box = box_traveller(the_box(eight_tables))
    assert [row.table for row in box.rows] == [2, 5, 8, 3, 6, 1, 7, 4]
    assert [row.dealer_points for row in box.rows] == [55, 23, 17, 0, 0, -20, -25, -40]
    assert box.summary.dealer_datum == Fraction(-5, 6) and box.trimmed
    assert (box.dealer_datum, box.non_dealer_datum) == (Decimal("-0.83"), Decimal("0.83"))
    assert box.summary.outcomes == {"knock": 3, "undercut": 1, "gin": 2, "big_gin": 0,
                                    "draw": 2}
    assert [(bar.points, bar.tables) for bar in box.points] == [
        (55, 1), (23, 1), (17, 1), (0, 2), (-20, 1), (-25, 1), (-40, 1)]
    top = box.rows[0]
    assert top.versus == Fraction(335, 6) and top.versus_shown == Decimal("55.83")
    # Table 2 is match 1's table 2: away's second player deals hand 1 to home's second.
    match = eight_tables.matches.get(number=1)
    assert (top.dealer.player.name, top.non_dealer.player.name) == (
        f"{match.away.code}b", f"{match.home.code}b")
    undercut = next(row for row in box.rows if row.table == 7)
    assert (undercut.result.outcome, undercut.result.declarer) == ("undercut", DEALER)
    assert box.provisional and box.hidden == 0 and box.left_out == 0


def test_the_box_index_and_its_balance(eight_tables):
    """The dealer cards' plain mean: (55 + 23 + 17 − 20 − 25 − 40) / 8 = 10/8 = 1.25."""
    (box,) = round_box_summaries(eight_tables)
    assert box.summary.tables == 8 and box.balance == Decimal("1.25")
    assert box.favoured is None and unbalanced_boxes(eight_tables) == []
    tournament = eight_tables.stage.tournament
    tournament.box_balance_threshold = 1
    tournament.save()
    eight_tables.stage.tournament.refresh_from_db()
    (unbalanced,) = unbalanced_boxes(eight_tables)
    assert unbalanced.favoured == DEALER and unbalanced.deal.hand == 1


def test_a_result_far_from_the_datum_is_an_anomaly(eight_tables):
    """Threshold 50: table 2's 55 is 55 5/6 from the datum; table 4's −40 only 39 1/6."""
    anomalies = result_anomalies(eight_tables)
    assert [(far.played.table, far.difference_shown, far.tables)
            for far in anomalies.far] == [(2, Decimal("55.83"), 8)]
    assert anomalies.conflicts == [] and anomalies.unbalanced == []


def test_a_withdrawn_team_is_listed_but_left_out_of_the_field(director_actor, tournament,
                                                                staff_user, actor,
                                                                eight_tables):
    """Match 1's home team defaults in round 2 of the group stage: withdrawn, its round-1
    tables 1 (−20) and 2 (55) stay on the traveller, marked, and leave the field: six
    tables, a plain mean (0 − 40 + 23 + 0 − 25 + 17) / 6 = −25/6."""
    sign_off(director_actor, eight_tables)
    close_round(director_actor, eight_tables)
    withdrawn = eight_tables.matches.get(number=1).home
    two = begin(director_actor, eight_tables.stage, deals=False)
    referee = actor(staff_user(tournament, "referee", username="referee"))
    match = two.matches.get(Q(home=withdrawn) | Q(away=withdrawn))
    record_penalty(referee, team=withdrawn, round=two, kind="default", match=match,
                   reason="did not come back")
    assert withdrawn_teams(eight_tables.stage) == {withdrawn.pk}
    box = box_traveller(the_box(eight_tables))
    assert len(box.rows) == 8 and box.left_out == 2
    assert {row.table for row in box.rows if not row.counted} == {1, 2}
    assert box.summary.dealer_datum == Fraction(-25, 6) and not box.trimmed
    assert box.dealer_datum == Decimal("-4.17")
    assert result_anomalies(eight_tables).far == []  # table 2 is out of the field


# One deal set per match: the field is the match ---------------------------------------------

@pytest.fixture
def per_match(director_actor, tournament, make_team):
    """Four teams, one deal set per match, one hand: match 1 (tables 1 and 2) made 23 and
    −25 with its dealer cards, match 2 (tables 3 and 4) made 55 and 0 with its own."""
    tournament.hands_per_match = 1
    tournament.deal_scope = "match"
    tournament.field_minimum_hands = 1
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, make_teams(tournament, make_team, 4))
    round_ = begin(director_actor, stage)
    entries = {1: KNOCK_1, 2: HandEntry("knock", 1, 7, 7), 3: HandEntry("gin", 1, None, 30),
               4: DRAW}
    for table in round_.tables.all():
        enter(director_actor, table, 1, entries[table.number])
    return round_


def test_with_one_deal_set_per_match_the_field_is_the_two_tables_of_the_match(
        tournament, per_match):
    first = Deal.objects.select_related("round__stage__tournament").get(round=per_match,
                                                                       deal_set=1)
    box = box_traveller(first)
    assert [row.table for row in box.rows] == [1, 2] and box.per_match
    assert box.summary.dealer_datum == -1  # (23 − 25) / 2
    standings = field_standings(tournament)
    assert standings.per_match_rounds == [per_match]
    lines = {row.player.name: row for row in standings.rows}
    dealer_at_1 = per_match.matches.get(number=1).home.players.get(number=1).name
    assert lines[dealer_at_1].line.against_field == 24  # 23 − (−1)
    # Match 2's datum is its own: (55 + 0) / 2; the dealer at table 3 made 55.
    dealer_at_3 = per_match.matches.get(number=2).home.players.get(number=1).name
    assert lines[dealer_at_3].line.against_field == Fraction(55, 2)
    assert [row.line.against_field for row in standings.rows] == sorted(
        (row.line.against_field for row in standings.rows), reverse=True)


# Players against the field over two rounds, a bye, then a withdrawal ----------------------------
# A group of five (Berger, a bye each round), two hands a match, one deal set for the field:
#   round 1: T1 bye, T2–T5, T3–T4;  round 2: T4 bye, T5–T3, T1–T2;  round 3: T2 bye, T3–T1,
#   T4–T5.
# Round 1, hand 1 (seat 1 deals): T2a +23 v T5a; T5b 0 v T2b; T3a +55 v T4a; T4b −23 v T3b:
#   dealer cards 23, 0, 55, −23, datum 55/4.
# Round 1, hand 2 (seat 2 deals): T2a 0 v T5a; T5b −23 v T2b +23; T3a +23 v T4a −23; T4b 0 v
#   T3b: dealer cards 0, 23, −23, 0, datum 0.
# Round 2, hand 1: T5a +45 v T3a; T3b 0 v T5b; T1a 0 v T2a; T2b +23 v T1b: datum 68/4 = 17.
# Round 2, hand 2: four draws, datum 0.

ROUND_1 = {("T2", "T5", 1): (KNOCK_1, DRAW), ("T2", "T5", 2): (DRAW, KNOCK_2),
           ("T3", "T4", 1): (HandEntry("gin", 1, None, 30), KNOCK_1),
           ("T3", "T4", 2): (KNOCK_2, DRAW)}
ROUND_2 = {("T5", "T3", 1): (HandEntry("gin", 1, None, 20), DRAW),
           ("T5", "T3", 2): (DRAW, DRAW),
           ("T1", "T2", 1): (DRAW, DRAW), ("T1", "T2", 2): (KNOCK_1, DRAW)}


def play(actor, round_, entries):
    """``entries[home, away, position]`` = (hand 1, hand 2) at that table."""
    for (home, away, position), hands in entries.items():
        table = table_of(round_, home, away, position)
        for hand, entry in enumerate(hands, 1):
            enter(actor, table, hand, entry)
    sign_off(actor, round_)
    return close_round(actor, round_)


@pytest.fixture
def group_of_five(director_actor, tournament, make_team):
    tournament.hands_per_match = 2
    tournament.field_minimum_hands = 5  # round 1's rule; round 2 is drawn with 3
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [make_teams(tournament, make_team, 5)])
    one = play(director_actor, begin(director_actor, stage), ROUND_1)
    tournament.field_minimum_hands = 3
    tournament.save()
    two = play(director_actor, begin(director_actor, stage), ROUND_2)
    return stage, one, two


# name → (total, hands, dealer hands, dealer total, non-dealer hands, non-dealer total,
#         raw points), from the datums above.
EXPECTED = {
    "T2b": (Fraction(171, 4), 4, 2, Fraction(29), 2, Fraction(55, 4), 46),
    "T3a": (Fraction(145, 4), 4, 2, Fraction(165, 4), 2, Fraction(-5), 33),
    "T2a": (Fraction(105, 4), 4, 2, Fraction(37, 4), 2, Fraction(17), 23),
    "T3b": (Fraction(79, 4), 4, 2, Fraction(-17), 2, Fraction(147, 4), 23),
    "T5a": (Fraction(75, 4), 4, 2, Fraction(28), 2, Fraction(-37, 4), 22),
    "T5b": (Fraction(-79, 4), 4, 2, Fraction(-55, 4), 2, Fraction(-6), -23),
}


def figures(row):
    line = row.line
    return (line.against_field, line.hands, line.dealer_hands, line.dealer_against_field,
            line.non_dealer_hands, line.non_dealer_against_field, row.points)


def test_players_against_the_field_over_two_rounds(tournament, group_of_five):
    """Fewer than 8 tables (plain means); T1's players had a bye in round 1 and T4's in
    round 2: two hands each, under the latest round's minimum of 3 (round 1's was 5)."""
    stage, _one, _two = group_of_five
    standings = field_standings(tournament, stage=stage)
    assert standings.minimum_hands == 3
    assert [(row.rank, row.player.name) for row in standings.rows] == [
        (1, "T2b"), (2, "T3a"), (3, "T2a"), (4, "T3b"), (5, "T5a"), (6, "T5b")]
    assert {row.player.name: figures(row) for row in standings.rows} == EXPECTED
    assert [row.per_hand for row in standings.rows] == [
        Decimal("10.69"), Decimal("9.06"), Decimal("6.56"), Decimal("4.94"),
        Decimal("4.69"), Decimal("-4.94")]
    assert standings.players == 10 and standings.unranked == 4
    assert not standings.provisional and standings.per_match_rounds == []
    assert standings.left_out_teams == []
    assert field_standings(tournament, closed_only=True).rows == standings.rows


def test_a_player_who_missed_a_round_is_ranked_once_the_minimum_allows(tournament,
                                                                      group_of_five):
    """T1a (bye in round 1): round 2 hand 1 as dealer 0 − 17, hand 2 as non-dealer 0 − 0."""
    stage, _one, two = group_of_five
    two.rule_settings = {**two.rule_settings, "field_minimum_hands": 2}
    two.save(update_fields=["rule_settings"])
    rows = {row.player.name: row for row in field_standings(tournament, stage=stage).rows}
    assert len(rows) == 10
    assert (rows["T1a"].line.against_field, rows["T1a"].line.hands) == (-17, 2)
    assert rows["T1a"].per_hand == Decimal("-8.50")
    assert (rows["T4a"].line.against_field, rows["T4a"].per_hand) == (
        Fraction(-257, 4), Decimal("-32.13"))  # −32.125, half up
    assert [row.player.name for row in field_standings(tournament, stage=stage).rows][-2:] \
        == ["T4b", "T4a"]


def test_a_withdrawn_team_leaves_the_field_of_every_box_it_played(
        director_actor, tournament, staff_user, actor, group_of_five):
    """T5 defaults in round 3: withdrawn from the group. Without its tables round 1's hand 1
    has 55 and −23 (datum 16), hand 2 −23 and 0 (−23/2); round 2's hand 1 has 0 and 23
    (23/2), hand 2 0. T3a: 55 − 16 = 39 as dealer, 23 − 23/2 as non-dealer; its round-2
    match (against T5) is left out. Round 3 is drawn with a minimum of 2."""
    stage, _one, _two = group_of_five
    tournament.field_minimum_hands = 2
    tournament.save()
    three = begin(director_actor, stage, deals=False)
    referee = actor(staff_user(tournament, "referee", username="referee"))
    record_penalty(referee, team=match_of(three, "T4", "T5").away, round=three,
                   kind="default", match=match_of(three, "T4", "T5"), reason="gone home")
    standings = field_standings(tournament, stage=stage)
    assert standings.minimum_hands == 2
    assert [team.code for team in standings.left_out_teams] == ["T5"]
    lines = {row.player.name: (row.rank, row.line.against_field, row.line.hands)
             for row in standings.rows}
    assert lines == {
        "T3a": (1, Fraction(101, 2), 2), "T3b": (1, Fraction(101, 2), 2),
        "T2a": (3, Fraction(23, 2), 2), "T2b": (3, Fraction(23, 2), 2),
        "T1a": (5, Fraction(-23, 2), 2), "T1b": (5, Fraction(-23, 2), 2),
        "T4a": (7, Fraction(-101, 2), 2), "T4b": (7, Fraction(-101, 2), 2),
    }


def test_scorers_and_the_public_see_official_hands_of_closed_rounds(
        director_actor, tournament, group_of_five):
    stage, _one, _two = group_of_five
    three = begin(director_actor, stage)
    match = match_of(three, "T3", "T1")
    enter(director_actor, match.tables.get(position=1), 1, KNOCK_1)
    everything = field_standings(tournament, stage=stage)
    assert everything.provisional and len(everything.rounds) == 3
    closed = field_standings(tournament, stage=stage, closed_only=True, official_only=True)
    assert not closed.provisional and len(closed.rounds) == 2
    assert {row.player.name: figures(row) for row in closed.rows} == EXPECTED


@pytest.mark.parametrize("scenario", ["per_match", "eight_tables"])
def test_queries_do_not_grow_with_the_field(tournament, request, scenario,
                                            django_assert_num_queries):
    """Two tables on a box, then eight: the same number of queries."""
    round_ = request.getfixturevalue(scenario)
    deal = Deal.objects.select_related("round__stage__tournament").filter(
        round=round_).first()
    with django_assert_num_queries(3):  # results, line-ups, withdrawn teams
        box_traveller(deal)
    round_ = type(round_).objects.select_related("stage__tournament").get(pk=round_.pk)
    with django_assert_num_queries(3):  # results, withdrawn teams, deals
        result_anomalies(round_)
    with django_assert_num_queries(3):  # deals, results, withdrawn teams
        round_box_summaries(round_)
    # Rounds, the sums per player, withdrawn teams, players: the line-ups are read only
    # for a round seen in part or a withdrawn team. On PostgreSQL the rounds' digests
    # first (selectors.field_kept), and the sums only while a round's digest moved.
    kept = connection.vendor == "postgresql"
    with django_assert_num_queries(5 if kept else 4):
        field_standings(tournament)
    with django_assert_num_queries(4):
        field_standings(tournament)
