"""One event served by two application servers over one PostgreSQL and one Redis (issue 29).

    python bench/cluster.py [--seconds 30] [--scorers 16] [--spectators 16] [--keep-cluster]

As if on two hosts: two production servers (``manage.py serve``, 2 gunicorn workers each)
on two loopback ports, each with a data folder of its own (``VAR_DIR``) and the same
``SECRET_KEY``, ``DATABASE_URL`` and ``CACHE_URL``, as docs/deploy.md asks. The database is
dupgin_bench_cluster on the PostgreSQL cluster of bench/venue.py (15/bench on 5434, made if
missing and dropped again); the Redis is a ``redis-server`` of the script's own on a free
port, keeping nothing on disk, stopped at the end: never the shared ones.

For ``--seconds``: ``--scorers`` scorers (one table each, 8 hands a match) save hands
through the entry screen's htmx request, each save going to the other server than the one
before; ``--spectators`` anonymous readers go round the public pages, each request to the
other server; a probe saves a result on one server and times how long until the other
server's public match page shows it (live results). Then it checks:

- every acknowledged save stored once, none doubled, versions in order (bench/venue.py);
- the probe's results seen on the other server within the public cache's grace
  (``PUBLIC_CACHE_GRACE_SECONDS``) plus a page's build;
- a log-in on one server is a session on the other;
- an account locked by failed log-ins on both servers is refused on both;
- a scorer's table (bound on the first server it opened) is kept on the other: another
  table is refused there;
- the live-results setting changed (through the service, as the settings page does) is
  respected by both servers at once: every hand result disappears from both servers'
  public pages, and comes back when the setting does.

Prints commands/s and p95, pages/s and p95, the staleness seen; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import venue as v  # bench/venue.py, beside this script

DATABASE = "dupgin_bench_cluster"


class Redis:
    """A redis-server of the script's own on a free loopback port, nothing on disk."""

    def __init__(self):
        self.port = v.free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def __enter__(self) -> Redis:
        if shutil.which("redis-server") is None:
            raise SystemExit("redis-server is not installed (apt-get install redis-server)")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not v.redis_answers(self.url):
            if time.monotonic() > deadline:
                raise SystemExit("the script's redis-server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def start_servers(cache_url: str, work: Path) -> list[v.Server]:
    servers = []
    for name in ("a", "b"):
        # Each "host" its own data folder; the key, the database and the cache shared.
        os.environ["VAR_DIR"] = str(work / f"var-{name}")
        Path(os.environ["VAR_DIR"]).mkdir()
        server = v.Server(v.free_port(), work / f"server-{name}.log", cache_url)
        server.start()
        servers.append(server)
    return servers


def server_errors(server: v.Server) -> list[str]:
    """The server's tracebacks but those of a refusal the check asked for (a 403 is logged
    with its traceback by Django)."""
    text = server.log.read_text(errors="replace")
    errors = []
    for block in text.split("Traceback (most recent call last):")[1:]:
        last = next((line for line in block.splitlines() if re.match(r"^\w[\w.]*(Error|"
                                                                     r"Exception|Denied)",
                                                                     line)), "")
        if not last.startswith("django.core.exceptions.PermissionDenied"):
            errors.append(last or block.strip().splitlines()[-1])
    if "Internal Server Error" in text:
        errors.append("an Internal Server Error was logged")
    return errors


# The scorers, alternating servers --------------------------------------------------------------

class Alternating(v.Scorer):
    """A scorer whose every request goes to the other server than the one before."""

    def __init__(self, bases: list[str], *args, **kwargs):
        super().__init__(bases[0], *args, **kwargs)
        self.bases = bases
        self.turn = 0

    def next_server(self) -> None:
        self.turn += 1
        self.base = self.bases[self.turn % 2]

    async def play(self, until: float, retry_until: float, think: float = 0.0) -> None:
        n = 0
        while time.monotonic() < until:
            hand = n % self.hands + 1
            n += 1
            self.next_server()
            if not await self.save(hand, n, retry_until):
                return


# The spectators -------------------------------------------------------------------------------

async def spectate(bases: list[str], paths: list[str], until: float, latencies: list[float],
                   errors: list[str], number: int) -> None:
    import aiohttp

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        n = number
        while time.monotonic() < until:
            n += 1
            url = bases[n % 2] + paths[n % len(paths)]
            started = time.perf_counter()
            try:
                async with session.get(url) as response:
                    await response.read()
                    if response.status != 200:
                        errors.append(f"{url}: HTTP {response.status}")
            except (aiohttp.ClientError, TimeoutError) as error:
                errors.append(f"{url}: {type(error).__name__}")
                continue
            latencies.append(time.perf_counter() - started)


# The probe: saved on one server, seen on the other ---------------------------------------------

async def probe(bases: list[str], venue: v.Venue, stats: v.Stats, until: float,
                staleness: list[float], errors: list[str]) -> None:
    """Save hand 1 of the last table with a result no other save makes (knock d vs o), on
    one server, then read the other server's public match page until it shows it."""
    import aiohttp

    from tournament.models import Table

    table = await asyncio.to_thread(lambda: Table.objects.get(pk=venue.tables[-1]))
    match_path = f"/t/{venue.slug}/matches/{table.match_id}/"
    scorer = Alternating(bases, venue.slug, venue.scorers[-1], venue.tables[-1], venue.hands,
                         stats, len(venue.tables))
    async with scorer, aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=30)) as reader:
        await scorer.login()
        n = 0
        while time.monotonic() < until:
            n += 1
            declarer, opponent = 1 + n % 10, 11 + (7 * n) % 88
            scorer.entry = lambda hand, _n, d=declarer, o=opponent: {
                "outcome": "knock", "declarer_seat": "1", "declarer_deadwood": str(d),
                "opponent_deadwood": str(o)}
            scorer.next_server()
            saved_on = scorer.base
            if not await scorer.save(1, n, until + 10):
                errors.append("the probe's save was refused")
                return
            acked = time.monotonic()
            other = bases[1] if saved_on == bases[0] else bases[0]
            shown = f"Knock {declarer} vs {opponent}:"
            while True:
                async with reader.get(other + match_path) as response:
                    page = await response.text()
                if shown in page:
                    staleness.append(time.monotonic() - acked)
                    break
                if time.monotonic() - acked > 10:
                    errors.append(f"the other server never showed {shown!r} (10 s)")
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.2)


