"""Standings read from the stored result rows (selectors.standings): hand-computed tables
of whole group stages played through the services, after round N, provisional and official
results, point penalties from their round, withdrawn teams, the lots recorded when a round
closes, and the Swiss pairing taking its order from the standings (issue 11)."""

import hashlib
import hmac
import uuid

import pytest

from tournament.models import AuditEntry, Penalty, Stage, TeamResult
from tournament.selectors.stage import ranked, team_records
from tournament.selectors.standings import lots_seed, stage_standings, stage_tables
from tournament.services.deals import make_key
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import allot_groups, create_stage, enter_teams
from tournament.services.standings import record_lots
from tournament.services.team_results import refresh_voids


def table_of(standings):
    """(rank, code, match points, small points, separation text or None) per line."""
    return [(line.rank, line.team.code, line.match_points, line.small_points,
             line.separation.text if line.separation else None) for line in standings.lines]


def play(director_actor, finish_round, stage, results, rounds):
    """Draw and finish ``rounds`` rounds; ``results[(a, b)]`` is a's margin over b."""
    played = []
    for number in range(1, rounds + 1):
        round_ = generate_round(director_actor, stage, expected_number=number)
        totals = {}
        for match in round_.matches.select_related("home", "away"):
            home, away = match.home.code, match.away.code
            totals[match.number] = (results[home, away] if (home, away) in results
                                    else -results[away, home])
        played.append(finish_round(round_, totals))
    return played


@pytest.fixture
def group_of_six(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [teams(6)])
    return stage


# A = T1 … F = T6. A beats B and C, B beats C: head-to-head A 6 mp +20, B 4 mp, C 2 mp -20.
# Against D, E, F each of A, B, C makes 9 match points and 0 small points in all.
THREE_WAY = {
    ("T1", "T2"): 10, ("T1", "T3"): 10, ("T2", "T3"): 10,
    ("T4", "T1"): 5, ("T5", "T1"): 5, ("T6", "T1"): 10,
    ("T2", "T4"): 20, ("T5", "T2"): 10, ("T6", "T2"): 10,
    ("T3", "T4"): 15, ("T3", "T5"): 15, ("T6", "T3"): 10,
    ("T4", "T5"): 0, ("T6", "T4"): 30, ("T6", "T5"): 30,
}


def test_three_way_tie_on_match_points_is_resolved_by_head_to_head(
        director_actor, finish_round, group_of_six):
    play(director_actor, finish_round, group_of_six, THREE_WAY, 5)
    standings = stage_standings(group_of_six, group=group_of_six.groups.get())
    assert table_of(standings) == [
        (1, "T6", 15, 90, "match points: 15 mp vs 10 mp"),
        (2, "T5", 10, -30, "match points: 10 mp vs 9 mp"),
        (3, "T1", 9, 0, "head-to-head: 6 mp +20 vs 4 mp"),
        (4, "T2", 9, 0, "head-to-head: 4 mp vs 2 mp -20"),
        (5, "T3", 9, 0, "match points: 9 mp vs 8 mp"),
        (6, "T4", 8, -60, None),
    ]
    line = standings.lines[0]
    assert (line.played, line.wins, line.gins, line.provisional) == (5, 5, 0, False)
    assert not standings.provisional


def test_tie_on_match_points_resolved_by_small_points(director_actor, tournament, teams,
                                                       finish_round):
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [teams(4)])
    results = {("T1", "T2"): 10, ("T1", "T3"): 10, ("T1", "T4"): 10,
               ("T2", "T3"): 40, ("T4", "T2"): 10, ("T3", "T4"): 10}
    play(director_actor, finish_round, stage, results, 3)
    assert table_of(stage_standings(stage)) == [
        (1, "T1", 9, 30, "match points: 9 mp vs 5 mp"),
        (2, "T2", 5, 20, "small points: +20 vs -10"),
        (3, "T4", 5, -10, "small points: -10 vs -40"),
        (4, "T3", 5, -40, None),
    ]


# A = T1 … F = T6. A, B, C, D end on 9 match points and -15 small points; among them
# A 7 mp +15, B and C 6 mp -5, D 5 mp -5: head-to-head splits them 1 + 2 + 1, and B and C,
# level on wins and gins too, go to the drawing of lots.
FOUR_WAY = {
    ("T1", "T2"): 10, ("T1", "T3"): 10, ("T4", "T1"): 5,
    ("T2", "T3"): 0, ("T2", "T4"): 5, ("T3", "T4"): 5,
    ("T5", "T1"): 10, ("T6", "T1"): 20,
    ("T2", "T5"): 0, ("T6", "T2"): 10,
    ("T5", "T3"): 10, ("T3", "T6"): 0,
    ("T4", "T5"): 10, ("T6", "T4"): 20,
    ("T6", "T5"): 5,
}


