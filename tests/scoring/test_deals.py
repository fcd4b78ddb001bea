import hashlib
import hmac
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import DECK
from scoring.deals import (
    DealBlock,
    DealPlace,
    blocks_of,
    commitment,
    deal_from_text,
    deal_key,
    deals_of_block,
    make_deal,
    new_key,
    parse_key,
    parse_span,
    shuffled,
    verify,
)
from scoring.errors import RuleError

KEY = bytes(range(32))
PLACE = DealPlace(stage=1, round=1, deal_set=1, hand=1)


def test_same_key_and_place_give_the_same_deal():
    assert make_deal(KEY, PLACE) == make_deal(bytes(range(32)), DealPlace(1, 1, 1, 1))


def test_known_vector_from_docs():
    # docs/deals.md gives this deal so that anyone can check a re-implementation.
    assert make_deal(KEY, PLACE).text.startswith("KS KH QD 8D KD 4C 7H JH 9S 2H 4S")


def test_every_coordinate_of_the_place_changes_the_deal():
    places = [PLACE, DealPlace(2, 1, 1, 1), DealPlace(1, 2, 1, 1), DealPlace(1, 1, 2, 1),
              DealPlace(1, 1, 1, 2), DealPlace(1, 1, 1, 1, reserve=1)]
    deals = {make_deal(KEY, place).order for place in places}
    assert len(deals) == len(places)


def test_public_value_changes_every_deal_and_is_reproducible():
    plain = make_deal(KEY, PLACE)
    lottery = make_deal(KEY, PLACE, public_value="07 12 19 28 33 + 05")
    assert lottery != plain
    assert lottery == make_deal(KEY, PLACE, public_value="07 12 19 28 33 + 05")


def test_a_deal_is_a_permutation_split_eleven_ten_thirty_one():
    for hand in range(1, 200):
        deal = make_deal(KEY, DealPlace(1, 1, 1, hand))
        assert sorted(deal.order) == sorted(DECK)
        assert (len(deal.dealer), len(deal.non_dealer), len(deal.stock)) == (11, 10, 31)
        assert deal.dealer + deal.non_dealer + deal.stock == deal.order


def test_stored_text_round_trips():
    deal = make_deal(KEY, PLACE)
    assert deal_from_text(deal.text) == deal


def test_the_stream_is_hmac_sha256_in_counter_mode():
    # The first swap uses the low 6 bits of the first stream byte: re-derive it by hand.
    block = hmac.digest(KEY, PLACE.message + b"|" + (0).to_bytes(8, "big"), "sha256")
    first = block[0] & 63
    if first < 52:
        assert make_deal(KEY, PLACE).order[51] == DECK[first]


def test_commitment_verifies_the_revealed_key():
    key = new_key()
    published = commitment(key)
    assert published == hashlib.sha256(key).hexdigest()
    assert verify(key, published.upper())
    assert not verify(new_key(), published)


@pytest.mark.parametrize("text", ["", "00" * 31, "zz" * 32, "00" * 33])
def test_bad_keys_are_refused(text):
    with pytest.raises(RuleError, match=r"64 hex digits|32 bytes"):
        parse_key(text)


def test_key_parses_with_spaces_and_prefix():
    assert parse_key("0x" + " ".join(f"{b:02x}" for b in KEY)) == KEY


def test_places_are_numbered_from_one():
    with pytest.raises(RuleError):
        DealPlace(0, 1, 1, 1)


