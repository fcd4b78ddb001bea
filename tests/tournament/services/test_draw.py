import itertools
import threading
from collections import Counter

import pytest
from django.db import connection

from scoring.pairing import snake_groups
from tournament.models import AuditEntry, Match, Player, Round, RoundEntry, Stage, Table
from tournament.services import ServiceError
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, undo_round
from tournament.services.stages import allot_groups, create_stage, enter_teams
from tournament.services.swaps import check_swap, swap_teams


@pytest.fixture
def group_stage(director_actor, tournament):
    return create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)


@pytest.fixture
def swiss_stage(director_actor, tournament):
    return create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                        swiss_rounds=9)


@pytest.fixture
def knockout_stage(director_actor, tournament):
    return create_stage(director_actor, tournament, name="Knockout",
                        kind=Stage.Kind.KNOCKOUT, third_place_match=True)


def pairs_of(round_):
    return [(m.home.code, m.away.code) for m in round_.matches.select_related("home", "away")]


def byes_of(round_):
    return sorted(e.team.code for e in round_.entries.filter(side="bye").select_related("team"))


# Group stage -----------------------------------------------------------------------------

def test_round_robin_in_snake_groups_meets_everyone_once(
        director_actor, group_stage, teams, finish_round):
    field = teams(10)
    allot_groups(director_actor, group_stage, snake_groups(field, 2))
    group_of = {e.team.code: e.group.name for e in group_stage.entries.select_related(
        "team", "group")}
    met = Counter()
    byes = Counter()
    for number in range(1, 6):
        round_ = generate_round(director_actor, group_stage, expected_number=number)
        for home, away in pairs_of(round_):
            assert group_of[home] == group_of[away]
            met[frozenset((home, away))] += 1
        byes.update(byes_of(round_))
        finish_round(round_)
    for group in "AB":
        members = [code for code, name in group_of.items() if name == group]
        assert all(met[frozenset(pair)] == 1 for pair in itertools.combinations(members, 2))
    assert sum(met.values()) == 20
    assert byes == Counter({t.code: 1 for t in field})  # groups of 5: one bye each
    with pytest.raises(ServiceError, match="complete"):
        generate_round(director_actor, group_stage, expected_number=6)


def test_group_round_one_follows_berger_numbers(director_actor, group_stage, teams):
    t = teams(4)
    allot_groups(director_actor, group_stage, [t])
    round_ = generate_round(director_actor, group_stage)
    assert pairs_of(round_) == [("T1", "T4"), ("T2", "T3")]


def test_tables_are_consecutive_and_line_ups_default_to_players_one_and_two(
        director_actor, group_stage, teams):
    allot_groups(director_actor, group_stage, [teams(6)])
    round_ = generate_round(director_actor, group_stage)
    for match in round_.matches.all():
        numbers = sorted(match.tables.values_list("position", "number"))
        assert numbers == [(1, 2 * match.number - 1), (2, 2 * match.number)]
    for entry in round_.entries.select_related("first_player", "second_player"):
        assert (entry.first_player.number, entry.second_player.number) == (1, 2)
        assert entry.first_player.team_id == entry.team_id
    assert Table.objects.filter(round=round_).count() == 6
    assert AuditEntry.objects.filter(action="round.generate").count() == 1


# Bad input ---------------------------------------------------------------------------

def test_too_few_teams(director_actor, swiss_stage, teams):
    with pytest.raises(ServiceError, match="at least two teams"):
        generate_round(director_actor, swiss_stage)
    assert not Round.objects.exists()


def test_team_without_line_up_is_named_and_nothing_is_saved(
        director_actor, swiss_stage, teams):
    field = teams(4)
    enter_teams(director_actor, swiss_stage, field)
    Player.objects.filter(team=field[2], number=2).delete()
    with pytest.raises(ServiceError, match=r"no line-up.*T3"):
        generate_round(director_actor, swiss_stage)
    assert not Round.objects.exists() and not Match.objects.exists()


def test_previous_round_must_be_closed(director_actor, swiss_stage, teams):
    enter_teams(director_actor, swiss_stage, teams(4))
    generate_round(director_actor, swiss_stage, expected_number=1)
    with pytest.raises(ServiceError, match="Round 1 of Swiss is draft; close it"):
        generate_round(director_actor, swiss_stage, expected_number=2)
    assert Round.objects.count() == 1


def test_generating_a_round_twice_is_refused(director_actor, swiss_stage, teams):
    enter_teams(director_actor, swiss_stage, teams(4))
    generate_round(director_actor, swiss_stage, expected_number=1)
    with pytest.raises(ServiceError, match="already been generated"):
        generate_round(director_actor, swiss_stage, expected_number=1)
    assert Round.objects.count() == 1


