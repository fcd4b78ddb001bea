"""The shorthand a director types from a paper scorecard (issue 24)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.shorthand import Shorthand, parse

deadwood = st.integers(0, 10_000)  # the engine, not the reading, bounds the counts
seat = st.sampled_from([1, 2])


@st.composite
def shorthands(draw) -> Shorthand:
    outcome = draw(st.sampled_from(["knock", "gin", "big_gin", "draw"]))
    false_seat = draw(st.none() | seat)
    false_dw = draw(deadwood) if false_seat else None
    if outcome == "draw":
        return Shorthand("draw", None, None, None, false_seat, false_dw)
    declarer = draw(deadwood) if outcome == "knock" else None
    return Shorthand(outcome, draw(seat), declarer, draw(deadwood), false_seat, false_dw)


@given(shorthands())
def test_what_is_written_reads_back(shorthand):
    assert parse(shorthand.text) == shorthand
    assert parse(shorthand.text.lower()) == shorthand
    assert parse("  " + shorthand.text.replace(" ", "   ") + " ") == shorthand


@pytest.mark.parametrize(("text", "expected"), [
    ("K1 4 15", Shorthand("knock", 1, 4, 15)),
    ("k2 0 7", Shorthand("knock", 2, 0, 7)),
    ("K 1 4 15", Shorthand("knock", 1, 4, 15)),
    ("G2 30", Shorthand("gin", 2, None, 30)),
    ("b1 22", Shorthand("big_gin", 1, None, 22)),
    ("D", Shorthand("draw")),
    ("d", Shorthand("draw")),
    ("F1 14 K2 3 20", Shorthand("knock", 2, 3, 20, 1, 14)),
    ("f2 12 d", Shorthand("draw", None, None, None, 2, 12)),
])
def test_examples(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize(("text", "says"), [
    ("", "type the result"),
    ("X1 4", "“X” is not a result"),
    ("K3 4 15", "seats 1 and 2, not 3"),
    ("K 4 15", "seats 1 and 2, not 4"),
    ("K1 4", "a knock needs both deadwoods"),
    ("G2", "a gin needs the opponent's deadwood"),
    ("K1 4 15 7", "“7” is one part too many: K1 4 15"),
    ("D 5", "“5” is one part too many: D"),
    ("4 15", "start with the result's letter"),
    ("F1 14", "after the false knock, write how the hand ended"),
    ("F1 K2 3 20", "write the false knocker's deadwood"),
    ("K1 4 15 F1 12", "one false knock per hand, written first"),
    ("K1 4; 15", "“;” is not part of a result"),
    ("G", "write the seat after G: G1 or G2"),
])
def test_what_does_not_read_says_why(text, says):
    with pytest.raises(RuleError) as error:
        parse(text)
    assert says in str(error.value)
