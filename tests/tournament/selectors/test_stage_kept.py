"""The stage's teams, rounds and penalties kept between reads (selectors.stage_kept, on
PostgreSQL): after any write, by a service or behind the services' back, committed or
rolled back, a read gives what a read of every row gives; with nothing changed, only the
digests are read; and each read's models are its own."""

import pytest
from django.db import connection, transaction
from django.db.models import F, Value, prefetch_related_objects
from django.db.models.functions import Concat
from django.test.utils import CaptureQueriesContext

from tests.tournament.selectors import test_stage_results
from tournament.models import Round, StageTeam, Team
from tournament.selectors import stage_kept, stage_results
from tournament.selectors.standings import read_stage, stage_standings
from tournament.services.penalties import record_penalty, undo_penalty

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

swiss = test_stage_results.swiss  # a Swiss stage of seven teams, three rounds played


def seen(data) -> dict:
    """What the standings take from the teams, the rounds and the penalties."""
    return {"entries": [(e.team.pk, e.team.code, e.team.name, e.group_id) for e in data.entries],
            "rounds": [(r.pk, r.number, r.status, r.stage_id) for r in data.rounds],
            "penalties": sorted(map(repr, data.penalties)),
            "matches": sorted(map(repr, data.matches))}


def same(stage) -> dict:
    """The kept read and a read of every row (nothing kept) see the same."""
    kept = seen(read_stage(stage))
    saved = dict(stage_kept._kept), dict(stage_results._kept)
    stage_kept._kept.clear()
    stage_results._kept.clear()
    try:
        assert kept == seen(read_stage(stage))
    finally:
        stage_kept._kept.clear()
        stage_kept._kept.update(saved[0])
        stage_results._kept.clear()
        stage_results._kept.update(saved[1])
    return kept


def test_with_nothing_changed_only_the_digests_are_read(swiss):
    read_stage(swiss)
    with CaptureQueriesContext(connection) as queries:
        read_stage(swiss)
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 2, sql  # the digests and the deal key of the lots' seed
    assert "hashtextextended" in sql[0] and "tournament_dealkey" in sql[1]


def test_a_write_of_any_part_is_read_again(swiss, tournament, director_actor):
    before = same(swiss)
    team = Team.objects.filter(tournament=tournament).order_by("code").first()
    Team.objects.filter(pk=team.pk).update(name="Renamed")  # behind the services' back
    assert (team.pk, team.code, "Renamed", None) in same(swiss)["entries"]

    entries = list(StageTeam.objects.filter(stage=swiss).order_by("position"))
    StageTeam.objects.filter(pk=entries[0].pk).update(position=99)
    assert same(swiss)["entries"][-1][0] == entries[0].team_id

    last = swiss.rounds.order_by("number").last()
    Round.objects.filter(pk=last.pk).update(status=Round.Status.IN_PLAY)
    assert (last.pk, 3, Round.Status.IN_PLAY, swiss.pk) in same(swiss)["rounds"]

    penalty = record_penalty(director_actor, team=team, round=last, kind="match_points",
                             amount=2, reason="slow play")
    assert len(same(swiss)["penalties"]) == 1
    assert next(line for line in stage_standings(swiss).lines
                if line.team.pk == team.pk).totals.penalty_match_points == 2
    undo_penalty(director_actor, penalty, "entered on the wrong team")
    assert same(swiss)["penalties"] == []

    StageTeam.objects.filter(pk=entries[-1].pk).delete()  # a team out of the stage
    assert len(same(swiss)["entries"]) == len(before["entries"]) - 1


def test_a_rolled_back_write_leaves_what_is_kept_as_it_was(swiss, tournament):
    before = same(swiss)
    team = Team.objects.filter(tournament=tournament).order_by("code").first()
    with transaction.atomic():
        Team.objects.filter(pk=team.pk).update(name=Concat(F("name"), Value(" (read inside)")))
        assert any(name.endswith("(read inside)") for _pk, _c, name, _g in same(swiss)["entries"])
        transaction.set_rollback(True)
    assert same(swiss) == before


def test_each_read_has_models_of_its_own(swiss):
    first = read_stage(swiss)
    team = first.entries[0].team
    team.name = "Changed by one page"
    assert team.tournament.pk  # a related object, cached on the team
    prefetch_related_objects([e.team for e in first.entries], "players")
    first.rounds[0].number = 99
    second = read_stage(swiss)
    assert second.entries[0].team.name != "Changed by one page"
    assert "_prefetched_objects_cache" not in second.entries[0].team.__dict__
    assert second.entries[0].team._state.fields_cache == {}
    assert second.rounds[0].number == 1 and second.rounds[0].stage is swiss
    assert second.entries[0].team is not team and second.entries[0].team._state.adding is False
    assert second.entries[0].team._state.db == "default"
