"""Result rows follow their match: provisional while it is played, official at sign-off,
rewritten by a correction, a forfeit is a win, a bye has its row (issue 11)."""

import uuid

import pytest

from tournament.models import HandResult, Stage, TeamResult
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams
from tournament.services.team_results import write_match_results


@pytest.fixture
def round_(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(3))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_


def rows(round_):
    return {r.team.code: (r.outcome, r.small_points, r.match_points, r.gins, r.provisional,
                          r.forfeit)
            for r in TeamResult.objects.filter(round=round_).select_related("team")}


def enter(actor, table, hand, entry, seen=0, **kwargs):
    return record_hand_result(actor, table, hand, entry, seen_version=seen,
                              request_token=uuid.uuid4(), **kwargs)


def test_rows_follow_the_match_from_first_hand_to_sign_off(director_actor, round_):
    match = round_.matches.get()
    bye = round_.entries.get(side="bye").team.code
    assert rows(round_) == {bye: ("bye", 0, 2, 0, False, False)}
    one, two = match.tables.order_by("position")
    enter(director_actor, one, 1, HandEntry("gin", 1, None, 20))  # home's player: +45
    home, away = match.home.code, match.away.code
    assert rows(round_)[home] == ("win", 45, 3, 1, True, False)
    assert rows(round_)[away] == ("loss", -45, 1, 0, True, False)
    for table in (one, two):
        for hand in range(1, match.hands + 1):
            if (table, hand) != (one, 1):
                enter(director_actor, table, hand, HandEntry("draw"))
    for result in HandResult.objects.filter(table__match=match, is_current=True):
        approve_hand(director_actor, result, 1)
        approve_hand(director_actor, result, 2)
    for table in (one, two):
        sign_table(director_actor, table, 1)
        sign_table(director_actor, table, 2)
    sign_off_match(director_actor, match)
    assert rows(round_)[home] == ("win", 45, 3, 1, False, False)
    enter(director_actor, one, 1, HandEntry("draw"), seen=1, reason="it was a draw")
    assert rows(round_)[home] == ("tie", 0, 2, 0, True, False)  # being corrected


def test_a_forfeit_is_written_as_a_forfeit(director_actor, round_):
    match = round_.matches.get()
    match.forfeited_by = match.away
    match.save()
    write_match_results(match)
    assert rows(round_)[match.home.code] == ("win", 0, 3, 0, False, True)
    assert rows(round_)[match.away.code] == ("loss", 0, 0, 0, False, True)


def test_the_rows_name_outcomes_as_scoring_does():
    from scoring.match import LOSS, TIE, WIN
    from tournament.models import TeamResult

    assert {WIN, TIE, LOSS} <= set(TeamResult.Outcome.values)
