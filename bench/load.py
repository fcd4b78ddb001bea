"""32 scorers and 200 spectators against the production server (issue 14, item 4).

    python bench/load.py [--seconds 60] [--scorers 32] [--spectators 200] [--think 0]
                         [--spectator-think 0] [--workers 2]
                         [--staff-workers 0] [--in-step] [--cold] [--keep-cluster]

On a PostgreSQL cluster of its own (bench/venue.py: 15/bench on 127.0.0.1:5434, made if
missing and dropped again), database dupgin_bench_load: a 32-team Swiss event built through
the services, round 1 closed, round 2 in play at 32 tables (16 matches, 8 hands each). The
production server (``manage.py serve``, 2 gunicorn workers) on a free loopback port with the
public cache in Redis (CACHE_URL=redis://127.0.0.1:6379/14), so the spectators' reads are
mostly cache hits, invalidated by every save (``public_cache``).

- scorers: ``--scorers`` simulated scorers (asyncio and aiohttp, one process, C-backed
  HTTP parsing), each logged in through the login form and saving the hands of its own
  table as the entry screen's browser does (htmx POST with the form's request token),
  one after another with ``--think`` seconds between saves (0: as fast as the server
  answers); a failed save is sent again with the same token. With a think time each
  scorer's first save waits a random part of it, as scorers in a hall do not press *Save*
  in step; ``--in-step`` sends all 32 first saves at the same moment (and the later ones
  nearly so);
- spectators: ``--spectators`` anonymous readers going round the tournament page, the
  standings, both rounds' pages and every match page. With ``--spectator-think`` 0 (the
  default) wrk (C, one thread) asks as fast as the server answers: the server's ceiling
  rather than a hall, as 200 connections then keep both cores busy. With a pause, each
  spectator (aiohttp) reads a page for half to one and a half times that many seconds
  before asking for the next, as phones in a hall do.
- ``--staff-workers N``: the scorers are answered by a second server of N workers, as a
  proxy sending the staff pages to a pool of their own would (docs/deploy.md);
- the clock starts on a warm server: every spectator page read three times first, as a
  hall's server has answered for hours (``--cold``: from its first request, each worker
  compiling its templates and opening its connections while the first readers wait).

Prints per group the requests, the throughput and the p50/p95 latency, the errors (any
non-2xx answer, any socket error, any save not acknowledged), the public cache's hit rate
(and the spectators' latency by its answer: a hit, the copy kept while the page is built
again, a miss), the CPU time a hypervisor took meanwhile,
and the check of the database: every acknowledged save stored once (bench/venue.py). Exits
1 on any error or lost write.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import venue as v
from common import calibration_loop, cpu_times, margin_words, steal_words

CACHE_URL = "redis://127.0.0.1:6379/14"

WRK_SCRIPT = """
local paths = {%s}
local threads = {}
local counter = 1
hits = 0
misses = 0
function setup(thread)
  table.insert(threads, thread)
end
function request()
  local path = paths[counter]
  counter = counter %% #paths + 1
  return wrk.format("GET", path)
end
function response(status, headers, body)
  local cache = headers["X-Public-Cache"]
  if cache == "hit" or cache == "stale" then hits = hits + 1 else misses = misses + 1 end
end
function done(summary, latency, requests)
  local h, m = 0, 0
  for _, thread in ipairs(threads) do
    h = h + thread:get("hits")
    m = m + thread:get("misses")
  end
  io.write(string.format("RESULT %%d %%d %%d %%d %%d %%d %%d\\n", summary.requests,
    summary.duration, latency:percentile(50), latency:percentile(95),
    summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout, h, m))
end
"""


def spectator_paths(venue: v.Venue) -> list[str]:
    from django.db.models import Q
    from django.urls import reverse

    from tournament.models import Match

    slug = venue.slug
    paths = [reverse("public:tournament", args=[slug]), reverse("public:standings", args=[slug]),
             reverse("public:round", args=[slug, venue.closed_round_id]),
             reverse("public:round", args=[slug, venue.round_id])]
    matches = Match.objects.filter(Q(round_id=venue.round_id) | Q(round_id=venue.closed_round_id))
    paths += [reverse("public:match", args=[slug, pk])
              for pk in matches.order_by("pk").values_list("pk", flat=True)]
    return paths


async def spectators(base: str, paths: list[str], seconds: int, connections: int) -> dict:
    """Spectators as fast as the server answers (wrk)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT % ", ".join(f'"{p}"' for p in paths))
    try:
        process = await asyncio.create_subprocess_exec(
            "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
            "-s", script.name, base + paths[0], stdout=asyncio.subprocess.PIPE)
        out = (await process.communicate())[0].decode()
    finally:
        os.unlink(script.name)
    found = re.search(r"RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)", out)
    requests, micros, p50, p95, errors, hits, misses = map(int, found.groups())
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"requests": requests, "rate": requests / (micros / 1e6), "p50": p50 / 1000,
            "p95": p95 / 1000, "socket_errors": errors,
            "non_2xx": int(non_2xx.group(1)) if non_2xx else 0, "hits": hits,
            "misses": misses}