def documented_lot(key_hex, stage, code):
    """docs/engine.md, worked by hand: the stage's seed is the hex HMAC of the first deal
    key; a team's lot the first 8 bytes of the HMAC of the seed and its code."""
    seed = hmac.new(bytes.fromhex(key_hex), f"duplicate-gin/lots-seed|stage:{stage.order}"
                    .encode(), hashlib.sha256).hexdigest().encode()
    digest = hmac.new(seed, f"duplicate-gin/lots|{code}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def test_four_way_tie_is_split_one_two_one_and_lots_are_recorded_at_the_close(
        director_actor, tournament, finish_round, group_of_six):
    key = make_key(director_actor, tournament)
    rounds = play(director_actor, finish_round, group_of_six, FOUR_WAY, 5)
    standings = stage_standings(group_of_six)
    lots = {code: documented_lot(key.key_hex, group_of_six, code) for code in ("T2", "T3")}
    upper, lower = sorted(lots, key=lots.get, reverse=True)
    assert [line[:4] for line in table_of(standings)] == [
        (1, "T6", 14, 55), (2, "T5", 10, 5), (3, "T1", 9, -15), (4, upper, 9, -15),
        (5, lower, 9, -15), (6, "T4", 9, -15)]
    texts = [line[4] for line in table_of(standings)]
    assert texts[:3] == ["match points: 14 mp vs 10 mp", "match points: 10 mp vs 9 mp",
                         "head-to-head: 7 mp +15 vs 6 mp -5"]
    shown = {code: f"lot {value:08x}"[:12] for code, value in lots.items()}
    assert texts[3] == f"drawing of lots: {shown[upper]} vs {shown[lower]}"
    assert texts[4:] == ["head-to-head: 6 mp -5 vs 5 mp -5", None]
    assert [line.team.code for line in standings.lots()] == [upper]
    # Closing the last round put the draw on record, once.
    entry = AuditEntry.objects.get(action="standings.lots", data__round=rounds[-1].pk)
    assert entry.data["lots"] == [{"group": "Group A", "above": upper, "below": lower,
                                   "rank": 4, "text": texts[3], "key": "lots",
                                   "above_value": lots[upper], "below_value": lots[lower]}]
    assert f"{upper} (place 4) above {lower}" in entry.summary
    assert record_lots(director_actor, rounds[-1]) is None
    assert AuditEntry.objects.filter(action="standings.lots",
                                     data__round=rounds[-1].pk).count() == 1


def test_the_lots_seed_is_the_stage_s_hmac_of_the_first_deal_key(director_actor,
                                                                 tournament, group_of_six):
    assert lots_seed(group_of_six) == b""  # no key yet: reproducible, not secret
    key = make_key(director_actor, tournament)
    expected = hmac.new(key.key, f"duplicate-gin/lots-seed|stage:{group_of_six.order}".encode(),
                        hashlib.sha256).hexdigest()
    assert lots_seed(group_of_six) == expected.encode()
    other = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    assert lots_seed(other) != lots_seed(group_of_six)


def test_standings_after_round_n(director_actor, finish_round, group_of_six):
    rounds = play(director_actor, finish_round, group_of_six, THREE_WAY, 5)
    first = {(m.home.code, m.away.code): m.home_total for m in rounds[0].matches.select_related(
        "home", "away")}
    after_one = stage_standings(group_of_six, after_round=1)
    by_code = {line.team.code: line for line in after_one.lines}
    for (home, away), total in first.items():
        assert (by_code[home].small_points, by_code[away].small_points) == (total, -total)
        assert by_code[home].played == by_code[away].played == 1
        assert by_code[home].match_points == (3 if total > 0 else 2 if total == 0 else 1)
    assert after_one.after_round == 1
    assert stage_standings(group_of_six, after_round=5).lines[0].match_points == 15
    assert [line.played for line in stage_standings(group_of_six, after_round=3).lines] == \
        [3] * 6


