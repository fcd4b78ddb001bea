"""Group standings to knockout seeds, and the knockout to final places (issue 11, item 5)."""

import pytest

from scoring.errors import RuleError
from scoring.placings import (
    LOST_FINAL,
    LOST_THIRD_PLACE,
    NOT_QUALIFIED,
    OUT_IN_ROUND,
    STILL_PLAYING,
    WITHDRAWN,
    WON_FINAL,
    WON_THIRD_PLACE,
    GroupPlace,
    KnockoutMatch,
    final_places,
    final_ranking,
    is_final,
    knockout_ranking,
    not_qualified,
    qualifiers,
    same_group_meetings,
    stage_order,
)


def group(*rows):
    return [GroupPlace(team, place, mp, sp) for place, (team, mp, sp) in enumerate(rows, 1)]


A = group(("A1", 9, 40), ("A2", 7, 10), ("A3", 5, -5), ("A4", 3, -45))
B = group(("B1", 9, 55), ("B2", 6, 20), ("B3", 6, 0), ("B4", 3, -75))
C = group(("C1", 8, 30), ("C2", 7, 10), ("C3", 5, 10), ("C4", 4, -50))


def test_group_winners_then_runners_up_then_the_best_third():
    # Winners: B1 (9, +55) before A1 (9, +40) before C1 (8). Runners-up: A2 and C2 are level
    # on 7 mp and +10: group order keeps A2 first. Best third: B3 (6 mp).
    assert qualifiers([A, B, C], per_group=2, extra=1) == ["B1", "A1", "C1", "A2", "C2",
                                                             "B2", "B3"]


def test_qualification_that_cannot_be_filled_is_refused():
    with pytest.raises(RuleError, match="3 extra qualifiers"):
        qualifiers([A, B], per_group=3, extra=3)
    with pytest.raises(RuleError, match="at least one"):
        qualifiers([A], per_group=0)


def test_the_knockout_decides_the_places_it_reaches_and_the_stage_before_the_rest():
    before = ["B1", "A1", "C1", "A2", "C2", "B2", "B3", "C3"]
    quarter = [KnockoutMatch("B1", "C3"), KnockoutMatch("A2", "C2"),
               KnockoutMatch("A1", "B3"), KnockoutMatch("B2", "C1")]
    semi = [KnockoutMatch("A2", "B1"), KnockoutMatch("A1", "B2")]
    final = [KnockoutMatch("A1", "A2")]
    places = final_places([quarter, semi, final], third_place=None, before=before,
                          not_qualified=["A3", "A4", "B4", "C4"])
    # No third-place match: B1 is ahead of B2 in the stage before. Quarter-final losers
    # by the stage before: C1, C2, B3, C3.
    assert [team for _place, team in places] == [
        "A1", "A2", "B1", "B2", "C1", "C2", "B3", "C3", "A3", "A4", "B4", "C4"]
    with_third = final_places([quarter, semi, final],
                              third_place=KnockoutMatch("B2", "B1"), before=before)
    assert [team for _place, team in with_third][:4] == ["A1", "A2", "B2", "B1"]


def test_places_before_the_final_or_with_a_wrong_third_place_match_are_refused():
    with pytest.raises(RuleError, match="no final"):
        final_places([[KnockoutMatch("A", "B"), KnockoutMatch("C", "D")]], third_place=None,
                     before=["A", "B", "C", "D"])
    with pytest.raises(RuleError, match="semi-final losers"):
        final_places([[KnockoutMatch("A", "B"), KnockoutMatch("C", "D")],
                      [KnockoutMatch("A", "C")]], third_place=KnockoutMatch("A", "D"),
                     before=["A", "B", "C", "D"])


