"""The rules engine, timed: microseconds per hand, single process.

    python bench/engine.py [--hands 10000] [--boxes 5000] [--rounds 3]

Hands are 10,000 uniform random hands and 10,000 dense ones (cards from a window of 3 to
7 ranks in all four suits, where melds abound), fixed seeds. If OpenSpiel (``pyspiel``)
and RLCard are installed, they run on the same hands, their answers are compared with
ours, and the ratios (their time / ours) are printed, with each target met or not.

Like for like: every engine gets the hands already in its own representation, made before
the clock starts (our card masks, OpenSpiel's card numbers, RLCard's card objects; the
eleven ten-card hands of an eleven-card hand too), and does the same work, answering in
its own form:

- least deadwood: ours ``min_deadwood_of_mask``; OpenSpiel ``min_deadwood``; RLCard
  ``get_best_meld_clusters`` and the count (it has no other way to the deadwood);
- deadwood + arrangement: the least deadwood and one best arrangement. Ours
  ``meld_masks_of_mask`` (melds as card masks); OpenSpiel ``min_deadwood`` plus
  ``best_meld_group`` (melds as lists of card numbers), each timed on its own and the two
  times added, as the target is worded; RLCard as above;
- eleven cards: ours ``best_discard_of_mask`` (least deadwood after the best discard, and
  that discard); OpenSpiel eleven calls of its ten-card ``min_deadwood``; RLCard eleven
  ``get_best_meld_clusters``.

Each figure is the best of ``--rounds`` passes over all the hands, with Python's garbage
collector paused while a pass runs (as ``timeit`` does), so that no engine pays for
collecting what another left behind. No result is cached per hand: a pass over 10,000
different hands costs the same the third time as the first (only tables indexed by one
suit's 13 cards or by one meld, a few thousand entries at most, fill up on first use).

Rows marked "for information" have no equivalent in the other engines or are not
targets: our arrangement as ``Card`` and ``Meld`` values, the public functions from card
text (parsing included), calculator-mode lay-offs and whole boxes played by two bots.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.box import Box
from scoring.cards import DECK, Card, mask_of
from scoring.layoffs import choose_declarer_arrangement
from scoring.melds import (
    analyze_eleven,
    arrange,
    arrangement_of_mask,
    best_discard_of_mask,
    meld_masks_of_mask,
    min_deadwood_of_mask,
)
from scoring.simulate import play_box


def uniform_hands(rng: random.Random, count: int, size: int) -> list[list[Card]]:
    return [rng.sample(DECK, size) for _ in range(count)]


def dense_hands(rng: random.Random, count: int, size: int, widths: range = range(3, 8),
                ) -> list[list[Card]]:
    hands = []
    for _ in range(count):
        width = rng.choice([w for w in widths if 4 * w >= size])
        low = rng.randint(1, 14 - width)
        pool = [card for card in DECK if low <= card.rank < low + width]
        hands.append(rng.sample(pool, size))
    return hands


ROUNDS = 3


def one_pass(function: Callable[[Any], Any], inputs: Sequence[Any]) -> tuple[float, list]:
    """Seconds for one call per input, the garbage collector paused (as ``timeit`` does, so
    that no engine pays for collecting what another left behind); and the answers."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        answers = [function(item) for item in inputs]
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed, answers


def race(contestants: Sequence[tuple[Callable[[Any], Any], Sequence[Any]]],
         rounds: int | None = None) -> list[tuple[float, list]]:
    """Microseconds per call of each (function, inputs), the best of a few passes, and the
    answers of the last pass. The passes take turns (one of each, then again), so that a
    slow spell of a shared machine falls on every engine of a row alike."""
    best = [float("inf")] * len(contestants)
    answers: list[list] = [[] for _ in contestants]
    for _ in range(rounds or ROUNDS):
        for number, (function, inputs) in enumerate(contestants):
            answers[number] = []
            elapsed, answers[number] = one_pass(function, inputs)
            best[number] = min(best[number], elapsed / len(inputs) * 1e6)
    return list(zip(best, answers, strict=True))


def per_hand_us(function: Callable[[Any], Any], inputs: Sequence[Any], rounds: int | None = None,
                ) -> tuple[float, list]:
    """Microseconds per call, the best of a few passes, and the answers."""
    return race([(function, inputs)], rounds)[0]


def without_each(hand: Sequence[Any]) -> list[list[Any]]:
    """The hands left by throwing each card in turn (made before timing)."""
    return [list(hand[:i]) + list(hand[i + 1:]) for i in range(len(hand))]


# --- the other engines, if installed ---------------------------------------------------

@dataclass
class Step:
    """One timed call of another engine: what it is, the function, and how to prepare its
    input from a hand of our cards (outside the timing)."""

    what: str
    function: Callable[[Any], Any]
    prepare: Callable[[Sequence[Card]], Any]


@dataclass
class Engine:
    name: str
    # our row -> the steps that do its work (their times are added) and which step's answer
    # is a deadwood to compare with ours
    rows: dict[str, tuple[list[Step], int]] = field(default_factory=dict)


