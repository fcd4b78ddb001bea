"""The public site under a hall full of phones, measured (issue 13).

    python bench/public.py [--duration 10] [--connections 32]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dupgin_bench_standings \\
        python bench/public.py

Uses the 512-team, 15-round event of ``bench/standings.py`` (built there once and kept).
Starts the production server (``manage.py serve``: gunicorn, 2 workers, whitenoise) on a
free loopback port with the public cache in Redis (``CACHE_URL``, default
redis://127.0.0.1:6379/15; the file cache when Redis does not answer), and drives it with
wrk (a C client, so the load generator does not take the two cores from the server: one
wrk thread). For each address — the standings page, the standings API, the big-screen
fragment (each only if the site has it) — it prints:

- cached: requests per second and the p50/p95 latency over ``--duration`` seconds with
  ``--connections`` open connections, every request anonymous and asking for gzip as every
  browser does: target ≥ 1,000 requests/s and p95 < 50 ms; the standings page once more
  without compression (a client that asks for none), for comparison;
- after an invalidation (``public_cache.invalidate``, what a sign-off does): the time of
  the first request, the median of five: target < 300 ms. That is the time to build the
  page again: measured with no grace (``PUBLIC_CACHE_GRACE_SECONDS=0``), as with the grace
  the first reader is given the copy before and the page is built after its answer.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import standings as standings_bench  # noqa: E402  (bench/standings.py: the event)

WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests,
    summary.duration, latency:percentile(50), latency:percentile(95),
    summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout))
end
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_answers(url: str) -> bool:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
        return True
    except Exception:  # any failure means: use the file cache
        return False


BROWSER = "gzip, deflate, br"  # the Accept-Encoding of every current browser


def get(url: str, encoding: str = BROWSER) -> tuple[int, float, str]:
    started = time.perf_counter()
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            status, cache = response.status, response.headers.get("X-Public-Cache", "")
    except urllib.error.HTTPError as error:
        status, cache = error.code, ""
    return status, time.perf_counter() - started, cache


@contextlib.contextmanager
def production_server(log_path: Path):
    """``manage.py serve`` (gunicorn, 2 workers) on a free loopback port for the ``with``
    block; yields its base address. Its output goes to ``log_path`` (a pipe that nobody
    reads would fill, and block the workers)."""
    port = free_port()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "serve", f"127.0.0.1:{port}",
             "--workers", "2", "--no-migrate"],
            env={**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost", "HTTPS": "0"},
            stdout=log, stderr=log, start_new_session=True)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            get(url)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the server did not answer at {url}")


def answer_size(url: str, encoding: str) -> int:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(request, timeout=30) as response:
        return len(response.read())


def wrk(url: str, duration: int, connections: int,
        encoding: str) -> tuple[float, float, float, int]:
    """(requests/s, p50 ms, p95 ms, errors) of wrk on ``url``."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    try:
        out = subprocess.run(
            ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--timeout", "5s",
             "-H", f"Accept-Encoding: {encoding}", "-s", script.name, url],
            capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    found = re.search(r"RESULT (\d+) (\d+) (\d+) (\d+) (\d+)", out)
    requests, micros, p50, p95, errors = map(int, found.groups())
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors += int(non_2xx.group(1)) if non_2xx else 0
    return requests / (micros / 1e6), p50 / 1000, p95 / 1000, errors


def after_invalidation(url: str, slug: str, runs: int = 5) -> list[float]:
    from tournament import public_cache

    times = []
    for _ in range(runs):
        time.sleep(1.2)  # wrk's last requests answered: none of them builds the page first
        public_cache.invalidate(slug)
        status, seconds, cache = get(url)
        assert status == 200 and cache == "miss", (status, cache)
        times.append(seconds)
        get(url)  # and cached again
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds of load per address")
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    cache_url = os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/15")
    if cache_url.startswith("redis") and not redis_answers(cache_url):
        cache_url = f"filecache://{ROOT / 'var' / 'bench' / 'cache'}"
    os.environ["CACHE_URL"] = cache_url
    os.environ["PUBLIC_CACHE_SECONDS"] = "600"
    os.environ["PUBLIC_CACHE_GRACE_SECONDS"] = "0"  # the first reader waits for the build
    standings_bench.setup(rebuild=False)
    tournament, _stage = standings_bench.event_or_build()
    from django.db import connection
    from django.urls import NoReverseMatch, reverse

    from tournament.models import Tournament

    Tournament.objects.filter(pk=tournament.pk).update(
        public_standings=True, public_results=True, public_players=True)
    addresses = [("standings page", reverse("public:standings", args=[tournament.slug]))]
    for label, name in (("standings API", "api:overall_standings"),
                        ("big-screen fragment", "public:screen_fragment")):
        try:
            addresses.append((label, reverse(name, args=[tournament.slug])))
        except NoReverseMatch:
            print(f"{label}: not in this version of the site, skipped")
    connection.close()

    with production_server(ROOT / "var" / "bench" / "public-server.log") as base:
        wait_for(base + addresses[0][1])
        print(f"database: {connection.vendor}; server: manage.py serve, 2 gunicorn workers; "
              f"cache: {cache_url.split(':')[0]}; load: wrk, 1 thread, "
              f"{args.connections} connections, {args.duration} s per address")
        for label, path in addresses:
            url = base + path
            status, _seconds, _cache = get(url)
            if status != 200:
                print(f"{label}: HTTP {status} at {path}, skipped")
                continue
            get(url)
            encodings = [BROWSER] + (["identity"] if path == addresses[0][1] else [])
            for encoding in encodings:
                rate, p50, p95, errors = wrk(url, args.duration, args.connections, encoding)
                met = rate >= 1000 and p95 < 50 and errors == 0
                how = "gzip" if encoding == BROWSER else "without compression"
                print(f"{label} ({path}), cached, {how} ({answer_size(url, encoding) / 1024:,.0f}"
                      f" KiB): {rate:,.0f} requests/s, p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
                      f"{errors} errors "
                      f"[target ≥ 1,000/s and p95 < 50 ms: {'met' if met else 'NOT met'}]")
            times = after_invalidation(url, tournament.slug)
            median = statistics.median(times)
            print(f"{label}, first request after an invalidation: median {median * 1000:.0f} "
                  f"ms of {len(times)} (" + ", ".join(f"{t * 1000:.0f}" for t in times)
                  + f" ms) [target < 300 ms: {'met' if median < 0.3 else 'NOT met'}]")


if __name__ == "__main__":
    main()