@pytest.fixture
def swiss(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    return stage


def test_provisional_rows_count_marked_and_official_only_leaves_them_out(
        director_actor, swiss, finish_round):
    finish_round(generate_round(director_actor, swiss), {1: 20, 2: -10})
    second = generate_round(director_actor, swiss)
    publish_round(director_actor, second)
    start_round(director_actor, second)
    match = second.matches.order_by("number").first()
    table = match.tables.get(position=1)
    record_hand_result(director_actor, table, 1, HandEntry("gin", 1, None, 20),
                       seen_version=0, request_token=uuid.uuid4())  # home +45
    everything = stage_standings(swiss)
    home = next(line for line in everything.lines if line.team.pk == match.home_id)
    assert everything.provisional and home.provisional and home.played == 2
    assert [line.provisional for line in everything.lines].count(True) == 2
    official = stage_standings(swiss, official_only=True)
    assert not official.provisional
    home_official = next(line for line in official.lines if line.team.pk == match.home_id)
    assert home_official.played == 1
    assert home.small_points - home_official.small_points == 45


def penalty(tournament, team, round_, kind, amount=0, match=None, user=None):
    return Penalty.objects.create(tournament=tournament, team=team, round=round_, kind=kind,
                                  amount=amount, match=match, reason="test",
                                  recorded_by=user)


def test_point_penalties_count_from_their_round_and_change_the_order(
        director_actor, tournament, swiss, finish_round):
    first = generate_round(director_actor, swiss)
    finish_round(first, {1: 20, 2: 10})
    second = generate_round(director_actor, swiss)
    finish_round(second, {1: 0, 2: 0})
    before = stage_standings(swiss)
    leader = before.lines[0]
    penalty(tournament, leader.team, second, Penalty.Kind.MATCH_POINTS, 2,
            user=director_actor.user)
    penalty(tournament, leader.team, second, Penalty.Kind.SMALL_POINTS, 7,
            user=director_actor.user)
    after = stage_standings(swiss)
    moved = next(line for line in after.lines if line.team == leader.team)
    assert (moved.match_points, moved.small_points) == (leader.match_points - 2,
                                                        leader.small_points - 7)
    assert (moved.totals.penalty_match_points, moved.totals.penalty_small_points) == (2, 7)
    assert after.lines[0].team != leader.team
    # After round 1 the penalty of round 2 does not count yet.
    round_one = next(line for line in stage_standings(swiss, after_round=1).lines
                     if line.team == leader.team)
    assert round_one.totals.penalty_match_points == 0
    # An undone penalty counts no more.
    Penalty.objects.update(undone_at=second.created_at, undone_by=director_actor.user)
    assert table_of(stage_standings(swiss)) == table_of(before)


def test_a_team_withdrawn_from_a_group_leaves_the_table_with_its_results(
        director_actor, tournament, finish_round, group_of_six):
    rounds = play(director_actor, finish_round, group_of_six, THREE_WAY, 2)
    out = group_of_six.entries.get(team__code="T6").team
    met = TeamResult.objects.filter(round__stage=group_of_six, opponent=out)
    opponents = set(met.values_list("team__code", flat=True))
    assert len(opponents) == 2
    match = rounds[1].matches.get(home=out) if rounds[1].matches.filter(home=out).exists() \
        else rounds[1].matches.get(away=out)
    penalty(tournament, out, rounds[1], Penalty.Kind.DEFAULT, match=match,
            user=director_actor.user)
    refresh_voids(group_of_six)
    standings = stage_standings(group_of_six)
    assert [t.code for t in standings.withdrawn] == ["T6"]
    assert "T6" not in [line.team.code for line in standings.lines]
    for line in standings.lines:
        if line.team.code in opponents:
            assert line.played == 1  # the match against T6 is cleared


def test_group_tables_come_from_one_read_in_a_fixed_number_of_queries(
        director_actor, tournament, teams, finish_round, django_assert_max_num_queries):
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    field = teams(12)
    allot_groups(director_actor, stage, [field[:4], field[4:8], field[8:]])
    for number in (1, 2):
        finish_round(generate_round(director_actor, stage, expected_number=number))
    stage = Stage.objects.select_related("tournament").get(pk=stage.pk)
    with django_assert_max_num_queries(6):
        _data, tables = stage_tables(stage)
    assert [t.group.name for t in tables] == ["A", "B", "C"]
    assert all(len(t.lines) == 4 and {line.played for line in t.lines} == {2}
               for t in tables)


def test_swiss_pairing_takes_its_order_and_points_from_the_standings(
        director_actor, tournament, swiss, finish_round):
    first = generate_round(director_actor, swiss)
    finish_round(first, {1: 20, 2: 10})
    leader = stage_standings(swiss).lines[0].team
    penalty(tournament, leader, first, Penalty.Kind.MATCH_POINTS, 2, user=director_actor.user)
    records = team_records(swiss)
    table = stage_standings(swiss, official_only=True, lots=False)
    assert [r.team_id for r in ranked(records)] == table.order()
    assert records[leader.pk].match_points == 1  # the win's 3, less the penalty
    assert records[leader.pk].opponents and records[leader.pk].byes == 0
    assert ranked(records)[0].team_id != leader.pk


def test_swiss_round_one_keeps_the_seed_order_not_the_lots(director_actor, tournament,
                                                          swiss):
    make_key(director_actor, tournament)
    records = ranked(team_records(swiss))
    assert [r.position for r in records] == [1, 2, 3, 4]
