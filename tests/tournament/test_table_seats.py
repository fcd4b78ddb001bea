"""Who sat where, stored (``TableSeat``, issue 52): written with the line-ups by the
services, from ``scoring.seating``; kept equal to the line-ups by the database, which
refuses a seat that contradicts them, a player at two seats of a round and a change of a
closed round (docs/invariants.md). The bad rows are written past the services; the suite
runs on SQLite and on PostgreSQL."""

import pytest
from django.db import IntegrityError, transaction

from scoring import seating
from tests.conftest import new_team
from tournament.models import Round, RoundEntry, Stage, Table, TableSeat
from tournament.services.draw import generate_round
from tournament.services.rounds import set_lineup
from tournament.services.stages import create_stage, enter_teams
from tournament.services.swaps import swap_teams


def refused(message: str):
    return pytest.raises(IntegrityError, match=message)


@pytest.fixture
def drawn(director_actor, tournament):
    """A drawn Swiss round of four teams with a reserve each, and a fifth team on a bye."""
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    teams = [new_team(tournament, n, reserve=f"Reserve {n}") for n in range(1, 6)]
    enter_teams(director_actor, stage, teams)
    return generate_round(director_actor, stage)


def seats_of(round_) -> dict[tuple[int, int], int]:
    return {(number, seat): player for number, seat, player in TableSeat.objects.filter(
        round=round_).values_list("table__number", "seat", "player_id")}


def by_the_seating(round_) -> dict[tuple[int, int], int]:
    """What the line-ups and ``scoring.seating`` say."""
    lineups = {}
    for entry in RoundEntry.objects.filter(round=round_, match__isnull=False):
        lineups.setdefault(entry.match_id, {})[entry.side] = (entry.first_player_id,
                                                               entry.second_player_id)
    return {(t.number, seat): seating.player_in_seat(t.position, seat, lineups[t.match_id])
            for t in Table.objects.filter(round=round_) for seat in (1, 2)}


def test_the_draw_a_line_up_change_and_a_swap_write_the_seats(drawn, director_actor):
    assert len(seats_of(drawn)) == 8
    assert seats_of(drawn) == by_the_seating(drawn)
    entry = RoundEntry.objects.filter(round=drawn, side="home").select_related("team").first()
    reserve = entry.team.players.get(number=3)
    set_lineup(director_actor, drawn, entry.team, first_player=entry.second_player,
               second_player=reserve)
    assert reserve.pk in seats_of(drawn).values()
    assert seats_of(drawn) == by_the_seating(drawn)
    playing = RoundEntry.objects.filter(round=drawn, side="home").order_by("team__code")
    bye = RoundEntry.objects.get(round=drawn, side="bye")
    swap_teams(director_actor, drawn, playing[0].team, bye.team)
    assert seats_of(drawn) == by_the_seating(drawn)
    assert len(seats_of(drawn)) == 8


def test_a_seat_that_contradicts_its_line_up_is_refused(drawn):
    seat = TableSeat.objects.filter(round=drawn).select_related("player").first()
    reserve = seat.player.team.players.get(number=3)
    with transaction.atomic(), refused("a seat's player is the one its match's line-ups"):
        TableSeat.objects.filter(pk=seat.pk).update(player=reserve)
    seat_two = TableSeat.objects.filter(table=seat.table).exclude(pk=seat.pk).get()
    TableSeat.objects.filter(pk__in=[seat.pk, seat_two.pk]).delete()
    with transaction.atomic(), refused("a seat's player is the one its match's line-ups"):
        # the table's other seat, or its player in the wrong seat
        TableSeat.objects.create(round=drawn, table=seat.table, seat=seat.seat,
                                 player=seat_two.player)
    other_round = Round.objects.create(stage=drawn.stage, number=2,
                                       rule_settings=drawn.rule_settings)
    with transaction.atomic(), refused("a seat's player is the one its match's line-ups"):
        TableSeat.objects.create(round=other_round, table=seat.table, seat=seat.seat,
                                 player=seat.player)


def test_a_player_sits_at_one_seat_of_a_round(drawn):
    # Tables without a match (allowed in a round without matches): only the uniqueness of
    # the player in the round is left to refuse it.
    later = Round.objects.create(stage=drawn.stage, number=2,
                                 rule_settings=drawn.rule_settings)
    one, two = (Table.objects.create(round=later, number=n) for n in (1, 2))
    player = RoundEntry.objects.filter(round=drawn, side="home").first().first_player
    TableSeat.objects.create(round=later, table=one, seat=1, player=player)
    with transaction.atomic(), pytest.raises(IntegrityError):
        TableSeat.objects.create(round=later, table=two, seat=2, player=player)
    with transaction.atomic(), pytest.raises(IntegrityError):
        TableSeat.objects.create(round=later, table=one, seat=1, player=player)


def test_a_line_up_does_not_change_under_its_seats(drawn):
    entry = RoundEntry.objects.filter(round=drawn, side="away").select_related("team").first()
    reserve = entry.team.players.get(number=3)
    with transaction.atomic(), refused("a line-up changes with its seats"):
        RoundEntry.objects.filter(pk=entry.pk).update(second_player=reserve)
    with transaction.atomic(), refused("a line-up changes with its seats"):
        RoundEntry.objects.filter(pk=entry.pk).update(first_player=entry.second_player,
                                                      second_player=entry.first_player)
    RoundEntry.objects.filter(pk=entry.pk).update(first_player=entry.first_player)  # the same


def test_a_closed_round_keeps_its_line_ups_and_seats(drawn, finish_round):
    finish_round(drawn)
    seat = TableSeat.objects.filter(round=drawn).first()
    with transaction.atomic(), refused("the seats of a closed round never change"):
        TableSeat.objects.filter(pk=seat.pk).update(seat=seat.seat)
    entry = RoundEntry.objects.filter(round=drawn, side="home").first()
    TableSeat.objects.filter(table__match=entry.match).delete()
    with transaction.atomic(), refused("the line-ups of a closed round never change"):
        RoundEntry.objects.filter(pk=entry.pk).update(first_player=entry.second_player,
                                                      second_player=entry.first_player)


def test_a_table_of_a_team_round_has_its_match(drawn):
    with transaction.atomic(), refused("a table of a round with matches is a table of one"):
        Table.objects.create(round=drawn, number=99)
    table = Table.objects.filter(round=drawn).first()
    with transaction.atomic(), pytest.raises(IntegrityError):  # table_position_with_match
        Table.objects.create(round=drawn, match=table.match, number=98)
    later = Round.objects.create(stage=drawn.stage, number=2,
                                 rule_settings=drawn.rule_settings)
    Table.objects.create(round=later, number=1)
    match = drawn.matches.first()
    with transaction.atomic(), refused("a round with tables without a match has no matches"):
        later.matches.create(number=1, home=match.home, away=match.away)
    with transaction.atomic(), refused("a table never moves to another match"):
        Table.objects.filter(pk=table.pk).update(position=3 - table.position)
