"""What must never happen is refused by the database itself (docs/invariants.md).

Each test writes the bad row with the ORM, past every service, and expects the database to
refuse it; the suite runs on SQLite and on PostgreSQL, so both engines are tried.
"""

import importlib
import uuid

import pytest
from django.db import DataError, IntegrityError, connection, transaction

from tournament.models import (
    Deal,
    Group,
    HandResult,
    Match,
    Round,
    RoundEntry,
    Stage,
    StageTeam,
    Table,
)
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import allot_groups, create_stage, enter_teams

triggers = importlib.import_module("tournament.migrations.0009_invariant_triggers")
# The latest migration that (re)made the triggers knows every one of them.
latest_triggers = importlib.import_module(
    "tournament.migrations.0021_table_seats")


def refused(message: str):
    """The database refuses the write (IntegrityError), for the reason given."""
    return pytest.raises(IntegrityError, match=message)


@pytest.fixture
def swiss(director_actor, tournament, teams):
    """A drawn Swiss round of four teams (two matches) and two teams not in it."""
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    everyone = teams(6)
    enter_teams(director_actor, stage, everyone[:4])
    round_ = generate_round(director_actor, stage)
    return round_, everyone[4:]


def matches(round_):
    return list(round_.matches.order_by("number"))


def test_every_invariant_trigger_is_in_place(db):
    if connection.vendor == "postgresql":
        sql = "SELECT tgname FROM pg_trigger WHERE tgname LIKE 'dupgin_%%'"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'dupgin_%%'"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        found = {name for (name,) in cursor.fetchall()}
    assert found == latest_triggers.trigger_names(connection.vendor)
    assert len(found) >= 12


# A team in two matches of one round ---------------------------------------------------------

def test_a_team_cannot_be_in_a_second_match_of_the_round(swiss):
    round_, (spare, _other) = swiss
    first, second = matches(round_)
    with transaction.atomic(), refused("a team plays one match per round"):
        # home in match 1 and away in a new match: no unique constraint on (round, home) or
        # (round, away) sees it.
        Match.objects.create(round=round_, number=3, home=spare, away=first.home)
    with transaction.atomic(), refused("a team plays one match per round"):
        Match.objects.create(round=round_, number=3, home=second.away, away=spare)


def test_a_match_cannot_be_changed_to_take_a_team_of_another_match(swiss):
    round_, _spare = swiss
    first, second = matches(round_)
    RoundEntry.objects.filter(match=second).delete()  # only the match itself is left to say
    with transaction.atomic(), refused("a team plays one match per round"):
        Match.objects.filter(pk=second.pk).update(away=first.home)


def test_a_match_and_its_round_entries_name_the_same_teams(swiss):
    round_, (spare, _other) = swiss
    first, _second = matches(round_)
    with transaction.atomic(), refused("a match's teams are its round entries' teams"):
        Match.objects.filter(pk=first.pk).update(home=spare)
    entry = RoundEntry.objects.get(match=first, side="home")
    one, two = spare.players.order_by("number")[:2]  # its own line-up: only the side is wrong
    with transaction.atomic(), refused("a round entry is its team's side of a match"):
        RoundEntry.objects.filter(pk=entry.pk).update(team=spare, first_player=one,
                                                       second_player=two)
    with transaction.atomic(), refused("a round entry is its team's side of a match"):
        RoundEntry.objects.filter(pk=entry.pk).update(side="away")


def test_a_round_entry_cannot_point_at_a_match_of_another_round(swiss, director_actor,
                                                                finish_round):
    round_, _spare = swiss
    finish_round(round_)
    later = generate_round(director_actor, round_.stage)
    entry = RoundEntry.objects.filter(round=later, match__isnull=False).first()
    with transaction.atomic(), refused("a round entry is its team's side of a match"):
        RoundEntry.objects.filter(pk=entry.pk).update(round=round_)


# A table whose round differs from its match's round ---------------------------------------

def test_a_table_belongs_to_its_match_round(swiss, director_actor, finish_round):
    round_, _spare = swiss
    first, _second = matches(round_)
    finish_round(round_)
    later = generate_round(director_actor, round_.stage)
    with transaction.atomic(), refused("a table's round is its match's round"):
        Table.objects.create(round=later, match=first, position=1, number=90)
    table = first.tables.get(position=1)
    with transaction.atomic(), refused("a table never moves to another match"):
        Table.objects.filter(pk=table.pk).update(round=later)
    with transaction.atomic(), refused("a table never moves to another match"):
        Table.objects.filter(pk=table.pk).update(match=later.matches.first())


def test_a_match_never_moves_to_another_round(swiss, director_actor, finish_round):
    round_, _spare = swiss
    first, _second = matches(round_)
    finish_round(round_)
    later = generate_round(director_actor, round_.stage)
    with transaction.atomic(), refused("a match never moves to another round"):
        Match.objects.filter(pk=first.pk).update(round=later, number=50)


# Groups belong to their stage -----------------------------------------------------------

