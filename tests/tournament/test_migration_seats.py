"""Migration 0021 (who sat where, stored) back and forth on a database with played rounds:
going back takes the seats off, going forward writes every seat again from the line-ups,
the same as the services wrote them, with every trigger in place."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournament.models import Stage, TableSeat
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams

BEFORE = [("tournament", "0020_persons")]
AFTER = [("tournament", "0021_table_seats")]
seats_migration = importlib.import_module("tournament.migrations.0021_table_seats")


def triggers() -> set[str]:
    if connection.vendor == "postgresql":
        sql = "SELECT tgname FROM pg_trigger WHERE tgname LIKE 'dupgin_%%'"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'dupgin_%%'"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return {name for (name,) in cursor.fetchall()}


@pytest.mark.django_db(transaction=True)
def test_the_seats_go_and_come_back_with_the_migration(director_actor, tournament, teams,
                                                       finish_round):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(5))
    finish_round(generate_round(director_actor, stage))
    generate_round(director_actor, stage)  # a draft after a closed round
    seats = sorted(TableSeat.objects.values_list("round_id", "table_id", "seat", "player_id"))
    assert len(seats) == 16
    try:
        MigrationExecutor(connection).migrate(BEFORE)
        assert "tournament_tableseat" not in connection.introspection.table_names()
        assert not triggers() & {"dupgin_tableseat_lineup", "dupgin_tableseat_lineup_insert"}
        MigrationExecutor(connection).migrate(AFTER)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(TableSeat.objects.values_list("round_id", "table_id", "seat",
                                                "player_id")) == seats
    assert triggers() == seats_migration.trigger_names(connection.vendor)