def test_the_stage_order_goes_place_by_place_and_the_rest_follow_it():
    # Thirds: B3 (6 mp), then C3 and A3 level on 5 mp, C3 with more small points.
    assert stage_order([A, B, C]) == ["B1", "A1", "C1", "A2", "C2", "B2", "B3", "C3", "A3",
                                      "C4", "A4", "B4"]
    seeds = qualifiers([A, B, C], per_group=2, extra=1)
    # Not qualified: the other thirds, then the fourths by match points and small points.
    assert not_qualified([A, B, C], seeds) == ["C3", "A3", "C4", "A4", "B4"]


def test_a_tie_left_by_the_standings_may_not_decide_who_qualifies():
    tied = [GroupPlace("A1", 1, 9, 40), GroupPlace("A2", 2, 6, 0, tied_with_next=True),
            GroupPlace("A3", 3, 6, 0), GroupPlace("A4", 4, 0, -40)]
    with pytest.raises(RuleError, match="A2 and A3 share a place"):
        qualifiers([tied, B], per_group=2)
    # Both in, or both out: nothing to decide.
    assert qualifiers([tied, B], per_group=3)[:2] == ["B1", "A1"]
    assert qualifiers([tied, B], per_group=1) == ["B1", "A1"]


def test_first_round_meetings_of_teams_of_one_group_are_found():
    bracket = [("A1", None), ("A2", "A3"), ("B1", "C2"), ("C1", "B3")]
    group_of = {"A1": "A", "A2": "A", "A3": "A", "B1": "B", "B3": "B", "C1": "C", "C2": "C"}
    assert same_group_meetings(bracket, group_of) == [("A2", "A3")]


def test_each_final_place_says_what_decided_it():
    quarter = [KnockoutMatch("A1", "B3"), KnockoutMatch("B1", None)]
    semi = [KnockoutMatch("A1", "B1")]
    rows = final_ranking([quarter, semi], third_place=None, before=["A1", "B1", "B3"],
                         not_qualified=["C1"])
    assert [(r.place, r.team, r.decided_by, r.round) for r in rows] == [
        (1, "A1", WON_FINAL, 2), (2, "B1", LOST_FINAL, 2), (3, "B3", OUT_IN_ROUND, 1),
        (4, "C1", NOT_QUALIFIED, None)]
    third = final_ranking(
        [[KnockoutMatch("A", "B"), KnockoutMatch("C", "D")], [KnockoutMatch("A", "C")]],
        third_place=KnockoutMatch("D", "B"), before=["A", "B", "C", "D"])
    assert [(r.team, r.decided_by) for r in third][2:] == [
        ("D", WON_THIRD_PLACE), ("B", LOST_THIRD_PLACE)]


# The ranking while the knockout runs, and once it is over (issue 20) -----------------------
# Expected places are written out by hand from the bracket, not computed.

def seeds(count):
    return [f"S{n}" for n in range(1, count + 1)]


def ranking_of(rows):
    return [(row.place, row.team, row.decided_by) for row in rows]


def test_a_final_alone_ranks_two_teams():
    rows = knockout_ranking(["S1", "S2"], [[KnockoutMatch("S2", "S1")]],
                            third_place_match=False, third_place=None, before=seeds(2))
    assert ranking_of(rows) == [(1, "S2", WON_FINAL), (2, "S1", LOST_FINAL)]
    assert is_final(rows)
    before = knockout_ranking(["S1", "S2"], [], third_place_match=True, third_place=None,
                              before=seeds(2))
    assert ranking_of(before) == [(None, "S1", STILL_PLAYING), (None, "S2", STILL_PLAYING)]
    assert not is_final(before)


SEMIS_OF_4 = [KnockoutMatch("S1", "S4"), KnockoutMatch("S3", "S2")]