@pytest.fixture
def two_group_stages(director_actor, tournament, teams):
    everyone = teams(8)
    one = create_stage(director_actor, tournament, name="Groups 1", kind=Stage.Kind.GROUPS)
    two = create_stage(director_actor, tournament, name="Groups 2", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, one, [everyone[0:2], everyone[2:4]])
    allot_groups(director_actor, two, [everyone[4:6], everyone[6:8]])
    return one, two, everyone


def test_a_stage_team_group_is_a_group_of_its_stage(two_group_stages):
    one, two, everyone = two_group_stages
    foreign = Group.objects.filter(stage=two).first()
    with transaction.atomic(), refused("a stage team's group belongs to that stage"):
        StageTeam.objects.create(stage=one, team=everyone[5], group=foreign, position=9)
    entry = StageTeam.objects.filter(stage=one).first()
    with transaction.atomic(), refused("a stage team's group belongs to that stage"):
        StageTeam.objects.filter(pk=entry.pk).update(group=foreign)


def test_a_group_never_moves_to_another_stage(two_group_stages):
    one, two, _everyone = two_group_stages
    group = Group.objects.filter(stage=one).first()
    with transaction.atomic(), refused("a group never moves to another stage"):
        Group.objects.filter(pk=group.pk).update(stage=two, name="Z", order=9)


def test_a_match_group_is_a_group_of_its_round_stage(two_group_stages, director_actor):
    one, two, everyone = two_group_stages
    round_ = generate_round(director_actor, one)
    match = round_.matches.first()
    foreign = Group.objects.filter(stage=two).first()
    with transaction.atomic(), refused("a match's group belongs to the stage of its round"):
        Match.objects.filter(pk=match.pk).update(group=foreign)
    with transaction.atomic(), refused("a match's group belongs to the stage of its round"):
        Match.objects.create(round=round_, number=9, group=foreign, home=everyone[4],
                             away=everyone[5])


def test_a_round_never_moves_to_another_stage(two_group_stages, director_actor):
    one, two, _everyone = two_group_stages
    round_ = generate_round(director_actor, one)
    with transaction.atomic(), refused("a round never moves to another stage"):
        Round.objects.filter(pk=round_.pk).update(stage=two)


# A result's deal is one of its round and its hand -------------------------------------------

@pytest.fixture
def dealt(swiss, director_actor, finish_round):
    """A result on a dealt round, and a later dealt round of the same stage."""
    round_, _spare = swiss
    generate_deals(director_actor, round_)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    table = round_.tables.order_by("number").first()
    result = record_hand_result(director_actor, table, 1, HandEntry("draw"), seen_version=0,
                                request_token=uuid.uuid4())
    assert result.deal is not None and result.deal.hand == 1
    finish_round(round_)
    later = generate_round(director_actor, round_.stage)
    generate_deals(director_actor, later)
    return result, later


def test_a_result_deal_is_of_the_same_hand_and_round(dealt):
    result, later = dealt
    other_hand = Deal.objects.get(round=result.deal.round, deal_set=result.deal.deal_set,
                                  hand=2, is_current=True)
    other_round = Deal.objects.filter(round=later, hand=1).first()
    message = "a result's deal is a deal of its table's round and of the same hand"
    with transaction.atomic(), refused(message):
        HandResult.objects.filter(pk=result.pk).update(deal=other_hand)
    with transaction.atomic(), refused(message):
        HandResult.objects.filter(pk=result.pk).update(deal=other_round)
    with transaction.atomic(), refused(message):
        HandResult.objects.filter(pk=result.pk).update(hand=2)
    values = {f.attname: getattr(result, f.attname) for f in HandResult._meta.concrete_fields
              if f.attname != "id"}
    values.update(version=2, is_current=False, request_token=uuid.uuid4(),
                  deal_id=other_round.pk)
    with transaction.atomic(), refused(message):
        HandResult.objects.create(**values)


def test_a_deal_never_moves_to_another_round_or_hand(dealt):
    result, later = dealt
    with transaction.atomic(), refused("a deal never moves to another round or hand"):
        Deal.objects.filter(pk=result.deal_id).update(hand=30)
    with transaction.atomic(), refused("a deal never moves to another round or hand"):
        Deal.objects.filter(pk=result.deal_id).update(round=later)


# A signed-off match has its totals ---------------------------------------------------------

def test_official_means_totals_and_totals_mean_official(swiss):
    from django.utils import timezone

    round_, _spare = swiss
    first, _second = matches(round_)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Match.objects.filter(pk=first.pk).update(signed_off_at=timezone.now())
    with transaction.atomic(), pytest.raises(IntegrityError):
        Match.objects.filter(pk=first.pk).update(home_total=5, away_total=-5)


# No rows across tournaments, no impossible hands or deals (issue 22) ------------------------

@pytest.fixture
def two_events(dealt, make_tournament, make_team, director_actor):
    """The dealt event (a round in play with a result, a second round dealt) and another
    tournament with teams, a player and a key of its own."""
    from tournament.models import DealKey

    result, later = dealt
    other = make_tournament(name="Other Cup", slug="other-cup")
    strangers = [make_team(other, code=f"X{n}", name=f"Stranger {n}") for n in (1, 2)]
    key = DealKey.objects.create(tournament=other, number=1, key_hex="a" * 64,
                                 commitment="b" * 64)
    return result, later, other, strangers, key


