"""The erring bot (scoring.bots.Erring): a weaker player for simulated seasons."""

from __future__ import annotations

import random

import pytest

from scoring.bots import STRATEGIES, Erring
from scoring.box import Box
from scoring.cards import DECK
from scoring.errors import RuleError
from scoring.simulate import play_box


def boxes(count, seed=3):
    rng = random.Random(seed)
    for _ in range(count):
        cards = list(DECK)
        rng.shuffle(cards)
        yield Box.from_order(cards)


def test_with_no_error_it_plays_as_its_base():
    for box in boxes(40):
        base = play_box(box, "greedy", "gin_waiter")
        erring = play_box(box, Erring(STRATEGIES["greedy"], 0.0, 1),
                          Erring(STRATEGIES["gin_waiter"], 0.0, 2))
        assert erring.turns == base.turns and erring.score == base.score


def test_every_random_decision_is_legal_and_a_season_replays_the_same():
    records = []
    for seed in (5, 5):
        bots = (Erring(STRATEGIES["greedy"], 1.0, seed), Erring(STRATEGIES["greedy"], 0.5, 9))
        # play_box checks every decision against the rules and raises on a wrong one.
        records.append([play_box(box, *bots).to_dict() for box in boxes(150)])
    assert records[0] == records[1]
    # A player who always decides at random never knocks above the limit (no false knock).
    assert all(record["false_knock"] is None for record in records[0])


def test_an_erring_player_does_worse():
    good, bad = 0, 0
    for number, box in enumerate(boxes(300)):
        strong, weak = STRATEGIES["greedy"], Erring(STRATEGIES["greedy"], 0.5, number)
        good += play_box(box, strong, weak).points("dealer")
        bad += play_box(box, weak, strong).points("dealer")
    assert good > bad


def test_the_error_is_a_probability():
    with pytest.raises(RuleError):
        Erring(STRATEGIES["greedy"], 1.5)
    assert Erring(STRATEGIES["greedy"], 0.25).name == "greedy~0.25"