def _chi_square_critical(df: int, z: float = 3.719) -> float:
    """Wilson–Hilferty: the chi-square value with upper tail about 1e-4 (z = 3.719)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.slow
def test_every_card_is_equally_likely_in_every_position_group():
    """20,000 deals: each card lands with the dealer, the non-dealer and in the stock as
    often as 11/52, 10/52 and 31/52 say, and in each stock third equally often."""
    groups = [(0, 11), (11, 21), (21, 31), (31, 41), (41, 52)]
    counts = [[0] * len(groups) for _ in DECK]
    position_group = [next(g for g, (lo, hi) in enumerate(groups) if lo <= p < hi)
                      for p in range(52)]
    derived = deal_key(KEY)
    deals = 20_000
    for hand in range(1, deals + 1):
        for position, card in enumerate(shuffled(derived, DealPlace(9, 9, 9, hand)).order):
            counts[card.code][position_group[position]] += 1
    statistic = 0.0
    for row in counts:
        for g, (lo, hi) in enumerate(groups):
            expected = deals * (hi - lo) / 52
            statistic += (row[g] - expected) ** 2 / expected
    df = len(DECK) * (len(groups) - 1)
    assert statistic < _chi_square_critical(df)
    # And not suspiciously perfect either (a broken test would give 0).
    assert statistic > df / 3


# --- blocks: the commands that re-create what one key dealt ------------------------------

places = st.builds(DealPlace, stage=st.integers(1, 3), round=st.integers(1, 3),
                   deal_set=st.integers(1, 6), hand=st.integers(1, 12),
                   reserve=st.integers(0, 2))


@settings(max_examples=300)
@given(st.lists(places, max_size=80))
def test_blocks_cover_exactly_the_places_given(given_places):
    blocks = blocks_of(given_places)
    covered = [place for block in blocks for place in block.places()]
    assert len(covered) == len(set(covered))  # no place twice
    assert set(covered) == set(given_places)
    assert blocks == sorted(blocks, key=lambda b: (b.stage, b.round, b.reserve, b.sets,
                                                   b.hands))


def test_a_whole_round_is_one_block_and_extra_hands_or_reserves_are_their_own():
    whole = [DealPlace(1, 2, s, h) for s in (1, 2, 3) for h in range(1, 9)]
    extra = [DealPlace(1, 2, 2, h) for h in (9, 10)]
    reserve = [DealPlace(1, 2, 3, 5, reserve=1)]
    assert blocks_of(whole) == [DealBlock(1, 2, 0, (1, 3), (1, 8))]
    assert blocks_of(extra + reserve) == [DealBlock(1, 2, 0, (2, 2), (9, 10)),
                                          DealBlock(1, 2, 1, (3, 3), (5, 5))]
    assert DealBlock(1, 2, 0, (1, 3), (1, 8)).options == [
        "--stage", "1", "--round", "2", "--hands", "8", "--sets", "3"]
    assert DealBlock(1, 2, 1, (3, 3), (9, 10)).options == [
        "--stage", "1", "--round", "2", "--hands", "9-10", "--sets", "3-3", "--reserve", "1"]


def test_a_block_deals_what_make_deal_makes_at_each_place():
    block = DealBlock(2, 1, 1, (4, 5), (9, 10))
    made = list(deals_of_block(KEY, block, public_value="lotto"))
    assert [place for place, _ in made] == list(block.places())
    for place, deal in made:
        assert deal == make_deal(KEY, place, public_value="lotto")


@pytest.mark.parametrize(("text", "span"), [("8", (1, 8)), ("9-10", (9, 10)), (" 3-3 ", (3, 3))])
def test_spans_are_a_count_or_a_range(text, span):
    assert parse_span(text, "hands") == span


@pytest.mark.parametrize("text", ["0", "x", "5-3", "2-", "-4", "1-2-3", "²"])
def test_bad_spans_are_refused_by_name(text):
    with pytest.raises(RuleError, match="hands"):
        parse_span(text, "hands")


def test_a_match_plays_its_own_deal_set_only_when_every_match_has_its_own():
    from scoring.deals import deal_set_of
    from scoring.rules import DealScope, Rules

    assert [deal_set_of(Rules(), n) for n in (1, 2, 7)] == [1, 1, 1]
    assert [deal_set_of(Rules(deal_scope=DealScope.MATCH), n) for n in (1, 2, 7)] == [1, 2, 7]
