import uuid

import pytest
from django.core.exceptions import PermissionDenied

from tournament.models import AuditEntry, HandResult, Round, Stage, TableSignature
from tournament.selectors.results import match_totals, tied_knockout
from tournament.services import ServiceError
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import StaleResult, record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams

KNOCK_4_VS_12 = HandEntry("knock", declarer_seat=1, declarer_deadwood=4, opponent_deadwood=12)


@pytest.fixture
def match(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_.matches.get()


@pytest.fixture
def scorer(tournament, staff_user, actor):
    return actor(staff_user(tournament, "scorer", username="scorer-li"))


@pytest.fixture
def referee(tournament, staff_user, actor):
    return actor(staff_user(tournament, "referee", username="referee-chen"))


def table(match, position):
    return match.tables.get(position=position)


def enter(actor, match, position, hand, entry, *, seen=0, **kwargs):
    return record_hand_result(actor, table(match, position), hand, entry, seen_version=seen,
                              request_token=uuid.uuid4(), **kwargs)


def play_whole_match(scorer, match, entry=KNOCK_4_VS_12):
    for position in (1, 2):
        for hand in range(1, match.hands + 1):
            result = enter(scorer, match, position, hand, entry)
            approve_hand(scorer, result, 1)
            approve_hand(scorer, result, 2)
        sign_table(scorer, table(match, position), 1)
        sign_table(scorer, table(match, position), 2)


def test_points_come_from_the_engine(scorer, match):
    result = enter(scorer, match, 1, 1, KNOCK_4_VS_12)
    assert (result.seat1_points, result.seat2_points) == (23, -23)
    assert result.explanation == "Knock 4 vs 12: 15 + 8 = 23"
    undercut = enter(scorer, match, 1, 2, HandEntry("knock", 2, 7, 7))
    assert undercut.outcome == "undercut" and undercut.seat1_points == 25


def test_every_entry_is_a_new_version(scorer, match):
    first = enter(scorer, match, 1, 1, KNOCK_4_VS_12)
    second = enter(scorer, match, 1, 1, HandEntry("gin", 2, None, 30), seen=1)
    first.refresh_from_db()
    assert (first.is_current, second.is_current, second.version) == (False, True, 2)
    summary = AuditEntry.objects.filter(action="result.change").get().summary
    assert ("scorer-li changed hand 1 at table 1: knock by seat 1 4 vs 12 → gin by seat 2 "
            "vs 30") in summary


def test_a_stale_form_is_told_what_is_stored(scorer, match):
    enter(scorer, match, 1, 1, KNOCK_4_VS_12)
    with pytest.raises(StaleResult) as caught:
        enter(scorer, match, 1, 1, HandEntry("draw"), seen=0)
    assert "knock by seat 1 4 vs 12" in caught.value.message
    assert HandResult.objects.count() == 1


def test_a_resent_form_creates_nothing_new(scorer, match):
    token = uuid.uuid4()
    first = record_hand_result(scorer, table(match, 1), 1, KNOCK_4_VS_12, seen_version=0,
                               request_token=token)
    again = record_hand_result(scorer, table(match, 1), 1, KNOCK_4_VS_12, seen_version=0,
                               request_token=token)
    assert again.pk == first.pk and HandResult.objects.count() == 1


@pytest.mark.parametrize(("entry", "hand", "message"), [
    (HandEntry("gin", 1, 5, 20), 1, "gin has no deadwood"),
    (HandEntry("knock", 1, 14, 20), 1, "record it as a false knock"),
    (HandEntry("knock", 1, 5, 20, false_knock_seat=1, false_knock_deadwood=15), 1,
     "may not declare later"),
    (HandEntry("knock", 1, -3, 20), 1, "must be 0 to 98"),
    (HandEntry("knock", 1, 5, 120), 1, "must be 0 to 98"),
    (KNOCK_4_VS_12, 9, "hand 9 is not in this match"),
    (HandEntry("knock", 3, 4, 12), 1, "choose the seat that declared"),
    (HandEntry("draw", 1), 1, "a draw has no declarer"),
])
def test_bad_entries_are_refused_and_nothing_is_saved(scorer, match, entry, hand, message):
    with pytest.raises(ServiceError, match=message):
        enter(scorer, match, 1, hand, entry)
    assert not HandResult.objects.exists()


def test_false_knock_then_opponent_knocks_at_the_recorded_deadwood(scorer, match):
    entry = HandEntry("knock", declarer_seat=2, declarer_deadwood=5, opponent_deadwood=None,
                      false_knock_seat=1, false_knock_deadwood=15)
    result = enter(scorer, match, 1, 1, entry)
    assert result.seat2_points == 15 + 10 and result.opponent_deadwood == 15


def test_no_results_unless_the_round_is_in_play(director_actor, scorer, match):
    Round.objects.filter(pk=match.round_id).update(status="published")
    with pytest.raises(ServiceError, match="entered only while it is in play"):
        enter(scorer, match, 1, 1, KNOCK_4_VS_12)


def test_scorer_of_another_tournament_is_refused(match, make_tournament, staff_user, actor):
    other = actor(staff_user(make_tournament(), "scorer"))
    with pytest.raises(PermissionDenied):
        enter(other, match, 1, 1, KNOCK_4_VS_12)


def test_sign_off_needs_every_hand_approved_and_signed(scorer, referee, match):
    result = enter(scorer, match, 1, 1, KNOCK_4_VS_12)
    approve_hand(scorer, result, 1)
    with pytest.raises(ServiceError, match="hand 1 is not approved by seat 2"):
        sign_table(scorer, table(match, 1), 1)
    with pytest.raises(ServiceError, match="cannot sign off"):
        sign_off_match(referee, match)
    with pytest.raises(PermissionDenied):
        sign_off_match(scorer, match)


def test_the_whole_procedure_and_the_duplicate_totals(scorer, referee, match):
    play_whole_match(scorer, match)
    # Seat 1 knocked 4 vs 12 in every hand at both tables: at table 1 seat 1 is home, at
    # table 2 it is away, so the teams come out level.
    assert match_totals(match) == (0, 0)
    signed = sign_off_match(referee, match)
    assert (signed.home_total, signed.away_total) == (0, 0) and signed.is_official


def test_correction_after_sign_off_needs_a_referee_and_a_reason(scorer, referee, match):
    play_whole_match(scorer, match)
    sign_off_match(referee, match)
    with pytest.raises(ServiceError, match="only a referee"):
        enter(scorer, match, 1, 5, HandEntry("knock", 1, 4, 9), seen=1)
    with pytest.raises(ServiceError, match="needs a reason"):
        enter(referee, match, 1, 5, HandEntry("knock", 1, 4, 9), seen=1)
    enter(referee, match, 1, 5, HandEntry("knock", 1, 4, 9), seen=1, reason="lay-off missed")
    match.refresh_from_db()
    assert match.signed_off_at is None and match.home_total is None
    assert not TableSignature.objects.filter(table__match=match, table__position=1).exists()
    summary = AuditEntry.objects.get(action="result.correct").summary
    assert "referee-chen changed hand 5 at table 1: knock by seat 1 4 vs 12 → knock by " \
           "seat 1 4 vs 9" in summary and "reason: lay-off missed" in summary
    # The sign-off is given again once the players have approved and signed again.
    corrected = HandResult.objects.get(table__position=1, hand=5, is_current=True)
    approve_hand(scorer, corrected, 1)
    approve_hand(scorer, corrected, 2)
    for position in (1, 2):
        for seat in (1, 2):
            sign_table(scorer, table(match, position), seat)
    signed = sign_off_match(referee, match)
    assert signed.home_total == -3 and signed.away_total == 3


# Cards mode ----------------------------------------------------------------------------------

from tournament.services.cards import CardsEntry, settle_cards  # noqa: E402

KNOCKER = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"  # deadwood 4
OPPONENT = "4S 5S KH KD QH QD JH JD 8H 8D"  # K-Q-J twice; 4S 5S lay off onto A-2-3


def test_cards_mode_refuses_a_false_knock_rather_than_dropping_it(tournament):
    cards = CardsEntry(1, KNOCKER, OPPONENT, false_knock_seat=2, false_knock_deadwood=23)
    with pytest.raises(ServiceError, match="entered with the deadwood counts, not the cards"):
        settle_cards(cards, tournament.rules)
    with pytest.raises(ServiceError, match="false knock"):
        settle_cards(CardsEntry(1, KNOCKER, OPPONENT, false_knock_deadwood=23), tournament.rules)


def test_cards_mode_works_out_lay_offs_and_points(tournament):
    settled = settle_cards(CardsEntry(1, KNOCKER, OPPONENT), tournament.rules)
    assert settled.entry == HandEntry("knock", 1, 4, 16)
    assert settled.showdown.score.explanation == "Knock 4 vs 16: 15 + 12 = 27"
    assert {lay["card"] for lay in settled.record["layoffs"]} == {"4S", "5S"}


@pytest.mark.parametrize(("declarer", "opponent", "message"), [
    (KNOCKER, "4S 5S KH KD QH QD JH JD 8H", "must have 10"),
    (KNOCKER, "AS 5S KH KD QH QD JH JD 8H 8D", "AS is in both hands"),
    ("AS 2S 3S 7H 7D 7C 9C TC JC XX", OPPONENT, "unknown"),
])
def test_cards_mode_refuses_impossible_hands(tournament, declarer, opponent, message):
    with pytest.raises(ServiceError, match=message):
        settle_cards(CardsEntry(1, declarer, opponent), tournament.rules)


def test_cards_that_contradict_the_outcome_are_refused(tournament):
    with pytest.raises(ServiceError, match="the cards make this a knock, not gin"):
        settle_cards(CardsEntry(1, KNOCKER, OPPONENT), tournament.rules, claimed="gin")


def test_cards_never_drawn_from_the_box_are_flagged_on_the_saved_result(
        scorer, match, tournament, director_actor):
    """The conflict is found at the save and kept for the referee; the scorer's own reply
    (settle_cards) never depends on the box."""
    from scoring.cards import DECK
    from tournament.models import Deal
    from tournament.services.deals import generate_deals

    rest = [str(c) for c in DECK if str(c) not in (KNOCKER + " " + OPPONENT).split()]
    # A box whose last two stock cards are the knocker's 9C and TC.
    order = [*OPPONENT.split(), "AS", "2S", "3S", "7H", "7D", "7C", "JC", "4D", *rest,
             "9C", "TC"]
    assert len(order) == 52
    generate_deals(director_actor, match.round)
    Deal.objects.filter(round=match.round, hand=1).update(cards=" ".join(order))
    # A round drawn under the classic draw rule.
    Round.objects.filter(pk=match.round_id).update(
        rule_settings={**match.round.rule_settings, "draw_rule": "two_cards_left"})
    settled = settle_cards(CardsEntry(1, KNOCKER, OPPONENT), tournament.rules)
    result = enter(scorer, match, 1, 1, settled.entry, cards=settled.record)
    assert result.box_conflict == (
        "9C can never be in a player's hand: it is one of the last two stock cards of this "
        "box, which are never drawn; TC can never be in a player's hand: it is one of the "
        "last two stock cards of this box, which are never drawn")
    assert "stock" not in AuditEntry.objects.get(action="result.enter").summary


def test_cards_are_stored_with_the_result(scorer, match, tournament):
    settled = settle_cards(CardsEntry(2, KNOCKER, OPPONENT), tournament.rules)
    result = enter(scorer, match, 1, 1, settled.entry, cards=settled.record)
    assert result.seat2_points == 27 and result.cards["layoffs"]


# PINs -----------------------------------------------------------------------------------------

def test_with_pins_each_player_confirms_with_their_own(scorer, match, director_actor):
    from tournament.services.approvals import seat_player
    from tournament.services.teams import set_player_pin

    tournament = match.round.stage.tournament
    tournament.approvals_need_pin = True
    tournament.save()
    result = enter(scorer, match, 1, 1, KNOCK_4_VS_12)
    with pytest.raises(ServiceError, match="has no PIN yet"):
        approve_hand(scorer, result, 1, pin="1234")
    first, second = seat_player(table(match, 1), 1), seat_player(table(match, 1), 2)
    set_player_pin(director_actor, first, "1234")
    set_player_pin(director_actor, second, "987654")
    with pytest.raises(ServiceError, match="wrong PIN for seat 1"):
        approve_hand(scorer, result, 1, pin="987654")  # the opponent's PIN is not enough
    assert approve_hand(scorer, result, 1, pin="1234").method == "pin"
    assert approve_hand(scorer, result, 2, pin="987654").method == "pin"
    first.refresh_from_db()
    assert "1234" not in first.pin_hash


@pytest.mark.parametrize("pin", ["12", "abcd", "123456789", "٣٣٣٣", "²²²²"])
def test_bad_pins_are_refused(director_actor, match, pin):
    from tournament.models import Player
    from tournament.services.teams import set_player_pin

    with pytest.raises(ServiceError, match="4 to 8 digits"):
        set_player_pin(director_actor, Player.objects.first(), pin)


def test_seat_players_follow_the_duplicate_seating(match):
    from tournament.services.approvals import seat_player

    home_first = seat_player(table(match, 1), 1)
    assert home_first.team_id == match.home_id and home_first.number == 1
    away_second = seat_player(table(match, 2), 1)
    assert away_second.team_id == match.away_id and away_second.number == 2


# A tied knockout match plays on ----------------------------------------------------------

@pytest.fixture
def knockout_match(director_actor, tournament, teams):
    from tournament.services.deals import generate_deals

    stage = create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, teams(2))
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_.matches.get()