@pytest.mark.parametrize(("third_place_match", "third", "expected"), [
    # The third-place match decides 3 and 4 whatever the seeds.
    (True, KnockoutMatch("S4", "S2"),
     [(1, "S3", WON_FINAL), (2, "S1", LOST_FINAL), (3, "S4", WON_THIRD_PLACE),
      (4, "S2", LOST_THIRD_PLACE)]),
    # Without it the semi-final losers go by the stage before: S2 before S4.
    (False, None,
     [(1, "S3", WON_FINAL), (2, "S1", LOST_FINAL), (3, "S2", OUT_IN_ROUND),
      (4, "S4", OUT_IN_ROUND)]),
])
def test_four_teams(third_place_match, third, expected):
    rows = knockout_ranking(seeds(4), [SEMIS_OF_4, [KnockoutMatch("S3", "S1")]],
                            third_place_match=third_place_match, third_place=third,
                            before=seeds(4))
    assert ranking_of(rows) == expected


def test_four_teams_while_the_final_and_the_third_place_match_are_played():
    rows = knockout_ranking(seeds(4), [SEMIS_OF_4], third_place_match=True, third_place=None,
                            before=seeds(4))
    assert [(r.place, r.team, r.decided_by, r.places) for r in rows] == [
        (None, "S1", STILL_PLAYING, (1, 2)), (None, "S3", STILL_PLAYING, (1, 2)),
        (None, "S2", STILL_PLAYING, (3, 4)), (None, "S4", STILL_PLAYING, (3, 4))]
    # Without a third-place match the semi-final losers are placed at once.
    rows = knockout_ranking(seeds(4), [SEMIS_OF_4], third_place_match=False, third_place=None,
                            before=seeds(4))
    assert ranking_of(rows) == [(None, "S1", STILL_PLAYING), (None, "S3", STILL_PLAYING),
                                (3, "S2", OUT_IN_ROUND), (4, "S4", OUT_IN_ROUND)]
    # The third-place match decided before the final: 3 and 4 are known, 1 and 2 open.
    rows = knockout_ranking(seeds(4), [SEMIS_OF_4], third_place_match=True,
                            third_place=KnockoutMatch("S2", "S4"), before=seeds(4))
    assert ranking_of(rows) == [(None, "S1", STILL_PLAYING), (None, "S3", STILL_PLAYING),
                                (3, "S2", WON_THIRD_PLACE), (4, "S4", LOST_THIRD_PLACE)]


def test_six_teams_two_byes():
    # A bracket of 8: seeds 1 and 2 have byes; 3 v 6 and 4 v 5 play round 1.
    first = [KnockoutMatch("S1", None), KnockoutMatch("S5", "S4"),
             KnockoutMatch("S6", "S3"), KnockoutMatch("S2", None)]
    semis = [KnockoutMatch("S5", "S1"), KnockoutMatch("S2", "S6")]
    for third_place_match, third, places in [
            (True, KnockoutMatch("S6", "S1"),
             [(3, "S6", WON_THIRD_PLACE), (4, "S1", LOST_THIRD_PLACE)]),
            (False, None, [(3, "S1", OUT_IN_ROUND), (4, "S6", OUT_IN_ROUND)])]:
        rows = knockout_ranking(seeds(6), [first, semis, [KnockoutMatch("S5", "S2")]],
                                third_place_match=third_place_match, third_place=third,
                                before=seeds(6), not_qualified=["S7", "S8"])
        # Round 1's losers share 5 and 6 by the stage before: S3 before S4.
        assert ranking_of(rows) == [(1, "S5", WON_FINAL), (2, "S2", LOST_FINAL), *places,
                                    (5, "S3", OUT_IN_ROUND), (6, "S4", OUT_IN_ROUND),
                                    (7, "S7", NOT_QUALIFIED), (8, "S8", NOT_QUALIFIED)]
    # After one of round 1's two matches, its loser's place (5 or 6) is still open.
    rows = knockout_ranking(seeds(6), [first[:2] + first[3:]], third_place_match=True,
                            third_place=None, before=seeds(6))
    assert [(r.place, r.team, r.decided_by, r.round, r.places) for r in rows] == [
        (None, "S1", STILL_PLAYING, None, (1, 4)), (None, "S2", STILL_PLAYING, None, (1, 4)),
        (None, "S3", STILL_PLAYING, None, (1, 6)), (None, "S5", STILL_PLAYING, None, (1, 4)),
        (None, "S6", STILL_PLAYING, None, (1, 6)), (None, "S4", OUT_IN_ROUND, 1, (5, 6))]


