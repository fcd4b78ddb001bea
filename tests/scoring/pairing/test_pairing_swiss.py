"""Swiss pairing: equal points meet, no rematch ever, byes go round (RULES.md §11)."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.pairing import SwissTeam, berger_rounds, brackets, swiss_pairing

# Helpers ----------------------------------------------------------------------------------


class Field:
    """A Swiss stage in miniature: records results and hands out the next round's field."""

    def __init__(self, teams, rng):
        self.rng = rng
        self.points = dict.fromkeys(teams, 0)
        self.small = dict.fromkeys(teams, 0)
        self.met = {team: set() for team in teams}
        self.byes = Counter()
        self.homes = Counter()

    def ranked(self):
        return sorted(self.points, key=lambda t: (-self.points[t], -self.small[t], t))

    def swiss_teams(self):
        return [
            SwissTeam(id=team, points=self.points[team], rank=rank,
                      opponents=frozenset(self.met[team]), byes=self.byes[team],
                      home_count=self.homes[team])
            for rank, team in enumerate(self.ranked(), 1)
        ]

    def play(self, pairs, byes=()):
        for home, away in pairs:
            self.met[home].add(away)
            self.met[away].add(home)
            self.homes[home] += 1
            margin = self.rng.randint(-40, 40)
            self.small[home] += margin
            self.small[away] -= margin
            self.points[home] += 3 if margin > 0 else 2 if margin == 0 else 1
            self.points[away] += 1 if margin > 0 else 2 if margin == 0 else 3
        for team in byes:
            self.byes[team] += 1
            self.points[team] += 2


def play_swiss(team_count, rounds, seed):
    """Rounds of a simulated Swiss stage: (the field handed in, the pairing) per round."""
    field = Field(range(1, team_count + 1), random.Random(seed))
    played = []
    for _ in range(rounds):
        teams = field.swiss_teams()
        pairing = swiss_pairing(teams)
        played.append((teams, pairing))
        field.play(pairing.pairs, [] if pairing.bye is None else [pairing.bye])
    return played


def fewest_possible_floats(teams, bye):
    """Cross-score-group pairs that any pairing needs: one per odd-sized prefix of groups."""
    sizes = Counter(team.points for team in teams if team.id != bye)
    running, floats = 0, 0
    for points in sorted(sizes, reverse=True)[:-1]:
        running += sizes[points]
        floats += running % 2
    return floats


def has_legal_pairing(teams, met):
    """Brute force, obviously right: pair the first team with anyone new, recurse."""
    if not teams:
        return True
    first, rest = teams[0], teams[1:]
    return any(
        other not in met[first] and has_legal_pairing(rest[:i] + rest[i + 1:], met)
        for i, other in enumerate(rest)
    )


def team(id, points=0, rank=None, opponents=(), byes=0, home_count=0):
    return SwissTeam(id=id, points=points, rank=rank or id, opponents=frozenset(opponents),
                     byes=byes, home_count=home_count)


def meetings(pairing):
    return {frozenset(pair) for pair in pairing.pairs}


# A simulated stage -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nine_rounds_of_sixty_four_teams(seed):
    met = set()
    floats = needed = 0
    for teams, pairing in play_swiss(64, 9, seed):
        assert pairing.bye is None
        seated = [t for pair in pairing.pairs for t in pair]
        assert sorted(seated) == list(range(1, 65))  # everyone plays once a round
        assert not meetings(pairing) & met  # no rematch, ever
        met |= meetings(pairing)
        points = {t.id: t.points for t in teams}
        floats += sum(points[home] != points[away] for home, away in pairing.pairs)
        needed += fewest_possible_floats(teams, None)
    # Equal points meet: odd score groups force most floats, and rematches a few more in
    # the late rounds (about one a round at most; this bound knows nothing of rematches).
    assert floats <= needed + 9


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_byes_go_round_in_an_odd_field(seed):
    byes = Counter()
    met = set()
    for teams, pairing in play_swiss(63, 9, seed):
        assert pairing.bye is not None
        fewest = min(t.byes for t in teams)
        eligible = [t for t in teams if t.byes == fewest]
        # The lowest-ranked of those with the fewest byes (all of them can be spared here).
        assert pairing.bye == max(eligible, key=lambda t: t.rank).id
        assert byes[pairing.bye] == 0
        byes[pairing.bye] += 1
        seated = [t for pair in pairing.pairs for t in pair]
        assert sorted([*seated, pairing.bye]) == list(range(1, 64))
        assert not meetings(pairing) & met
        met |= meetings(pairing)


