"""Penalties, defaults and disqualifications (RULES.md §11), with hand-computed rows.

Every match here is one hand per table, played through the services (entry, approvals,
signatures, sign-off). Table 1 seats home's first player in seat 1; table 2 seats away's
second player in seat 1 (RULES.md §8). A knock 4 against 12 is worth 23, gin against 30 is
55, gin against 20 is 45.
"""

import random
import uuid

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.standings import AWAY, HOME, ByeRecord, MatchRecord, PenaltyRecord, standings
from tournament.models import (
    AuditEntry,
    HandResult,
    Match,
    Penalty,
    Round,
    Stage,
    Team,
    TeamResult,
)
from tournament.selectors.penalties import left_out, point_penalties, withdrawn_teams
from tournament.services import ServiceError
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.penalties import plan_penalty, record_penalty, undo_penalty
from tournament.services.penalty_plan import PlanChanged
from tournament.services.rounds import (
    close_round,
    publish_round,
    set_lineup,
    start_round,
    undo_round,
)
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage, enter_teams

DRAW = HandEntry("draw")
HOME_23 = HandEntry("knock", 1, 4, 12)  # at table 1: home +23
AWAY_23 = HandEntry("knock", 2, 4, 12)  # at table 1: away +23


@pytest.fixture
def short(tournament):
    """One hand per match (the round copies it when it is drawn)."""
    tournament.hands_per_match = 1
    tournament.save()
    return tournament


@pytest.fixture
def referee(tournament, staff_user, actor):
    return actor(staff_user(tournament, "referee", username="referee"))


@pytest.fixture
def chief(tournament, staff_user, actor):
    return actor(staff_user(tournament, "referee", chief=True, username="chief"))


def enter(actor, match, table1, table2=DRAW):
    one, two = match.tables.order_by("position")
    for table, entry in ((one, table1), (two, table2)):
        record_hand_result(actor, table, 1, entry, seen_version=0, request_token=uuid.uuid4())


def play(actor, match, table1, table2=DRAW):
    """Enter, approve, sign and sign off the match's one hand at each table."""
    enter(actor, match, table1, table2)
    for result in HandResult.objects.filter(table__match=match, is_current=True):
        approve_hand(actor, result, 1)
        approve_hand(actor, result, 2)
    for table in match.tables.all():
        sign_table(actor, table, 1)
        sign_table(actor, table, 2)
    sign_off_match(actor, match)


def begin(actor, stage):
    round_ = generate_round(actor, stage)
    publish_round(actor, round_)
    return start_round(actor, round_)


def match_of(round_, home, away):
    return Match.objects.get(round=round_, home__code=home, away__code=away)


def rows(stage):
    """(round, team) → (outcome, small points, match points, void, forfeit)."""
    return {(r.round.number, r.team.code): (r.outcome, r.small_points, r.match_points, r.void,
                                            r.forfeit)
            for r in TeamResult.objects.filter(round__stage=stage)
            .select_related("round", "team")}


def snapshot(stage):
    """Every stored value of the stage's rows and matches that a penalty may touch."""
    results = sorted(TeamResult.objects.filter(round__stage=stage).values_list(
        "round_id", "team_id", "match_id", "opponent_id", "outcome", "small_points",
        "match_points", "gins", "forfeit", "void", "provisional"))
    matches = sorted(Match.objects.filter(round__stage=stage).values_list(
        "pk", "forfeited_by_id", "home_total", "away_total", "signed_off_at"))
    return results, matches


def ranking(stage):
    """The stage's order by scoring.standings, made from the stored rows (void ones left
    out), the byes, the point penalties and the withdrawals."""
    pairs: dict[int, dict] = {}
    byes = []
    for row in (TeamResult.objects.filter(round__stage=stage, void=False)
                .select_related("round", "team", "match")):
        if row.match_id is None:
            byes.append(ByeRecord(row.round.number, row.team.code, row.match_points,
                                  row.small_points))
        else:
            side = HOME if row.team_id == row.match.home_id else AWAY
            pairs.setdefault(row.match_id, {"round": row.round.number,
                                            "match": row.match})[side] = row
    matches = []
    for pair in pairs.values():
        home, away, match = pair[HOME], pair[AWAY], pair["match"]
        forfeited = (None if match.forfeited_by_id is None else
                     HOME if match.forfeited_by_id == match.home_id else AWAY)
        matches.append(MatchRecord(pair["round"], home.team.code, away.team.code,
                                   home.small_points, away.small_points, home.match_points,
                                   away.match_points, forfeited_by=forfeited))
    codes = dict(stage.entries.values_list("team_id", "team__code"))
    penalties = [PenaltyRecord(codes[p.team_id], p.kind, p.amount, p.round.number)
                 for p in point_penalties(stage)]
    table = standings(sorted(codes.values()), matches, byes=byes, penalties=penalties,
                      withdrawn=[codes[t] for t in withdrawn_teams(stage)])
    return [(row.team, row.match_points, row.small_points) for row in table]