def test_tied_knockout_match_gets_extra_hands_and_their_deals(scorer, referee, knockout_match):
    from tournament.models import Deal
    from tournament.services.extra_hands import add_extra_hands

    match = knockout_match
    with pytest.raises(ServiceError, match="hands without a result"):
        add_extra_hands(referee, match)
    assert not tied_knockout(match)  # not every hand is entered
    play_whole_match(scorer, match)  # the same result at both tables: level
    assert tied_knockout(match)
    with pytest.raises(ServiceError, match="tied"):
        sign_off_match(referee, match)
    with pytest.raises(PermissionDenied):
        add_extra_hands(scorer, match)
    match = add_extra_hands(referee, match)
    assert match.hands == 10
    assert set(Deal.objects.filter(round=match.round).values_list("hand", flat=True)) == \
        set(range(1, 11))
    # Hand 9 is played: seat 1 wins at table 1 only, so the home team is ahead.
    for position, entry in ((1, KNOCK_4_VS_12), (2, HandEntry("draw"))):
        result = enter(scorer, match, position, 9, entry)
        approve_hand(scorer, result, 1)
        approve_hand(scorer, result, 2)
    result10 = [enter(scorer, match, position, 10, HandEntry("draw")) for position in (1, 2)]
    for result in result10:
        approve_hand(scorer, result, 1)
        approve_hand(scorer, result, 2)
    for position in (1, 2):
        for seat in (1, 2):
            sign_table(scorer, table(match, position), seat)
    signed = sign_off_match(referee, match)
    assert (signed.home_total, signed.away_total) == (23, -23)


