"""The ranking (RULES.md §9, §10) against tables computed by hand, and against a slow,
obviously right reference on random events."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.rules import DEFAULT_RULES, Rules
from scoring.standings import (
    ByeRecord,
    PenaltyRecord,
    forfeited_match,
    played_match,
    standings,
)
from scoring.tiebreaks import lot

R = DEFAULT_RULES


def group_of_six():
    """A 6-team round robin (home small points given; win 3, tie 2, loss 1). Worked out by
    hand: F 11 mp +15; E 10 +25; A, B, C 10 mp and 0 each, split by their mutual matches
    (A beat B, B beat C, A and C tied: A 5 mp, B 4, C 3); D 9 −40."""
    results = [
        ("A", "B", 20), ("B", "C", 10), ("A", "C", 0),
        ("A", "D", -10), ("A", "E", -20), ("A", "F", 10),
        ("B", "D", 30), ("B", "E", -20), ("B", "F", 0),
        ("C", "D", 10), ("C", "E", 10), ("C", "F", -10),
        ("D", "E", 5), ("E", "F", 0), ("D", "F", -15),
    ]
    return [played_match(1 + n // 3, home, away, total, R)
            for n, (home, away, total) in enumerate(results)]


def table(rows):
    return [(row.rank, row.team, row.match_points, row.small_points, row.separated_by)
            for row in rows]


def test_a_three_way_tie_is_resolved_by_head_to_head():
    rows = standings("ABCDEF", group_of_six())
    assert table(rows) == [
        (1, "F", 11, 15, "match_points"),
        (2, "E", 10, 25, "small_points"),
        (3, "A", 10, 0, "head_to_head"),
        (4, "B", 10, 0, "head_to_head"),
        (5, "C", 10, 0, "match_points"),
        (6, "D", 9, -40, None),
    ]
    assert rows[2].separation.text == "head-to-head: 5 mp +20 vs 4 mp -10"
    assert rows[1].separation.text == "small points: +25 vs 0"
    assert rows[0].separation.text == "match points: 11 mp vs 10 mp"


def test_a_default_clears_every_result_with_the_withdrawn_team():
    """D defaulted: its five matches are cleared for everyone (hand computed)."""
    rows = standings("ABCDEF", group_of_six(), withdrawn=["D"])
    assert table(rows) == [
        (1, "E", 9, 30, "small_points"),
        (2, "A", 9, 10, "match_points"),
        (3, "F", 8, 0, "match_points"),
        (4, "C", 7, -10, "small_points"),
        (5, "B", 7, -30, None),
    ]


def test_a_match_point_penalty_changes_the_order():
    rows = standings("ABCDEF", group_of_six(),
                     penalties=[PenaltyRecord("F", "match_points", 2, round=3)])
    assert [row.team for row in rows] == ["E", "A", "B", "C", "F", "D"]
    assert rows[4].totals.penalty_match_points == 2 and rows[4].match_points == 9
    before = standings("ABCDEF", group_of_six(), after_round=2,
                       penalties=[PenaltyRecord("F", "match_points", 2, round=3)])
    assert next(r for r in before if r.team == "F").totals.penalty_match_points == 0


def test_a_four_way_tie_split_one_two_one_by_head_to_head_then_gins():
    """P, Q, R, S tie on 10 mp and 0 overall. Their mini-table: P 8 mp +30, Q and R 6 mp
    +10 (they tied each other), S 4 mp −50. Head-to-head is not applied again to Q and R:
    the next tiebreak (gins: R 2, Q 1) decides."""
    matches = [
        played_match(1, "P", "Q", 10, R), played_match(1, "P", "R", 20, R),
        played_match(1, "P", "S", 0, R), played_match(2, "Q", "R", 0, R, home_gins=1,
                                                      away_gins=2),
        played_match(2, "Q", "S", 20, R), played_match(2, "R", "S", 30, R),
        played_match(3, "P", "T", -10, R), played_match(3, "P", "U", -20, R),
        played_match(3, "Q", "T", -20, R), played_match(3, "Q", "U", 10, R),
        played_match(4, "R", "T", 5, R), played_match(4, "R", "U", -15, R),
        played_match(4, "S", "T", 20, R), played_match(4, "S", "U", 30, R),
        played_match(5, "T", "U", 10, R),
    ]
    rows = standings("PQRSTU", matches, tiebreaks=["head_to_head", "gins", "lots"])
    assert table(rows) == [
        (1, "T", 11, 15, "match_points"),
        (2, "P", 10, 0, "head_to_head"),
        (3, "R", 10, 0, "gins"),
        (4, "Q", 10, 0, "head_to_head"),
        (5, "S", 10, 0, "match_points"),
        (6, "U", 9, -15, None),
    ]


def test_head_to_head_passes_when_not_every_pair_has_met():
    """Swiss: A (won and lost) and C (two ties) are level on 4 mp and 0 but never met; the
    next tiebreak, wins, puts A first. E and F are level and never met, with no win each:
    the chain ends and they share a rank."""
    matches = [played_match(1, "A", "B", 10, R), played_match(1, "C", "E", 0, R),
               played_match(2, "D", "A", 10, R), played_match(2, "C", "F", 0, R)]
    rows = standings("ABCDEF", matches, tiebreaks=["head_to_head", "wins"])
    assert table(rows) == [
        (1, "A", 4, 0, "wins"),
        (2, "C", 4, 0, "match_points"),
        (3, "D", 3, 10, "match_points"),
        (4, "E", 2, 0, None),
        (4, "F", 2, 0, "match_points"),
        (6, "B", 1, -10, None),
    ]
    assert rows[0].separation.text == "match wins: 1 win vs 0 wins"


def test_teams_still_tied_at_the_end_share_a_rank():
    matches = [played_match(1, "A", "B", 0, R)]
    rows = standings("AB", matches, tiebreaks=["head_to_head", "wins"])
    assert [(row.rank, row.team, row.separated_by) for row in rows] == [(1, "A", None),
                                                                        (1, "B", None)]


def test_the_drawing_of_lots_is_reproducible_and_depends_on_the_seed():
    matches = [played_match(1, "A", "B", 0, R), played_match(1, "C", "D", 0, R)]
    orders = {tuple(row.team for row in standings("ABCD", matches, tiebreaks=["lots"],
                                                  lots_seed=seed))
              for seed in (b"one", b"two", b"three", b"four", b"five")}
    again = tuple(row.team for row in standings("ABCD", matches, tiebreaks=["lots"],
                                                lots_seed=b"one"))
    assert again in orders and len(orders) > 1
    assert lot(b"one", "A") == lot(b"one", "A") != lot(b"two", "A")


def test_a_forfeit_is_a_win_never_a_tie():
    rules = Rules(small_points_forfeit=10)
    match = forfeited_match(1, "A", "B", "home", rules)
    assert (match.home_mp, match.away_mp, match.home_small, match.away_small) == (0, 3, -10, 10)
    rows = standings("AB", [match])
    assert [(row.team, row.match_points, row.totals.wins) for row in rows] == [
        ("B", 3, 1), ("A", 0, 0)]
    with pytest.raises(RuleError, match="home or away"):
        forfeited_match(1, "A", "B", "nobody", rules)


def test_byes_count_and_after_round_n_leaves_later_rounds_out():
    matches = [played_match(1, "A", "B", 10, R), played_match(2, "A", "C", -10, R)]
    byes = [ByeRecord(1, "C", 2, 0), ByeRecord(2, "B", 2, 0)]
    after_one = standings("ABC", matches, byes=byes, after_round=1)
    assert [(r.team, r.match_points) for r in after_one] == [("A", 3), ("C", 2), ("B", 1)]
    full = standings("ABC", matches, byes=byes)
    assert [(r.team, r.match_points) for r in full] == [("C", 5), ("A", 4), ("B", 3)]


def test_bad_input_is_refused_by_name():
    with pytest.raises(RuleError, match="unknown tiebreak 'coin'"):
        standings("AB", [], tiebreaks=["coin"])
    with pytest.raises(RuleError, match="not in the field"):
        standings("AB", [played_match(1, "A", "Z", 5, R)])
    with pytest.raises(RuleError, match="listed twice"):
        standings("AA", [])
    with pytest.raises(RuleError, match="deducts"):
        PenaltyRecord("A", "gins", 1)


# --- random events against a slow reference ------------------------------------------------

def reference(teams, matches, penalties, withdrawn, chain, seed):
    """Obviously right, slow: every total recomputed from the records each time it is
    needed; tied groups split criterion by criterion, each criterion once per group."""
    teams = [t for t in teams if t not in withdrawn]
    live = [m for m in matches if m.home not in withdrawn and m.away not in withdrawn]

    def mp(team):
        points = sum(m.home_mp if m.home == team else m.away_mp
                     for m in live if team in (m.home, m.away))
        return points - sum(p.amount for p in penalties
                            if p.team == team and p.kind == "match_points")

    def sp(team):
        small = sum(m.home_small if m.home == team else m.away_small
                    for m in live if team in (m.home, m.away))
        return small - sum(p.amount for p in penalties
                           if p.team == team and p.kind == "small_points")

    def wins(team):
        count = 0
        for m in live:
            if team not in (m.home, m.away):
                continue
            if m.forfeited_by is not None:
                count += (m.forfeited_by == "home") != (m.home == team)
            else:
                own = m.home_small if m.home == team else m.away_small
                count += own > -own
        return count

    def h2h(group):
        pairs = {frozenset((m.home, m.away)) for m in live
                 if m.home in group and m.away in group}
        if any(frozenset(p) not in pairs for p in itertools.combinations(group, 2)):
            return None
        return {t: (sum(m.home_mp if m.home == t else m.away_mp for m in live
                        if t in (m.home, m.away) and {m.home, m.away} <= set(group)),
                    sum(m.home_small if m.home == t else m.away_small for m in live
                        if t in (m.home, m.away) and {m.home, m.away} <= set(group)))
                for t in group}

    criteria = [lambda g: {t: mp(t) for t in g}, lambda g: {t: sp(t) for t in g}]
    for key in chain:
        criteria.append({"head_to_head": h2h, "wins": lambda g: {t: wins(t) for t in g},
                         "lots": lambda g: {t: lot(seed, t) for t in g}}[key])
    groups = [list(teams)]
    for criterion in criteria:
        refined = []
        for g in groups:
            values = criterion(g) if len(g) > 1 else None
            if values is None:
                refined.append(g)
                continue
            for level in sorted(set(values.values()), reverse=True):
                refined.append([t for t in g if values[t] == level])
        groups = refined
    return [[(t, mp(t), sp(t)) for t in g] for g in groups]


TEAMS = list("ABCDEF")


@st.composite
def events(draw):
    rules = Rules(match_points_win=draw(st.sampled_from([2, 3])), match_points_tie=1,
                  match_points_loss=0)
    pairs = list(itertools.combinations(TEAMS, 2))
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=15))
    matches = []
    for n, (a, b) in enumerate(chosen):
        if draw(st.integers(0, 9)) == 0:
            matches.append(forfeited_match(n // 3 + 1, a, b, draw(st.sampled_from(
                ["home", "away"])), rules))
        else:
            matches.append(played_match(n // 3 + 1, a, b, draw(st.sampled_from(
                [-20, -5, 0, 0, 5, 20])), rules))
    penalties = draw(st.lists(st.builds(
        PenaltyRecord, st.sampled_from(TEAMS), st.sampled_from(["match_points",
                                                                 "small_points"]),
        st.integers(1, 5)), max_size=3))
    withdrawn = draw(st.sets(st.sampled_from(TEAMS), max_size=2))
    chain = draw(st.permutations(["head_to_head", "wins", "lots"]).map(
        lambda keys: keys[:3]))
    return matches, penalties, withdrawn, chain


@settings(max_examples=300, deadline=None)
@given(events(), st.binary(min_size=1, max_size=8))
def test_standings_equal_the_slow_reference(event, seed):
    matches, penalties, withdrawn, chain = event
    rows = standings(TEAMS, matches, penalties=penalties, withdrawn=withdrawn,
                     tiebreaks=chain, lots_seed=seed)
    expected = reference(TEAMS, matches, penalties, withdrawn, chain, seed)
    # Same order of tied blocks, same members and totals in each.
    got, position = [], 0
    for block in expected:
        got.append([(r.team, r.match_points, r.small_points)
                    for r in rows[position:position + len(block)]])
        assert {r.rank for r in rows[position:position + len(block)]} == {position + 1}
        position += len(block)
    assert got == expected and position == len(rows)