# A group of five: Berger rounds (bye first) ------------------------------------------------
#   1: T1 bye, T2–T5, T3–T4    2: T4 bye, T5–T3, T1–T2    3: T2 bye, T3–T1, T4–T5
#   4: T5 bye, T1–T4, T2–T3    5: T3 bye, T4–T2, T5–T1

@pytest.fixture
def group(director_actor, short, teams):
    stage = create_stage(director_actor, short, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [teams(5)])
    return stage


@pytest.fixture
def two_rounds(director_actor, group):
    """Rounds 1 and 2 played and closed: T2 +23 T5; T3 +10 T4 (55 − 45); T5 +23 T3;
    T1 0 T2."""
    one = begin(director_actor, group)
    play(director_actor, match_of(one, "T2", "T5"), HOME_23)
    play(director_actor, match_of(one, "T3", "T4"), HandEntry("gin", 1, None, 30),
         HandEntry("gin", 1, None, 20))  # T3 +55 at table 1, T4 +45 at table 2
    close_round(director_actor, one)
    two = begin(director_actor, group)
    play(director_actor, match_of(two, "T5", "T3"), HOME_23)
    play(director_actor, match_of(two, "T1", "T2"), DRAW)
    close_round(director_actor, two)
    return group


AFTER_TWO = {
    (1, "T1"): ("bye", 0, 2, False, False),
    (1, "T2"): ("win", 23, 3, False, False), (1, "T5"): ("loss", -23, 1, False, False),
    (1, "T3"): ("win", 10, 3, False, False), (1, "T4"): ("loss", -10, 1, False, False),
    (2, "T4"): ("bye", 0, 2, False, False),
    (2, "T5"): ("win", 23, 3, False, False), (2, "T3"): ("loss", -23, 1, False, False),
    (2, "T1"): ("tie", 0, 2, False, False), (2, "T2"): ("tie", 0, 2, False, False),
}


def test_the_two_rounds_are_as_computed_by_hand(two_rounds):
    assert rows(two_rounds) == AFTER_TWO
    # T2 5 mp; T5 and T1 4 mp 0: they have not met, T5 has a win; T3 4 mp −13; T4 3 mp.
    assert ranking(two_rounds) == [("T2", 5, 23), ("T5", 4, 0), ("T1", 4, 0),
                                   ("T3", 4, -13), ("T4", 3, -10)]


def test_a_group_default_clears_every_result_of_the_team_and_it_leaves_the_stage(
        director_actor, referee, two_rounds):
    three = begin(director_actor, two_rounds)
    defaulted = match_of(three, "T3", "T1")
    record_penalty(referee, team=defaulted.home, round=three, kind="default",
                   match=defaulted, reason="did not come to the table")
    play(director_actor, match_of(three, "T4", "T5"), HOME_23)
    assert withdrawn_teams(two_rounds) == {defaulted.home_id}
    assert AuditEntry.objects.get(action="penalty.record").summary == (
        "referee recorded a default by T3 of Groups, Round 3 match 1 (T3 – T1); Groups, "
        "Round 3 match 1 (T3 – T1) forfeited by T3; T3 withdrawn from Groups: every result "
        "involving it there is cleared, for its opponents too; reason: did not come to the "
        "table")
    expected = {
        **AFTER_TWO,
        # T3's results are cleared, and with them T4's of round 1 and T5's of round 2.
        (1, "T3"): ("win", 10, 3, True, False), (1, "T4"): ("loss", -10, 1, True, False),
        (2, "T5"): ("win", 23, 3, True, False), (2, "T3"): ("loss", -23, 1, True, False),
        # The defaulted match: a forfeit (3 – 0 match points, 0 small points), void too.
        (3, "T1"): ("win", 0, 3, True, True), (3, "T3"): ("loss", 0, 0, True, True),
        (3, "T2"): ("bye", 0, 2, False, False),
        (3, "T4"): ("win", 23, 3, False, False), (3, "T5"): ("loss", -23, 1, False, False),
    }
    assert rows(two_rounds) == expected
    # T2: 3 + 2 + 2 = 7 mp, +23; T4: bye 2 + win 3 = 5, +23; T1: bye 2 + tie 2 = 4;
    # T5: 1 + 1 = 2, −46. T3 is out of the table.
    assert ranking(two_rounds) == [("T2", 7, 23), ("T4", 5, 23), ("T1", 4, 0),
                                   ("T5", 2, -46)]
    # The forfeited match needs no sign-off: the round closes.
    close_round(director_actor, three)
    # Round 4 (T5 bye, T1–T4, T2–T3): T3 is left out and T2 sits out: no entry, no row.
    four = begin(director_actor, two_rounds)
    assert [(m.home.code, m.away.code) for m in four.matches.order_by("number")] == [
        ("T1", "T4")]
    assert sorted(four.entries.values_list("team__code", "side")) == [
        ("T1", "home"), ("T4", "away"), ("T5", "bye")]
    assert sorted(code for (number, code) in rows(two_rounds) if number == 4) == ["T5"]
    drawn = AuditEntry.objects.get(action="round.generate", data__round=four.pk)
    assert "withdrawn, left out: T3; sitting out (opponent withdrawn): T2" in drawn.summary
    play(director_actor, match_of(four, "T1", "T4"), HOME_23)
    close_round(director_actor, four)
    # Round 5 (T3 bye, T4–T2, T5–T1): T3 gets no bye; nobody else is missing.
    five = begin(director_actor, two_rounds)
    assert sorted(five.entries.values_list("team__code", "side")) == [
        ("T1", "away"), ("T2", "away"), ("T4", "home"), ("T5", "home")]


