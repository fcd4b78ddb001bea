"""Knockout qualification from group standings and the event's final ranking, worked out by
hand for a 2-group stage of 4 teams played through the services (issue 11, item 5)."""

import pytest
from django.core.exceptions import PermissionDenied

from tournament.models import AuditEntry, Match, Round, Stage
from tournament.selectors.event_ranking import event_ranking as final_places
from tournament.selectors.placings import qualification
from tournament.services import ServiceError
from tournament.services.draw import generate_round
from tournament.services.seeding import seed_from_standings, set_qualification
from tournament.services.stages import allot_groups, create_stage, enter_teams

# Margins: results[a, b] is a's small points over b. Group A = T1…T4, group B = T5…T8.
# A: T1 9 mp +60, T2 7 mp 0, T3 5 mp -5, T4 3 mp -55.
# B: T5 9 mp +30, T6 7 mp +90, T7 5 mp -40, T8 3 mp -80.
GROUP_RESULTS = {
    ("T1", "T2"): 30, ("T1", "T3"): 20, ("T1", "T4"): 10,
    ("T2", "T3"): 25, ("T2", "T4"): 5, ("T3", "T4"): 40,
    ("T5", "T6"): 10, ("T5", "T7"): 10, ("T5", "T8"): 10,
    ("T6", "T7"): 50, ("T6", "T8"): 50, ("T7", "T8"): 20,
}


def codes(teams):
    return [team.code for team in teams]


def play(director_actor, finish_round, stage, results, numbers):
    """Draw and finish rounds ``numbers`` of a stage; ``results[a, b]`` is a's margin."""
    for number in numbers:
        round_ = generate_round(director_actor, stage, expected_number=number)
        totals = {}
        for match in round_.matches.select_related("home", "away"):
            pair = (match.home.code, match.away.code)
            totals[match.number] = (results[pair] if pair in results
                                    else -results[pair[::-1]])
        finish_round(round_, totals)


