"""Desk entry over HTTP: a director types 2,048 scorecard lines into the production server
(issue 24).

    python bench/desk.py [--matches 128] [--hands 8] [--typists 1] [--keep-cluster]

On the PostgreSQL cluster of bench/venue.py (15/bench on 127.0.0.1:5434, made if missing
and dropped again), database dupgin_bench_desk: a Swiss event of ``2 * matches`` teams built
through the services, round 1 closed, round 2 in play (128 matches, 256 tables, 8 hands:
2,048 lines). The production server (``manage.py serve``: gunicorn, 2 workers, the cache in
Redis db 13) on a free loopback port.

Each typist (``--typists``, one by default: a desk) logs in through the login form as the
director, opens a match's desk page (its lines' hidden fields and the CSRF token, as the
browser has them) and, line after line, sends what the page's script sends: one check of
the line as typed, then its save (``Accept: application/json``, the request token of the
line). Prints the p50/p95/max of the saves and of the checks, the lines per second, and the
check of the database: every line stored once, version 1, with the points the shorthand
gives. Exits 1 on a failed line or a missing result. Target: p95 of a save < 100 ms on a
quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import venue as v  # bench/venue.py, beside this script

FORM = re.compile(r'<form method="post" action="[^"]*/desk/row/" class="desk-form">(.*?)</form>',
                  re.S)
HIDDEN = re.compile(r'name="(table|hand|seen_version|request_token)" value="([^"]*)"')


def line_for(n: int) -> str:
    """A knock, a gin, an undercut, a draw, a Big Gin in turn: every kind of line."""
    seat = 1 + n % 2
    return [f"K{seat} {1 + n % 10} {11 + n % 40}", f"G{seat} {n % 60}",
            f"K{seat} 9 {n % 9}", "D", f"B{seat} {n % 50}"][n % 5]


class Typist:
    def __init__(self, base: str, slug: str, number: int):
        self.base, self.slug, self.number = base, slug, number
        self.saves: list[float] = []
        self.checks: list[float] = []
        self.failures: list[str] = []
        self.csrf = ""

    async def run(self, match_ids: list[int]) -> None:
        import aiohttp

        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                         timeout=aiohttp.ClientTimeout(total=30)) as session:
            self.session = session
            page = await self.get("/accounts/login/")
            await self.post("/accounts/login/", {
                "csrfmiddlewaretoken": v.CSRF.search(page).group(1), "username": "director",
                "password": v.PASSWORD, "next": f"/manage/{self.slug}/"})
            n = 0
            for match_id in match_ids:
                page = await self.get(f"/manage/{self.slug}/matches/{match_id}/desk/")
                self.csrf = v.CSRF.search(page).group(1)
                for form in FORM.findall(page):
                    fields = dict(HIDDEN.findall(form))
                    n += 1
                    typed = line_for(n + 7919 * self.number)
                    await self.line(fields, typed)

    async def get(self, path: str) -> str:
        async with self.session.get(self.base + path) as response:
            assert response.status == 200, (path, response.status)
            return await response.text()

    async def post(self, path: str, data: dict, *, json: bool = False):
        headers = {"Accept": "application/json"} if json else {}
        async with self.session.post(self.base + path, data=data, headers=headers) as response:
            if json:
                return response.status, await response.json(content_type=None)
            return response.status, await response.text()

    async def line(self, fields: dict, typed: str) -> None:
        data = {"csrfmiddlewaretoken": self.csrf, **fields, "typed": typed}
        path = f"/manage/{self.slug}/desk/row/"
        started = time.perf_counter()
        status, answer = await self.post(path, {**data, "check": "1"}, json=True)
        self.checks.append(time.perf_counter() - started)
        if status != 200 or not answer.get("ok"):
            self.failures.append(f"check {typed!r}: {status} {answer}")
            return
        started = time.perf_counter()
        status, answer = await self.post(path, data, json=True)
        self.saves.append(time.perf_counter() - started)
        if status != 200 or not answer.get("ok") or answer.get("version") != 1:
            self.failures.append(f"save {typed!r}: {status} {answer}")


def check_database(venue: v.Venue, expected: int) -> list[str]:
    from django.db.models import Count

    from tournament.models import HandResult

    rows = HandResult.objects.filter(table__round_id=venue.round_id)
    problems = []
    current = rows.filter(is_current=True).count()
    if current != expected:
        problems.append(f"{current} lines stored, {expected} sent")
    doubled = (rows.values("table_id", "hand").annotate(n=Count("id")).filter(n__gt=1)
               .count())
    if doubled:
        problems.append(f"{doubled} lines stored more than once")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=128)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--typists", type=int, default=1)
    parser.add_argument("--keep-cluster", action="store_true")
    args = parser.parse_args()
    with v.Cluster(keep=args.keep_cluster):
        v.setup_django("dupgin_bench_desk")
        venue = v.build_venue(args.matches, args.hands)
        log = Path(tempfile.mkdtemp(prefix="dupgin-desk-")) / "server.log"
        server = v.Server(v.free_port(), log, "redis://127.0.0.1:6379/13")
        server.start()
        try:
            typists = [Typist(server.base, venue.slug, n) for n in range(args.typists)]
            shares = [venue.match_ids[n::args.typists] for n in range(args.typists)]
            started = time.perf_counter()

            async def everyone():
                await asyncio.gather(*(t.run(share) for t, share in zip(typists, shares,
                                                                        strict=True)))

            asyncio.run(everyone())
            elapsed = time.perf_counter() - started
        finally:
            server.stop()
        saves = [s for t in typists for s in t.saves]
        checks = [s for t in typists for s in t.checks]
        failures = [f for t in typists for f in t.failures]
        lines = 2 * args.matches * args.hands
        print(f"{len(saves)} lines saved of {lines} by {args.typists} typist(s) in "
              f"{elapsed:.1f} s ({len(saves) / elapsed:.0f} lines/s, a check and a save each)")
        for name, values in (("save", saves), ("check", checks)):
            print(f"  {name:5s} p50 {1000 * v.percentile(values, 50):6.1f} ms   "
                  f"p95 {1000 * v.percentile(values, 95):6.1f} ms   "
                  f"max {1000 * max(values, default=float('nan')):6.1f} ms")
        problems = failures[:5] + check_database(venue, lines) + server.errors_logged()[:5]
        p95 = v.percentile(saves, 95)
        met = p95 < 0.100
        print(f"  target: p95 of a save < 100 ms: {'met' if met else 'NOT met'}")
        for problem in problems:
            print("  PROBLEM:", problem)
        print("every line stored once" if not problems else f"{len(problems)} problem(s)")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
