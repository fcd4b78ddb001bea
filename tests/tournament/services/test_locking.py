"""The one locking helper: inside a transaction only, one order, a time limit."""

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tournament.models import Player, Stage
from tournament.services import ServiceError, locking
from tournament.services.draw import generate_round
from tournament.services.locking import lock
from tournament.services.stages import create_stage, enter_teams


@pytest.fixture
def round_(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    return generate_round(director_actor, stage)


@pytest.mark.django_db(transaction=True)
def test_it_refuses_to_lock_outside_a_transaction(round_):
    with pytest.raises(RuntimeError, match="inside the service's transaction"):
        lock(rounds=[round_])


def test_it_locks_rounds_then_matches_then_tables_then_players_by_ascending_id(round_):
    first, second = round_.matches.order_by("pk")
    tables = list(round_.tables.order_by("-pk"))  # asked for in the wrong order
    players = list(Player.objects.filter(team=first.home).order_by("-pk"))
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = lock(players=players, tables=tables, matches=[second, first.pk],
                      rounds=[round_])
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    order = [next(t for t in ("round", "match", "table", "player")
                  if f'FROM "tournament_{t}"' in sql) for sql in selects]
    assert order == ["round", "match", "table", "player"]
    assert all('ORDER BY "tournament_' in sql and '"id" ASC' in sql for sql in selects)
    if connection.vendor == "postgresql":
        assert all("FOR UPDATE" in sql for sql in selects)
    assert list(locked.tables) == sorted(t.pk for t in tables)
    assert list(locked.matches) == [first.pk, second.pk]
    assert locked.one("rounds").pk == round_.pk
    with pytest.raises(ValueError):
        locked.one("matches")


def test_a_row_that_is_gone_is_not_locked_silently(round_):
    with transaction.atomic(), pytest.raises(Player.DoesNotExist):
        lock(players=[10**9])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_gives_up_after_its_time_limit(round_, monkeypatch):
    match = round_.matches.first()
    holding, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                lock(matches=[match])
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        monkeypatch.setattr(locking, "LOCK_TIMEOUT_MS", 200)
        with transaction.atomic(), pytest.raises(ServiceError, match="try again"):
            lock(matches=[match])
    finally:
        release.set()
        holder.join(10)