@pytest.mark.parametrize("seed", range(20))
def test_late_rounds_of_a_small_field_pair_until_no_legal_pairing_is_left(seed):
    # Ten teams for nine rounds is a whole round robin; pairing round by round sometimes
    # runs out before the end, and then it must be because no legal pairing is left.
    field = Field(range(1, 11), random.Random(seed))
    for _ in range(9):
        teams = field.swiss_teams()
        try:
            pairing = swiss_pairing(teams)
        except RuleError:
            assert not has_legal_pairing([t.id for t in teams], field.met)
            return
        assert all(away not in field.met[home] for home, away in pairing.pairs)
        field.play(pairing.pairs)
    assert all(len(opponents) == 9 for opponents in field.met.values())


# Inside a score group ----------------------------------------------------------------------


def test_first_round_is_top_half_against_bottom_half():
    pairing = swiss_pairing([team(i) for i in range(1, 9)])
    assert pairing.pairs == ((1, 5), (2, 6), (3, 7), (4, 8))
    assert pairing.bye is None


def test_odd_first_round_gives_the_bye_to_the_last_seed():
    pairing = swiss_pairing([team(i) for i in range(1, 8)])
    assert pairing.bye == 7
    assert pairing.pairs == ((1, 4), (2, 5), (3, 6))


def test_a_rematch_in_the_ideal_pairing_takes_the_next_bottom_half_team():
    teams = [team(1, opponents={5}), team(2), team(3), team(4), team(5, opponents={1}),
             team(6), team(7), team(8)]
    assert swiss_pairing(teams).pairs == ((1, 6), (2, 5), (3, 7), (4, 8))


def test_the_lowest_ranked_team_of_an_odd_group_floats_to_meet_the_best_below():
    teams = [team(1, 6), team(2, 6), team(3, 6), team(4, 3), team(5, 3), team(6, 3)]
    pairing = swiss_pairing(teams)
    assert meetings(pairing) == {frozenset(p) for p in [(1, 2), (3, 4), (5, 6)]}
    assert pairing.pairs[0] == (1, 2)  # the strongest pair on board 1


def test_fewest_floaters_when_a_group_has_met_among_itself():
    # 1 and 2 have met: both must float; the rest of the field still pairs by points.
    teams = [team(1, 6, opponents={2}), team(2, 6, opponents={1}),
             team(3, 3), team(4, 3), team(5, 3), team(6, 3), team(7, 0), team(8, 0)]
    pairing = swiss_pairing(teams)
    assert meetings(pairing) == {frozenset(p) for p in [(1, 3), (2, 4), (5, 6), (7, 8)]}


def test_home_goes_to_the_team_with_fewer_home_matches_then_the_better_rank():
    teams = [team(1, home_count=2), team(2, home_count=1), team(3, home_count=1),
             team(4, home_count=1)]
    assert swiss_pairing(teams).pairs == ((3, 1), (2, 4))


def test_same_field_in_any_order_gives_the_same_pairing():
    teams, _pairing = play_swiss(40, 5, seed=7)[-1]
    expected = swiss_pairing(teams)
    shuffled = list(teams)
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        assert swiss_pairing(shuffled) == expected


def test_match_points_lead_even_if_the_rank_disagrees():
    teams = [team(1, 0, rank=1), team(2, 3, rank=2), team(3, 3, rank=3), team(4, 0, rank=4)]
    assert meetings(swiss_pairing(teams)) == {frozenset((2, 3)), frozenset((1, 4))}


def test_opponents_outside_the_field_are_ignored_and_one_sided_records_count():
    teams = [team(1, opponents={99}), team(2), team(3, opponents={2}), team(4)]
    assert meetings(swiss_pairing(teams)) == {frozenset((1, 3)), frozenset((2, 4))}


# Byes ------------------------------------------------------------------------------------


def test_the_bye_skips_a_team_whose_absence_leaves_no_legal_pairing():
    # Team 1 has met 2, 3 and 4: only 5 is left for it, so 5 cannot have the bye.
    teams = [team(1, opponents={2, 3, 4}), team(2), team(3), team(4), team(5)]
    pairing = swiss_pairing(teams)
    assert pairing.bye == 4
    assert (1, 5) in pairing.pairs


def test_a_second_bye_only_when_everyone_has_had_one():
    teams = [team(1, byes=1), team(2, byes=1), team(3, byes=1), team(4, byes=0),
             team(5, byes=1)]
    assert swiss_pairing(teams).bye == 4
    everyone = [team(i, byes=1) for i in range(1, 6)]
    assert swiss_pairing(everyone).bye == 5


# Backtracking and impossible rounds ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_the_only_legal_pairing_left_is_found(seed):
    # After six rounds of the eight-team Berger table only its seventh round is left.
    field = Field(range(1, 9), random.Random(seed))
    for boards in berger_rounds(8)[:6]:
        field.play(boards)
    pairing = swiss_pairing(field.swiss_teams())
    assert meetings(pairing) == {frozenset(board) for board in berger_rounds(8)[6]}