def open_spiel() -> Engine | None:
    try:
        from pyspiel import gin_rummy
    except ImportError:
        return None
    utils = gin_rummy.GinRummyUtils(13, 4, 10)
    suit_order = {"S": 0, "C": 1, "D": 2, "H": 3}  # OpenSpiel numbers suits s c d h

    def convert(cards: Sequence[Card]) -> list[int]:
        return [13 * suit_order[card.suit.letter] + card.rank - 1 for card in cards]

    least = utils.min_deadwood

    def eleven_calls(hands: list[list[int]]) -> int:
        return min(map(least, hands))

    min_deadwood = Step("min_deadwood", least, convert)
    return Engine("OpenSpiel", {
        "ten": ([min_deadwood], 0),
        "ten_arranged": ([min_deadwood, Step("best_meld_group", utils.best_meld_group, convert)],
                         0),
        "eleven": ([Step("11 × 10-card min_deadwood", eleven_calls,
                         lambda cards: without_each(convert(cards)))], 0),
    })


def rlcard() -> Engine | None:
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils
    except ImportError:
        return None

    def convert(cards: Sequence[Card]) -> list:
        return [rl_utils.card_from_text(str(card)) for card in cards]

    def deadwood(hand: list) -> int:
        # RLCard finds the least deadwood through its best meld clusters (the arrangements):
        # the same work for the deadwood and the arrangement rows.
        clusters = melding.get_best_meld_clusters(hand)
        if not clusters:
            return sum(rl_utils.get_deadwood_value(card) for card in hand)
        return rl_utils.get_deadwood_count(hand, clusters[0])

    def after_discard(hands: list[list]) -> int:
        return min(map(deadwood, hands))

    clusters = Step("get_best_meld_clusters + count", deadwood, convert)
    return Engine("RLCard", {
        "ten": ([clusters], 0),
        "ten_arranged": ([clusters], 0),
        "eleven": ([Step("11 × get_best_meld_clusters", after_discard,
                         lambda cards: without_each(convert(cards)))], 0),
    })


# --- the benchmark ---------------------------------------------------------------------

@dataclass
class Row:
    """One of our target rows, raced against the other engines' equivalents."""

    key: str  # the engines' name for it
    label: str
    function: Callable[[Any], Any]
    inputs: Sequence[Any]  # our card masks
    deadwood: Callable[[Any], int] = lambda answer: answer
    extra: list[tuple[str, Callable[[Any], Any]]] = field(default_factory=list)  # on inputs


def run_row(row: Row, engines: list[Engine], hands: list[list[Card]],
            ) -> tuple[float, dict[str, float], dict[str, float]]:
    """Time our row, its extra functions and every engine's steps in turns; print them.
    Returns our time, the engines' times by name (their steps added) and the extras'."""
    contestants: list[tuple[Callable[[Any], Any], Sequence[Any]]] = [(row.function, row.inputs)]
    contestants += [(function, row.inputs) for _, function in row.extra]
    entries = []  # (engine, step number, step, compared)
    for engine in engines:
        if row.key in engine.rows:
            steps, compared = engine.rows[row.key]
            for number, step in enumerate(steps):
                entries.append((engine, number, step, compared))
                contestants.append((step.function, [step.prepare(hand) for hand in hands]))
    results = race(contestants)
    del contestants
    ours_us, answers = results[0]
    ours_deadwood = [row.deadwood(answer) for answer in answers]
    print(f"  {row.label:<49} {ours_us:7.2f} µs")
    extras = {label: us for (label, _), (us, _) in zip(row.extra, results[1:], strict=False)}
    times: dict[str, float] = {}
    for (engine, number, step, compared), (us, theirs) in zip(
            entries, results[1 + len(row.extra):], strict=True):
        times[engine.name] = times.get(engine.name, 0.0) + us
        steps = engine.rows[row.key][0]
        last = number == len(steps) - 1
        label = f"{engine.name} {step.what}"
        line = f"      {label:<45} {us:7.2f} µs"
        if last and len(steps) == 1:
            line += f" = {us / ours_us:5.2f}× our time"
        if number == compared:
            differ = sum(a != b for a, b in zip(ours_deadwood, theirs, strict=True))
            line += f"; deadwood differs on {differ:,} hands"
        print(line)
        if last and len(steps) > 1:
            label = f"{engine.name} total"
            total = times[engine.name]
            print(f"      {label:<45} {total:7.2f} µs = {total / ours_us:5.2f}× our time")
    return ours_us, times, extras


def with_card_values(mask: int) -> Any:
    """Our arrangement as Card and Meld values: built on first read, so read them."""
    arrangement = arrangement_of_mask(mask)
    arrangement.melds  # noqa: B018 -- builds the melds and the deadwood cards
    return arrangement


def arrange_read(cards: list[str]) -> Any:
    arrangement = arrange(cards)
    arrangement.melds  # noqa: B018
    return arrangement


