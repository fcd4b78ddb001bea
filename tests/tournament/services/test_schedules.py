"""Stored schedules: later rounds follow a swap, and a swap that would break one is refused."""

import itertools
from collections import Counter

import pytest

from scoring.pairing import berger_rounds
from tournament.models import AuditEntry, Stage
from tournament.services import ServiceError
from tournament.services.draw import generate_round
from tournament.services.rounds import undo_round
from tournament.services.stages import allot_groups, create_stage, enter_teams
from tournament.services.swaps import check_swap, swap_teams


@pytest.fixture
def group_stage(director_actor, tournament):
    return create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)


@pytest.fixture
def knockout_stage(director_actor, tournament):
    return create_stage(director_actor, tournament, name="Knockout",
                        kind=Stage.Kind.KNOCKOUT, third_place_match=True)


def pairs_of(round_):
    return [(m.home.code, m.away.code) for m in round_.matches.select_related("home", "away")]


def byes_of(round_):
    return sorted(e.team.code for e in round_.entries.filter(side="bye").select_related("team"))


def berger_codes(n, number):
    """Round ``number`` of the Berger table for T1…Tn as codes, byes apart."""
    boards = berger_rounds(n)[number - 1]
    return ([(f"T{h}", f"T{a}") for h, a in boards if a is not None],
            [f"T{h}" for h, a in boards if a is None])


def play_out(director_actor, stage, finish_round, first_number, rounds):
    """Draw and finish rounds ``first_number``…``rounds``; return their pairs and byes."""
    drawn = []
    for number in range(first_number, rounds + 1):
        round_ = generate_round(director_actor, stage, expected_number=number)
        drawn.append((pairs_of(round_), byes_of(round_)))
        finish_round(round_, seed=number)
    return drawn


def assert_round_robin(codes, drawn):
    met = Counter(frozenset(pair) for pairs, _byes in drawn for pair in pairs)
    assert met == Counter(frozenset(p) for p in itertools.combinations(codes, 2))
    byes = Counter(code for _pairs, byes in drawn for code in byes)
    assert byes == (Counter(codes) if len(codes) % 2 else Counter())
    for pairs, byes in drawn:  # everyone once a round
        assert sorted([code for pair in pairs for code in pair] + byes) == sorted(codes)


# Groups -----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [4, 5, 6])
def test_swap_in_round_one_carries_through_the_group(director_actor, group_stage, teams,
                                                     finish_round, n):
    field = teams(n)
    allot_groups(director_actor, group_stage, [field])
    first = generate_round(director_actor, group_stage)
    # T1 meets Tn (or has the bye with 5 teams) and T2 meets Tn-1: they exchange places.
    swap_teams(director_actor, first, field[0], field[1], accept_warnings=True)
    pairs, byes = pairs_of(first), byes_of(first)
    assert ("T2", f"T{n}") in pairs if n % 2 == 0 else byes == ["T2"]
    assert ("T1", f"T{n - 1 + n % 2}") in pairs
    finish_round(first)
    drawn = [(pairs, byes), *play_out(director_actor, group_stage, finish_round, 2,
                                      n - 1 + n % 2)]
    assert_round_robin([t.code for t in field], drawn)
    # Every later round is the Berger round with T1 and T2 exchanged.
    for number, (pairs, byes) in enumerate(drawn[1:], 2):
        other = {"T1": "T2", "T2": "T1"}
        berger_pairs, berger_byes = berger_codes(n, number)
        assert pairs == [(other.get(h, h), other.get(a, a)) for h, a in berger_pairs]
        assert byes == sorted(other.get(b, b) for b in berger_byes)
    with pytest.raises(ServiceError, match="complete"):
        generate_round(director_actor, group_stage)


def test_the_schedule_is_stored_with_team_ids(director_actor, group_stage, teams):
    field = teams(4)
    allot_groups(director_actor, group_stage, [field])
    generate_round(director_actor, group_stage)
    group_stage.refresh_from_db()
    ids = [t.pk for t in field]
    (group,) = group_stage.groups.all()
    assert group_stage.schedule == {
        "kind": "groups", "swaps": [],
        "groups": {str(group.pk): [[[ids[h - 1], ids[a - 1]] for h, a in boards]
                                   for boards in berger_rounds(4)]},
    }