def test_undoing_a_group_default_restores_every_row_exactly(director_actor, referee,
                                                            two_rounds):
    three = begin(director_actor, two_rounds)
    defaulted = match_of(three, "T3", "T1")
    enter(director_actor, defaulted, HOME_23)  # provisional: T3 +23 before the default
    play(director_actor, match_of(three, "T4", "T5"), AWAY_23)
    before = snapshot(two_rounds)
    assert rows(two_rounds)[3, "T3"] == ("win", 23, 3, False, False)
    penalty = record_penalty(referee, team=defaulted.home, round=three, kind="default",
                             match=defaulted, reason="left after the first hand")
    assert snapshot(two_rounds) != before
    with pytest.raises(ServiceError, match="forfeited by T3; no hands"):
        enter(director_actor, defaulted, DRAW)
    with pytest.raises(ServiceError, match="forfeited: a default decides it"):
        sign_off_match(director_actor, defaulted)
    undo_penalty(referee, penalty, "it was the other team's table")
    assert snapshot(two_rounds) == before
    assert withdrawn_teams(two_rounds) == set()
    penalty.refresh_from_db()
    assert not penalty.is_active and penalty.undo_reason == "it was the other team's table"
    entry = AuditEntry.objects.filter(action="penalty.undo").get()
    assert entry.summary == (
        "referee undid a default by T3 of Groups, Round 3 match 1 (T3 – T1); Groups, Round 3 "
        "match 1 (T3 – T1) no longer forfeited by T3; T3 back in Groups: its results there "
        "count again; reason: it was the other team's table")


def test_an_undo_after_a_round_drawn_without_the_team_is_refused(director_actor, referee,
                                                                 two_rounds):
    three = begin(director_actor, two_rounds)
    defaulted = match_of(three, "T3", "T1")
    penalty = record_penalty(referee, team=defaulted.home, round=three, kind="default",
                             match=defaulted, reason="no show")
    play(director_actor, match_of(three, "T4", "T5"), HOME_23)
    close_round(director_actor, three)
    four = generate_round(director_actor, two_rounds)
    before = snapshot(two_rounds)
    with pytest.raises(ServiceError, match=r"Round 4 was drawn without T3.*undo that round"):
        undo_penalty(referee, penalty, "mistake")
    assert snapshot(two_rounds) == before
    penalty.refresh_from_db()
    assert penalty.is_active
    undo_round(director_actor, four)  # as the message says: then the undo goes through
    undo_penalty(referee, penalty, "mistake")
    assert match_of(three, "T3", "T1").forfeited_by is None
    assert withdrawn_teams(two_rounds) == set()


