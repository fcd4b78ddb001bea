import json
import random
from dataclasses import dataclass

import pytest

from scoring.bots import GinWaiter, Move
from scoring.box import Box
from scoring.cards import DECK, mask_of, parse_cards
from scoring.errors import RuleError
from scoring.hand import FalseKnock, Outcome, Party, score_hand
from scoring.melds import best_discard_of_mask, deadwood, min_deadwood_of_mask
from scoring.rules import DrawRule, Rules
from scoring.showdown import settle
from scoring.simulate import Declaration, Seat, Source, play_box

TWO_LEFT = Rules(draw_rule=DrawRule.TWO_CARDS_LEFT)
WHOLE_DECK = frozenset(DECK)  # 52 places holding these 52 cards: each card in one place


def shuffled_box(rng):
    cards = list(DECK)
    rng.shuffle(cards)
    return Box.from_order(cards)


def check_record(record):
    """Replay a record against its box and check every rule on the way."""
    rules = record.rules
    hands = {Seat.DEALER: set(record.box.dealer), Seat.NON_DEALER: set(record.box.non_dealer)}
    stock = list(record.box.stock)
    pile, face_down = [], []
    barred = None
    for number, turn in enumerate(record.turns):
        hand = hands[turn.player]
        if number == 0:
            assert (turn.player, turn.source, turn.drawn) == (Seat.DEALER, None, None)
            assert turn.declaration in (None, Declaration.BIG_GIN)
        else:
            assert turn.player is record.turns[number - 1].player.other
            if turn.source is Source.STOCK:
                # the draw rule: with two_cards_left the last two are never drawn
                assert len(stock) > (2 if rules.draw_rule is DrawRule.TWO_CARDS_LEFT else 0)
                assert turn.drawn == stock.pop(0)
            else:
                assert turn.source is Source.DISCARD and turn.drawn == pile.pop()
            hand.add(turn.drawn)
        if turn.declaration is Declaration.BIG_GIN:
            assert turn.discarded is None and len(hand) == 11 and deadwood(list(hand)) == 0
            break
        assert turn.discarded in hand
        if turn.source is Source.DISCARD:
            assert turn.discarded != turn.drawn  # the discard-pile rule
        hand.remove(turn.discarded)
        if turn.declaration in (Declaration.KNOCK, Declaration.GIN):
            assert turn.player is not barred
            face_down.append(turn.discarded)
            kept = deadwood(list(hand))
            assert turn.deadwood == kept <= rules.knock_limit
            assert (kept == 0) == (turn.declaration is Declaration.GIN)
        else:
            pile.append(turn.discarded)
            if turn.declaration is Declaration.FALSE_KNOCK:
                assert turn.deadwood == deadwood(list(hand)) > rules.knock_limit
                barred = turn.player
        # Card conservation: every card is in exactly one place after every turn.
        places = [*hands[Seat.DEALER], *hands[Seat.NON_DEALER], *stock, *pile, *face_down]
        assert len(places) == len(DECK) and set(places) == WHOLE_DECK
        assert len(hands[Seat.DEALER]) == len(hands[Seat.NON_DEALER]) == 10
    # Nothing happens after a declaration.
    assert all(t.declaration in (None, Declaration.FALSE_KNOCK) for t in record.turns[:-1])
    last = record.turns[-1]
    assert [sorted(record.final_hands[s]) for s in Seat] == [sorted(hands[s]) for s in Seat]
    assert list(record.discard_pile) == pile and list(record.stock_left) == stock

    fixed = None
    if record.false_knock is not None:
        assert record.turns[record.false_knock.turn].declaration is Declaration.FALSE_KNOCK
        fixed = FalseKnock(Party.OPPONENT, record.false_knock.deadwood)
    if last.declaration is None:  # a draw: the stock ran down by the draw rule
        assert record.declarer is None and record.outcome is Outcome.DRAW
        assert len(stock) == (2 if rules.draw_rule is DrawRule.TWO_CARDS_LEFT else 0)
        assert record.score == score_hand("draw", rules=rules, false_knock=fixed)
    else:
        assert record.declarer is last.player
        expected = settle(record.final_hands[last.player], record.final_hands[last.player.other],
                          rules=rules, false_knock=fixed)
        assert record.score == expected.score
        assert record.showdown == expected
    assert record.points(Seat.DEALER) + record.points(Seat.NON_DEALER) == 0
    json.dumps(record.to_dict())