# The checks on both servers -----------------------------------------------------------------

async def login(session, base: str, username: str, password: str) -> tuple[int, str]:
    async with session.get(base + "/accounts/login/") as response:
        page = await response.text()
    data = {"csrfmiddlewaretoken": v.CSRF.search(page).group(1), "username": username,
            "password": password, "next": "/manage/"}
    async with session.post(base + "/accounts/login/", data=data) as response:
        return response.status, await response.text()


async def session_checks(bases: list[str], venue: v.Venue) -> list[str]:
    import aiohttp
    from asgiref.sync import sync_to_async
    from django.conf import settings
    from django.contrib.auth import get_user_model

    problems = []
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        await login(session, bases[0], "director", v.PASSWORD)
        async with session.get(bases[1] + f"/manage/{venue.slug}/",
                               allow_redirects=False) as response:
            if response.status != 200:
                problems.append(f"a log-in on server A is no session on server B "
                                f"(HTTP {response.status})")
    # Lock an account by failing on both servers in turn; then it is refused on both.
    users = get_user_model()
    await sync_to_async(users.objects.create_user)("victim", password=v.PASSWORD)
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
            await login(s, bases[attempt % 2], "victim", "wrong-Pass-999")
    for name, base in zip("AB", bases, strict=True):
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
            status, page = await login(s, base, "victim", v.PASSWORD)
            if any(c.key == "sessionid" for c in s.cookie_jar):
                problems.append(f"a locked account logged in on server {name}")
            elif "locked" not in page.lower():
                problems.append(f"server {name} refused the locked account without saying "
                                f"so (HTTP {status})")
    # A scorer's table, bound on the server it first opened, is kept on the other.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
        await login(s, bases[0], venue.scorers[0], v.PASSWORD)
        async with s.get(bases[0] + f"/manage/{venue.slug}/tables/{venue.tables[0]}/") as r:
            if r.status != 200:
                problems.append(f"the scorer could not open its table (HTTP {r.status})")
        async with s.get(bases[1] + f"/manage/{venue.slug}/tables/{venue.tables[1]}/",
                         allow_redirects=False) as r:
            if r.status == 200:
                problems.append("server B let a scorer bound on server A open another table")
        async with s.get(bases[1] + f"/manage/{venue.slug}/tables/{venue.tables[0]}/") as r:
            if r.status != 200:
                problems.append(f"server B refused the scorer its own table (HTTP {r.status})")
    return problems


