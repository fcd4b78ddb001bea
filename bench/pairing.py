"""Pairing and drawing rounds, timed.

    python bench/pairing.py

Prints: the Swiss pairing of 512 teams after 10 played rounds (target < 1 s), with the
worst and mean time over the rounds before it; and generating and saving a 256-match round
(512 teams) through the draw service on SQLite (target < 2 s).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import bench_user, insert_players, run_slug


def bench_swiss(teams: int = 512, rounds: int = 10, seed: int = 2026) -> dict[str, float]:
    """Play ``rounds`` Swiss rounds with random results, then time the next pairing."""
    from scoring.pairing import SwissTeam, swiss_pairing

    rng = random.Random(seed)
    points = dict.fromkeys(range(1, teams + 1), 0)
    small = dict.fromkeys(points, 0)
    opponents: dict[int, set[int]] = {team: set() for team in points}
    byes = dict.fromkeys(points, 0)
    home = dict.fromkeys(points, 0)
    timings = []
    for _round in range(rounds + 1):
        order = sorted(points, key=lambda t: (-points[t], -small[t], t))
        field = [SwissTeam(id=t, points=points[t], rank=rank, opponents=frozenset(opponents[t]),
                           byes=byes[t], home_count=home[t])
                 for rank, t in enumerate(order, 1)]
        start = time.perf_counter()
        pairing = swiss_pairing(field)
        timings.append(time.perf_counter() - start)
        for a, b in pairing.pairs:
            assert b not in opponents[a], "rematch"
            opponents[a].add(b)
            opponents[b].add(a)
            home[a] += 1
            total = rng.choice([-80, -40, -15, 0, 15, 40, 80])
            small[a] += total
            small[b] -= total
            points[a] += 3 if total > 0 else 2 if total == 0 else 1
            points[b] += 3 if total < 0 else 2 if total == 0 else 1
        if pairing.bye is not None:
            byes[pairing.bye] += 1
            points[pairing.bye] += 2
    return {"after 10 rounds": timings[-1], "worst of rounds 1-10": max(timings[:-1]),
            "mean of rounds 1-10": statistics.mean(timings[:-1])}


def bench_generate_round(matches: int = 256) -> float:
    """Generate and save a round of ``matches`` matches on a fresh SQLite database."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ["DATABASE_URL"] = "sqlite:///" + str(
        Path(tempfile.mkdtemp(prefix="dupgin-bench-")) / "bench.sqlite3")
    os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="dupgin-bench-"))
    import django

    django.setup()
    import datetime as dt

    from django.core.management import call_command

    from tournament.models import Player, Stage, Team, Tournament
    from tournament.services import Actor
    from tournament.services.draw import generate_round
    from tournament.services.stages import create_stage, enter_teams

    call_command("migrate", verbosity=0)
    actor = Actor(user=bench_user())
    tournament = Tournament.objects.create(
        name="Bench Open", slug=run_slug("bench"), starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 1, 3), status="running")
    teams = Team.objects.bulk_create(
        Team(tournament=tournament, code=f"T{n}", name=f"Team {n:04d}", seed=n)
        for n in range(1, 2 * matches + 1))
    insert_players(Player(team=t, name=f"P{n} {t.code}", number=n)
                               for t in teams for n in (1, 2))
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=9)
    enter_teams(actor, stage, teams)
    start = time.perf_counter()
    round_ = generate_round(actor, stage, expected_number=1)
    elapsed = time.perf_counter() - start
    assert round_.matches.count() == matches and round_.tables.count() == 2 * matches
    return elapsed


def main() -> None:
    swiss = bench_swiss()
    print("Swiss pairing, 512 teams:")
    for name, seconds in swiss.items():
        print(f"  {name}: {seconds * 1000:.0f} ms")
    print(f"  -> after 10 rounds: {swiss['after 10 rounds']:.3f} s [target < 1 s]")
    seconds = bench_generate_round()
    print(f"Generating and saving a 256-match round on SQLite: {seconds:.3f} s "
          "[target < 2 s]")


if __name__ == "__main__":
    main()