def play_many(count, seed):
    rng = random.Random(seed)
    outcomes = {}
    pairs = [("greedy", "greedy"), ("greedy", "gin_waiter"), ("gin_waiter", "greedy"),
             ("gin_waiter", "gin_waiter")]
    for number in range(count):
        dealer, non_dealer = pairs[number % 4]
        rules = TWO_LEFT if number % 3 == 0 else Rules()
        record = play_box(shuffled_box(rng), dealer, non_dealer, rules)
        check_record(record)
        outcomes[record.outcome] = outcomes.get(record.outcome, 0) + 1
    return outcomes


def test_a_few_hundred_boxes_play_by_the_rules():
    outcomes = play_many(400, seed=1)
    assert outcomes[Outcome.KNOCK] and outcomes[Outcome.UNDERCUT] and outcomes[Outcome.GIN]


@pytest.mark.slow
def test_ten_thousand_boxes_play_by_the_rules():
    outcomes = play_many(10_000, seed=2026)
    assert sum(outcomes.values()) == 10_000
    assert all(outcomes.get(outcome) for outcome in Outcome if outcome is not Outcome.DRAW)


# --- the box --------------------------------------------------------------------------------

def test_box_layout_is_dealer_non_dealer_then_stock_top_first():
    box = Box.from_order(DECK)
    assert box.dealer == DECK[:11] and box.non_dealer == DECK[11:21] and box.stock == DECK[21:]
    assert box.order() == DECK
    assert Box.from_order(box.to_list()) == box


def test_a_box_needs_all_52_cards_once():
    with pytest.raises(RuleError, match="all 52 cards, not 51"):
        Box.from_order(DECK[:51])
    with pytest.raises(RuleError, match="appears twice"):
        Box.from_order([*DECK[:51], DECK[0]])
    with pytest.raises(RuleError, match="11 dealer, 10 non-dealer and 31 stock"):
        Box(DECK[:10], DECK[10:21], DECK[21:])


# --- hand-picked boxes -------------------------------------------------------------------------

def box_with(dealer, non_dealer, seed=0):
    dealer, non_dealer = parse_cards(dealer), parse_cards(non_dealer)
    rest = [card for card in DECK if card not in dealer and card not in non_dealer]
    random.Random(seed).shuffle(rest)
    return Box(dealer, non_dealer, tuple(rest))


def test_big_gin_in_the_opening_hand():
    box = box_with("AS 2S 3S 4S 7H 7D 7C 7S 9D 9C 9H", "5S 6S KH KD QC 8H 8D JC 2D AD")
    record = play_box(box)
    assert len(record.turns) == 1
    assert record.turns[0].declaration is Declaration.BIG_GIN
    assert record.outcome is Outcome.BIG_GIN and record.declarer is Seat.DEALER
    assert record.points(Seat.DEALER) == 35 + 70
    check_record(record)


def test_the_dealer_opens_with_a_discard_even_holding_gin_after_it():
    # Ten of these cards are gin, but the opening allows only a discard or Big Gin.
    box = box_with("AS 2S 3S 4S 7H 7D 7C 9D 9C 9H KS", "5S 6S KH KD QC 8H 8D JC 2D AD")
    record = play_box(box)
    assert record.turns[0].declaration is None and str(record.turns[0].discarded) == "KS"
    check_record(record)


def test_greedy_knocks_at_once_and_the_gin_waiter_does_not():
    rng = random.Random(7)
    waited = 0
    for _ in range(200):
        box = shuffled_box(rng)
        greedy = play_box(box, "greedy", "greedy")
        patient = play_box(box, "gin_waiter", "gin_waiter")
        for record in (greedy, patient):
            check_record(record)
        if patient.outcome is Outcome.KNOCK or patient.outcome is Outcome.UNDERCUT:
            assert len(patient.stock_left) <= 10
        waited += len(patient.turns) > len(greedy.turns)
    assert waited > 50


def test_a_bot_that_never_knocks_lets_the_stock_run_out():
    never = GinWaiter(knocks_below=-1)
    rng = random.Random(3)
    draws = {DrawRule.STOCK_EXHAUSTED: 0, DrawRule.TWO_CARDS_LEFT: 0}
    for number in range(60):
        rules = TWO_LEFT if number % 2 else Rules()
        record = play_box(shuffled_box(rng), never, never, rules)
        check_record(record)
        if record.outcome is Outcome.DRAW:
            draws[rules.draw_rule] += 1
            assert record.score.explanation.startswith("Draw: 0")
    assert all(draws.values())