async def live_results_checks(bases: list[str], venue: v.Venue) -> list[str]:
    """Results hidden, then shown again, on both servers as soon as the setting changes."""
    import aiohttp
    from asgiref.sync import sync_to_async

    from tournament.models import Tournament
    from tournament.services import Actor
    from tournament.services.tournaments import update_tournament

    def set_live(value: str) -> None:
        from django.contrib.auth import get_user_model

        director = get_user_model().objects.get(username="director")
        tournament = Tournament.objects.get(slug=venue.slug)
        update_tournament(Actor(user=director), tournament, live_results=value)

    problems = []
    page = f"/t/{venue.slug}/matches/{venue.match_ids[0]}/"
    result = re.compile(r"(Knock|Gin|Big Gin|Undercut) \d* ?vs \d+:")
    async with aiohttp.ClientSession() as session:
        async def shows(base: str) -> bool:
            async with session.get(base + page) as response:
                return bool(result.search(await response.text()))

        for base in bases:  # both servers have the page in the cache, results shown
            if not await shows(base):
                problems.append(f"{base}: no result shown under live results")
        await sync_to_async(set_live)("closed")
        deadline = time.monotonic() + 1.5  # the grace, and a page's build
        for name, base in zip("AB", bases, strict=True):
            while await shows(base):
                if time.monotonic() > deadline:
                    problems.append(f"server {name} still shows results after the "
                                    "live-results setting was turned to closed")
                    break
                await asyncio.sleep(0.05)
        await sync_to_async(set_live)("live")
        deadline = time.monotonic() + 1.5
        for name, base in zip("AB", bases, strict=True):
            while not await shows(base):
                if time.monotonic() > deadline:
                    problems.append(f"server {name} does not show results again")
                    break
                await asyncio.sleep(0.05)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--scorers", type=int, default=16)
    parser.add_argument("--spectators", type=int, default=16)
    parser.add_argument("--keep-cluster", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="dupgin-cluster-"))
    with v.Cluster(keep=args.keep_cluster), Redis() as redis:
        os.environ["CACHE_URL"] = redis.url
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
        v.setup_django(DATABASE)
        from django.conf import settings

        grace = settings.PUBLIC_CACHE_GRACE_SECONDS
        venue = v.build_venue(matches=(args.scorers + 2) // 2, hands=8)
        from tournament.models import Tournament

        Tournament.objects.filter(slug=venue.slug).update(live_results="live")
        servers = start_servers(redis.url, work)
        bases = [server.base for server in servers]
        stats = v.Stats()
        reads: list[float] = []
        read_errors: list[str] = []
        staleness: list[float] = []
        probe_errors: list[str] = []
        paths = [f"/t/{venue.slug}/", f"/t/{venue.slug}/standings/",
                 f"/t/{venue.slug}/rounds/{venue.round_id}/"] + [
            f"/t/{venue.slug}/matches/{pk}/" for pk in venue.match_ids]
        try:
            async def run() -> None:
                scorers = [Alternating(bases, venue.slug, venue.scorers[n], venue.tables[n],
                                       venue.hands, stats, n) for n in range(args.scorers)]
                for scorer in scorers:
                    await scorer.__aenter__()
                try:
                    await asyncio.gather(*(s.login() for s in scorers))
                    until = time.monotonic() + args.seconds
                    await asyncio.gather(
                        *(s.play(until, until + 15) for s in scorers),
                        *(spectate(bases, paths, until, reads, read_errors, n)
                          for n in range(args.spectators)),
                        probe(bases, venue, stats, until, staleness, probe_errors))
                finally:
                    for scorer in scorers:
                        await scorer.__aexit__(None, None, None)

            started = time.monotonic()
            asyncio.run(run())
            elapsed = time.monotonic() - started
            problems = asyncio.run(session_checks(bases, venue))
            problems += asyncio.run(live_results_checks(bases, venue))
        finally:
            for server in servers:
                server.stop()
        problems += v.check_database(venue, stats)
        problems += probe_errors + read_errors[:5] + stats.refused[:5] + stats.server_errors[:5]
        for name, server in zip("AB", servers, strict=True):
            problems += [f"server {name}: {error}" for error in server_errors(server)[:5]]
        # A public page is at most the grace behind the database, plus its build.
        build = max(0.5, v.percentile(reads, 95))
        if staleness and max(staleness) > grace + build:
            problems.append(f"a result took {max(staleness):.2f} s to show on the other "
                            f"server (grace {grace:g} s + {build:.2f} s, the p95 of a page)")
        saves = stats.latencies
        print(f"two servers, {args.seconds:g} s, {args.scorers} scorers and "
              f"{args.spectators} spectators alternating servers")
        print(f"  commands  {len(saves):6d}  {len(saves) / elapsed:7.1f}/s  "
              f"p50 {1000 * v.percentile(saves, 50):6.1f} ms  "
              f"p95 {1000 * v.percentile(saves, 95):6.1f} ms  retries {stats.retries}")
        print(f"  pages     {len(reads):6d}  {len(reads) / elapsed:7.1f}/s  "
              f"p50 {1000 * v.percentile(reads, 50):6.1f} ms  "
              f"p95 {1000 * v.percentile(reads, 95):6.1f} ms")
        if staleness:
            print(f"  staleness on the other server: {len(staleness)} probes, "
                  f"p50 {1000 * v.percentile(staleness, 50):.0f} ms, "
                  f"max {1000 * max(staleness):.0f} ms (grace {grace:g} s)")
        for problem in problems:
            print("  PROBLEM:", problem)
        print("every check passed" if not problems else f"{len(problems)} problem(s); the "
              f"servers' logs are in {work}")
    if not problems:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
