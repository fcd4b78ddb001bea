import gin_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import DECK, parse_cards
from scoring.errors import RuleError
from scoring.melds import (
    MeldKind,
    analyze_eleven,
    arrange,
    best_arrangements,
    deadwood,
    is_meld,
    meld_of,
)

MANY_HANDS = settings(deadline=None, max_examples=300)


@st.composite
def hands(draw, size):
    """Uniform hands, or dense ones from a window of 3 to 7 ranks where melds abound."""
    if draw(st.booleans()):
        pool = list(DECK)
    else:
        width = draw(st.integers(max(3, -(-size // 4)), 7))
        low = draw(st.integers(1, 14 - width))
        pool = [card for card in DECK if low <= card.rank < low + width]
    return draw(st.permutations(pool))[:size]


def check_arrangement(cards, arrangement):
    """The arrangement uses each card once, its melds are melds, the sum is right."""
    laid = [card for meld in arrangement.melds for card in meld.cards]
    assert sorted(laid + list(arrangement.deadwood_cards)) == sorted(cards)
    for meld in arrangement.melds:
        assert meld_of(meld.cards).kind == meld.kind
    assert arrangement.deadwood == sum(card.value for card in arrangement.deadwood_cards)


# --- against the reference ------------------------------------------------------------

@MANY_HANDS
@given(hands(10))
def test_min_deadwood_of_ten_cards_equals_the_reference(cards):
    assert deadwood(cards) == ref.min_deadwood(cards)
    arrangement = arrange(cards)
    check_arrangement(cards, arrangement)
    assert arrangement.deadwood == deadwood(cards)


@MANY_HANDS
@given(hands(11))
def test_eleven_cards_big_gin_and_best_discard_equal_the_reference(cards):
    eleven = analyze_eleven(cards)
    assert eleven.arrangement.deadwood == ref.min_deadwood(cards)
    assert eleven.big_gin == (ref.min_deadwood(cards) == 0)
    assert eleven.deadwood_after_discard == ref.least_after_discard(cards)
    kept = [card for card in cards if card != eleven.best_discard]
    assert ref.min_deadwood(kept) == eleven.deadwood_after_discard
    check_arrangement(cards, eleven.arrangement)
    check_arrangement(kept, eleven.kept)


@MANY_HANDS
@given(hands(11))
def test_the_best_discard_is_the_highest_of_the_equally_good_ones(cards):
    eleven = analyze_eleven(cards)
    good = [c for c in cards
            if ref.min_deadwood([k for k in cards if k != c]) == eleven.deadwood_after_discard]
    assert eleven.best_discard == max(good, key=lambda c: (c.value, c.rank, -c.suit))


@settings(deadline=None, max_examples=60)
@given(hands(10))
def test_every_best_arrangement_is_listed_once_up_to_cutting_runs(cards):
    listed = best_arrangements(cards)
    for arrangement in listed:
        check_arrangement(cards, arrangement)
        assert arrangement.deadwood == ref.min_deadwood(cards)
    # Which cards end up as deadwood, and which are in sets, is all a cut run cannot change.
    def shape(deadwood_cards, sets):
        return frozenset(deadwood_cards), frozenset(sets)

    ours = {shape(a.deadwood_cards,
                  [frozenset(m.cards) for m in a.melds if m.kind is MeldKind.SET])
            for a in listed}
    theirs = {shape(set(cards) - set().union(*p),
                    [m for m in p if len({c.rank for c in m}) == 1])
              for p in ref.best_arrangements(cards)}
    assert ours == theirs
    assert len(ours) == len(listed)


# --- hand-picked hard cases ---------------------------------------------------------------

def melds_of(arrangement):
    return sorted(" ".join(map(str, meld.cards)) for meld in arrangement.melds)


def test_a_seven_that_fits_a_set_or_a_run_goes_where_it_saves_most():
    # 7♠ with 7♥7♦ (set, leaves 5♠6♠ = 11) or with 5♠6♠ (run, leaves 7♥7♦ = 14).
    arrangement = arrange("7S 7H 7D 5S 6S KC QD 2H 3C 9D")
    assert melds_of(arrangement) == ["7S 7H 7D"]
    assert arrangement.deadwood == 11 + 10 + 10 + 2 + 3 + 9


def test_a_seven_goes_to_the_run_when_the_run_saves_more():
    # With 8♠ the run 5♠-8♠ takes the 7♠; 7♥7♦ then stay deadwood (14 < 5+6+8 = 19).
    arrangement = arrange("7S 7H 7D 5S 6S 8S KC QD 2H 3C")
    assert melds_of(arrangement) == ["5S 6S 7S 8S"]
    assert arrangement.deadwood == 14 + 10 + 10 + 2 + 3


def test_four_of_a_kind_splits_into_a_set_and_a_run():
    arrangement = arrange("7S 7H 7D 7C 8C 9C 2S 3H 4D KD")
    assert melds_of(arrangement) == ["7C 8C 9C", "7S 7H 7D"]
    assert arrangement.deadwood == 2 + 3 + 4 + 10


def test_ace_two_three_is_a_run():
    assert meld_of(parse_cards("AS 2S 3S")).kind is MeldKind.RUN
    assert deadwood("AS 2S 3S 5H 5D 5C 9C TC JC KH") == 10


@pytest.mark.parametrize("group", ["QS KS AS", "KS AS 2S", "JH QH KH AH"])
def test_the_ace_is_only_low(group):
    assert not is_meld(parse_cards(group))


def test_queen_king_ace_is_deadwood():
    arrangement = arrange("QS KS AS 2H 4D 6C 8S TH 3C 5D")
    assert arrangement.melds == ()
    assert arrangement.deadwood == 10 + 10 + 1 + 2 + 4 + 6 + 8 + 10 + 3 + 5


@pytest.mark.parametrize(("group", "why"), [
    ("7S 8S", "at least 3 cards"),
    ("7S 8S TS", "consecutive"),
    ("7S 8H 9S", "not a set"),
    ("7S 7H 8S", "not a set"),
])
def test_non_melds_say_why(group, why):
    with pytest.raises(RuleError, match=why):
        meld_of(parse_cards(group))


def test_gin_and_big_gin_hands():
    assert deadwood("AS 2S 3S 4S 7H 7D 7C 9D 9C 9H") == 0
    eleven = analyze_eleven("AS 2S 3S 4S 7H 7D 7C 7S 9D 9C 9H")
    assert eleven.big_gin and eleven.deadwood_after_discard == 0
    # Of the cards that can go without breaking a meld, the highest (7♠ over 4♠ and A♠).
    assert str(eleven.best_discard) == "7S"


def test_eleven_cards_that_do_not_all_meld_are_not_big_gin():
    eleven = analyze_eleven("AS 2S 3S 4S 7H 7D 7C 9D 9C 9H KS")
    assert not eleven.big_gin
    assert eleven.arrangement.deadwood == 10
    assert str(eleven.best_discard) == "KS"
    assert eleven.deadwood_after_discard == 0


def test_the_discard_is_the_highest_deadwood_card_among_ties():
    # Throwing K♣ or Q♦ both leave 2+3+10: the king goes.
    eleven = analyze_eleven("AS 2S 3S 7H 7D 7C 9D 9C 9H KC QD")
    assert str(eleven.best_discard) == "KC"
    assert eleven.deadwood_after_discard == 10


@pytest.mark.parametrize("size", [9, 12])
def test_wrong_hand_sizes_are_refused(size):
    with pytest.raises(RuleError, match=f"has {size} cards"):
        deadwood(DECK[:size])


def test_a_duplicate_card_is_refused():
    with pytest.raises(RuleError, match="AS appears twice"):
        arrange("AS AS 2S 3S 4S 5S 6S 7S 8S 9S")


def test_eleven_card_analysis_needs_eleven_cards():
    with pytest.raises(RuleError, match="must have 11"):
        analyze_eleven(DECK[:10])


def test_the_worst_ten_cards_leave_98():
    assert deadwood("TS JS TH JH QD KD QC KC 9D 9C") == 98


# --- the integer fast path ------------------------------------------------------------------

@MANY_HANDS
@given(hands(10))
def test_meld_masks_are_the_preferred_arrangement_as_integers(cards):
    from scoring.cards import mask_of
    from scoring.melds import meld_masks_of_mask

    least, melds = meld_masks_of_mask(mask_of(cards))
    arrangement = arrange(cards)
    assert least == arrangement.deadwood == ref.min_deadwood(cards)
    assert sorted(melds) == sorted(meld.mask for meld in arrangement.melds)
    laid = 0
    for meld in melds:
        assert not laid & meld  # each card in one meld at most
        laid |= meld


# --- arrangements built lazily from masks ---------------------------------------------------

def eager_arrangement(cards):
    """The preferred arrangement built the plain way, from the integer fast path's meld
    masks: Meld values sorted by lowest rank, a set before a run, then suit; deadwood
    cards sorted by rank, then suit."""
    from scoring.cards import cards_of, mask_of
    from scoring.melds import Arrangement, meld_masks_of_mask

    mask = mask_of(cards)
    least, masks = meld_masks_of_mask(mask)
    melds = sorted((meld_of(cards_of(meld)) for meld in masks),
                   key=lambda meld: (min(card.rank for card in meld.cards),
                                     meld.kind is MeldKind.RUN, meld.cards[0].suit))
    laid = 0
    for meld in masks:
        laid |= meld
    return Arrangement(tuple(melds), tuple(sorted(cards_of(mask & ~laid))), least)


@MANY_HANDS
@given(st.one_of(hands(10), hands(11), st.integers(3, 9).flatmap(hands)))
def test_a_lazily_built_arrangement_equals_the_eager_one(cards):
    from scoring.cards import mask_of
    from scoring.melds import arrangement_of_mask

    eager = eager_arrangement(cards)
    # Compared before its card values are read, after, and the other way round.
    assert arrangement_of_mask(mask_of(cards)) == eager
    assert eager == arrangement_of_mask(mask_of(cards))
    lazy = arrangement_of_mask(mask_of(cards))
    assert lazy.deadwood == ref.min_deadwood(cards)
    assert hash(lazy) == hash(eager)
    assert (lazy.melds, lazy.deadwood_cards, lazy.deadwood) == (
        eager.melds, eager.deadwood_cards, eager.deadwood)
    assert repr(lazy) == repr(eager)
    check_arrangement(cards, lazy)


@settings(deadline=None, max_examples=100)
@given(hands(10))
def test_every_listed_arrangement_reads_the_same_twice(cards):
    from scoring.cards import mask_of
    from scoring.melds import arrangements_of_mask

    listed = arrangements_of_mask(mask_of(cards))
    assert listed == best_arrangements(cards)
    for number, arrangement in enumerate(arrangements_of_mask(mask_of(cards))):
        if number % 2:  # either field may be read first; both are built then, once
            deadwood_cards, melds = arrangement.deadwood_cards, arrangement.melds
        else:
            melds, deadwood_cards = arrangement.melds, arrangement.deadwood_cards
        assert arrangement.melds is melds and arrangement.deadwood_cards is deadwood_cards
        assert arrangement == listed[number]
        check_arrangement(cards, arrangement)


def test_a_lazy_arrangement_is_an_ordinary_frozen_value():
    import copy
    import dataclasses
    import pickle

    from scoring.melds import Arrangement

    hand = "7S 7H 7D 7C 8C 9C 2S 3H 4D KD"
    built = arrange(hand)
    eager = Arrangement(built.melds, built.deadwood_cards, built.deadwood)
    assert [field.name for field in dataclasses.fields(Arrangement)] == [
        "melds", "deadwood_cards", "deadwood"]
    assert Arrangement.__match_args__ == ("melds", "deadwood_cards", "deadwood")
    for copied in (pickle.loads(pickle.dumps(arrange(hand))), copy.copy(arrange(hand)),
                   copy.deepcopy(arrange(hand)), dataclasses.replace(arrange(hand))):
        assert copied == eager and hash(copied) == hash(eager)
    assert dataclasses.asdict(arrange(hand)) == dataclasses.asdict(eager)
    assert dataclasses.replace(arrange(hand), deadwood=3).deadwood_cards == eager.deadwood_cards
    assert str(eager.melds[0]) == "7S 7H 7D" and eager.deadwood == 19
    match arrange(hand):
        case Arrangement(melds, deadwood_cards, 19):
            assert melds == eager.melds and deadwood_cards == eager.deadwood_cards
        case _:
            pytest.fail("the arrangement does not match its own fields")
    for lazy in (arrange(hand), eager):
        for name in ("melds", "deadwood_cards", "deadwood", "_melds", "other"):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(lazy, name, ())
    assert Arrangement(None, None, 0).melds is None  # the constructor stores what it is given