def test_a_later_round_already_drawn_forfeits_the_withdrawn_team_s_match(
        director_actor, chief, two_rounds):
    """Disqualified in round 2 (closed, after round 3 was drawn): like a default of every
    match from round 2 on; in a group stage the team is withdrawn."""
    two = Round.objects.get(stage=two_rounds, number=2)
    three = generate_round(director_actor, two_rounds)
    publish_round(director_actor, three)
    t3 = two.matches.get(home__code="T5").away
    before = snapshot(two_rounds)
    penalty = record_penalty(chief, team=t3, round=two, kind="disqualification",
                             reason="abuse of an official")
    assert match_of(two, "T5", "T3").forfeited_by == t3
    assert match_of(three, "T3", "T1").forfeited_by == t3  # drawn, not played: forfeited
    assert rows(two_rounds)[2, "T5"] == ("win", 0, 3, True, True)
    assert {key for key, row in rows(two_rounds).items() if row[3]} == {
        (1, "T3"), (1, "T4"), (2, "T3"), (2, "T5")}
    start_round(director_actor, three)  # the forfeit's rows come with the start of play
    assert rows(two_rounds)[3, "T1"] == ("win", 0, 3, True, True)
    undo_penalty(chief, penalty, "wrong team")
    assert match_of(three, "T3", "T1").forfeited_by is None
    after = snapshot(two_rounds)
    assert after[1] == before[1]  # every match as it was
    # Every row as it was; round 3 has started since, with no hand yet: only its bye.
    assert [row for row in after[0] if row[0] != three.pk] == before[0]
    assert [row[1] for row in after[0] if row[0] == three.pk] == [
        three.entries.get(side="bye").team_id]


def test_a_match_point_penalty_changes_the_order(referee, two_rounds):
    two = Round.objects.get(stage=two_rounds, number=2)
    t2 = two.matches.get(home__code="T1").away
    penalty = record_penalty(referee, team=t2, round=two, kind="match_points", amount=2,
                             reason="slow play after a warning")
    assert [(p.team.code, p.kind, p.amount) for p in point_penalties(two_rounds)] == [
        ("T2", "match_points", 2)]
    assert rows(two_rounds) == AFTER_TWO  # no row changes
    # T2: 5 − 2 = 3 mp, +23, now above T4 (3 mp, −10) only.
    assert ranking(two_rounds) == [("T5", 4, 0), ("T1", 4, 0), ("T3", 4, -13),
                                   ("T2", 3, 23), ("T4", 3, -10)]
    undo_penalty(referee, penalty, "entered against the wrong team")
    assert point_penalties(two_rounds) == []
    assert ranking(two_rounds)[0] == ("T2", 5, 23)


# Knockout ------------------------------------------------------------------------------

def test_a_knockout_default_decides_the_bracket(director_actor, referee, short, teams):
    stage = create_stage(director_actor, short, name="Knockout", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(4))
    one = begin(director_actor, stage)
    assert sorted((m.home.code, m.away.code) for m in one.matches.all()) == [
        ("T1", "T4"), ("T2", "T3")]
    first = match_of(one, "T1", "T4")
    enter(director_actor, first, HOME_23)  # T1 was ahead when it defaulted
    penalty = record_penalty(referee, team=first.home, round=one, kind="default",
                             match=first, reason="refused to continue")
    play(director_actor, match_of(one, "T2", "T3"), AWAY_23)  # T3 wins
    assert rows(stage)[1, "T4"] == ("win", 0, 3, False, True)
    assert rows(stage)[1, "T1"] == ("loss", 0, 0, False, True)
    assert withdrawn_teams(stage) == set()  # a knockout default loses only the match
    close_round(director_actor, one)
    final = generate_round(director_actor, stage)
    assert [{m.home.code, m.away.code} for m in final.matches.all()] == [{"T4", "T3"}]
    with pytest.raises(ServiceError, match="Final was already drawn from the result of "
                                           "match 1"):
        undo_penalty(referee, penalty, "mistake")


# Lateness ------------------------------------------------------------------------------

