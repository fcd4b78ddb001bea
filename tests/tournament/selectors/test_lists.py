"""The lists the pages read through selectors (a round's stage, a tournament's rounds and
stages, its staff and the tournaments of the site): what each holds, in which order, and
how many queries it costs."""

import uuid

import pytest

from tournament.models import Round, Stage, Tournament
from tournament.selectors.people import staff_roles, staff_usernames, teams_with_players
from tournament.selectors.public import match_counts, public_rounds
from tournament.selectors.results import version_saved_by
from tournament.selectors.rounds import (
    first_round_entry,
    first_stage_name,
    rounds_in_play,
    stages_with_latest_rounds,
    tournament_rounds,
)
from tournament.selectors.standings import last_stage_played, stages_played
from tournament.selectors.tournaments import listed_tournaments, taken_slugs
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_stages(director_actor, tournament, teams, finish_round):
    """Groups: round 1 closed, round 2 in play; Final: round 1 drawn (a draft), the
    Cup (later in order) with no round at all."""
    field = teams(6)
    groups = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.SWISS,
                          swiss_rounds=3)
    enter_teams(director_actor, groups, field)
    finish_round(generate_round(director_actor, groups))
    second = generate_round(director_actor, groups)
    publish_round(director_actor, second, override_reason="test")
    start_round(director_actor, second)
    final = create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, final, field[:2])
    generate_round(director_actor, final)
    cup = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.SWISS,
                       swiss_rounds=1)
    return groups, final, cup, field


def labels(rounds):
    return [(r.stage.name, r.number, r.status) for r in rounds]


def test_the_rounds_of_a_tournament_by_stage_and_number(two_stages, tournament,
                                                        django_assert_num_queries):
    closed, in_play, draft = Round.Status.CLOSED, Round.Status.IN_PLAY, Round.Status.DRAFT
    with django_assert_num_queries(1):
        assert labels(tournament_rounds(tournament)) == [
            ("Groups", 1, closed), ("Groups", 2, in_play), ("Final", 1, draft)]
    with django_assert_num_queries(1):
        assert labels(rounds_in_play(tournament)) == [("Groups", 2, in_play)]
    # A draft stays with the directors; the API's pages order by id last as well.
    assert labels(public_rounds(tournament)) == [("Groups", 1, closed), ("Groups", 2, in_play)]
    assert labels(public_rounds(tournament, paged=True)) == labels(public_rounds(tournament))


def test_the_matches_of_each_round_are_counted_by_the_database(two_stages, tournament,
                                                               django_assert_num_queries):
    rounds = list(tournament_rounds(tournament))
    with django_assert_num_queries(1):
        counts = match_counts(rounds)
    assert counts == {rounds[0].pk: 3, rounds[1].pk: 3, rounds[2].pk: 1}
    with django_assert_num_queries(0):
        assert match_counts([]) == {}


def test_the_stages_played_and_the_latest_round_of_each(two_stages, tournament):
    groups, final, _cup, _field = two_stages
    # Groups has two rounds begun: it is listed once; Final's round is a draft.
    assert stages_played(tournament) == [groups]
    assert last_stage_played(tournament) == groups
    stages, latest = stages_with_latest_rounds(tournament)
    assert [(s.name, s.teams) for s in stages] == [("Groups", 6), ("Final", 2), ("Cup", 0)]
    assert {stage: round_.number for stage, round_ in latest.items()} == {groups.pk: 2,
                                                                         final.pk: 1}


def test_what_keeps_a_team_from_being_deleted(two_stages, make_team, tournament):
    groups, _final, _cup, field = two_stages
    # T1 played round 1 of the groups and is drawn in the final: the first round it played.
    entry = first_round_entry(field[0])
    assert (entry.round.stage, entry.round.number) == (groups, 1)
    assert first_stage_name(field[0]) == "Groups"
    newcomer = make_team(tournament, code="NEW", name="Newcomers")
    assert first_round_entry(newcomer) is None and first_stage_name(newcomer) is None


def test_the_staff_lists(tournament, staff_user, make_team, django_assert_num_queries):
    staff_user(tournament, "referee", username="ref")
    staff_user(tournament, "scorer", username="li")
    # The tables' devices by their numbers (issue 57): table-2 before table-10.
    staff_user(tournament, "scorer", username="cup-table-10")
    staff_user(tournament, "scorer", username="cup-table-2")
    make_team(tournament, code="CHN", name="China")
    with django_assert_num_queries(1):
        assert [(r.user.username, r.role) for r in staff_roles(tournament)] == [
            ("ref", "referee"), ("cup-table-2", "scorer"), ("cup-table-10", "scorer"),
            ("li", "scorer")]
    # The user names are a subquery of the lock-out check: no query of their own.
    with django_assert_num_queries(0):
        usernames = staff_usernames(tournament)
    assert sorted(usernames) == ["cup-table-10", "cup-table-2", "li", "ref"]
    with django_assert_num_queries(2):
        assert [len(team.players.all()) for team in teams_with_players(tournament)] == [2]


def test_the_tournaments_anyone_may_see_and_the_short_names_taken(make_tournament):
    older = make_tournament(name="Autumn", slug="autumn", starts_on="2026-10-01",
                            ends_on="2026-10-02")
    newer = make_tournament(name="Winter", slug="winter", starts_on="2026-12-01",
                            ends_on="2026-12-02")
    make_tournament(name="Secret", slug="secret", status=Tournament.Status.SETUP)
    assert list(listed_tournaments()) == [newer, older]
    assert list(listed_tournaments(paged=True)) == [newer, older]
    assert taken_slugs(["autumn", "secret", "gone", "autumn"]) == {"autumn", "secret"}
    assert taken_slugs([]) == set()


def test_no_save_is_found_for_a_token_never_sent(round_in_play):
    table = round_in_play().tables.first()
    assert version_saved_by(table, 1, uuid.uuid4()) is None
    assert version_saved_by(table, 1, None) is None
