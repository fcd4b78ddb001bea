"""What bench/faults.py and bench/load.py share: a PostgreSQL cluster of their own, an event
with a round in play, the production server, and scorers who save hands over HTTP as the
entry screen's browser does.

The cluster: PostgreSQL 15 cluster ``bench`` on 127.0.0.1:5434 (trust authentication,
loopback only), never the shared cluster on 5432, which the fault test would restart. Made
if missing (``pg_createcluster 15 bench -p 5434 -- --auth=trust``, as root) and dropped
again at the end by the script that made it; started and stopped by the script
(``pg_ctlcluster --skip-systemctl-redirect 15 bench start|restart|stop``). To keep it
between runs: ``--keep-cluster``.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "tournament" / "views"))

PG_VERSION = "15"
CLUSTER = "bench"
PG_PORT = 5434
PASSWORD = "bench-Pass-123"
SLUG = "venue"


# The cluster ---------------------------------------------------------------------------------

def pg_ctl(action: str) -> None:
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", PG_VERSION, CLUSTER, action],
                   check=True, capture_output=True)


def cluster_exists() -> bool:
    return Path(f"/etc/postgresql/{PG_VERSION}/{CLUSTER}").exists()


def cluster_running() -> bool:
    out = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout
    return any(line.split()[:2] == [PG_VERSION, CLUSTER] and "online" in line
               for line in out.splitlines())


class Cluster:
    """Start the bench cluster (make it first if missing); stop it at the end, and drop it
    if it was made here and ``keep`` is false. Leaves the machine as it found it."""

    def __init__(self, keep: bool = False):
        self.keep = keep
        self.made = self.was_running = False

    def __enter__(self) -> Cluster:
        if not Path(f"/usr/lib/postgresql/{PG_VERSION}/bin/postgres").exists():
            raise SystemExit(f"PostgreSQL {PG_VERSION} is not installed "
                             "(apt-get install postgresql)")
        if not cluster_exists():
            print(f"making PostgreSQL cluster {PG_VERSION}/{CLUSTER} on port {PG_PORT}")
            subprocess.run(["pg_createcluster", PG_VERSION, CLUSTER, "-p", str(PG_PORT),
                            "--", "--auth=trust"], check=True, capture_output=True)
            self.made = True
        self.was_running = cluster_running()
        if not self.was_running:
            pg_ctl("start")
        return self

    def __exit__(self, *exc) -> None:
        if not self.was_running or self.made:
            pg_ctl("stop")
        if self.made and not self.keep:
            subprocess.run(["pg_dropcluster", PG_VERSION, CLUSTER], check=True,
                           capture_output=True)


def database_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:{PG_PORT}/{name}"


def setup_django(name: str) -> None:
    """A new, empty database ``name`` on the cluster, migrated; Django set up on it."""
    import psycopg

    url = database_url(name)
    var = ROOT / "var" / "bench"
    var.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("VAR_DIR", str(var))
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    os.environ["HTTPS"] = "0"
    with psycopg.connect(database_url("postgres"), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)


# The event ----------------------------------------------------------------------------------

@dataclass
class Venue:
    slug: str
    tables: list[int]  # table ids of the round in play, by table number
    scorers: list[str]  # one user name per table
    hands: int
    round_id: int
    closed_round_id: int
    match_ids: list[int]


def build_venue(matches: int, hands: int) -> Venue:
    """A Swiss event of ``2 * matches`` teams built through the services: one round played
    to the end and closed (standings to show), the next in play with ``2 * matches`` tables
    and nothing entered yet; a scorer account per table (and a director)."""
    import datetime as dt

    import public_event  # tests/tournament/views/public_event.py
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tournament.models import StaffRole, Stage, Tournament
    from tournament.services import Actor
    from tournament.services.draw import generate_round
    from tournament.services.stages import create_stage, enter_teams
    from tournament.services.teams import insert_team, parse_team_entry

    started = time.perf_counter()
    users = get_user_model()
    director = users.objects.create_user("director", password=PASSWORD)
    tournament = Tournament.objects.create(
        name="Venue Cup", slug=SLUG, starts_on=dt.date(2026, 5, 1),
        ends_on=dt.date(2026, 5, 3), status="running", hands_per_match=hands,
        public_standings=True, public_results=True, public_players=True)
    StaffRole.objects.create(tournament=tournament, user=director, role="director")
    actor = Actor(user=director)
    teams = [insert_team(tournament, parse_team_entry(
        {"code": f"T{n:02d}", "name": f"Team {n:02d}", "player1": f"Player {n}a",
         "player2": f"Player {n}b", "seed": str(n)})) for n in range(1, 2 * matches + 1)]
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(actor, stage, teams)
    closed = public_event.play_round(actor, generate_round(actor, stage))
    round_ = public_event.start(actor, generate_round(actor, stage))
    tables = list(round_.tables.order_by("number").values_list("pk", flat=True))
    password = make_password(PASSWORD)  # one hash for every scorer: quicker to build
    scorers = []
    for number in range(1, len(tables) + 1):
        user = users.objects.create(username=f"scorer{number:02d}", password=password)
        StaffRole.objects.create(tournament=tournament, user=user, role="scorer")
        scorers.append(user.username)
    print(f"event built through the services in {time.perf_counter() - started:.1f} s: "
          f"{len(teams)} teams, round 1 closed, round 2 in play at {len(tables)} tables, "
          f"{hands} hands a match")
    return Venue(SLUG, tables, scorers, hands, round_.pk, closed.pk,
                 list(round_.matches.order_by("number").values_list("pk", flat=True)))


# The server ---------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``manage.py serve`` (gunicorn, 2 workers, whitenoise) in a process group of its own,
    its output in ``log``."""

    def __init__(self, port: int, log: Path, cache_url: str, workers: int = 2):
        self.port, self.log, self.cache_url, self.workers = port, log, cache_url, workers
        self.process: subprocess.Popen | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self, wait: float = 90) -> None:
        """Start, and wait until a worker answers (listening is not enough: the workers
        may still be importing Django)."""
        env = {**os.environ, "CACHE_URL": self.cache_url, "ALLOWED_HOSTS": "127.0.0.1,localhost",
               "HTTPS": "0", "PUBLIC_CACHE_SECONDS": "600"}
        with open(self.log, "a") as out:
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "manage.py"), "serve", f"127.0.0.1:{self.port}",
                 "--workers", str(self.workers), "--no-migrate"],
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/accounts/login/", timeout=5) as r:
                    if r.status == 200:
                        return
            except OSError:
                if self.process.poll() is not None:
                    raise SystemExit(f"the server stopped; see {self.log}") from None
                time.sleep(0.1)
        raise SystemExit(f"the server did not answer; see {self.log}")

    def kill9(self) -> None:
        """kill -9 the gunicorn master and its workers (the whole process group)."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        while any(self._group_alive()):
            time.sleep(0.05)

    def _group_alive(self):
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                try:
                    if os.getpgid(int(proc.name)) == self.process.pid:
                        yield proc.name
                except (ProcessLookupError, PermissionError):
                    pass

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def errors_logged(self) -> list[str]:
        text = self.log.read_text(errors="replace")
        return [line for line in text.splitlines()
                if "Traceback" in line or "Internal Server Error" in line]


# Scorers ------------------------------------------------------------------------------------

NOT_SAVED = "Not saved: the database did not answer. Try again."
HIDDEN = r'name="h{hand}-(seen_version|request_token)" value="([^"]*)"'
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SAVED = re.compile(r'role="status">saved<')


@dataclass
class Stats:
    acked: list[tuple[int, int, str]] = field(default_factory=list)  # table, hand, token
    sent: set[str] = field(default_factory=set)
    latencies: list[float] = field(default_factory=list)  # acknowledged saves, seconds
    retries: int = 0
    failures: dict[str, int] = field(default_factory=dict)  # what a try met, by kind
    refused: list[str] = field(default_factory=list)  # a 200 without "saved": a bug here
    server_errors: list[str] = field(default_factory=list)  # 500s, tracebacks

    def fail(self, kind: str) -> None:
        self.failures[kind] = self.failures.get(kind, 0) + 1


class Scorer:
    """One scorer's browser: logs in through the login form (session and CSRF cookies),
    opens the table's entry screen, saves hands with htmx as the browser does, each with the
    request token its form carries; a save that fails is sent again with the same token,
    as a scorer pressing Save again would."""

    def __init__(self, base: str, slug: str, username: str, table: int, hands: int,
                 stats: Stats, number: int):
        self.base, self.slug, self.username, self.table = base, slug, username, table
        self.hands, self.stats, self.number = hands, stats, number
        self.forms: dict[int, dict[str, str]] = {}
        self.csrf = ""
        self.session = None

    async def __aenter__(self):
        import aiohttp

        self.session = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            timeout=aiohttp.ClientTimeout(total=30))
        return self

    async def __aexit__(self, *exc):
        await self.session.close()

    async def _text(self, method, path, **kwargs) -> tuple[int, str]:
        async with self.session.request(method, self.base + path, **kwargs) as response:
            return response.status, await response.text()

    async def login(self) -> None:
        status, page = await self._text("GET", "/accounts/login/")
        data = {"csrfmiddlewaretoken": CSRF.search(page).group(1), "username": self.username,
                "password": PASSWORD, "next": f"/manage/{self.slug}/"}
        status, page = await self._text("POST", "/accounts/login/", data=data)
        assert any(c.key == "sessionid" for c in self.session.cookie_jar), (status, page[:300])
        await self.open_screen()

    async def open_screen(self) -> None:
        status, page = await self._text("GET", f"/manage/{self.slug}/tables/{self.table}/")
        assert status == 200, (status, page[:300])
        self.csrf = CSRF.search(page).group(1)
        for hand in range(1, self.hands + 1):
            self.forms[hand] = dict(re.findall(HIDDEN.format(hand=hand), page))

    def entry(self, hand: int, n: int) -> dict[str, str]:
        return {"outcome": "knock", "declarer_seat": str(1 + (hand + n) % 2),
                "declarer_deadwood": str(1 + n % 10), "opponent_deadwood": str(11 + n % 40)}

    async def save(self, hand: int, n: int, deadline: float) -> bool:
        """Save hand ``hand`` (the ``n``-th save of this scorer) until it is acknowledged
        or ``deadline`` (time.monotonic) passes; True when acknowledged."""
        import aiohttp

        form = self.forms[hand]
        data = {"csrfmiddlewaretoken": self.csrf,
                f"h{hand}-seen_version": form["seen_version"],
                f"h{hand}-request_token": form["request_token"],
                **{f"h{hand}-{k}": v for k, v in self.entry(hand, n).items()}}
        token = form["request_token"]
        self.stats.sent.add(token)
        path = f"/manage/{self.slug}/tables/{self.table}/hands/{hand}/"
        headers = {"HX-Request": "true", "HX-Current-URL":
                   f"{self.base}/manage/{self.slug}/tables/{self.table}/"}
        first = True
        while time.monotonic() < deadline:
            if not first:
                self.stats.retries += 1
                await asyncio.sleep(0.25)
            first = False
            started = time.perf_counter()
            try:
                status, body = await self._text("POST", path, data=data, headers=headers)
            except (TimeoutError, aiohttp.ClientError, OSError) as error:
                self.stats.fail(type(error).__name__)
                continue
            elapsed = time.perf_counter() - started
            if status == 200 and SAVED.search(body):
                self.stats.acked.append((self.table, hand, token))
                self.stats.latencies.append(elapsed)
                self.forms[hand] = dict(re.findall(HIDDEN.format(hand=hand), body))
                return True
            if status == 503 and NOT_SAVED in body and "Traceback" not in body:
                self.stats.fail("503 not saved")
                continue
            if status in (502, 504):
                self.stats.fail(f"HTTP {status}")
                continue
            if status >= 500:
                self.stats.server_errors.append(f"HTTP {status}: {body[:200]}")
                self.stats.fail(f"HTTP {status}")
                continue
            self.stats.refused.append(f"HTTP {status}: {re.sub(r'<[^>]+>', ' ', body)[:300]}")
            return False
        return False

    async def play(self, until: float, retry_until: float, think: float = 0.0,
                   stagger: bool = False) -> None:
        """Save hands 1, 2, … round and round until ``until``; a save begun by then is
        tried until ``retry_until``. With ``stagger``, the first save waits a random part
        of ``think``, as scorers in a hall do not press their buttons in step."""
        if stagger and think:
            import random

            await asyncio.sleep(random.Random(self.number).uniform(0, think))
        n = 0
        while time.monotonic() < until:
            hand = n % self.hands + 1
            n += 1
            if not await self.save(hand, n, retry_until):
                return
            if think:
                await asyncio.sleep(think)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


# The check ----------------------------------------------------------------------------------

def check_database(venue: Venue, stats: Stats, *earlier: Stats) -> list[str]:
    """Every acknowledged save is stored (its token, table and hand); no token saved twice;
    each hand's versions are 1…n with one current, the last; every stored save of the
    round is one this run (``stats`` or an ``earlier`` test) sent, and none of ``stats``
    that was not acknowledged. Returns the problems."""
    from django.db import connection

    from tournament.models import HandResult

    connection.close()  # the database may have restarted under this process
    rows = list(HandResult.objects.filter(table__round_id=venue.round_id)
                .values_list("table_id", "hand", "version", "is_current", "request_token"))
    problems = []
    stored = {str(token): (table, hand) for table, hand, _v, _c, token in rows}
    if len(stored) != len(rows):
        problems.append("a request token is stored twice")
    for table, hand, token in stats.acked:
        if token not in stored:
            problems.append(f"LOST: acknowledged save {token} (table {table}, hand {hand})")
        elif stored[token] != (table, hand):
            problems.append(f"save {token} stored at {stored[token]}, sent for {table, hand}")
    acked = {token for _t, _h, token in stats.acked}
    if len(acked) != len(stats.acked):
        problems.append("a token was acknowledged twice as a new save")
    before = set().union(*(s.sent for s in earlier))  # saves of an earlier test
    unknown = set(stored) - stats.sent - before
    if unknown:
        problems.append(f"{len(unknown)} stored saves this run never sent")
    unacked = (set(stored) & stats.sent) - acked
    if unacked:
        problems.append(f"{len(unacked)} stored saves were never acknowledged "
                        "(their retries ran out of time)")
    by_hand: dict[tuple[int, int], list[tuple[int, bool]]] = {}
    for table, hand, version, current, _token in rows:
        by_hand.setdefault((table, hand), []).append((version, current))
    for (table, hand), versions in by_hand.items():
        versions.sort()
        numbers = [v for v, _c in versions]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"table {table} hand {hand}: versions {numbers}")
        if [c for _v, c in versions].count(True) != 1 or not versions[-1][1]:
            problems.append(f"table {table} hand {hand}: the current version is not the last")
    return problems


def redis_answers(url: str) -> bool:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
        return True
    except Exception:  # any failure means: do without
        return False
