"""The rules engine, timed: microseconds per hand, single process.

    python bench/engine.py [--hands 10000] [--boxes 5000]

Hands are 10,000 uniform random hands and 10,000 dense ones (cards from a window of 3 to
7 ranks in all four suits, where melds abound), fixed seeds. Timed: the least deadwood with
an arrangement of ten cards; the exact eleven-card analysis (Big Gin or not, best discard);
a knock with lay-offs (calculator mode: the knocker's arrangement chosen for him); and
boxes played by two bots. If OpenSpiel (``pyspiel``) or RLCard are installed, their
equivalents run on the same hands, answers are compared, and ratios are printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.box import Box
from scoring.cards import DECK, Card, mask_of
from scoring.layoffs import choose_declarer_arrangement
from scoring.melds import (
    analyze_eleven,
    arrange,
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


def per_hand_us(function: Callable[[Any], Any], inputs: Sequence[Any], rounds: int = 3,
                ) -> tuple[float, list]:
    """Microseconds per call (the best of a few rounds: the machine may be shared), and
    the answers (for comparing engines)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        answers = [function(item) for item in inputs]
        best = min(best, time.perf_counter() - start)
    return best / len(inputs) * 1e6, answers


# --- the other engines, if installed ---------------------------------------------------
# Each engine: (its name, a card converter, {our row: (what it runs, function, returns a
# deadwood to compare)}). Inputs are converted before timing, so every engine is timed on
# hands already in its own representation, doing the same work as our row.

Engine = tuple[str, Callable[[Sequence[Card]], Any], dict[str, tuple[str, Callable, bool]]]


def open_spiel() -> Engine | None:
    try:
        from pyspiel import gin_rummy
    except ImportError:
        return None
    utils = gin_rummy.GinRummyUtils(13, 4, 10)
    suit_order = {"S": 0, "C": 1, "D": 2, "H": 3}  # OpenSpiel numbers suits s c d h

    def convert(cards: Sequence[Card]) -> list[int]:
        return [13 * suit_order[card.suit.letter] + card.rank - 1 for card in cards]

    def arranged(hand: list[int]) -> int:
        # The same work as our row: the least deadwood and one best meld group.
        least = utils.min_deadwood(hand)
        utils.best_meld_group(hand)
        return least

    def eleven_calls(hand: list[int]) -> int:
        return min(utils.min_deadwood(hand[:i] + hand[i + 1:]) for i in range(len(hand)))

    return "OpenSpiel", convert, {
        "ten": ("min_deadwood, C++", utils.min_deadwood, True),
        "ten_arranged": ("min_deadwood + best_meld_group", arranged, True),
        "eleven": ("11 × 10-card min_deadwood", eleven_calls, True),
    }


def rlcard() -> Engine | None:
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils
    except ImportError:
        return None

    def convert(cards: Sequence[Card]) -> list:
        return [rl_utils.card_from_text(str(card)) for card in cards]

    def deadwood(hand: list) -> int:
        # RLCard finds the least deadwood through its best meld clusters: the same work
        # for the deadwood and for the arrangement rows.
        clusters = melding.get_best_meld_clusters(hand)
        if not clusters:
            return sum(rl_utils.get_deadwood_value(card) for card in hand)
        return rl_utils.get_deadwood_count(hand, clusters[0])

    def after_discard(hand: list) -> int:
        return min(deadwood(hand[:i] + hand[i + 1:]) for i in range(len(hand)))

    return "RLCard", convert, {
        "ten": ("get_best_meld_clusters + count", deadwood, True),
        "ten_arranged": ("get_best_meld_clusters + count", deadwood, True),
        "eleven": ("11 × get_best_meld_clusters", after_discard, True),
    }


# --- the benchmark ---------------------------------------------------------------------

