"""Group standings to knockout seeds, and the knockout to final places (issue 11, item 5)."""

import pytest

from scoring.errors import RuleError
from scoring.placings import (
    LOST_FINAL,
    LOST_THIRD_PLACE,
    NOT_QUALIFIED,
    OUT_IN_ROUND,
    WON_FINAL,
    WON_THIRD_PLACE,
    GroupPlace,
    KnockoutMatch,
    final_places,
    final_ranking,
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