def test_a_match_and_its_entries_are_between_teams_of_the_tournament(two_events):
    _result, later, _other, strangers, _key = two_events
    match = later.matches.order_by("number").first()
    message = "a match is between teams of its round's tournament"
    with transaction.atomic(), refused(message):
        Match.objects.create(round=later, number=99, home=strangers[0], away=strangers[1])
    with transaction.atomic(), refused("a round entry is a team of the round's tournament"):
        RoundEntry.objects.create(round=later, team=strangers[0], side="bye")
    # Changing a match's team to a stranger is refused too (its entry no longer agrees
    # either, whichever trigger speaks first).
    with transaction.atomic(), pytest.raises(IntegrityError):
        Match.objects.filter(pk=match.pk).update(home=strangers[0])


def test_a_stage_team_is_a_team_of_the_stage_tournament(two_events):
    _result, later, _other, strangers, _key = two_events
    with transaction.atomic(), refused("a stage's teams are of its tournament"):
        StageTeam.objects.create(stage=later.stage, team=strangers[0], position=99)


def test_a_penalty_is_against_a_team_of_its_tournament(two_events, director_actor):
    from tournament.models import Penalty

    _result, later, _other, strangers, _key = two_events
    tournament = later.stage.tournament
    match = later.matches.order_by("number").first()
    for with_match in (None, match):
        with transaction.atomic(), pytest.raises(IntegrityError):
            Penalty.objects.create(tournament=tournament, team=strangers[0], round=later,
                                   match=with_match, kind="warning", reason="side door",
                                   recorded_by=director_actor.user)


def test_a_line_up_player_is_of_the_entry_team(two_events):
    _result, later, _other, strangers, _key = two_events
    entry = RoundEntry.objects.filter(round=later, match__isnull=False).first()
    stranger = strangers[0].players.first()
    other_team = RoundEntry.objects.filter(round=later, match__isnull=False).exclude(
        team=entry.team).first().team.players.first()
    for player in (stranger, other_team):
        with transaction.atomic(), refused("a line-up's players are of the entry's team"):
            RoundEntry.objects.filter(pk=entry.pk).update(first_player=player)


def test_a_result_is_for_a_hand_of_its_match(two_events):
    result, _later, _other, _strangers, _key = two_events
    values = {f.attname: getattr(result, f.attname) for f in HandResult._meta.concrete_fields
              if f.attname not in ("id", "deal_id")}
    message = "a result is for a hand of its match"
    for hand in (99, result.table.match.hands + 1):
        values.update(hand=hand, version=1, is_current=True, request_token=uuid.uuid4())
        with transaction.atomic(), refused(message):
            HandResult.objects.create(**values)
    with transaction.atomic(), refused(message):
        HandResult.objects.filter(pk=result.pk).update(hand=99, deal=None)
    # The match's extra hands are hands of it.
    Match.objects.filter(pk=result.table.match_id).update(extra_hands=2)
    values.update(hand=result.table.match.hands + 2, request_token=uuid.uuid4())
    HandResult.objects.create(**values)


def test_a_draw_scores_nothing(two_events):
    result, *_rest = two_events
    assert result.outcome == "draw"
    with transaction.atomic(), pytest.raises(IntegrityError):
        HandResult.objects.filter(pk=result.pk).update(seat1_points=80, seat2_points=-80)


def test_a_deal_is_made_with_a_key_of_its_tournament(two_events):
    result, _later, _other, _strangers, key = two_events
    with transaction.atomic(), refused("a deal is made with a key of its round's tournament"):
        Deal.objects.filter(pk=result.deal_id).update(key=key)


@pytest.mark.parametrize("cards", [
    "not cards",
    "",
    lambda deck: deck.replace(" ", "  ", 1),  # two spaces
    lambda deck: " " + deck,  # (PostgreSQL cuts trailing spaces off to fit: no bad row)
    lambda deck: deck.rsplit(" ", 1)[0] + " " + deck.split()[0],  # a card twice, one missing
    lambda deck: deck.lower(),
    lambda deck: deck.replace("TD", "10D"),
    lambda deck: " ".join(deck.split()[:51]),  # 51 cards
])
def test_a_deal_cards_are_the_52_cards(two_events, cards):
    result, *_rest = two_events
    deck = Deal.objects.get(pk=result.deal_id).cards
    bad = cards(deck) if callable(cards) else cards
    assert bad != deck
    # (Longer than 155 characters, PostgreSQL's column refuses it first: a DataError.)
    with transaction.atomic(), pytest.raises((IntegrityError, DataError)) as refusal:
        Deal.objects.filter(pk=result.deal_id).update(cards=bad)
    if refusal.type is IntegrityError or connection.vendor == "sqlite":
        assert "a deal's cards are the 52 cards" in str(refusal.value)
    # The deal as made, and the same cards in another order, are accepted.
    Deal.objects.filter(pk=result.deal_id).update(cards=" ".join(reversed(deck.split())))