def test_eight_teams_with_a_third_place_match():
    quarters = [KnockoutMatch("S1", "S8"), KnockoutMatch("S5", "S4"),
                KnockoutMatch("S3", "S6"), KnockoutMatch("S7", "S2")]
    semis = [KnockoutMatch("S5", "S1"), KnockoutMatch("S3", "S7")]
    rows = knockout_ranking(seeds(8), [quarters, semis, [KnockoutMatch("S3", "S5")]],
                            third_place_match=True, third_place=KnockoutMatch("S7", "S1"),
                            before=seeds(8))
    assert ranking_of(rows) == [
        (1, "S3", WON_FINAL), (2, "S5", LOST_FINAL), (3, "S7", WON_THIRD_PLACE),
        (4, "S1", LOST_THIRD_PLACE), (5, "S2", OUT_IN_ROUND), (6, "S4", OUT_IN_ROUND),
        (7, "S6", OUT_IN_ROUND), (8, "S8", OUT_IN_ROUND)]
    assert [row.round for row in rows] == [3, 3, 3, 3, 1, 1, 1, 1]


def test_twelve_teams_four_byes():
    # A bracket of 16: seeds 1 to 4 have byes; round 1 is 5 v 12, 8 v 9, 7 v 10, 6 v 11.
    first = [KnockoutMatch("S1", None), KnockoutMatch("S12", "S5"), KnockoutMatch("S8", "S9"),
             KnockoutMatch("S4", None), KnockoutMatch("S3", None), KnockoutMatch("S11", "S6"),
             KnockoutMatch("S7", "S10"), KnockoutMatch("S2", None)]
    quarters = [KnockoutMatch("S1", "S12"), KnockoutMatch("S8", "S4"),
                KnockoutMatch("S3", "S11"), KnockoutMatch("S2", "S7")]
    semis = [KnockoutMatch("S8", "S1"), KnockoutMatch("S2", "S3")]
    rows = knockout_ranking(seeds(12), [first, quarters, semis, [KnockoutMatch("S8", "S2")]],
                            third_place_match=False, third_place=None, before=seeds(12),
                            not_qualified=["S13", "S14"], withdrawn=["S15"])
    assert ranking_of(rows) == [
        (1, "S8", WON_FINAL), (2, "S2", LOST_FINAL), (3, "S1", OUT_IN_ROUND),
        (4, "S3", OUT_IN_ROUND), (5, "S4", OUT_IN_ROUND), (6, "S7", OUT_IN_ROUND),
        (7, "S11", OUT_IN_ROUND), (8, "S12", OUT_IN_ROUND), (9, "S5", OUT_IN_ROUND),
        (10, "S6", OUT_IN_ROUND), (11, "S9", OUT_IN_ROUND), (12, "S10", OUT_IN_ROUND),
        (13, "S13", NOT_QUALIFIED), (14, "S14", NOT_QUALIFIED), (None, "S15", WITHDRAWN)]
    assert is_final(rows)