@pytest.mark.parametrize(("n", "number", "a", "b"), [
    (4, 2, "T1", "T4"),   # they met in round 1
    (5, 2, "T2", "T5"),   # likewise, in a group with a bye
    (6, 2, "T6", "T1"),
])
def test_a_later_swap_that_keeps_the_robin_whole_is_allowed(
        director_actor, group_stage, teams, finish_round, n, number, a, b):
    field = teams(n)
    team = {t.code: t for t in field}
    allot_groups(director_actor, group_stage, [field])
    drawn = play_out(director_actor, group_stage, finish_round, 1, number - 1)
    round_ = generate_round(director_actor, group_stage, expected_number=number)
    assert not check_swap(round_, team[a], team[b]).errors
    swap_teams(director_actor, round_, team[a], team[b])
    other = {a: b, b: a}
    berger_pairs, _byes = berger_codes(n, number)
    assert pairs_of(round_) == [(other.get(h, h), other.get(w, w)) for h, w in berger_pairs]
    assert AuditEntry.objects.filter(action="round.swap").get().summary.endswith(
        f"swapped {a} and {b} in Groups, Round {number} (the later rounds of Group A follow)")
    drawn.append((pairs_of(round_), byes_of(round_)))
    finish_round(round_)
    drawn += play_out(director_actor, group_stage, finish_round, number + 1, n - 1 + n % 2)
    assert_round_robin([t.code for t in field], drawn)


def test_a_swap_that_would_break_the_robin_is_refused_with_the_reason(
        director_actor, group_stage, teams, finish_round):
    field = teams(4)
    team = {t.code: t for t in field}
    allot_groups(director_actor, group_stage, [field])
    finish_round(generate_round(director_actor, group_stage))  # T1-T4, T2-T3
    second = generate_round(director_actor, group_stage)       # T4-T3, T1-T2
    before = pairs_of(second)
    errors = check_swap(second, team["T2"], team["T4"]).errors
    assert errors == (
        "T1 has met T4 already and T2 has not: after the swap T1 would meet T4 again in "
        "round 2 and T2 never",
        "T3 has met T2 already and T4 has not: after the swap T3 would meet T2 again in "
        "round 2 and T4 never",
    )
    with pytest.raises(ServiceError, match="T1 has met T4 already and T2 has not"):
        swap_teams(director_actor, second, team["T2"], team["T4"], accept_warnings=True)
    assert pairs_of(second) == before
    group_stage.refresh_from_db()
    assert group_stage.schedule["swaps"] == []


def test_a_refused_swap_names_a_later_round_and_a_second_bye(
        director_actor, group_stage, teams, finish_round):
    field = teams(5)
    team = {t.code: t for t in field}
    allot_groups(director_actor, group_stage, [field])
    # Round 1: T1 bye, T2-T5, T3-T4. Round 2: T4 bye, T5-T3, T1-T2.
    finish_round(generate_round(director_actor, group_stage))
    second = generate_round(director_actor, group_stage)
    # After the swap T4 meets T3 again in round 4, and T1 has a second bye in round 5.
    assert check_swap(second, team["T1"], team["T3"]).errors == (
        "T4 has met T3 already and T1 has not: after the swap T4 would meet T3 again in "
        "round 4 and T1 never",
        "T1 has had its bye and T3 has not: after the swap T1 would have a second bye in "
        "round 5 and T3 none",
    )


def test_opponents_changing_sides_leave_the_later_rounds_alone(
        director_actor, group_stage, teams, finish_round):
    field = teams(4)
    allot_groups(director_actor, group_stage, [field])
    first = generate_round(director_actor, group_stage)
    swap_teams(director_actor, first, field[0], field[3], accept_warnings=True)
    assert pairs_of(first) == [("T4", "T1"), ("T2", "T3")]
    assert "follow" not in AuditEntry.objects.get(action="round.swap").summary
    group_stage.refresh_from_db()
    (rounds,) = group_stage.schedule["groups"].values()
    code = {t.pk: t.code for t in field}
    assert [[(code[h], code[a]) for h, a in boards] for boards in rounds] == [
        [("T4", "T1"), ("T2", "T3")], berger_codes(4, 2)[0], berger_codes(4, 3)[0]]
    finish_round(first)
    drawn = play_out(director_actor, group_stage, finish_round, 2, 3)
    assert drawn == [berger_codes(4, 2), berger_codes(4, 3)]


def test_undoing_a_round_undoes_its_swap(director_actor, group_stage, teams, finish_round):
    field = teams(4)
    team = {t.code: t for t in field}
    allot_groups(director_actor, group_stage, [field])
    finish_round(generate_round(director_actor, group_stage))
    second = generate_round(director_actor, group_stage)
    swap_teams(director_actor, second, team["T1"], team["T4"])
    group_stage.refresh_from_db()
    (group,) = group_stage.groups.all()
    assert group_stage.schedule["swaps"] == [
        {"round": 2, "group": str(group.pk), "teams": [team["T1"].pk, team["T4"].pk]}]
    undo_round(director_actor, second)
    again = generate_round(director_actor, group_stage)
    assert (pairs_of(again), byes_of(again)) == berger_codes(4, 2)
    group_stage.refresh_from_db()
    assert group_stage.schedule["swaps"] == []
    assert "swaps of an undone round reverted: T1 and T4" in AuditEntry.objects.filter(
        action="round.generate").latest("pk").summary


