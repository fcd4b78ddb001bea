"""Fixtures for stages and rounds: a director, teams, and rounds played to the end."""

import random

import pytest
from django.utils import timezone

from tests.conftest import seeded_teams
from tournament.models import Round


@pytest.fixture
def director_actor(tournament, staff_user, actor):
    return actor(staff_user(tournament, "director", username="director"))


@pytest.fixture
def teams(tournament, db):
    """Teams T1…Tn seeded 1…n."""

    def make(n):
        return seeded_teams(tournament, n)

    return make


def play_to_the_end(director_actor, round_, totals=None, *, seed=0):
    """Play a round to the end: totals for every match (random unless given), signed off,
    its result rows written (as the sign-off does), closed. Stands in for result entry,
    which has its own tests."""
    from tournament.services.rounds import close_round, publish_round, start_round
    from tournament.services.team_results import write_bye_results, write_match_results

    rng = random.Random(seed + round_.pk)
    round_.refresh_from_db()
    if round_.status == Round.Status.DRAFT:
        publish_round(director_actor, round_, override_reason="test")
    if round_.status != Round.Status.IN_PLAY:
        start_round(director_actor, round_)
    # A knockout match is never left tied at random: it would go on with extra hands
    # (and the ids that seed the choice differ from one database to the other).
    choices = [-60, -25, 25, 60] if round_.stage.kind == "knockout" else [-60, -25, 0, 25, 60]
    for match in round_.matches.all():
        home = (totals or {}).get(match.number, rng.choice(choices))
        match.home_total, match.away_total = home, -home
        match.signed_off_at = timezone.now()
        match.save()
        write_match_results(match)  # the result rows the standings read
    write_bye_results(round_)
    return close_round(director_actor, round_)


@pytest.fixture
def finish_round(director_actor):
    """``play_to_the_end`` by the tournament's director."""

    def finish(round_, totals=None, *, seed=0):
        return play_to_the_end(director_actor, round_, totals, seed=seed)

    return finish


@pytest.fixture
def round_in_play(director_actor, tournament, teams):
    """A Swiss round of ``teams`` teams (``teams`` / 2 matches) published and started, its
    matches of ``hands`` hands when given (no deals: results are entered by their counts)."""
    from tournament.models import Stage
    from tournament.services.draw import generate_round
    from tournament.services.rounds import publish_round, start_round
    from tournament.services.stages import create_stage, enter_teams

    def make(teams_=4, *, hands=None):
        if hands is not None:
            tournament.hands_per_match = hands
            tournament.save()
        stage = create_stage(director_actor, tournament, name="Swiss",
                             kind=Stage.Kind.SWISS, swiss_rounds=3)
        enter_teams(director_actor, stage, teams(teams_))
        round_ = generate_round(director_actor, stage)
        publish_round(director_actor, round_, override_reason="test")
        return start_round(director_actor, round_)

    return make


@pytest.fixture
def own_tournament(make_tournament, staff_user, actor):
    """A tournament of the test's own and its director's actor, for a test in a module whose
    ``tournament`` is an event shared by the module (views/public_event.py)."""
    tournament = make_tournament(name="Own Cup", slug="own-cup")
    return tournament, actor(staff_user(tournament, "director", username="own-director"))