def analyze_eleven_read(cards: list[str]) -> Any:
    eleven = analyze_eleven(cards)
    eleven.arrangement.melds  # noqa: B018
    eleven.kept.melds  # noqa: B018
    return eleven


def main() -> None:
    global ROUNDS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--boxes", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=3, help="passes per figure (the best)")
    args = parser.parse_args()
    ROUNDS = args.rounds
    engines = [engine for engine in (open_spiel(), rlcard()) if engine is not None]
    for name, make in (("OpenSpiel (pyspiel)", open_spiel), ("RLCard", rlcard)):
        if make() is None:
            print(f"{name} is not installed: no comparison with it.")
    print(f"Python {sys.version.split()[0]}, {args.hands:,} hands per kind, one process, "
          f"best of {ROUNDS} passes taken in turns, µs per hand.\n")

    targets: list[tuple[str, bool, str]] = []

    def target(name: str, ours_us: float, times: dict[str, float], engine: str,
               met: Callable[[float, float], bool]) -> None:
        if engine in times:
            theirs = times[engine]
            targets.append((name, met(ours_us, theirs),
                            f"ours {ours_us:.2f} µs, {engine} {theirs:.2f} µs: "
                            f"{theirs / ours_us:.2f}×"))

    def ten_times_rlcard(ours_us: float, theirs: float) -> bool:
        return 10 * ours_us <= theirs

    def faster(ours_us: float, theirs: float) -> bool:
        return ours_us < theirs

    for kind, make in (("uniform", uniform_hands), ("dense", dense_hands)):
        ten = make(random.Random(10), args.hands, 10)
        eleven = make(random.Random(11), args.hands, 11)
        ten_masks = [mask_of(hand) for hand in ten]
        eleven_masks = [mask_of(hand) for hand in eleven]
        print(f"{kind} hands")

        us, times, _ = run_row(Row("ten", "10 cards, least deadwood (card mask)",
                                   min_deadwood_of_mask, ten_masks), engines, ten)
        target(f"10 cards least deadwood, {kind}: >= 10× faster than RLCard", us, times,
               "RLCard", ten_times_rlcard)

        cards_label = "arrangement as Card/Meld values"
        us, times, extras = run_row(Row(
            "ten_arranged", "10 cards, deadwood + arrangement (card masks)", meld_masks_of_mask,
            ten_masks, itemgetter(0), [(cards_label, with_card_values)]), engines, ten)
        if kind == "uniform":
            target("10 cards with arrangement, uniform: within 2× of OpenSpiel", us, times,
                   "OpenSpiel", lambda ours_us, theirs: ours_us <= 2 * theirs)
        else:
            target("10 cards with arrangement, dense: faster than OpenSpiel", us, times,
                   "OpenSpiel", faster)
        target(f"10 cards with arrangement, {kind}: >= 10× faster than RLCard", us, times,
               "RLCard", ten_times_rlcard)
        cards_us, arranged_times = extras[cards_label], times

        us, times, _ = run_row(Row("eleven", "11 cards, exact best discard (card mask)",
                                   best_discard_of_mask, eleven_masks, itemgetter(0)),
                               engines, eleven)
        target(f"11 cards best discard, {kind}: faster than 11 OpenSpiel calls", us, times,
               "OpenSpiel", faster)
        target(f"11 cards best discard, {kind}: >= 10× faster than RLCard", us, times,
               "RLCard", ten_times_rlcard)

        print("  for information (not targets):")
        print(f"  {'10 cards, ' + cards_label:<49} {cards_us:7.2f} µs"
              + "".join(f"; {name} {theirs / cards_us:.2f}×"
                        for name, theirs in arranged_times.items()))
        text_ten = [[str(card) for card in hand] for hand in ten]
        text_eleven = [[str(card) for card in hand] for hand in eleven]
        twenty = (uniform_hands(random.Random(20), args.hands, 20) if kind == "uniform"
                  else dense_hands(random.Random(20), args.hands, 20, range(5, 8)))
        for label, function, inputs in (
                ("arrange() from card text, values read", arrange_read, text_ten),
                ("analyze_eleven() from card text, values read", analyze_eleven_read,
                 text_eleven),
                ("knock with lay-offs, calculator mode (cards)",
                 lambda cards: choose_declarer_arrangement(cards[:10], cards[10:]), twenty)):
            us, _ = per_hand_us(function, inputs)
            print(f"  {label:<49} {us:7.2f} µs")
        print()

    rng = random.Random(52)
    boxes = []
    for _ in range(args.boxes):
        order = list(DECK)
        rng.shuffle(order)
        boxes.append(Box.from_order(order))
    us, _ = per_hand_us(lambda box: play_box(box, "greedy", "gin_waiter"), boxes)
    print(f"simulated boxes (greedy vs gin_waiter, recorded and scored): {1e6 / us:,.0f} per "
          "second\n")
    if targets:
        print("targets:")
        for name, met, figures in targets:
            print(f"  {'met    ' if met else 'NOT MET'}  {name} ({figures})")


if __name__ == "__main__":
    main()