def test_a_stage_drawn_before_schedules_were_stored_gets_one(
        director_actor, group_stage, teams, finish_round):
    field = teams(6)
    allot_groups(director_actor, group_stage, [field])
    first = generate_round(director_actor, group_stage)
    Stage.objects.filter(pk=group_stage.pk).update(schedule=None)  # as before this change
    finish_round(first)
    drawn = [(pairs_of(first), byes_of(first)),
             *play_out(director_actor, group_stage, finish_round, 2, 5)]
    assert drawn == [berger_codes(6, number) for number in range(1, 6)]
    group_stage.refresh_from_db()
    assert group_stage.schedule["kind"] == "groups"


def test_new_teams_get_a_new_schedule(director_actor, knockout_stage, teams):
    field = teams(6)
    enter_teams(director_actor, knockout_stage, field[:4])
    first = generate_round(director_actor, knockout_stage)
    knockout_stage.refresh_from_db()
    assert knockout_stage.schedule["bracket"] == [[field[0].pk, field[3].pk],
                                                  [field[1].pk, field[2].pk]]
    undo_round(director_actor, first)
    enter_teams(director_actor, knockout_stage, field[2:])
    knockout_stage.refresh_from_db()
    assert knockout_stage.schedule is None
    again = generate_round(director_actor, knockout_stage)
    assert pairs_of(again) == [("T3", "T6"), ("T4", "T5")]


def test_a_schedule_that_no_longer_fits_the_teams_is_a_message(
        director_actor, group_stage, teams):
    field = teams(4)
    allot_groups(director_actor, group_stage, [field])
    round_ = generate_round(director_actor, group_stage)
    group_stage.entries.filter(team=field[3]).delete()  # behind the services' back
    errors = check_swap(round_, field[0], field[1]).errors
    assert errors == ("the stored schedule of Groups does not match its teams; undo its "
                      "rounds and draw again",)


# Knockout ---------------------------------------------------------------------------------

def test_knockout_swap_in_round_one_rewrites_the_bracket(
        director_actor, knockout_stage, teams, finish_round):
    field = teams(8)
    team = {t.code: t for t in field}
    enter_teams(director_actor, knockout_stage, field)
    first = generate_round(director_actor, knockout_stage)
    assert pairs_of(first) == [("T1", "T8"), ("T4", "T5"), ("T3", "T6"), ("T2", "T7")]
    swap_teams(director_actor, first, team["T8"], team["T4"], accept_warnings=True)
    assert pairs_of(first) == [("T1", "T4"), ("T8", "T5"), ("T3", "T6"), ("T2", "T7")]
    finish_round(first, {1: 30, 2: 30, 3: -30, 4: -30})  # T1, T8, T6, T7 go through
    semis = generate_round(director_actor, knockout_stage)
    assert pairs_of(semis) == [("T1", "T8"), ("T6", "T7")]
    with pytest.raises(ServiceError, match="only the first round's seeded bracket"):
        swap_teams(director_actor, semis, team["T8"], team["T6"], accept_warnings=True)
    assert pairs_of(semis) == [("T1", "T8"), ("T6", "T7")]
    finish_round(semis, {1: -10, 2: 10})  # T8 and T6 reach the final
    final = generate_round(director_actor, knockout_stage)
    assert pairs_of(final) == [("T8", "T6"), ("T1", "T7")]  # the final, third place
    finish_round(final, {1: 5, 2: 5})
    with pytest.raises(ServiceError, match="complete"):
        generate_round(director_actor, knockout_stage)


def test_knockout_swap_with_a_bye(director_actor, knockout_stage, teams, finish_round):
    field = teams(6)
    team = {t.code: t for t in field}
    enter_teams(director_actor, knockout_stage, field)
    first = generate_round(director_actor, knockout_stage)  # T1 bye, T4-T5, T3-T6, T2 bye
    swap_teams(director_actor, first, team["T1"], team["T3"], accept_warnings=True)
    assert byes_of(first) == ["T2", "T3"]
    assert pairs_of(first) == [("T4", "T5"), ("T1", "T6")]
    finish_round(first, {1: 20, 2: 20})
    semis = generate_round(director_actor, knockout_stage)
    assert pairs_of(semis) == [("T3", "T4"), ("T1", "T2")]


def test_undoing_knockout_round_one_restores_the_seeded_bracket(
        director_actor, knockout_stage, teams):
    field = teams(4)
    enter_teams(director_actor, knockout_stage, field)
    first = generate_round(director_actor, knockout_stage)
    swap_teams(director_actor, first, field[3], field[2], accept_warnings=True)
    assert pairs_of(first) == [("T1", "T3"), ("T2", "T4")]
    knockout_stage.refresh_from_db()
    ids = [t.pk for t in field]
    assert knockout_stage.schedule["bracket"] == [[ids[0], ids[2]], [ids[1], ids[3]]]
    undo_round(director_actor, first)
    again = generate_round(director_actor, knockout_stage)
    assert pairs_of(again) == [("T1", "T4"), ("T2", "T3")]
    knockout_stage.refresh_from_db()
    assert knockout_stage.schedule == {
        "kind": "knockout", "swaps": [], "bracket": [[ids[0], ids[3]], [ids[1], ids[2]]]}
