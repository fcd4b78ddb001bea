"""The matches and byes kept per round between two reads (selectors.stage_results, on
PostgreSQL): after every kind of change, by a service or behind the services' back, the
standings' records are those of a read of every row; only the rounds whose rows changed
are read again."""

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from tests.tournament.views.public_event import enter
from tournament.models import HandResult, Match, Stage, Table, Team, TeamResult
from tournament.selectors import stage_results
from tournament.selectors.standings import read_stage
from tournament.services.draw import generate_round
from tournament.services.hands import HandEntry
from tournament.services.stages import create_stage, enter_teams
from tournament.services.team_results import write_match_results

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def every_row(stage, official_only=False):
    """The records from a read of every row of the stage, nothing kept."""
    code = {entry.team_id: entry.team.code for entry in stage.entries.select_related("team")}
    number_of = {r.pk: r.number for r in stage.rounds.all()}
    return stage_results._records(stage_results._rows(list(number_of)), code, number_of,
                                  official_only)


def same(stage, official_only=False):
    """The kept read and the read of every row give the same matches and byes."""
    data = read_stage(stage, official_only=official_only)
    matches, byes = every_row(stage, official_only)
    assert sorted(data.matches, key=repr) == sorted(matches, key=repr)
    assert sorted(data.byes, key=repr) == sorted(byes, key=repr)
    return data


def rounds_read(queries) -> list[str]:
    """The rows queries among these (the digests' query reads no small points)."""
    return [q["sql"] for q in queries
            if "small_points" in q["sql"] and "tournament_teamresult" in q["sql"]]


@pytest.fixture
def swiss(director_actor, tournament, teams, finish_round):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(7))  # a bye each round
    for number in (1, 2, 3):
        finish_round(generate_round(director_actor, stage, expected_number=number))
    return stage


def test_a_round_is_read_again_only_when_its_rows_or_matches_change(swiss):
    rounds = list(swiss.rounds.order_by("number"))
    data = same(swiss)
    assert len(data.matches) == 9 and len(data.byes) == 3
    with CaptureQueriesContext(connection) as queries:
        same(swiss)
    assert rounds_read(queries.captured_queries[:-1]) == []  # (the last: every_row's)

    # A row changed behind the services' back: its round, and only it, is read again.
    row = TeamResult.objects.filter(round=rounds[1], match__isnull=False).first()
    TeamResult.objects.filter(pk=row.pk).update(small_points=F("small_points") + 7)
    with CaptureQueriesContext(connection) as queries:
        same(swiss)
    read = rounds_read(queries.captured_queries[:-1])
    assert len(read) == 1 and read[0].endswith(f'"round_id" = {rounds[1].pk}')

    # A match defaulted without its rows written again: its round is read again.
    match = rounds[2].matches.first()
    Match.objects.filter(pk=match.pk).update(forfeited_by=match.home_id)
    data = same(swiss)
    assert any(m.forfeited_by == "home" and m.round == 3 for m in data.matches)

    # The services' own writes, and a row of a round deleted.
    match.refresh_from_db()
    write_match_results(match)
    same(swiss)
    TeamResult.objects.filter(match=match).delete()
    assert len(same(swiss).matches) == 8


def test_codes_rounds_official_results_and_rolled_back_writes(swiss, tournament):
    same(swiss)
    same(swiss, official_only=True)
    team = Team.objects.filter(tournament=tournament).order_by("code").first()
    Team.objects.filter(pk=team.pk).update(code="ZZ")
    assert any("ZZ" in (m.home, m.away) for m in same(swiss).matches)

    row = TeamResult.objects.filter(match__isnull=False).order_by("pk").first()
    TeamResult.objects.filter(match=row.match).update(provisional=True)
    assert len(same(swiss, official_only=True).matches) == 8
    assert len(same(swiss).matches) == 9

    # A write read inside its transaction and then rolled back leaves the rows as they
    # were, and so does what is kept.
    before = same(swiss)
    with transaction.atomic():
        TeamResult.objects.filter(round=row.round).update(small_points=F("small_points") + 1)
        during = same(swiss)
        assert during.matches != before.matches
        transaction.set_rollback(True)
    assert sorted(same(swiss).matches, key=repr) == sorted(before.matches, key=repr)

    # Twice in one transaction, the second write read as well.
    with transaction.atomic():
        TeamResult.objects.filter(pk=row.pk).update(small_points=100)
        same(swiss)
        TeamResult.objects.filter(pk=row.pk).update(small_points=200)
        assert any(200 in (m.home_small, m.away_small) for m in same(swiss).matches)


def test_every_write_gives_a_result_row_a_revision_never_given_before(swiss):
    """The database revises a row at each write, whatever the application wrote, and its
    match's home team or forfeit revises both rows of the match (migration 0026)."""
    def revisions():
        return dict(TeamResult.objects.values_list("pk", "revision"))

    before = revisions()
    assert 0 not in before.values() and len(set(before.values())) == len(before)
    row = TeamResult.objects.filter(match__isnull=False).order_by("pk").first()
    TeamResult.objects.filter(pk=row.pk).update(revision=1, small_points=F("small_points"))
    after = revisions()
    assert after[row.pk] > max(before.values())
    assert {pk: r for pk, r in after.items() if pk != row.pk} == {
        pk: r for pk, r in before.items() if pk != row.pk}

    match = row.match
    Match.objects.filter(pk=match.pk).update(round_id=F("round_id"))  # nothing it reads
    assert revisions() == after
    Match.objects.filter(pk=match.pk).update(forfeited_by=match.away_id)
    revised = revisions()
    both = set(TeamResult.objects.filter(match=match).values_list("pk", flat=True))
    assert len(both) == 2 and all(revised[pk] > max(after.values()) for pk in both)
    assert {pk for pk in revised if revised[pk] != after[pk]} == both


def test_every_write_gives_a_hand_a_revision_never_given_before(round_in_play, director_actor):
    """A hand's revision too (what ``selectors.field_kept`` digests), whatever was written."""
    round_ = round_in_play(4, hands=2)
    for table in Table.objects.filter(round=round_):
        enter(director_actor, table, 1, HandEntry("gin", 1, None, 20), approve=False)
    revisions = dict(HandResult.objects.values_list("pk", "revision"))
    assert len(revisions) == 4
    assert 0 not in revisions.values() and len(set(revisions.values())) == 4
    hand = HandResult.objects.order_by("pk").first()
    HandResult.objects.filter(pk=hand.pk).update(revision=5, reason="checked")
    after = dict(HandResult.objects.values_list("pk", "revision"))
    assert after[hand.pk] > max(revisions.values())
    assert {pk for pk in after if after[pk] != revisions[pk]} == {hand.pk}