def test_a_decided_match_does_not_play_on(scorer, referee, knockout_match):
    from tournament.services.extra_hands import add_extra_hands

    match = knockout_match
    for position in (1, 2):
        for hand in range(1, match.hands + 1):
            enter(scorer, match, position, hand,
                  KNOCK_4_VS_12 if position == 1 else HandEntry("draw"))
    with pytest.raises(ServiceError, match="not tied"):
        add_extra_hands(referee, match)


def test_a_correction_after_the_close_keeps_the_round_closed(scorer, referee, match,
                                                             director_actor):
    from tournament.services.rounds import close_round

    play_whole_match(scorer, match)
    sign_off_match(referee, match)
    close_round(director_actor, match.round)
    enter(referee, match, 1, 3, HandEntry("draw"), seen=1, reason="wrong table's slip")
    match.refresh_from_db()
    round_ = Round.objects.get(pk=match.round_id)
    assert round_.status == Round.Status.CLOSED and round_.closed_at is not None
    assert match.signed_off_at is None  # provisional: being corrected
    with pytest.raises(ServiceError, match="only a referee"):
        enter(scorer, match, 1, 4, HandEntry("draw"), seen=1)
    result = HandResult.objects.get(table__match=match, table__position=1, hand=3,
                                    is_current=True)
    approve_hand(referee, result, 1)
    approve_hand(referee, result, 2)
    for seat in (1, 2):
        sign_table(referee, table(match, 1), seat)
    signed = sign_off_match(referee, match)
    # Home won 7 hands at table 1 and lost all 8 at table 2 (RULES.md §8 seating).
    assert signed.signed_off_at is not None and signed.home_total == 23 * 7 - 23 * 8