@pytest.fixture
def groups(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    field = teams(8)
    allot_groups(director_actor, stage, [field[:4], field[4:]])
    return stage


@pytest.fixture
def knockout(director_actor, tournament, groups):
    def make(third_place=False):
        return create_stage(director_actor, tournament, name="Knockout",
                            kind=Stage.Kind.KNOCKOUT, third_place_match=third_place,
                            qualify_from=groups, qualifiers_per_group=2, extra_qualifiers=1)
    return make


def test_two_per_group_and_the_best_third_seed_the_bracket(
        director_actor, finish_round, groups, knockout):
    play(director_actor, finish_round, groups, GROUP_RESULTS, [1, 2, 3])
    stage = knockout()
    plan = qualification(stage)
    assert plan.problems == [] and plan.error is None
    # Winners: T1 (9, +60) before T5 (9, +30); runners-up: T6 (+90) before T2 (0); the best
    # third: T3 (5 mp, -5) before T7 (5 mp, -40).
    assert [(s.number, s.team.code, s.place.place, s.place.match_points,
             s.place.small_points, s.extra) for s in plan.seeds] == [
        (1, "T1", 1, 9, 60, False), (2, "T5", 1, 9, 30, False), (3, "T6", 2, 7, 90, False),
        (4, "T2", 2, 7, 0, False), (5, "T3", 3, 5, -5, True)]
    # A bracket of 8 (1 v 8, 4 v 5, 3 v 6, 2 v 7): seeds 1, 3 and 2 have byes; 4 meets 5,
    # two teams of group A.
    assert [(home.team.code, away.team.code if away else None)
            for home, away in plan.bracket] == [
        ("T1", None), ("T2", "T3"), ("T6", None), ("T5", None)]
    assert [(a.team.code, b.team.code) for a, b in plan.same_group] == [("T2", "T3")]

    entries = seed_from_standings(director_actor, stage)
    assert [(e.position, e.team.code) for e in entries] == [
        (1, "T1"), (2, "T5"), (3, "T6"), (4, "T2"), (5, "T3")]
    entry = AuditEntry.objects.get(action="stage.seeded")
    assert entry.data["seeds"][0] == {"seed": 1, "team": "T1", "group": "A", "place": 1,
                                      "match_points": 9, "small_points": 60, "wins": 3,
                                      "matches": 3, "extra": False}
    assert "5. T3 (A place 3: 5 mp, -5 sp, 1 w, extra)" in entry.summary
    first = generate_round(director_actor, stage)
    assert [(m.home.code, m.away.code) for m in first.matches.all()] == [("T2", "T3")]


def play_knockout(director_actor, finish_round, stage):
    """Round 1: T3 beats T2. Semi-finals: T1 beats T3, T6 beats T5. Final: T6 beats T1;
    a third-place match (if played): T3 beats T5."""
    first = generate_round(director_actor, stage)
    finish_round(first, {1: -15})
    semis = generate_round(director_actor, stage)
    assert [(m.home.code, m.away.code) for m in semis.matches.order_by("number")] == [
        ("T1", "T3"), ("T6", "T5")]
    finish_round(semis, {1: 20, 2: 10})
    final = generate_round(director_actor, stage)
    pairs = [(m.home.code, m.away.code) for m in final.matches.order_by("number")]
    totals = {1: -5}
    if stage.third_place_match:
        assert pairs == [("T1", "T6"), ("T3", "T5")]
        totals[2] = 30
    else:
        assert pairs == [("T1", "T6")]
    return final, totals


@pytest.mark.parametrize(("third_place", "expected"), [
    # The third-place match decides places 3 and 4.
    (True, ["T6", "T1", "T3", "T5", "T2", "T7", "T4", "T8"]),
    # Without it the semi-final losers go by the group standings: T5 won group B, T3 was
    # third in group A.
    (False, ["T6", "T1", "T5", "T3", "T2", "T7", "T4", "T8"]),
])
def test_final_ranking_knockout_places_then_the_stage_before(
        director_actor, finish_round, tournament, groups, knockout, third_place, expected):
    play(director_actor, finish_round, groups, GROUP_RESULTS, [1, 2, 3])
    stage = knockout(third_place)
    seed_from_standings(director_actor, stage)
    final, totals = play_knockout(director_actor, finish_round, stage)
    before = final_places(tournament)
    assert not before.is_final
    # The places decided so far: the finalists and, with a third-place match, the
    # semi-final losers still play; the quarter-final loser and the rest are placed.
    assert [(row.place, row.team.code) for row in before.rows] == [
        (None, "T1"), (None, "T6"),
        *([(None, "T5"), (None, "T3")] if third_place else [(3, "T5"), (4, "T3")]),
        *list(enumerate(expected[4:], 5))]
    assert "Final, match 1 (T1 – T6) has no official result yet." in before.missing
    finish_round(final, totals)

    ranking = final_places(tournament)
    assert ranking.missing == [] and ranking.is_final
    assert [(row.place, row.team.code) for row in ranking.rows] == list(
        enumerate(expected, 1))
    how = {row.team.code: row.how for row in ranking.rows}
    assert how["T6"] == "won the final" and how["T1"] == "lost the final"
    assert how["T2"] == "out in the quarter-finals; then by the standings of Groups"
    assert how["T7"] == "did not qualify; by group place, then the standings"
    if third_place:
        assert how["T3"] == "won the match for third place"
    else:
        assert how["T5"] == "out in the semi-finals; then by the standings of Groups"
    assert ranking.rows[5].before.where == "Group B, place 3"


def test_a_forfeited_knockout_match_is_won_by_the_team_that_did_not_default(
        director_actor, finish_round, tournament, groups, knockout):
    play(director_actor, finish_round, groups, GROUP_RESULTS, [1, 2, 3])
    stage = knockout()
    seed_from_standings(director_actor, stage)
    final, totals = play_knockout(director_actor, finish_round, stage)
    finish_round(final, totals)
    # The final forfeited by T6 (as a default records it): T1 wins the event.
    match = final.matches.get()
    Match.objects.filter(pk=match.pk).update(forfeited_by=match.away, signed_off_at=None,
                                             home_total=None, away_total=None)
    ranking = final_places(tournament)
    assert [row.team.code for row in ranking.rows][:2] == ["T1", "T6"]


def test_seeding_is_refused_while_the_group_stage_is_not_over(
        director_actor, finish_round, groups, knockout):
    play(director_actor, finish_round, groups, GROUP_RESULTS, [1, 2])
    stage = knockout()
    with pytest.raises(ServiceError, match="Groups has 2 of its 3 rounds so far"):
        seed_from_standings(director_actor, stage)
    third = generate_round(director_actor, groups, expected_number=3)
    plan = qualification(stage)
    assert plan.problems == ["Round 3 of Groups is draft; every round must be closed."]
    with pytest.raises(ServiceError, match="Round 3 of Groups is draft"):
        seed_from_standings(director_actor, stage)
    assert not stage.entries.exists()
    assert not AuditEntry.objects.filter(action="stage.seeded").exists()
    # Seeds shown meanwhile come from the official results so far.
    assert [seed.team.code for seed in plan.seeds][:2] == ["T1", "T5"]
    finish_round(third, {m.number: GROUP_RESULTS.get((m.home.code, m.away.code),
                                                     -GROUP_RESULTS.get((m.away.code,
                                                                         m.home.code), 0))
                         for m in third.matches.select_related("home", "away")})
    assert len(seed_from_standings(director_actor, stage)) == 5


def test_seeding_is_refused_while_a_match_is_being_corrected(
        director_actor, finish_round, groups, knockout):
    play(director_actor, finish_round, groups, GROUP_RESULTS, [1, 2, 3])
    stage = knockout()
    match = Match.objects.filter(round__stage=groups).order_by("round__number", "number")[0]
    match.team_results.update(provisional=True)  # as a correction after sign-off leaves it
    with pytest.raises(ServiceError, match=f"Match 1 of round 1 .{match.home.code} – "
                                           f"{match.away.code}. is not signed off"):
        seed_from_standings(director_actor, stage)


def test_seeding_is_refused_once_the_knockout_has_started(
        director_actor, finish_round, groups, knockout):
    play(director_actor, finish_round, groups, GROUP_RESULTS, [1, 2, 3])
    stage = knockout()
    seed_from_standings(director_actor, stage)
    generate_round(director_actor, stage)
    with pytest.raises(ServiceError, match="Knockout has started"):
        seed_from_standings(director_actor, stage)
    with pytest.raises(ServiceError, match="has started"):
        set_qualification(director_actor, stage, qualify_from=groups,
                          qualifiers_per_group=1)


def test_seeding_needs_the_director(director_actor, finish_round, tournament, groups,
                                    knockout, staff_user, actor):
    play(director_actor, finish_round, groups, GROUP_RESULTS, [1, 2, 3])
    stage = knockout()
    referee = actor(staff_user(tournament, "referee"))
    with pytest.raises(PermissionDenied):
        seed_from_standings(referee, stage)
    with pytest.raises(PermissionDenied):
        set_qualification(referee, stage, qualify_from=None, qualifiers_per_group=None)


def test_ties_left_by_the_standings_are_not_decided_by_the_seeding(
        director_actor, finish_round, tournament, groups, knockout):
    """Without the drawing of lots, T2 and T3 level on everything share second place: the
    seeding refuses to pick one of them."""
    tournament.tiebreak_order = "wins"
    tournament.save()
    level = {**GROUP_RESULTS, ("T2", "T3"): 0, ("T2", "T4"): 40, ("T3", "T4"): 40,
             ("T1", "T2"): 20, ("T1", "T3"): 20}
    play(director_actor, finish_round, groups, level, [1, 2, 3])
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT,
                         qualify_from=groups, qualifiers_per_group=2)
    plan = qualification(stage)
    assert "share a place in their group" in plan.error and not plan.can_seed
    with pytest.raises(ServiceError, match="add the drawing of lots"):
        seed_from_standings(director_actor, stage)