@dataclass(frozen=True)
class FalseKnocker:
    """Knocks on its first turn whatever it holds, then plays like the greedy bot."""

    name: str = "false_knocker"

    def takes_discard(self, hand, upcard, view):
        return False

    def move(self, hand, taken, view):
        _, discard = best_discard_of_mask(hand)
        return Move(discard, view.may_declare and not view.opening)


def test_a_false_knock_is_recorded_and_the_hand_goes_on():
    rng = random.Random(11)
    seen = 0
    for _ in range(40):
        box = shuffled_box(rng)
        kept = mask_of(box.non_dealer) | box.stock[0].bit
        if best_discard_of_mask(kept)[0] <= 10:
            continue  # a real knock, not a false one
        record = play_box(box, "greedy", FalseKnocker())
        check_record(record)
        assert record.false_knock is not None and record.false_knock.player is Seat.NON_DEALER
        assert record.turns[1].declaration is Declaration.FALSE_KNOCK
        later = [t.declaration for t in record.turns[2:] if t.player is Seat.NON_DEALER]
        assert not any(later)
        if record.declarer is Seat.DEALER:
            assert record.score.opponent_deadwood == record.false_knock.deadwood
            assert record.showdown.opponent.layoffs == ()
        seen += 1
    assert seen > 10


@dataclass(frozen=True)
class Cheat:
    """Breaks one rule, chosen by ``how``."""

    how: str
    name: str = "cheat"

    def takes_discard(self, hand, upcard, view):
        return self.how == "throws back the discard"

    def move(self, hand, taken, view):
        if self.how == "throws back the discard" and taken is not None:
            return Move(taken, False)
        if self.how == "throws a card it lacks":
            return Move(next(c.code for c in DECK if not hand >> c.code & 1), False)
        if self.how == "knocks at the opening":
            return Move(best_discard_of_mask(hand)[1], True)
        if self.how == "claims big gin":
            return Move(None, True)
        return Move(best_discard_of_mask(hand)[1], False)


@pytest.mark.parametrize(("how", "message"), [
    ("throws back the discard", "just taken from the pile"),
    ("throws a card it lacks", "not in his hand"),
    ("knocks at the opening", "opens with a discard or Big Gin"),
    ("claims big gin", "Big Gin without eleven melded cards"),
])
def test_the_simulator_refuses_a_move_against_the_rules(how, message):
    box = shuffled_box(random.Random(5))
    with pytest.raises(RuleError, match=message):
        play_box(box, Cheat(how), Cheat(how))


def test_a_hand_that_never_ends_is_stopped():
    @dataclass(frozen=True)
    class Swapper:
        name: str = "swapper"

        def takes_discard(self, hand, upcard, view):
            return True

        def move(self, hand, taken, view):
            others = hand & ~(1 << taken) if taken is not None else hand
            return Move((others & -others).bit_length() - 1, False)

    with pytest.raises(RuleError, match="did not end within 500 turns"):
        play_box(shuffled_box(random.Random(1)), Swapper(), Swapper())


def test_unknown_strategy_names_are_refused():
    with pytest.raises(RuleError, match="unknown strategy 'genius'; expected one of: gin_waiter"):
        play_box(Box.from_order(DECK), "genius")


def test_the_record_serialises_to_json():
    record = play_box(shuffled_box(random.Random(9)), "greedy", "gin_waiter")
    data = json.loads(json.dumps(record.to_dict()))
    assert len(data["box"]) == 52
    assert data["turns"][0]["player"] == "dealer" and data["turns"][0]["source"] is None
    assert data["points"]["dealer"] == -data["points"]["non_dealer"]
    assert data["score"]["explanation"] == record.score.explanation


def test_bots_keep_their_deadwood_from_rising():
    rng = random.Random(4)
    for _ in range(50):
        record = play_box(shuffled_box(rng), "greedy", "gin_waiter")
        hands = {Seat.DEALER: mask_of(record.box.dealer),
                 Seat.NON_DEALER: mask_of(record.box.non_dealer)}
        last = {Seat.DEALER: 999, Seat.NON_DEALER: 999}
        for turn in record.turns:
            if turn.drawn is not None:
                hands[turn.player] |= turn.drawn.bit
            if turn.discarded is not None:
                hands[turn.player] ^= turn.discarded.bit
            now = min_deadwood_of_mask(hands[turn.player])
            assert now <= last[turn.player]
            if turn.source is Source.DISCARD:
                assert now < last[turn.player]
            last[turn.player] = now