@pytest.fixture
def swiss_round(director_actor, short, teams):
    stage = create_stage(director_actor, short, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    return begin(director_actor, stage)


def test_lateness_within_the_limit_is_recorded_only(referee, swiss_round):
    match = swiss_round.matches.order_by("number").first()
    record_penalty(referee, team=match.away, round=swiss_round, kind="lateness", minutes=15,
                   match=match, reason="traffic")
    match.refresh_from_db()
    assert match.forfeited_by is None
    assert list(Penalty.objects.values_list("kind", "minutes")) == [("lateness", 15)]
    entry = AuditEntry.objects.get(action="penalty.record")
    assert "within the limit of 15 minutes: no default" in entry.summary


def test_lateness_over_the_round_s_limit_is_also_a_default(director_actor, referee,
                                                          short, swiss_round):
    short.lateness_limit_minutes = 30  # a later change: the round keeps its 15
    short.save()
    match = swiss_round.matches.order_by("number").first()
    lateness = record_penalty(referee, team=match.away, round=swiss_round, kind="lateness",
                              minutes=16, match=match, reason="overslept")
    match.refresh_from_db()
    assert match.forfeited_by == match.away
    assert sorted(Penalty.objects.values_list("kind", "minutes", "match")) == [
        ("default", None, match.pk), ("lateness", 16, match.pk)]
    entry = AuditEntry.objects.get(action="penalty.record")
    assert f"over the limit of 15 minutes: a default of match {match.number}" in entry.summary
    assert rows(swiss_round.stage)[1, match.home.code] == ("win", 0, 3, False, True)
    assert withdrawn_teams(swiss_round.stage) == set()  # no withdrawal outside a group stage
    for other in swiss_round.matches.exclude(pk=match.pk):
        play(director_actor, other, HOME_23)
    close_round(director_actor, swiss_round)  # the forfeited match is decided
    undo_penalty(referee, lateness, "the clock was wrong")
    match.refresh_from_db()
    assert match.forfeited_by is None
    assert not Penalty.objects.filter(undone_at__isnull=True).exists()  # both undone
    assert (1, match.home.code) not in rows(swiss_round.stage)  # no hand: no row


# Disqualification ------------------------------------------------------------------------

def test_only_the_chief_referee_disqualifies(referee, chief, swiss_round):
    team = swiss_round.matches.first().home
    with pytest.raises(PermissionDenied):
        record_penalty(referee, team=team, round=swiss_round, kind="disqualification",
                       reason="cheating")
    assert not Penalty.objects.exists()
    penalty = record_penalty(chief, team=team, round=swiss_round, kind="disqualification",
                             reason="cheating")
    with pytest.raises(PermissionDenied):
        undo_penalty(referee, penalty, "mistake")
    assert Match.objects.get(round=swiss_round, forfeited_by=team)


def test_a_disqualified_team_is_paired_no_more_in_a_swiss_stage(director_actor, chief,
                                                                swiss_round):
    team = swiss_round.matches.order_by("number").first().home
    record_penalty(chief, team=team, round=swiss_round, kind="disqualification",
                   reason="cheating")
    for match in swiss_round.matches.filter(forfeited_by=None):
        play(director_actor, match, HOME_23)
    close_round(director_actor, swiss_round)
    two = generate_round(director_actor, swiss_round.stage)
    entries = dict(two.entries.values_list("team__code", "side"))
    assert team.code not in entries  # no match, no bye
    assert sorted(entries.values()) == ["away", "bye", "home"]


def test_a_disqualified_player_cannot_be_put_in_a_line_up(director_actor, chief, short,
                                                          make_team):
    stage = create_stage(director_actor, short, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    field = [make_team(short, code=f"T{n}", name=f"Team {n}", seed=str(n),
                       reserve=f"Reserve {n}") for n in range(1, 5)]
    enter_teams(director_actor, stage, field)
    one = begin(director_actor, stage)
    team = field[0]
    first, second, reserve = team.players.order_by("number")
    record_penalty(chief, team=team, round=one, kind="disqualification", player=first,
                   reason="abusive language")
    assert Match.objects.filter(forfeited_by__isnull=False).count() == 0  # the team plays on
    for match in one.matches.all():
        play(director_actor, match, DRAW)
    close_round(director_actor, one)
    two = generate_round(director_actor, stage)
    entry = two.entries.get(team=team)
    assert (entry.first_player, entry.second_player) == (reserve, second)  # reserve in
    with pytest.raises(ServiceError, match=f"{first.name} is disqualified"):
        set_lineup(director_actor, two, team, first_player=first, second_player=second)


# Bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("values", "field", "message"), [
    ({"kind": "warning", "reason": "  "}, "reason", "give the reason for the warning"),
    ({"kind": "small_points", "amount": 0, "reason": "x"}, "amount",
     "needs the points to deduct"),
    ({"kind": "warning", "amount": 3, "reason": "x"}, "amount", "only by a small-point"),
    ({"kind": "lateness", "reason": "x", "match": "first"}, "minutes", "needs the minutes"),
    ({"kind": "default", "reason": "x"}, "match", "needs the match it concerns"),
    ({"kind": "default", "reason": "x", "match": "later"}, "match", "is in Swiss, Round 2"),
    ({"kind": "warning", "reason": "x", "player": "other"}, "player", "not of T"),
    ({"kind": "penalty kick", "reason": "x"}, "kind", "unknown kind"),
    ({"kind": "match_points", "amount": "two", "reason": "x"}, "amount", "whole number"),
])
def test_bad_input_is_named(director_actor, referee, swiss_round, values, field, message):
    first = swiss_round.matches.order_by("number").first()
    stage = swiss_round.stage
    for match in swiss_round.matches.all():
        play(director_actor, match, DRAW)
    close_round(director_actor, swiss_round)
    later = generate_round(director_actor, stage)
    publish_round(director_actor, later)
    values = dict(values)
    values["match"] = {"first": first, "later": later.matches.first()}.get(values.get("match"))
    if values.pop("player", None) == "other":
        values["player"] = first.away.players.first()
    with pytest.raises(ServiceError) as raised:
        record_penalty(referee, team=first.home, round=swiss_round, **values)
    assert message in raised.value.message
    assert field in raised.value.field_errors
    assert not Penalty.objects.exists()