@pytest.mark.parametrize(("values", "message"), [
    ({"qualify_from": "later", "qualifiers_per_group": 2}, "comes after this stage"),
    ({"qualify_from": "knockout", "qualifiers_per_group": 2}, "is a knockout"),
    ({"qualify_from": "groups", "qualifiers_per_group": None}, "how many teams of each"),
    ({"qualify_from": "groups", "qualifiers_per_group": 2, "extra_qualifiers": -1},
     "cannot be negative"),
    ({"qualify_from": None, "qualifiers_per_group": 2}, "choose the stage"),
])
def test_qualification_settings_are_checked(director_actor, tournament, groups, values,
                                            message):
    stages = {"groups": groups, None: None,
              "knockout": create_stage(director_actor, tournament, name="Cup",
                                       kind=Stage.Kind.KNOCKOUT)}
    plate = create_stage(director_actor, tournament, name="Plate", kind=Stage.Kind.KNOCKOUT)
    stages["later"] = create_stage(director_actor, tournament, name="Later",
                                   kind=Stage.Kind.SWISS, swiss_rounds=3)
    with pytest.raises(ServiceError, match=message):
        set_qualification(director_actor, plate,
                          **{**values, "qualify_from": stages[values["qualify_from"]]})
    plate.refresh_from_db()
    assert plate.qualify_from is None


