"""The duplicate rating on simulated seasons, against a plain Elo (issue 54).

    python bench/ratings.py [--seasons 3] [--events 6] [--players 32]

Each season: 32 players whose ``error`` (``scoring.bots.Erring``: the chance that a
decision is a random legal one) is spread evenly from 0 to 0.3, all playing the ``greedy``
strategy otherwise; events 30 days apart, each of 7 rounds × 8 hands; every round pairs the
field at random and deals one set of 8 boxes that every table plays (``scoring.simulate``),
the players of a table dealing in turn. Seeds are fixed (season ``s`` uses seed ``s``).

Printed after each event, averaged over the seasons: the Spearman correlation between the
rating and the true skill (−error), for the duplicate rating (``scoring.ratings``) and for a
plain Elo (K = 16, expected score from the rating difference over 400) on the wins and
losses of the same hands (a draw is half a win), taken one by one in playing order.
Targets: rho ≥ 0.9 after three events; the duplicate rating at least 0.05 above Elo after
the second event and every later one.

Then the time to rate a season of 2,000 players and 200,000 hands (target < 5 s): made-up
results from a skill per player and a value per box, 100 dates, 40 players a box.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from scoring.bots import STRATEGIES, Erring
from scoring.box import Box
from scoring.cards import DECK
from scoring.ratings import RatedHand, rate
from scoring.simulate import play_box

ROUNDS, HANDS, MAX_ERROR, ELO_K = 7, 8, 0.3, 16
START = dt.date(2026, 1, 10)


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        position = 0
        while position < len(order):
            end = position
            while end + 1 < len(order) and values[order[end + 1]] == values[order[position]]:
                end += 1
            for k in range(position, end + 1):
                result[order[k]] = (position + end) / 2
            position = end + 1
        return result
    return statistics.correlation(ranks(xs), ranks(ys))


def play_event(number: int, players: list[str], bots: dict, rng: random.Random,
               date: dt.date) -> list[RatedHand]:
    hands = []
    for round_number in range(1, ROUNDS + 1):
        boxes = []
        for _ in range(HANDS):
            cards = list(DECK)
            rng.shuffle(cards)
            boxes.append(Box.from_order(cards))
        seated = list(players)
        rng.shuffle(seated)
        for table in range(0, len(seated), 2):
            first, second = seated[table], seated[table + 1]
            for hand, box in enumerate(boxes):
                dealer, non_dealer = (first, second) if hand % 2 == 0 else (second, first)
                record = play_box(box, bots[dealer], bots[non_dealer])
                hands.append(RatedHand(date, f"E{number}", f"E{number}/{round_number}/{hand + 1}",
                                       dealer, non_dealer, record.points("dealer")))
    return hands


def elo(hands: list[RatedHand], players: list[str]) -> dict[str, float]:
    ratings = dict.fromkeys(players, 1500.0)
    for hand in hands:
        expected = 1 / (1 + 10 ** ((ratings[hand.non_dealer] - ratings[hand.dealer]) / 400))
        won = 1.0 if hand.dealer_points > 0 else 0.0 if hand.dealer_points < 0 else 0.5
        ratings[hand.dealer] += ELO_K * (won - expected)
        ratings[hand.non_dealer] -= ELO_K * (won - expected)
    return ratings


def season(seed: int, events: int, count: int) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    players = [f"P{n:02d}" for n in range(1, count + 1)]
    errors = {player: MAX_ERROR * n / (count - 1) for n, player in enumerate(players)}
    bots = {player: Erring(STRATEGIES["greedy"], errors[player], seed * 1000 + n)
            for n, player in enumerate(players)}
    truth = [-errors[player] for player in players]
    hands: list[RatedHand] = []
    figures = []
    for number in range(1, events + 1):
        hands += play_event(number, players, bots, rng, START + dt.timedelta(days=30 * number))
        duplicate = {row.player: row.rating for row in rate(hands)}
        plain = elo(hands, players)
        figures.append((spearman([duplicate[p] for p in players], truth),
                        spearman([plain[p] for p in players], truth)))
    return figures


def big_season(players: int = 2000, hands: int = 200_000, dates: int = 100,
               per_box: int = 40) -> list[RatedHand]:
    rng = random.Random(7)
    skill = {f"Q{n:04d}": rng.gauss(0, 4) for n in range(players)}
    names = sorted(skill)
    made = []
    per_date = hands // dates
    for day in range(dates):
        date = START + dt.timedelta(days=day * 3)
        for start in range(0, per_date, per_box):
            box, value = f"D{day}/B{start}", rng.gauss(0, 20)
            for _ in range(per_box):
                dealer, non_dealer = rng.sample(names, 2)
                points = round(value + skill[dealer] - skill[non_dealer] + rng.gauss(0, 25))
                made.append(RatedHand(date, f"D{day}", box, dealer, non_dealer, points))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seasons", type=int, default=3)
    parser.add_argument("--events", type=int, default=6)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--skip-timing", action="store_true")
    args = parser.parse_args()

    started = time.perf_counter()
    seasons = [season(seed, args.events, args.players) for seed in range(1, args.seasons + 1)]
    print(f"{args.seasons} seasons of {args.events} events, {args.players} players, "
          f"{ROUNDS} rounds x {HANDS} hands "
          f"({time.perf_counter() - started:.1f} s to play and rate)")
    print("after event   duplicate rho   Elo rho   difference   target")
    met = True
    for event in range(args.events):
        duplicate = statistics.mean(figures[event][0] for figures in seasons)
        plain = statistics.mean(figures[event][1] for figures in seasons)
        targets = []
        if event + 1 >= 3:
            targets.append(("rho >= 0.9", duplicate >= 0.9))
        if event + 1 >= 2:
            targets.append(("+0.05 over Elo", duplicate - plain >= 0.05))
        met = met and all(ok for _, ok in targets)
        said = ", ".join(f"{name}: {'met' if ok else 'NOT MET'}" for name, ok in targets)
        print(f"{event + 1:>11}   {duplicate:>13.3f}   {plain:>7.3f}   {duplicate - plain:>+10.3f}"
              f"   {said or '-'}")

    if not args.skip_timing:
        made = big_season()
        timings = []
        for _ in range(3):
            started = time.perf_counter()
            rows = rate(made)
            timings.append(time.perf_counter() - started)
        seconds = statistics.median(timings)
        met = met and seconds < 5
        print(f"rating {len(rows)} players from {len(made)} hands: {seconds:.2f} s "
              f"(median of 3; target < 5 s: {'met' if seconds < 5 else 'NOT MET'})")
    print("all targets met" if met else "SOME TARGETS NOT MET")


if __name__ == "__main__":
    main()
