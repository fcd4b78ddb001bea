"""Players against the field's sums kept per round between two reads
(selectors.field_kept, on PostgreSQL): after every kind of change, by a service or behind
the services' back, the field is that of a read of every hand; only the rounds whose rows
changed are added up again."""

import uuid

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournament.models import HandResult, Match, Round, Stage, TableSeat
from tournament.selectors import field_kept
from tournament.selectors.field import field_standings
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def lines(standings):
    return [(row.player.pk, row.rank, row.line.hands, row.line.against_field,
             row.line.dealer_hands, row.line.dealer_against_field, row.points,
             row.dealer_points, row.non_dealer_points, row.provisional)
            for row in standings.rows]


def same(tournament, **options):
    """The kept read and a read of every hand give the same field; returns the rounds
    added up again by the kept read."""
    with CaptureQueriesContext(connection) as queries:
        kept = field_standings(tournament, **options)
    stores = [(store, dict(store)) for store in (field_kept._kept, field_kept._rounds)]
    for store, _saved in stores:
        store.clear()
    try:
        fresh = field_standings(tournament, **options)
    finally:
        for store, saved in stores:
            store.clear()
            store.update(saved)
    assert lines(kept) == lines(fresh)
    assert kept.players == fresh.players
    return [q["sql"] for q in queries.captured_queries if "per_table" in q["sql"]]


def sign_off(match, signed=True):
    """A match signed off, or not, behind the services' back."""
    Match.objects.filter(pk=match.pk).update(
        signed_off_at=timezone.now() if signed else None,
        home_total=0 if signed else None, away_total=0 if signed else None)


@pytest.fixture
def swiss(director_actor, tournament, teams):
    """Three stages of one round each, in play, every hand of every table entered (no
    deals made here: a deal is named by its round, set and hand), every match signed off."""
    tournament.hands_per_match = 4
    tournament.field_minimum_hands = 0
    tournament.save()
    field = teams(8)
    for order, name in enumerate(("A", "B", "C")):
        stage = create_stage(director_actor, tournament, name=name, kind=Stage.Kind.SWISS,
                             swiss_rounds=1)
        enter_teams(director_actor, stage, field)
        round_ = generate_round(director_actor, stage)
        publish_round(director_actor, round_, override_reason="test")
        start_round(director_actor, round_)
        for table in round_.tables.select_related("match__round__stage__tournament"):
            for hand in range(1, 5):
                record_hand_result(director_actor, table, hand, HandEntry(
                    "knock", 1 + (hand + table.number) % 2, 1 + (hand * table.number
                                                                + order) % 9, 20),
                    seen_version=0, request_token=uuid.uuid4())
        for match in round_.matches.all():
            sign_off(match)
    return tournament


def test_a_round_is_added_up_again_only_when_its_rows_change(swiss, tournament):
    rounds = list(Round.objects.filter(stage__tournament=tournament).order_by("stage__order"))
    assert same(tournament)  # the first read adds every round up
    assert same(tournament) == []
    # Another set of rounds (a stage's field) adds up the sums each round has already.
    assert same(tournament, stage=rounds[1].stage) == []

    # A hand changed behind the services' back: its round, and only it, again.
    hand = HandResult.objects.filter(table__round=rounds[1], is_current=True).first()
    HandResult.objects.filter(pk=hand.pk).update(seat1_points=F("seat1_points") + 30,
                                                 seat2_points=F("seat2_points") - 30)
    read = same(tournament)
    assert len(read) == 1 and f"IN ({rounds[1].pk})" in read[0]
    assert same(tournament) == []

    # Who sat where changed (a table's seats taken off: the database refuses a line-up
    # changed under its seats, and any change of a closed round's): its hands leave.
    TableSeat.objects.filter(table=rounds[0].tables.order_by("number").first()).delete()
    assert len(same(tournament)) == 1

    # A hand deleted, every hand of a table deleted (its players' lines shrink or go).
    HandResult.objects.filter(pk=hand.pk).delete()
    assert len(same(tournament)) == 1
    table = rounds[2].tables.order_by("number").first()
    HandResult.objects.filter(table=table).delete()
    assert len(same(tournament)) == 1

    # A match defaulted: its hands leave the field.
    match = rounds[2].matches.order_by("number").last()
    Match.objects.filter(pk=match.pk).update(forfeited_by=match.home_id)
    assert len(same(tournament)) == 1

    # Two players left without a hand leave the field.
    HandResult.objects.filter(table__round__in=rounds[1:]).delete()
    HandResult.objects.filter(table=rounds[0].tables.order_by("number").first()).delete()
    assert len(same(tournament)) == 1  # one query for the three rounds
    assert field_standings(tournament).players == 14


def test_sign_offs_corrections_and_rolled_back_writes(swiss, tournament, director_actor):
    rounds = list(Round.objects.filter(stage__tournament=tournament).order_by("stage__order"))
    same(tournament)
    same(tournament, official_only=True)
    match = rounds[1].matches.order_by("number").first()
    sign_off(match, signed=False)
    assert len(same(tournament, official_only=True)) == 1
    assert len(same(tournament)) == 1  # its players' lines are provisional now
    assert any(row.provisional for row in field_standings(tournament).rows)
    sign_off(match)
    same(tournament)

    # A referee's correction through the service: a new version of the hand.
    table = match.tables.order_by("position").first()
    current = HandResult.objects.get(table=table, hand=2, is_current=True)
    table.match = match
    record_hand_result(director_actor, table, 2, HandEntry("gin", 1, 0, 40),
                       seen_version=current.version, request_token=uuid.uuid4(),
                       reason="the scorer swapped the seats")
    assert len(same(tournament)) == 1

    # A write read inside its transaction and then rolled back leaves the field as it
    # was, and so does what is kept; a row written twice in one transaction is read twice.
    before = lines(field_standings(tournament))
    with transaction.atomic():
        HandResult.objects.filter(table__round=rounds[0]).update(
            seat1_points=F("seat1_points") + 1, seat2_points=F("seat2_points") - 1)
        assert lines(field_standings(tournament)) != before
        same(tournament)
        HandResult.objects.filter(table__round=rounds[0]).update(
            seat1_points=F("seat1_points") + 1, seat2_points=F("seat2_points") - 1)
        assert len(same(tournament)) == 1
        transaction.set_rollback(True)
    assert lines(field_standings(tournament)) == before
    same(tournament)