def test_only_a_knockout_is_seeded_from_standings(director_actor, tournament, groups):
    with pytest.raises(ServiceError, match="only a knockout"):
        create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                     swiss_rounds=3, qualify_from=groups, qualifiers_per_group=2)


def test_set_qualification_is_audited_and_can_be_cleared(director_actor, tournament, groups):
    cup = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT)
    set_qualification(director_actor, cup, qualify_from=groups, qualifiers_per_group=1,
                      extra_qualifiers=2)
    cup.refresh_from_db()
    assert (cup.qualify_from, cup.qualifiers_per_group, cup.extra_qualifiers) == (
        groups, 1, 2)
    assert AuditEntry.objects.filter(action="stage.qualification").last().summary.endswith(
        "the top 1 of each group of Groups and the 2 best of the next place")
    set_qualification(director_actor, cup, qualify_from=None, qualifiers_per_group=None)
    cup.refresh_from_db()
    assert (cup.qualify_from, cup.qualifiers_per_group, cup.extra_qualifiers) == (None, None, 0)


def test_knockout_without_a_stage_before_ranks_by_seed(director_actor, finish_round,
                                                       tournament, teams):
    stage = create_stage(director_actor, tournament, name="Cup", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(4))
    first = generate_round(director_actor, stage)  # T1–T4, T2–T3
    finish_round(first, {1: 10, 2: -10})
    final = generate_round(director_actor, stage)  # T1–T3
    assert final.status == Round.Status.DRAFT
    finish_round(final, {1: -20})
    ranking = final_places(tournament)
    # Semi-final losers by seed: T2 (seed 2) before T4.
    assert [row.team.code for row in ranking.rows] == ["T3", "T1", "T2", "T4"]
    assert ranking.before is None


def test_groups_that_played_different_numbers_of_matches_are_compared_per_match(
        director_actor, finish_round, tournament, teams, client, django_user_model):
    """Group A has five teams (four matches and a bye each: 2 mp), group B four (three
    matches). T1 wins all of A's: 4 × 3 + 2 = 14 mp in 5, 2.8 a match; T6 wins all of B's:
    9 mp in 3, 3.0 a match. By totals T1 would be seed 1; per match it is T6."""
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    field = teams(9)
    allot_groups(director_actor, stage, [field[:5], field[5:]])
    margins = {}
    for group in (["T1", "T2", "T3", "T4", "T5"], ["T6", "T7", "T8", "T9"]):
        for i, home in enumerate(group):
            for away in group[i + 1:]:
                margins[home, away] = 10 if home in ("T1", "T6") else 5
    play(director_actor, finish_round, stage, margins, [1, 2, 3, 4, 5])
    knockout = create_stage(director_actor, tournament, name="Knockout",
                            kind=Stage.Kind.KNOCKOUT, qualify_from=stage,
                            qualifiers_per_group=1, extra_qualifiers=0)
    plan = qualification(knockout)
    assert plan.problems == [] and plan.error is None
    assert [(s.number, s.team.code, s.place.match_points, s.place.matches)
            for s in plan.seeds] == [(1, "T6", 9, 3), (2, "T1", 14, 5)]
    assert sorted(plan.per_match.values()) == [3, 5]
    # The seeding page says why.
    client.force_login(django_user_model.objects.get(pk=director_actor.user.pk))
    page = client.get(f"/manage/{tournament.slug}/stages/{knockout.pk}/seeding/")
    text = page.content.decode()
    assert "did not all play as many matches" in text and "compared per match" in text