async def paced_spectators(base: str, paths: list[str], seconds: int, spectators: int,
                           think: float) -> dict:
    """Spectators who read each page about ``think`` seconds before the next (aiohttp, the
    request sent as soon as its connection is open, as a buffering proxy such as nginx
    hands gunicorn whole requests; wrk connects first and then waits, which would hold a
    sync worker reading an idle socket for the whole pause)."""
    import random

    import aiohttp

    latencies: list[float] = []
    by_answer: dict[str, list[float]] = {}  # by X-Public-Cache: hit, stale, miss, ...
    counts = {"hits": 0, "misses": 0, "non_2xx": 0, "socket_errors": 0}
    turn = iter(range(10**9))
    until = time.monotonic() + seconds

    async def spectator(session, rng):
        await asyncio.sleep(rng.uniform(0, think))  # phones do not start in step
        while time.monotonic() < until:
            path = paths[next(turn) % len(paths)]
            started = time.monotonic()
            try:
                async with session.get(base + path) as response:
                    await response.read()
                    how = response.headers.get("X-Public-Cache", "none")
                    counts["hits" if how in ("hit", "stale") else "misses"] += 1
                    if response.status >= 400:
                        counts["non_2xx"] += 1
            except (TimeoutError, aiohttp.ClientError):
                counts["socket_errors"] += 1
                how = "error"
            latencies.append(time.monotonic() - started)
            by_answer.setdefault(how, []).append(latencies[-1])
            await asyncio.sleep(rng.uniform(think / 2, think * 3 / 2))

    started = time.monotonic()
    async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, force_close=True),
            timeout=aiohttp.ClientTimeout(total=10)) as session:
        await asyncio.gather(*(spectator(session, random.Random(n))
                               for n in range(spectators)))
    return {"requests": len(latencies), "rate": len(latencies) / (time.monotonic() - started),
            "p50": v.percentile(latencies, 50) * 1000, "p95": v.percentile(latencies, 95) * 1000,
            "by_answer": {how: (len(times), v.percentile(times, 50) * 1000,
                                v.percentile(times, 95) * 1000)
                          for how, times in sorted(by_answer.items())},
            **counts}


async def warm_up(base: str, paths: list[str], workers: int, passes: int = 3) -> int:
    """Read every spectator page ``passes`` times, ``2 × workers`` at once, before the clock
    starts: a hall's server has been answering for hours, and a worker's first requests
    (its templates compiled, its database connection opened, the pages first built) are
    not what its readers meet then. ``--cold`` measures from the start instead."""
    import aiohttp

    gate = asyncio.Semaphore(2 * workers)

    async def read(session, path):
        async with gate, session.get(base + path) as response:
            await response.read()

    async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, force_close=True),
            timeout=aiohttp.ClientTimeout(total=60)) as session:
        for _ in range(passes):
            await asyncio.gather(*(read(session, path) for path in paths))
    return passes * len(paths)