def compare(row: str, ours_us: float, ours: list[int], engines: list[Engine],
            hands: list[list[Card]]) -> dict[str, float]:
    """Run each installed engine's equivalent of one of our rows on the same hands; return
    their times in µs by engine name."""
    times = {}
    for name, convert, rows in engines:
        if row not in rows:
            continue
        what, function, gives_deadwood = rows[row]
        theirs_us, theirs = per_hand_us(function, [convert(hand) for hand in hands])
        times[name] = theirs_us
        agreement = ""
        if gives_deadwood:
            differ = sum(a != b for a, b in zip(ours, theirs, strict=True))
            agreement = f"; answers differ on {differ:,} hands"
        print(f"      {name} {what:<32} {theirs_us:7.1f} µs = {theirs_us / ours_us:5.2f}× "
              f"our time{agreement}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--boxes", type=int, default=5_000)
    args = parser.parse_args()
    engines = [engine for engine in (open_spiel(), rlcard()) if engine is not None]
    for name, make in (("OpenSpiel (pyspiel)", open_spiel), ("RLCard", rlcard)):
        if make() is None:
            print(f"{name} is not installed: no comparison with it.")
    print(f"Python {sys.version.split()[0]}, {args.hands:,} hands per kind, one process.\n")

    targets: list[tuple[str, bool]] = []
    for kind, make in (("uniform", uniform_hands), ("dense", dense_hands)):
        ten = make(random.Random(10), args.hands, 10)
        eleven = make(random.Random(11), args.hands, 11)
        print(f"{kind} hands")

        us, answers = per_hand_us(min_deadwood_of_mask, [mask_of(hand) for hand in ten])
        print(f"  10 cards, least deadwood (card mask)            {us:7.1f} µs")
        ten_times = compare("ten", us, answers, engines, ten)
        if "RLCard" in ten_times:
            targets.append((f"10 cards least deadwood, {kind}: >= 10× faster than RLCard",
                            ten_times["RLCard"] >= 10 * us))

        us, arranged = per_hand_us(meld_masks_of_mask, [mask_of(hand) for hand in ten])
        print(f"  10 cards, deadwood + arrangement (card mask)    {us:7.1f} µs")
        times = compare("ten_arranged", us, [least for least, _ in arranged], engines, ten)
        if "OpenSpiel" in times:
            if kind == "uniform":
                targets.append(("10 cards with arrangement, uniform: within 2× of OpenSpiel",
                                us <= 2 * times["OpenSpiel"]))
            else:
                targets.append(("10 cards with arrangement, dense: faster than OpenSpiel",
                                us < times["OpenSpiel"]))
        if "RLCard" in times:
            targets.append((f"10 cards with arrangement, {kind}: >= 10× faster than RLCard",
                            times["RLCard"] >= 10 * us))

        us, answers = per_hand_us(best_discard_of_mask, [mask_of(hand) for hand in eleven])
        print(f"  11 cards, exact best discard (card mask)        {us:7.1f} µs")
        times = compare("eleven", us, [deadwood for deadwood, _ in answers], engines, eleven)
        if "OpenSpiel" in times:
            targets.append((f"11 cards best discard, {kind}: faster than 11 OpenSpiel calls",
                            us < times["OpenSpiel"]))
        if "RLCard" in times:
            targets.append((f"11 cards best discard, {kind}: >= 10× faster than RLCard",
                            times["RLCard"] >= 10 * us))

        # For information: the public functions on cards, building card values.
        us, _ = per_hand_us(arrange, ten)
        print(f"  10 cards, arrange() from cards (values built)   {us:7.1f} µs")
        us, _ = per_hand_us(analyze_eleven, eleven)
        print(f"  11 cards, analyze_eleven() from cards           {us:7.1f} µs")
        twenty = (uniform_hands(random.Random(20), args.hands, 20) if kind == "uniform"
                  else dense_hands(random.Random(20), args.hands, 20, range(5, 8)))
        us, _ = per_hand_us(lambda cards: choose_declarer_arrangement(cards[:10], cards[10:]),
                            twenty)
        print(f"  knock with lay-offs, calculator mode            {us:7.1f} µs"
              + ("  (no equivalent in the others)" if engines else ""))
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
        for name, met in targets:
            print(f"  {'met    ' if met else 'NOT MET'}  {name}")


if __name__ == "__main__":
    main()