def test_publishing_twice_is_refused(director_actor, swiss_stage, teams):
    enter_teams(director_actor, swiss_stage, teams(4))
    round_ = generate_round(director_actor, swiss_stage)
    publish_round(director_actor, round_)
    with pytest.raises(ServiceError, match="published; cannot publish it again"):
        publish_round(director_actor, round_)


def test_scorer_cannot_generate(tournament, swiss_stage, teams, staff_user, actor,
                                director_actor):
    from django.core.exceptions import PermissionDenied

    enter_teams(director_actor, swiss_stage, teams(4))
    with pytest.raises(PermissionDenied):
        generate_round(actor(staff_user(tournament, "scorer")), swiss_stage)


def test_undo_removes_the_draft_and_its_tables(director_actor, swiss_stage, teams):
    enter_teams(director_actor, swiss_stage, teams(4))
    round_ = generate_round(director_actor, swiss_stage)
    undo_round(director_actor, round_)
    assert not Round.objects.exists() and not Table.objects.exists()
    assert not RoundEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_directors_generating_at_once_make_one_round(director_actor, swiss_stage, teams):
    enter_teams(director_actor, swiss_stage, teams(8))
    barrier = threading.Barrier(2)
    outcomes = []

    def press_generate():
        try:
            barrier.wait()
            generate_round(director_actor, swiss_stage, expected_number=1)
            outcomes.append("drawn")
        except ServiceError as error:
            outcomes.append(error.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=press_generate) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes)[0] == "drawn"
    assert "already been generated" in sorted(outcomes)[1] or "just been generated" in \
        sorted(outcomes)[1]
    assert Round.objects.count() == 1
    assert Match.objects.count() == 4


# Swiss -------------------------------------------------------------------------------

def test_swiss_rounds_have_no_rematch_and_byes_go_round(
        director_actor, swiss_stage, teams, finish_round):
    field = teams(9)
    enter_teams(director_actor, swiss_stage, field)
    met, byes = set(), Counter()
    for number in range(1, 7):
        round_ = generate_round(director_actor, swiss_stage, expected_number=number)
        for home, away in pairs_of(round_):
            pair = frozenset((home, away))
            assert pair not in met
            met.add(pair)
        (bye,) = byes_of(round_)
        assert byes[bye] == 0  # nobody gets a second bye while others have none
        byes[bye] += 1
        finish_round(round_, seed=number)
    assert len(byes) == 6


# Knockout ----------------------------------------------------------------------------

def test_knockout_bracket_winners_advance_and_third_place(
        director_actor, knockout_stage, teams, finish_round):
    enter_teams(director_actor, knockout_stage, teams(8))
    first = generate_round(director_actor, knockout_stage)
    assert pairs_of(first) == [("T1", "T8"), ("T4", "T5"), ("T3", "T6"), ("T2", "T7")]
    # Home wins matches 1 and 3, away wins 2 and 4: T1, T5, T3, T7 go through.
    finish_round(first, {1: 30, 2: -30, 3: 30, 4: -30})
    semis = generate_round(director_actor, knockout_stage)
    assert sorted(map(sorted, pairs_of(semis))) == [["T1", "T5"], ["T3", "T7"]]
    finish_round(semis, {1: 10, 2: -10})
    final = generate_round(director_actor, knockout_stage)
    winners = {pairs_of(semis)[0][0], pairs_of(semis)[1][1]}
    losers = {pairs_of(semis)[0][1], pairs_of(semis)[1][0]}
    assert [set(p) for p in pairs_of(final)] == [winners, losers]
    finish_round(final, {1: 5, 2: 5})
    with pytest.raises(ServiceError, match="complete"):
        generate_round(director_actor, knockout_stage)


def test_knockout_byes_go_to_the_top_seeds(director_actor, knockout_stage, teams,
                                          finish_round):
    enter_teams(director_actor, knockout_stage, teams(6))
    first = generate_round(director_actor, knockout_stage)
    assert byes_of(first) == ["T1", "T2"]
    assert len(pairs_of(first)) == 2
    finish_round(first)
    semis = generate_round(director_actor, knockout_stage)
    teams_in = {code for pair in pairs_of(semis) for code in pair}
    assert {"T1", "T2"} <= teams_in and len(teams_in) == 4


def test_tied_knockout_match_blocks_the_next_round(director_actor, knockout_stage, teams,
                                                   finish_round):
    enter_teams(director_actor, knockout_stage, teams(4))
    first = generate_round(director_actor, knockout_stage)
    finish_round(first, {1: 0, 2: 20})
    with pytest.raises(ServiceError, match="tied; it goes on with extra hands"):
        generate_round(director_actor, knockout_stage)


