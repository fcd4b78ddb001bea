"""Players against the field on the last day of a 512-team event, timed (issue 28, item 1).

    python bench/field.py [--rebuild] [--profile] [--runs 3]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dupgin_bench_standings \\
        python bench/field.py

Uses the 512-team, 15-round event of ``bench/standings.py`` (8 hands a table, 61,440 hand
results, one deal set for the field: every deal has 512 tables, a datum over 510 of them),
built there once and kept (``--rebuild`` makes it again). Prints, each the median of
``--runs`` runs, with the processor time of this process beside the wall-clock time (the
machine is shared: the load average is printed first and last):

- the public against-the-field page of the whole tournament (``public:field``) through the
  Django test client, uncached (``PUBLIC_CACHE_SECONDS=0``), anonymous: its queries and size;
- ``selectors.field.field_standings`` alone over the 15 rounds, and over round 1 only
  (``round_ids``: the figure after the first round);
- of that, the time in ``scoring.field`` (the datums and every player's differences:
  ``field_lines``, before issue 28 ``against_the_field``);
- ``--check``: whether ``field_standings`` gives exactly what the code before issue 28
  gives on this event (``tests/tournament/services/field_standings_reference.py``: every
  rank and figure, of the whole tournament and of round 1);
- ``--profile``: the 25 costliest functions of one ``field_standings`` call (cProfile,
  by their own time).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import standings as standings_bench  # noqa: E402  (bench/standings.py: the event)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cpus"


class Clock:
    """Wall-clock and processor time of one call."""

    def __call__(self, function, *args, **kwargs):
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        value = function(*args, **kwargs)
        self.wall = time.perf_counter() - wall
        self.cpu = time.process_time() - cpu
        return value


def scoring_time():
    """Wraps the scoring function the selector calls (``field_lines``; before issue 28,
    ``against_the_field``); returns the list of times."""
    import tournament.selectors.field as selector

    spent: list[float] = []
    name = "field_lines" if hasattr(selector, "field_lines") else "against_the_field"
    original = getattr(selector, name)

    def wrapped(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    setattr(selector, name, wrapped)
    return spent


def median_line(name: str, runs: list[tuple[float, float, float]]) -> str:
    """runs: (wall, cpu, scoring) per run."""
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    scoring = statistics.median(r[2] for r in runs)
    return (f"{name}: {wall * 1000:.0f} ms (cpu {cpu * 1000:.0f} ms, of which "
            f"scoring.field {scoring * 1000:.0f} ms), median of "
            f"{len(runs)}; runs " + ", ".join(f"{r[0] * 1000:.0f}" for r in runs) + " ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild", action="store_true", help="build the event again")
    parser.add_argument("--profile", action="store_true", help="cProfile one call")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--check", action="store_true",
                        help="compare with the Fraction code of before issue 28")
    args = parser.parse_args()
    os.environ["PUBLIC_CACHE_SECONDS"] = "0"  # every request builds the page
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    os.environ.setdefault("HTTPS", "0")
    print(f"before: {load()}")
    standings_bench.setup(args.rebuild)
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from tournament.models import Round
    from tournament.selectors.field import field_standings

    tournament, stage = standings_bench.event_or_build()
    call_command("collectstatic", verbosity=0, interactive=False)  # the page's stylesheet
    print(f"database: {connection.vendor}; event: {standings_bench.TEAMS} teams, "
          f"{standings_bench.ROUNDS} rounds, "
          f"{standings_bench.TEAMS * standings_bench.ROUNDS * standings_bench.HANDS:,} hands")
    spent = scoring_time()
    clock = Clock()

    client = Client()
    url = reverse("public:field", args=[tournament.slug])
    first = client.get(url)  # templates compiled
    assert first.status_code == 200, first.status_code
    queries = []
    with connection.execute_wrapper(lambda run, sql, *a: queries.append(sql) or run(sql, *a)):
        client.get(url)
    page = []
    for _ in range(args.runs):
        spent.clear()
        response = clock(client.get, url)
        assert response.status_code == 200
        page.append((clock.wall, clock.cpu, sum(spent)))
    print(median_line("public against-the-field page, whole tournament, uncached", page)
          + f"; {len(queries)} queries, {len(first.content) / 1024:.0f} KiB")

    every = []
    for _ in range(args.runs):
        spent.clear()
        standings = clock(field_standings, tournament)
        every.append((clock.wall, clock.cpu, sum(spent)))
    assert len(standings.rows) == 2 * standings_bench.TEAMS
    print(median_line(f"field_standings, {len(standings.rounds)} rounds", every))

    first_round = Round.objects.get(stage=stage, number=1).pk
    one = []
    for _ in range(args.runs):
        spent.clear()
        clock(field_standings, tournament, round_ids={first_round})
        one.append((clock.wall, clock.cpu, sum(spent)))
    print(median_line("field_standings, round 1 only", one))

    best = standings.rows[0]
    print(f"first: {best.player.name} ({best.team.code}) {best.line.hands} hands, "
          f"{best.against_field} total, {best.per_hand} a hand; last rank "
          f"{standings.rows[-1].rank}")

    if args.check:
        sys.path.insert(0, str(ROOT / "tests" / "tournament" / "services"))
        import field_standings_reference as reference
        import test_field_random as compared

        for kwargs in ({}, {"round_ids": {first_round}}):
            fast = compared.figures(field_standings(tournament, **kwargs))
            slow = compared.figures(reference.field_standings(tournament, **kwargs))
            print(f"the same figures as the Fraction code ({kwargs or 'every round'}): "
                  f"{'yes' if fast == slow else 'NO'}")

    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(field_standings, tournament)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