def test_a_late_round_needing_a_float_across_several_groups():
    # The top two have met each other and the third: the search must reach far down.
    teams = [team(1, 9, opponents={2, 3}), team(2, 9, opponents={1, 3}),
             team(3, 6, opponents={1, 2}), team(4, 6, opponents={5}),
             team(5, 3, opponents={4}), team(6, 3)]
    pairing = swiss_pairing(teams)
    assert not {frozenset(p) for p in [(1, 2), (1, 3), (2, 3), (4, 5)]} & meetings(pairing)
    assert len(pairing.pairs) == 3


@pytest.mark.parametrize("seed", range(3))
def test_past_its_budget_the_pairing_is_greedy_and_still_legal(monkeypatch, seed):
    # With no budget at all every bracket is paired greedily: still no rematch, nobody
    # left out, a legal pairing whenever one exists.
    monkeypatch.setattr(brackets, "TOTAL_EFFORT", 0)
    field = Field(range(1, 17), random.Random(seed))
    for _ in range(15):
        teams = field.swiss_teams()
        try:
            pairing = swiss_pairing(teams)
        except RuleError:
            assert not has_legal_pairing([t.id for t in teams], field.met)
            return
        assert sorted(t for pair in pairing.pairs for t in pair) == list(range(1, 17))
        assert all(away not in field.met[home] for home, away in pairing.pairs)
        field.play(pairing.pairs)


def test_no_legal_pairing_is_a_rule_error():
    teams = [team(1, opponents={2, 3, 4}), team(2), team(3), team(4)]
    with pytest.raises(RuleError, match="no pairing without a rematch exists"):
        swiss_pairing(teams)


def test_a_finished_round_robin_cannot_be_paired_again():
    for n in (5, 6):
        field = Field(range(1, n + 1), random.Random(n))
        for boards in berger_rounds(n):
            field.play([b for b in boards if b[1] is not None],
                       [b[0] for b in boards if b[1] is None])
        with pytest.raises(RuleError, match="no pairing without a rematch exists"):
            swiss_pairing(field.swiss_teams())


@pytest.mark.parametrize("teams", [[], [team(1)]])
def test_too_few_teams(teams):
    with pytest.raises(RuleError, match="at least 2 teams"):
        swiss_pairing(teams)


def test_a_team_twice_is_refused():
    with pytest.raises(RuleError, match="twice"):
        swiss_pairing([team(1), team(2), team(1, rank=3)])


# Never misses a legal pairing: against brute force -----------------------------------------


@st.composite
def stages_so_far(draw):
    """A small field after some rounds, paired at random without rematches."""
    count = draw(st.integers(4, 12))
    rounds = draw(st.integers(0, count))
    rng = draw(st.randoms(use_true_random=False))
    field = Field(range(1, count + 1), rng)
    for _ in range(rounds):
        waiting = list(field.points)
        rng.shuffle(waiting)
        pairs, byes = [], []
        while waiting:
            first = waiting.pop()
            other = next((t for t in waiting if t not in field.met[first]), None)
            if other is None:
                byes.append(first)
            else:
                waiting.remove(other)
                pairs.append((first, other))
        field.play(pairs, byes)
    return field


@settings(max_examples=300, deadline=None)
@given(stages_so_far())
def test_finds_a_pairing_whenever_brute_force_does(field):
    teams = field.swiss_teams()
    ids = [t.id for t in teams]
    met = field.met
    if len(ids) % 2:
        can_sit_out = [t for t in teams
                       if has_legal_pairing([i for i in ids if i != t.id], met)]
    else:
        can_sit_out = [None] if has_legal_pairing(ids, met) else []
    if not can_sit_out:
        with pytest.raises(RuleError, match="no pairing without a rematch exists"):
            swiss_pairing(teams)
        return
    pairing = swiss_pairing(teams)
    if len(ids) % 2:
        fewest = min(t.byes for t in can_sit_out)
        lowest = max((t for t in can_sit_out if t.byes == fewest), key=lambda t: t.rank)
        assert pairing.bye == lowest.id
    else:
        assert pairing.bye is None
    seated = [t for pair in pairing.pairs for t in pair]
    assert sorted(seated + ([pairing.bye] if pairing.bye else [])) == sorted(ids)
    assert all(away not in met[home] for home, away in pairing.pairs)


def test_brute_force_itself():
    met = {1: {2}, 2: {1}, 3: set(), 4: set()}
    assert has_legal_pairing([1, 2, 3, 4], met)
    met = {1: {2, 3, 4}, 2: {1}, 3: {1}, 4: {1}}
    assert not has_legal_pairing([1, 2, 3, 4], met)
