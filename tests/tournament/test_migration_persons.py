"""Migration 0020 (issue 52) on a database made before it: a person for every player, with
the player's name and federation id, and back again."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournament", "0019_backup_state")]
AFTER = [("tournament", "0020_persons")]


@pytest.mark.django_db(transaction=True)
def test_every_player_gets_a_person_and_going_back_drops_them():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        apps = executor.loader.project_state(BEFORE).apps
        Tournament = apps.get_model("tournament", "Tournament")
        Team = apps.get_model("tournament", "Team")
        Player = apps.get_model("tournament", "Player")
        event = Tournament.objects.create(name="A", slug="a", starts_on="2026-11-20",
                                          ends_on="2026-11-22")
        for code, ids in (("CHN", ("123", "")), ("KOR", ("123", "9"))):
            team = Team.objects.create(tournament=event, code=code, name=code)
            for number, federation_id in enumerate(ids, 1):
                Player.objects.create(team=team, number=number, name=f"{code} {number}",
                                      federation_id=federation_id)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
        Player = apps.get_model("tournament", "Player")
        rows = list(Player.objects.order_by("team__code", "number").values_list(
            "name", "person__name", "person__federation", "person__federation_id"))
        # No tournament had a federation: the same id twice is still two persons.
        assert rows == [("CHN 1", "CHN 1", "", "123"), ("CHN 2", "CHN 2", "", ""),
                        ("KOR 1", "KOR 1", "", "123"), ("KOR 2", "KOR 2", "", "9")]
        assert Player.objects.values("person").distinct().count() == 4
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        apps = executor.loader.project_state(BEFORE).apps
        assert apps.get_model("tournament", "Player").objects.count() == 4
    finally:
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes("tournament"))
