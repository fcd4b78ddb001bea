"""The persons' duplicate ratings kept by the application (issue 54; services/ratings.py).

Two events of the same federation share their players' persons; rounds are played through
the services (tests/tournament/views/public_event.py). What is checked: only a superuser
makes an event rated; then every person who played has a point per event and a current
rating, exactly what ``python -m scoring ratings`` answers for the hands
``manage.py rate --export`` prints; an open round's hands never count; a correction after
sign-off changes the rating; the incremental recompute equals a full one.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import uuid

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command

from scoring.cli import main as scoring_main
from tests.tournament.views.public_event import play_round, start
from tournament.exchange.export import export_tournament
from tournament.models import (
    AuditEntry,
    HandResult,
    PersonRating,
    RatingPoint,
    RatingState,
    StaffRole,
    Stage,
    Tournament,
)
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.ratings import refresh_ratings, set_rated
from tournament.services.stages import create_stage, enter_teams

pytestmark = pytest.mark.django_db


def event(make_tournament, make_team, actor, n, ends_on, *, closed=2, open_round=False):
    tournament = make_tournament(slug=f"season-{n}", name=f"Season {n}", federation="FCG",
                                 starts_on=ends_on - dt.timedelta(days=1), ends_on=ends_on,
                                 hands_per_match=4)
    teams = [make_team(tournament, code=f"T{i}", name=f"Team {i}", seed=str(i),
                       player1=f"Player {i}a", player1_id=f"{i}A",
                       player2=f"Player {i}b", player2_id=f"{i}B") for i in range(1, 5)]
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=closed + (1 if open_round else 0))
    enter_teams(actor, stage, teams)
    for _ in range(closed):
        play_round(actor, generate_round(actor, stage))
    opened = start(actor, generate_round(actor, stage)) if open_round else None
    return tournament, opened


@pytest.fixture
def season(make_tournament, make_team, make_user, actor, django_capture_on_commit_callbacks):
    superuser = actor(make_user(superuser=True))
    first, opened = event(make_tournament, make_team, superuser, 1, dt.date(2026, 11, 22),
                          open_round=True)
    second, _ = event(make_tournament, make_team, superuser, 2, dt.date(2026, 12, 20))
    return superuser, first, second, opened


def stored():
    return sorted((p.person_id, p.tournament_id, p.date, round(p.rating, 6),
                   round(p.deviation, 6), p.hands, p.provisional)
                  for p in RatingPoint.objects.all())


def current():
    return {r.person_id: (round(r.rating, 6), round(r.deviation, 6), r.hands)
            for r in PersonRating.objects.all()}


def test_only_a_superuser_makes_an_event_rated(season, make_user, actor):
    _, first, _, _ = season
    director = make_user()
    StaffRole.objects.create(tournament=first, user=director, role="director")
    with pytest.raises(PermissionDenied):
        set_rated(actor(director), first, True)
    assert not Tournament.objects.get(pk=first.pk).rated
    assert not RatingPoint.objects.exists()
    # The director's settings form has no such field, nor has the tournament file.
    from tournament.forms import TournamentForm

    assert "rated" not in TournamentForm.base_fields
    exported = export_tournament(first)
    assert "rated" not in exported["tournament"]


def test_a_rated_event_gives_every_person_a_point_and_the_engine_s_answer(
        season, django_capture_on_commit_callbacks):
    superuser, first, second, _ = season
    with django_capture_on_commit_callbacks(execute=True):
        set_rated(superuser, first, True)
    assert AuditEntry.objects.filter(tournament=first, action="tournament.rated").exists()
    assert RatingState.objects.get().stale_since is None
    persons = set(first.teams.values_list("players__person_id", flat=True))
    assert {p.person_id for p in RatingPoint.objects.filter(tournament=first)} == persons
    # Two closed rounds of 4 hands: the open round's hands are not counted.
    assert {r.hands for r in PersonRating.objects.all()} == {8}

    with django_capture_on_commit_callbacks(execute=True):
        set_rated(superuser, second, True)
    assert {r.hands for r in PersonRating.objects.all()} == {16}
    assert RatingPoint.objects.filter(tournament=second).count() == len(persons)
    # Anyone can re-run it: the exported hands through python -m scoring ratings.
    exported = io.StringIO()
    call_command("rate", "--export", stdout=exported)
    answer = io.StringIO()
    scoring_main(["ratings"], stdin=io.StringIO(exported.getvalue()), stdout=answer)
    engine = [json.loads(line) for line in answer.getvalue().splitlines()]
    assert len(engine) == len(persons)
    for row in engine:
        kept = PersonRating.objects.get(person_id=int(row["player"]))
        assert (round(kept.rating, 1), round(kept.deviation, 1), kept.hands) == (
            row["rating"], row["deviation"], row["hands"])


def test_an_open_round_never_counts_until_it_is_closed(season, django_capture_on_commit_callbacks):
    superuser, first, _, opened = season
    table = opened.tables.order_by("number").first()
    record_hand_result(superuser, table, 1, HandEntry("knock", 1, 2, 30), seen_version=0,
                       request_token=uuid.uuid4())
    with django_capture_on_commit_callbacks(execute=True):
        set_rated(superuser, first, True)
    assert {r.hands for r in PersonRating.objects.all()} == {8}


def test_a_correction_after_sign_off_changes_the_rating_and_incremental_equals_full(
        season, django_capture_on_commit_callbacks):
    superuser, first, second, _ = season
    with django_capture_on_commit_callbacks(execute=True):
        set_rated(superuser, first, True)
        set_rated(superuser, second, True)
    before = current()
    closed = first.stages.get().rounds.get(number=1)
    table = closed.tables.order_by("number").first()
    result = HandResult.objects.get(table=table, hand=1, is_current=True)
    with django_capture_on_commit_callbacks(execute=True):
        record_hand_result(superuser, table, 1, HandEntry("gin", 1, None, 60),
                           seen_version=result.version, request_token=uuid.uuid4(),
                           reason="The referee found the score sheet wrong")
    assert RatingState.objects.get().stale_since is None
    after = current()
    assert after != before
    seat_holders = set(table.seats.values_list("player__person_id", flat=True))
    assert all(after[p][0] != before[p][0] for p in seat_holders)
    points = stored()
    refresh_ratings(full=True)
    assert stored() == points and current() == after


def test_taking_an_event_out_removes_its_points_and_moves_the_later_ones(
        season, django_capture_on_commit_callbacks):
    superuser, first, second, _ = season
    with django_capture_on_commit_callbacks(execute=True):
        set_rated(superuser, first, True)
        set_rated(superuser, second, True)
    with_both = current()
    with django_capture_on_commit_callbacks(execute=True):
        set_rated(superuser, first, False)
    assert not RatingPoint.objects.filter(tournament=first).exists()
    assert {r.hands for r in PersonRating.objects.all()} == {8}
    assert current() != with_both


def test_a_change_marks_the_ratings_out_of_date_in_its_own_transaction(season):
    # Without the commit's callback (a crash after the commit): the date stays written and
    # the next refresh (or manage.py rate) catches up.
    superuser, first, _, _ = season
    set_rated(superuser, first, True)
    assert RatingState.objects.get().stale_since == first.ends_on
    assert not RatingPoint.objects.exists()
    out = io.StringIO()
    call_command("rate", stdout=out)
    assert "Rated" in out.getvalue() and RatingPoint.objects.exists()
    assert RatingState.objects.get().stale_since is None


def test_a_rated_event_is_deleted_by_a_superuser_only_and_leaves_the_ratings(
        season, make_user, actor, django_capture_on_commit_callbacks):
    from tournament.services.base import ServiceError
    from tournament.services.tournaments import delete_tournament

    superuser, first, second, _ = season
    with django_capture_on_commit_callbacks(execute=True):
        set_rated(superuser, first, True)
        set_rated(superuser, second, True)
    director = make_user()
    StaffRole.objects.create(tournament=first, user=director, role="director")
    with pytest.raises(ServiceError, match="counts for the ratings"):
        delete_tournament(actor(director), first, confirm_name=first.name)
    with django_capture_on_commit_callbacks(execute=True):
        delete_tournament(superuser, first, confirm_name=first.name)
    assert {p.tournament_id for p in RatingPoint.objects.all()} == {second.pk}
    assert {r.hands for r in PersonRating.objects.all()} == {8}
    assert RatingState.objects.get().stale_since is None
