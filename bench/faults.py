"""Faults in the middle of play (issue 14, item 4): nothing acknowledged is lost.

    python bench/faults.py [--scorers 8] [--kills 3] [--keep-cluster]

Runs on a PostgreSQL cluster of its own (bench/venue.py: 15/bench on 127.0.0.1:5434, made
if missing and dropped again; never the shared cluster on 5432), database dupgin_faults,
the production server (``manage.py serve``, 2 gunicorn workers) on a free loopback port,
and ``--scorers`` simulated scorers, each at its own table: logged in through the login
form, saving hands as the entry screen's browser does (htmx POST, the form's request
token), and sending a failed save again with the same token until it is acknowledged.

1. kill -9 of the application server (master and workers) in the middle of a burst of
   saves, ``--kills`` times, each followed by a restart;
2. PostgreSQL restarted during play (``pg_ctlcluster restart``), then stopped for 3 s and
   started: the scorers get "not saved, try again" (a 503, never a 500 page), and entry
   works again with the same server processes.

Then, for each: every acknowledged save is in the database, no request token stored twice,
versions 1…n with the last one current, no stored save that was not acknowledged. Bounded:
about a minute and a half in all. Exits 1 on any problem.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import venue as v

BURST = 4.0  # seconds of saves before each fault
AFTER = 4.0  # seconds of saves after it


def summary(name: str, stats: v.Stats, seconds: float, problems: list[str],
            server: v.Server, extra: str = "") -> bool:
    fails = ", ".join(f"{count} × {kind}" for kind, count in sorted(stats.failures.items()))
    print(f"{name}: {len(stats.acked)} saves acknowledged in {seconds:.1f} s, "
          f"{stats.retries} retries with the same token ({fails or 'no failure'}); "
          f"p50 {v.percentile(stats.latencies, 50) * 1000:.0f} ms, "
          f"p95 {v.percentile(stats.latencies, 95) * 1000:.0f} ms{extra}")
    for line in stats.server_errors[:5] + stats.refused[:5]:
        print("   ", line)
    logged = server.errors_logged()
    ok = not problems and not stats.server_errors and not stats.refused
    print(f"  database check: {'OK' if not problems else 'FAILED'} — every acknowledged "
          "save stored once, versions consecutive, no second version from a retry"
          + "".join(f"\n    {p}" for p in problems[:10]))
    if logged:
        print(f"  server log: {len(logged)} lines of errors (first: {logged[0][:150]})")
    return ok


async def run_scorers(server: v.Server, venue: v.Venue, count: int, stats: v.Stats,
                      faults) -> float:
    """Scorers saving while ``faults`` (an async function) does its damage; returns the
    seconds of play."""
    scorers = [v.Scorer(server.base, venue.slug, venue.scorers[i], venue.tables[i],
                        venue.hands, stats, i) for i in range(count)]
    for scorer in scorers:
        await scorer.__aenter__()
    try:
        await asyncio.gather(*(scorer.login() for scorer in scorers))
        started = time.monotonic()
        stop = asyncio.Event()
        end = {"at": None}

        async def play(scorer):
            n = 0
            while not stop.is_set():
                hand = n % venue.hands + 1
                n += 1
                # A save is tried for up to 60 s: the scorer does not give up.
                if not await scorer.save(hand, n, time.monotonic() + 60):
                    return

        tasks = [asyncio.create_task(play(scorer)) for scorer in scorers]
        await faults()
        stop.set()
        end["at"] = time.monotonic()
        await asyncio.gather(*tasks)
        return end["at"] - started
    finally:
        for scorer in scorers:
            await scorer.__aexit__(None, None, None)


def kill_test(server: v.Server, venue: v.Venue, args) -> tuple[bool, v.Stats]:
    stats = v.Stats()

    async def faults():
        for n in range(args.kills):
            await asyncio.sleep(BURST)
            before = len(stats.acked)
            await asyncio.to_thread(server.kill9)
            print(f"  kill -9 #{n + 1}: the server's process group killed after "
                  f"{before} acknowledged saves; restarting")
            await asyncio.sleep(0.5)
            begun = time.monotonic()
            await asyncio.to_thread(server.start)
            print(f"    answering again after {time.monotonic() - begun:.1f} s")
        await asyncio.sleep(AFTER)

    seconds = asyncio.run(run_scorers(server, venue, args.scorers, stats, faults))
    ok = summary(f"kill -9 of the server ×{args.kills}", stats, seconds,
                 v.check_database(venue, stats), server)
    return ok, stats


def postgres_test(server: v.Server, venue: v.Venue, args, earlier: v.Stats) -> bool:
    stats = v.Stats()
    marks = {}

    async def faults():
        master = server.process.pid
        await asyncio.sleep(BURST)
        marks["restart"] = len(stats.acked)
        await asyncio.to_thread(v.pg_ctl, "restart")
        print(f"  PostgreSQL restarted after {marks['restart']} acknowledged saves")
        await asyncio.sleep(BURST)
        marks["stop"] = len(stats.acked)
        await asyncio.to_thread(v.pg_ctl, "stop")
        print(f"  PostgreSQL stopped after {marks['stop']} acknowledged saves; "
              "started again in 3 s")
        await asyncio.sleep(3)
        marks["down"] = dict(stats.failures)
        await asyncio.to_thread(v.pg_ctl, "start")
        marks["start"] = len(stats.acked)
        await asyncio.sleep(AFTER)
        marks["same_server"] = server.process.pid == master and server.process.poll() is None

    seconds = asyncio.run(run_scorers(server, venue, args.scorers, stats, faults))
    after = len(stats.acked) - marks["start"]
    ok = marks["same_server"] and after > 0
    extra = (f"; {after} saves acknowledged after PostgreSQL came back, by the same "
             f"server processes: {'yes' if ok else 'NO'}")
    return summary("PostgreSQL restarted and stopped during play", stats, seconds,
                   v.check_database(venue, stats, earlier), server, extra) and ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scorers", type=int, default=8)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--keep-cluster", action="store_true",
                        help="keep the bench cluster if this run makes it")
    args = parser.parse_args()
    ok = True
    with v.Cluster(keep=args.keep_cluster):
        v.setup_django("dupgin_faults")
        venue = v.build_venue(matches=max(2, (args.scorers + 1) // 2), hands=16)
        log = Path(tempfile.mkdtemp(prefix="dupgin-faults-")) / "server.log"
        cache = "redis://127.0.0.1:6379/14"
        if not v.redis_answers(cache):
            cache = "locmemcache://faults"  # the public pages are not read here
        server = v.Server(v.free_port(), log, cache)
        print(f"server: manage.py serve, 2 gunicorn workers, 127.0.0.1:{server.port}, "
              f"PostgreSQL {v.PG_VERSION}/{v.CLUSTER} on port {v.PG_PORT}; "
              f"{args.scorers} scorers; server log {log}")
        try:
            server.start()
            killed, stats = kill_test(server, venue, args)
            ok &= killed
            ok &= postgres_test(server, venue, args, stats)
        finally:
            server.stop()
    print("all checks passed" if ok else "PROBLEMS FOUND")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