# Swapping by hand --------------------------------------------------------------------------

def test_swap_exchanges_places_and_keeps_line_ups(director_actor, swiss_stage, teams):
    field = teams(8)
    enter_teams(director_actor, swiss_stage, field)
    round_ = generate_round(director_actor, swiss_stage)
    before = dict(pairs_of(round_))
    a, b = field[0], field[1]
    swap_teams(director_actor, round_, a, b)
    after = pairs_of(round_)
    assert len(after) == 4 and Table.objects.filter(round=round_).count() == 8
    where = {code: pair for pair in after for code in pair}
    assert before["T1"] in where["T2"] and before["T2"] in where["T1"]
    entry = RoundEntry.objects.get(round=round_, team=a)
    assert entry.first_player.team_id == a.pk
    assert AuditEntry.objects.filter(action="round.swap").exists()


def test_swap_that_makes_a_rematch_is_refused(director_actor, swiss_stage, teams,
                                              finish_round):
    field = teams(4)
    enter_teams(director_actor, swiss_stage, field)
    first = generate_round(director_actor, swiss_stage)
    finish_round(first, {1: 10, 2: 10})
    second = generate_round(director_actor, swiss_stage)
    old = {frozenset(p) for p in pairs_of(first)}
    # Swapping away with home's first-round opponent would make home meet it again.
    home, away = pairs_of(second)[0]
    (staying,) = next(pair for pair in old if home in pair) - {home}
    moving = away
    team = {t.code: t for t in field}
    check = check_swap(second, team[moving], team[staying])
    assert any("already met" in e for e in check.errors)
    before = pairs_of(second)
    with pytest.raises(ServiceError, match="already met"):
        swap_teams(director_actor, second, team[moving], team[staying])
    assert pairs_of(second) == before


def test_swap_across_groups_is_refused(director_actor, group_stage, teams):
    field = teams(8)
    allot_groups(director_actor, group_stage, snake_groups(field, 2))
    round_ = generate_round(director_actor, group_stage)
    check = check_swap(round_, field[0], field[1])  # T1 in A, T2 in B
    assert any("group stage pairs teams of one group only" in e for e in check.errors)


def test_swap_with_warnings_needs_consent(director_actor, swiss_stage, teams, finish_round):
    field = teams(8)
    enter_teams(director_actor, swiss_stage, field)
    first = generate_round(director_actor, swiss_stage)
    finish_round(first, {1: 10, 2: 10, 3: 10, 4: 10})
    second = generate_round(director_actor, swiss_stage)
    winners = {m.home.code for m in first.matches.select_related("home")}
    team = {t.code: t for t in field}
    # A winner swapped into a losers' match meets a team with fewer match points.
    options = [(away, loser) for home, away in pairs_of(second) if home in winners
               for pair in pairs_of(second) if pair[0] not in winners for loser in pair]
    legal = [(a, b) for a, b in options if not check_swap(second, team[a], team[b]).errors]
    assert legal
    moving, loser = legal[0]
    check = check_swap(second, team[moving], team[loser])
    assert any("match points" in w for w in check.warnings)
    with pytest.raises(ServiceError, match="needs your consent"):
        swap_teams(director_actor, second, team[moving], team[loser])
    swap_teams(director_actor, second, team[moving], team[loser], accept_warnings=True)
    where = {code: pair for pair in pairs_of(second) for code in pair}
    assert any(code in winners for code in where[loser] if code != loser)


def test_swap_with_a_bye(director_actor, swiss_stage, teams):
    field = teams(5)
    enter_teams(director_actor, swiss_stage, field)
    round_ = generate_round(director_actor, swiss_stage)
    (bye,) = byes_of(round_)
    team = {t.code: t for t in field}
    playing = pairs_of(round_)[0][0]
    swap_teams(director_actor, round_, team[bye], team[playing], accept_warnings=True)
    assert byes_of(round_) == [playing]
    entry = RoundEntry.objects.get(round=round_, team=team[bye])
    assert entry.first_player.number == 1 and entry.second_player.number == 2


def test_published_round_cannot_be_swapped(director_actor, swiss_stage, teams):
    field = teams(4)
    enter_teams(director_actor, swiss_stage, field)
    round_ = generate_round(director_actor, swiss_stage)
    publish_round(director_actor, round_)
    with pytest.raises(ServiceError, match="only a draft can be changed"):
        swap_teams(director_actor, round_, field[0], field[1])