def test_sixteen_teams_round_by_round():
    first = [KnockoutMatch("S1", "S16"), KnockoutMatch("S9", "S8"), KnockoutMatch("S5", "S12"),
             KnockoutMatch("S4", "S13"), KnockoutMatch("S3", "S14"), KnockoutMatch("S6", "S11"),
             KnockoutMatch("S7", "S10"), KnockoutMatch("S2", "S15")]
    quarters = [KnockoutMatch("S1", "S9"), KnockoutMatch("S4", "S5"),
                KnockoutMatch("S3", "S6"), KnockoutMatch("S7", "S2")]
    semis = [KnockoutMatch("S1", "S4"), KnockoutMatch("S7", "S3")]
    final = [KnockoutMatch("S7", "S1")]
    out_first = [(9, "S8"), (10, "S10"), (11, "S11"), (12, "S12"), (13, "S13"), (14, "S14"),
                 (15, "S15"), (16, "S16")]
    rows = knockout_ranking(seeds(16), [first], third_place_match=True, third_place=None,
                            before=seeds(16))
    assert [row.team for row in rows[:8]] == ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S9"]
    assert {row.decided_by for row in rows[:8]} == {STILL_PLAYING}
    assert [(row.place, row.team) for row in rows[8:]] == out_first
    rows = knockout_ranking(seeds(16), [first, quarters, semis, final],
                            third_place_match=True, third_place=KnockoutMatch("S4", "S3"),
                            before=seeds(16))
    assert [(row.place, row.team) for row in rows] == [
        (1, "S7"), (2, "S1"), (3, "S4"), (4, "S3"), (5, "S2"), (6, "S5"), (7, "S6"),
        (8, "S9"), *out_first]


def test_a_knockout_that_contradicts_itself_is_refused():
    with pytest.raises(RuleError, match="out of the knockout twice"):
        knockout_ranking(seeds(4), [[KnockoutMatch("S1", "S4"), KnockoutMatch("S2", "S4")]],
                         third_place_match=False, third_place=None, before=seeds(4))
    with pytest.raises(RuleError, match="won a match after going out"):
        knockout_ranking(seeds(4), [SEMIS_OF_4, [KnockoutMatch("S4", "S3")]],
                         third_place_match=False, third_place=None, before=seeds(4))
    with pytest.raises(RuleError, match="not in the knockout"):
        knockout_ranking(seeds(2), [[KnockoutMatch("S1", "X")]], third_place_match=False,
                         third_place=None, before=seeds(2))
    with pytest.raises(RuleError, match="plays no third-place match"):
        knockout_ranking(seeds(4), [SEMIS_OF_4], third_place_match=False,
                         third_place=KnockoutMatch("S2", "S4"), before=seeds(4))


def test_groups_of_unequal_matches_are_compared_per_match():
    """Group A played 5 matches a team, group B 4 (a team withdrew): hand-computed."""
    a = [GroupPlace("A1", 1, 12, 150, 4, matches=5),   # 2.4 mp a match
         GroupPlace("A2", 2, 10, 90, 3, matches=5),    # 2.0 mp, 18 sp a match
         GroupPlace("A3", 3, 9, 10, 2, matches=5)]     # 1.8 mp
    b = [GroupPlace("B1", 1, 11, 120, 4, matches=4),   # 2.75 mp a match
         GroupPlace("B2", 2, 8, 80, 2, matches=4),     # 2.0 mp, 20 sp a match
         GroupPlace("B3", 3, 7, -30, 1, matches=4)]    # 1.75 mp
    # By totals A1 (12) would lead B1 (11) and A2 (10) lead B2 (8); per match B1 leads and
    # the runners-up tie on 2.0 mp, B2's 20 sp a match beating A2's 18.
    assert qualifiers([a, b], per_group=2, extra=1) == ["B1", "A1", "B2", "A2", "A3"]
    assert stage_order([a, b]) == ["B1", "A1", "B2", "A2", "A3", "B3"]


def test_groups_of_equal_matches_keep_the_totals_order():
    """Per match or by totals: the same order when every team played as many matches."""
    a = [GroupPlace("A1", 1, 12, 150, 4, matches=5)]
    b = [GroupPlace("B1", 1, 12, 160, 4, matches=5)]
    assert qualifiers([a, b], per_group=1) == ["B1", "A1"]
    level = [[GroupPlace("A1", 1, 12, 150, 4, matches=5)],
             [GroupPlace("B1", 1, 12, 150, 4, matches=5)]]
    assert qualifiers(level, per_group=1) == ["A1", "B1"]  # the group order