def test_a_draft_round_takes_no_penalty(director_actor, referee, short, teams):
    stage = create_stage(director_actor, short, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    draft = generate_round(director_actor, stage)
    with pytest.raises(ServiceError, match="is a draft"):
        record_penalty(referee, team=draft.matches.first().home, round=draft,
                       kind="warning", reason="early")


def test_a_round_with_penalties_is_not_undone(director_actor, referee, short, teams):
    stage = create_stage(director_actor, short, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    match = round_.matches.first()
    record_penalty(referee, team=match.home, round=round_, kind="default", match=match,
                   reason="withdrew before play")
    with pytest.raises(ServiceError, match="penalties are recorded"):
        undo_round(director_actor, round_)
    start_round(director_actor, round_)  # the default's rows come with the start of play
    assert rows(stage)[1, match.away.code] == ("win", 0, 3, False, True)


def test_a_round_whose_penalties_are_undone_can_be_undone(director_actor, referee, short,
                                                          teams):
    stage = create_stage(director_actor, short, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    match = round_.matches.first()
    penalty = record_penalty(referee, team=match.home, round=round_, kind="default",
                             match=match, reason="withdrew before play")
    undo_penalty(referee, penalty, "they came after all")
    undo_round(director_actor, round_)
    assert not Penalty.objects.exists() and not Round.objects.exists()
    assert AuditEntry.objects.filter(action="penalty.record").exists()  # still on record


# The database's own checks (docs/invariants.md), past the services --------------------------

@pytest.mark.parametrize(("values", "constraint"), [
    ({"kind": "small_points", "amount": 0}, "penalty_amount_for_deductions"),
    ({"kind": "warning", "amount": 2}, "penalty_amount_for_deductions"),
    ({"kind": "warning", "minutes": 5}, "penalty_minutes_for_lateness"),
    ({"kind": "lateness", "minutes": None, "match": True}, "penalty_minutes_for_lateness"),
    ({"kind": "default"}, "penalty_match_for_default"),
    ({"kind": "warning", "reason": ""}, "penalty_has_a_reason"),
    ({"kind": "warning", "undone": True}, "penalty_undone_by_someone"),
    ({"kind": "forfeit"}, "penalty_kind_valid"),
])
def test_the_database_refuses_a_bad_penalty(referee, swiss_round, values, constraint):
    match = swiss_round.matches.first()
    row = {"tournament": swiss_round.stage.tournament, "team": match.home,
           "round": swiss_round, "recorded_by": referee.user, "reason": "x", **values}
    row["match"] = match if row.pop("match", False) else None
    if row.pop("undone", False):
        row["undone_at"] = timezone.now()
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        Penalty.objects.create(**row)


def test_the_database_refuses_a_forfeit_by_a_third_team(swiss_round):
    one, two = swiss_round.matches.order_by("number")
    one.forfeited_by = two.home
    with pytest.raises(IntegrityError, match="match_forfeit_by_one_of_its_teams"), \
            transaction.atomic():
        one.save()


def test_a_team_disqualified_earlier_forfeits_each_knockout_match_as_it_is_drawn(
        director_actor, chief, short, teams):
    field = teams(4)
    groups = create_stage(director_actor, short, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, groups, [field])
    one = begin(director_actor, groups)  # T1–T4, T2–T3
    record_penalty(chief, team=field[0], round=one, kind="disqualification",
                   reason="threatened an opponent")
    assert match_of(one, "T1", "T4").forfeited_by == field[0]
    play(director_actor, match_of(one, "T2", "T3"), HOME_23)
    close_round(director_actor, one)
    knockout = create_stage(director_actor, short, name="Knockout",
                            kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, knockout, field)  # seeded by hand, T1 included
    first = generate_round(director_actor, knockout)
    assert match_of(first, "T1", "T4").forfeited_by == field[0]
    assert match_of(first, "T2", "T3").forfeited_by is None
    drawn = AuditEntry.objects.get(action="round.generate", data__round=first.pk)
    assert "match 1 forfeited by T1 (disqualified)" in drawn.summary


# Random sequences ----------------------------------------------------------------------------

def reference_forfeiter(match, active):
    """Who forfeits a match of the one group stage, worked out the slow way: the team of the
    earliest active penalty that is a default of the match or of an earlier round, or the
    team's disqualification in its round or before."""
    claims = []
    for penalty in active:
        if penalty.team_id not in (match.home_id, match.away_id):
            continue
        was, now = penalty.round.number, match.round.number
        if ((penalty.kind == "default" and (penalty.match_id == match.pk or now > was))
                or (penalty.kind == "disqualification" and penalty.player_id is None
                and now >= was)):
            claims.append((penalty.recorded_at, penalty.pk, penalty.team_id))
    return min(claims)[2] if claims else None


@pytest.mark.parametrize("seed", range(6))
def test_random_penalties_and_undos_keep_the_rows_right_and_undo_exactly(
        seed, director_actor, referee, chief, two_rounds):
    rng = random.Random(seed)
    three = begin(director_actor, two_rounds)
    enter(director_actor, match_of(three, "T4", "T5"), HOME_23)  # provisional rows
    before = snapshot(two_rounds)
    rounds = list(Round.objects.filter(stage=two_rounds).order_by("number"))
    field = list(Team.objects.filter(stage_entries__stage=two_rounds).order_by("code"))
    for _step in range(14):
        active = list(Penalty.objects.filter(undone_at__isnull=True))
        dice = rng.random()
        try:
            if active and dice < 0.35:
                undo_penalty(chief, rng.choice(active), "entered by mistake")
            elif dice < 0.6:
                match = rng.choice(list(three.matches.select_related("home", "away")))
                values = dict(team=rng.choice([match.home, match.away]), round=three,
                              kind="default", match=match, reason="no show")
                # As the page does: the plan shown, then confirmed as shown.
                shown = plan_penalty(referee, **values).fingerprint
                record_penalty(referee, **values, shown=shown)
            elif dice < 0.8:
                values = dict(team=rng.choice(field), round=rng.choice(rounds),
                              kind="disqualification", reason="cheating")
                shown = plan_penalty(chief, **values).fingerprint
                record_penalty(chief, **values, shown=shown)
            else:
                record_penalty(referee, team=rng.choice(field), round=rng.choice(rounds),
                               kind="match_points", amount=rng.randint(1, 3), reason="slow")
        except ServiceError:
            pass  # refused (already forfeited, already disqualified): nothing changed
        active = list(Penalty.objects.filter(undone_at__isnull=True).select_related("round"))
        out = {p.team_id for p in active
               if p.kind == "default" or (p.kind == "disqualification" and p.player_id is None)}
        assert withdrawn_teams(two_rounds) == out
        for row in TeamResult.objects.filter(round__stage=two_rounds):
            assert row.void == (row.team_id in out or row.opponent_id in out)
        for match in Match.objects.filter(round__stage=two_rounds).select_related("round"):
            assert match.forfeited_by_id == reference_forfeiter(match, active)
            forfeit_rows = set(TeamResult.objects.filter(match=match)
                               .values_list("forfeit", flat=True))
            # A forfeit is stored as a forfeit; a match not played yet has no rows.
            assert ((forfeit_rows == {True}) if match.forfeited_by_id
                    else (forfeit_rows <= {False}))
    for penalty in Penalty.objects.filter(undone_at__isnull=True).order_by("?"):
        undo_penalty(chief, penalty, "all of it was a mistake")
    assert snapshot(two_rounds) == before


# The plan a confirmation shows (issue 51) ----------------------------------------------------

def row_values(stage):
    """(round id, team id) → the values a plan predicts, for every row of the stage."""
    from tournament.services.penalty_plan import ROW_FIELDS

    return {(r.round_id, r.team_id): tuple(getattr(r, name) for name in ROW_FIELDS)
            for r in TeamResult.objects.filter(round__stage=stage)}


def test_the_plan_reads_only_and_is_what_the_default_then_does(director_actor, referee,
                                                               two_rounds):
    three = begin(director_actor, two_rounds)
    defaulted = match_of(three, "T3", "T1")
    enter(director_actor, defaulted, HOME_23)
    values = dict(team=defaulted.home, round=three, kind="default", match=defaulted,
                  reason="no show")
    before = row_values(two_rounds)
    with CaptureQueriesContext(connection) as queries:
        plan = plan_penalty(referee, **values)
    assert queries.captured_queries
    assert all(q["sql"].lstrip().upper().startswith("SELECT") for q in queries.captured_queries)
    assert plan.needs_confirmation and len(plan.fingerprint) == 32
    assert [(c.match.pk, c.before, c.after) for c in plan.forfeits.changes] == [
        (defaulted.pk, None, defaulted.home_id)]
    record_penalty(referee, **values, shown=plan.fingerprint)
    after = row_values(two_rounds)
    # Every row the plan said, exactly: those it changes and those it leaves.
    assert after == plan.rows
    changed = {key for key in after if before.get(key) != after[key]}
    shown = {(e.round.pk, team) for e in plan.effects for team in (e.after or {})}
    assert changed == shown
    assert [(s.number, s.team.code if s.team else None) for s in plan.sitting_out] == [
        (4, "T2"), (5, None)]
    assert plan.rules == ["default_groups", "forfeit", "sitting_out"]


def test_a_confirmation_of_another_plan_is_refused_and_records_nothing(
        director_actor, referee, two_rounds):
    three = begin(director_actor, two_rounds)
    defaulted = match_of(three, "T3", "T1")
    values = dict(team=defaulted.home, round=three, kind="default", match=defaulted,
                  reason="no show")
    shown = plan_penalty(referee, **values).fingerprint
    enter(director_actor, defaulted, HOME_23)  # meanwhile: the match gets a result
    before = snapshot(two_rounds)
    with pytest.raises(PlanChanged, match="has changed since it was shown") as refused:
        record_penalty(referee, **values, shown=shown)
    assert snapshot(two_rounds) == before and not Penalty.objects.exists()
    assert refused.value.plan.fingerprint != shown
    record_penalty(referee, **values, shown=refused.value.plan.fingerprint)
    assert Penalty.objects.get().match == defaulted


def test_rows_that_are_not_the_plan_s_are_a_fault_and_nothing_is_kept(
        director_actor, referee, two_rounds, monkeypatch):
    from tournament.services import penalty_plan

    three = begin(director_actor, two_rounds)
    defaulted = match_of(three, "T3", "T1")
    wrong = penalty_plan._predicted

    def forgets_a_void(forfeits, before):
        rows = wrong(forfeits, before)
        key = next(key for key, row in rows.items() if row[7])
        return {**rows, key: (*rows[key][:7], False, rows[key][8])}

    monkeypatch.setattr(penalty_plan, "_predicted", forgets_a_void)
    before = snapshot(two_rounds)
    with pytest.raises(RuntimeError, match="not those its plan showed"):
        record_penalty(referee, team=defaulted.home, round=three, kind="default",
                       match=defaulted, reason="no show")
    assert snapshot(two_rounds) == before and not Penalty.objects.exists()


def test_a_team_s_disqualification_plans_every_stage_it_reaches(director_actor, chief, short,
                                                                teams):
    field = teams(4)
    groups = create_stage(director_actor, short, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, groups, [field])
    one = begin(director_actor, groups)  # T1–T4, T2–T3
    create_stage(director_actor, short, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=2)
    plan = plan_penalty(chief, team=field[0], round=one, kind="disqualification",
                        reason="threatened an opponent")
    assert plan.needs_confirmation and plan.rules[0] == "disqualification"
    assert [(stage.name, what) for stage, what in plan.later] == [("Swiss", "swiss_out")]
    assert [(s.number, s.team.code) for s in plan.sitting_out] == [(2, "T2"), (3, "T3")]
    # A player's disqualification forfeits nothing: no confirmation.
    player = field[1].players.first()
    assert not plan_penalty(chief, team=field[1], round=one, kind="disqualification",
                            player=player, reason="abuse").needs_confirmation
    record_penalty(chief, team=field[0], round=one, kind="disqualification",
                   reason="threatened an opponent", shown=plan.fingerprint)
    assert match_of(one, "T1", "T4").forfeited_by == field[0]
    play(director_actor, match_of(one, "T2", "T3"), HOME_23)
    close_round(director_actor, one)
    two = begin(director_actor, groups)  # as planned: T1 left out, T2 sits out
    assert [[t.code for t in teams] for teams in left_out(two)] == [["T1"], ["T2"]]