async def run(server: v.Server, staff: v.Server, venue: v.Venue, args, stats: v.Stats,
              paths: list[str]):
    scorers = [v.Scorer(staff.base, venue.slug, venue.scorers[i], venue.tables[i],
                        venue.hands, stats, i) for i in range(args.scorers)]
    for scorer in scorers:
        await scorer.__aenter__()
    try:
        for scorer in scorers:  # one at a time: a login costs a password hash
            await scorer.login()
        if not args.cold:
            read = await warm_up(server.base, paths, args.workers)
            print(f"warm-up: {read} spectators' pages read before the clock starts "
                  f"({2 * args.workers} at once)")
        started = time.monotonic()
        until = started + args.seconds
        watching = asyncio.create_task(
            paced_spectators(server.base, paths, args.seconds, args.spectators,
                             args.spectator_think) if args.spectator_think
            else spectators(server.base, paths, args.seconds, args.spectators))
        await asyncio.gather(*(scorer.play(until, until + 30, args.think,
                                           stagger=not args.in_step)
                               for scorer in scorers))
        scoring_seconds = time.monotonic() - started
        return await watching, scoring_seconds
    finally:
        for scorer in scorers:
            await scorer.__aexit__(None, None, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--scorers", type=int, default=32)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a scorer waits between two saves (default 0)")
    parser.add_argument("--spectator-think", type=float, default=0.0,
                        help="mean seconds a spectator reads a page before the next "
                             "(default 0: as fast as the server answers)")
    parser.add_argument("--workers", type=int, default=2,
                        help="the server's gunicorn workers (default 2, as manage.py serve)")
    parser.add_argument("--staff-workers", type=int, default=0,
                        help="answer the scorers from a second server of this many workers "
                             "(default 0: one server answers everyone)")
    parser.add_argument("--in-step", action="store_true",
                        help="every scorer's first save at the same moment (and, with a "
                             "think time, every later one nearly so); by default each "
                             "scorer starts at a random moment of its first think time")
    parser.add_argument("--cold", action="store_true",
                        help="start the clock on a server that has answered nobody yet "
                             "(by default every spectator page is read three times first)")
    parser.add_argument("--keep-cluster", action="store_true")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    if not v.redis_answers(CACHE_URL):
        raise SystemExit(f"Redis does not answer at {CACHE_URL}")
    ok = False
    loop = calibration_loop()  # before anything runs: the machine's own speed
    print(f"calibration loop (ten million additions): {loop:.2f} s")
    with v.Cluster(keep=args.keep_cluster):
        v.setup_django("dupgin_bench_load")
        venue = v.build_venue(matches=max(2, (args.scorers + 1) // 2), hands=8)
        paths = spectator_paths(venue)
        import redis

        redis.Redis.from_url(CACHE_URL).flushdb()  # database 14 is this script's own
        log = Path(tempfile.mkdtemp(prefix="dupgin-load-")) / "server.log"
        server = v.Server(v.free_port(), log, CACHE_URL, workers=args.workers)
        staff = v.Server(v.free_port(), log, CACHE_URL, workers=args.staff_workers) \
            if args.staff_workers else server
        try:
            server.start()
            if staff is not server:
                staff.start()
            print(f"server: manage.py serve, {args.workers} gunicorn workers, "
                  f"127.0.0.1:{server.port}, "
                  f"PostgreSQL {v.PG_VERSION}/{v.CLUSTER}, cache {CACHE_URL}; "
                  f"{args.scorers} scorers (aiohttp, think {args.think} s) and "
                  f"{args.spectators} spectators ("
                  f"{'aiohttp' if args.spectator_think else 'wrk, 1 thread'}, {len(paths)} "
                  f"pages, think {args.spectator_think} s) for "
                  f"{args.seconds} s; cpus: {os.cpu_count()}")
            stats = v.Stats()
            if staff is not server:
                print(f"staff pool: a second manage.py serve, {args.staff_workers} gunicorn "
                      f"workers, 127.0.0.1:{staff.port}, answers the scorers (as a proxy "
                      "sending /manage/ to a pool of its own would, docs/deploy.md)")
            ticks = cpu_times()
            watched, scoring_seconds = asyncio.run(run(server, staff, venue, args, stats,
                                                       paths))
            print(f"while they ran, {steal_words(ticks)}")
        finally:
            server.stop()
            staff.stop()
        problems = v.check_database(venue, stats)
        saves = len(stats.acked)
        fails = ", ".join(f"{n} × {k}" for k, n in sorted(stats.failures.items()))
        errors = (len(stats.server_errors) + len(stats.refused)
                  + sum(stats.failures.values()))
        print(f"scorers: {saves} saves acknowledged in {scoring_seconds:.1f} s = "
              f"{saves / scoring_seconds:.1f} saves/s; p50 "
              f"{v.percentile(stats.latencies, 50) * 1000:.0f} ms, p95 "
              f"{v.percentile(stats.latencies, 95) * 1000:.0f} ms [target p95 < 150 ms "
              f"(issue 28, with --think 5): "
              f"{'met' if v.percentile(stats.latencies, 95) < 0.15 else 'NOT met'}]; "
              f"errors: {errors}{' (' + fails + ')' if fails else ''}")
        for line in (stats.server_errors + stats.refused)[:5]:
            print("   ", line)
        spectator_errors = watched["socket_errors"] + watched["non_2xx"]
        seen = watched["hits"] + watched["misses"]
        print(f"spectators: {watched['requests']} pages = {watched['rate']:.0f} requests/s; "
              f"p50 {watched['p50']:.0f} ms, p95 {watched['p95']:.0f} ms; errors: "
              f"{spectator_errors} ({watched['non_2xx']} non-2xx, {watched['socket_errors']} "
              f"socket); answered from the public cache (current, or the copy kept while it is "
              f"built again) {watched['hits'] / max(seen, 1):.0%}")
        if watched.get("by_answer"):
            print("    by the public cache's answer: " + "; ".join(
                f"{how} {n} (p50 {p50:.0f} ms, p95 {p95:.0f} ms)"
                for how, (n, p50, p95) in watched["by_answer"].items()))
        print(f"issue 59's margin: saves' p95 "
              f"{margin_words(v.percentile(stats.latencies, 95), 0.150, loop)}; spectators' "
              f"p95 {margin_words(watched['p95'] / 1000, 0.500, loop)}")
        print(f"database check: {'OK' if not problems else 'FAILED'} — every acknowledged "
              "save stored once, versions consecutive"
              + "".join(f"\n    {p}" for p in problems[:10]))
        logged = server.errors_logged()
        if logged:
            print(f"server log: {len(logged)} error lines (first: {logged[0][:150]})")
        ok = not problems and not errors and not spectator_errors and not logged
    print("zero errors, zero lost writes" if ok else "PROBLEMS FOUND")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
