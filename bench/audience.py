"""A world final's audience: the public site behind a standard shared cache (issue 53).

    python bench/audience.py [--quick] [--seconds 10] [--runs 2] [--connections 32]
                             [--database postgres://postgres@127.0.0.1:5432/NAME]

Builds the live demo (its final in play) in a database of its own (PostgreSQL, made afresh
and dropped at the end), starts the production server (``manage.py serve``: gunicorn, 2
workers, the public cache in Redis as shipped) and Debian's nginx with the documented
configuration (``deploy/nginx-shared-cache.conf``, run unprivileged on a high port with
``nginx -p DIR -c FILE``), and:

- **throughput** (not with ``--quick``): requests/s and p95 with wrk (Debian; 32
  connections, gzip as every browser asks) on the standings page, a match page and the
  standings API, straight to the application and through the cache, taken alternately in
  one window (``--runs`` of each): target ≥ 20× the application alone;
- **freshness**: how long a referee's correction, signed off, takes to show through the
  cache on the match page and the standings, and the live-results setting switched off on
  the match page of the final (hiding): target ≤ 2 s each;
- **languages**: a Chinese and an English reader each get their own language on every kind
  of page and download and in the API, whatever cookie or Accept-Language they send and
  whoever asked first;
- **privacy**: a signed-in reader's page is never served to anyone else, and no staff or
  device address is ever kept (the cache's files are read back).

It exits 1 on any failure. ``--quick`` (the checks without the throughput runs) runs in
``.ci/run``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from public import free_port, production_server, redis_answers, wait_for, wrk  # noqa: E402

CONFIG = ROOT / "deploy" / "nginx-shared-cache.conf"
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/dupgin_bench_audience"
CACHE_URL = "redis://127.0.0.1:6379/14"
BROWSER = "gzip, deflate, br"
FRESH_TARGET = 2.0  # seconds
SPEED_TARGET = 20.0  # times the application alone
USERNAME, PASSWORD = "audience-director", "audience-Pass-123"
CJK = re.compile(r"[\u4e00-\u9fff]")

failures: list[str] = []


def check(ok: bool, what: str) -> bool:
    print(f"  {'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(what)
    return ok


# HTTP ---------------------------------------------------------------------------------------

class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


def fetch(port: int, path: str, headers: dict[str, str] | None = None,
          method: str = "GET", body: str | None = None) -> Answer:
    """One request on a connection of its own; the body gunzipped when it came gzipped."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers={"Host": "127.0.0.1",
                                                             **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        found = {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()
    if found.get("content-encoding") == "gzip":
        data = gzip.decompress(data)
    return Answer(response.status, found, data)


# nginx --------------------------------------------------------------------------------------

@contextmanager
def nginx(upstream_port: int):
    """nginx with the documented configuration on a free port: yields (port, cache folder)."""
    folder = Path(tempfile.mkdtemp(prefix="dupgin-nginx-"))
    cache = folder / "cache"
    for sub in ("cache", "tmp"):
        (folder / sub).mkdir()
    port = free_port()
    site = CONFIG.read_text()
    for documented, here in (("/var/cache/nginx/duplicate-gin", str(cache)),
                             ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream_port};"),
                             ("listen 80;", f"listen 127.0.0.1:{port};")):
        if documented not in site:
            raise SystemExit(f"{CONFIG} no longer holds {documented!r}")
        site = site.replace(documented, here)
    (folder / "site.conf").write_text(site)
    user = "user nobody nogroup;\n" if os.geteuid() == 0 else ""
    if user:  # the workers drop root: they must write the cache and the temporary files
        for path in (folder, cache, folder / "tmp"):
            path.chmod(0o777)
    (folder / "nginx.conf").write_text(
        f"{user}worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "daemon off;\nevents { worker_connections 4096; }\n"
        "http {\n  access_log off;\n"
        + "".join(f"  {kind}_temp_path {folder}/tmp/{kind};\n"
                  for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        + f"  include {folder}/site.conf;\n}}\n")
    process = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                fetch(port, "/accounts/login/")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("nginx did not start: "  # noqa: B904 (no cause)
                                     + process.stderr.read().decode(errors="replace")
                                     + (folder / "error.log").read_text(errors="replace"))
                time.sleep(0.1)
        yield port, cache
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def kept_keys(cache: Path) -> list[str]:
    """The keys of everything nginx keeps (each cache file has a ``KEY:`` line)."""
    keys = []
    for path in cache.rglob("*"):
        if path.is_file():
            head = path.read_bytes()[:4096]
            found = re.search(rb"\nKEY: ([^\n]*)\n", head)
            if found:
                keys.append(found.group(1).decode(errors="replace"))
    return keys


# The event ----------------------------------------------------------------------------------

def set_up(database: str) -> None:
    """A new database ``database`` (PostgreSQL) migrated, Django set up on it, the live demo
    built and a director account made."""
    import psycopg

    var = Path(tempfile.mkdtemp(prefix="dupgin-audience-var-"))
    name = database.rsplit("/", 1)[1]
    with psycopg.connect(database.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')
    os.environ.update(DATABASE_URL=database, VAR_DIR=str(var), CACHE_URL=CACHE_URL,
                      DJANGO_SETTINGS_MODULE="tournament.settings", HTTPS="0",
                      ALLOWED_HOSTS="127.0.0.1,localhost", PUBLIC_CACHE_SECONDS="600",
                      BACKUPS_AUTOMATIC="0")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    cache.clear()  # this database's pages only
    from tournament.demo import build_demo

    started = time.perf_counter()
    build_demo(11, live=True)
    print(f"live demo built in {time.perf_counter() - started:.1f} s")
    get_user_model().objects.create_superuser(USERNAME, "", PASSWORD)


def drop(database: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    name = database.rsplit("/", 1)[1]
    with psycopg.connect(database.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def addresses() -> dict[str, str]:
    """Public addresses of the live demo by kind, English (no prefix)."""
    from django.urls import reverse
    from django.utils import translation

    from tournament.models import Match, Round, Stage

    closed = Round.objects.filter(stage__tournament__slug="demo",
                                  status=Round.Status.CLOSED).order_by("pk").first()
    final = (Match.objects.filter(round__stage__tournament__slug="demo",
                                  round__status=Round.Status.IN_PLAY)
             .order_by("number").first())
    stage = Stage.objects.filter(tournament__slug="demo").order_by("pk").first()
    with translation.override("en"):
        return {
            "standings": reverse("public:standings", args=["demo"]),
            "group standings": reverse("public:stage_standings",
                                       args=["demo", closed.stage_id]),
            # (not a match of the team that withdrew: its results are void)
            "match": reverse("public:match", args=["demo", Match.objects.filter(
                round=closed, team_results__void=False).order_by("number").first().pk]),
            "final": reverse("public:match", args=["demo", final.pk]),
            "round": reverse("public:round", args=["demo", closed.pk]),
            "screen": reverse("public:screen", args=["demo"]),
            "standings.csv": reverse("public:standings_export", args=["demo", "csv"]),
            "stage standings.xlsx": reverse("public:stage_standings_export",
                                            args=["demo", stage.pk, "xlsx"]),
            "bulletin": reverse("public:bulletin", args=["demo"]),
            "api": "/api/tournaments/demo/standings",
        }


# Throughput ---------------------------------------------------------------------------------

def throughput(app: int, front: int, paths: dict[str, str], seconds: int, runs: int,
               connections: int) -> None:
    print(f"\nthroughput: wrk, {connections} connections, {seconds} s a run, "
          f"application and cache in turn")
    for kind in ("standings", "match", "api"):
        url_path = paths[kind]
        figures: dict[str, list[tuple[float, float]]] = {"app": [], "cache": []}
        for _ in range(runs):
            for where, port in (("app", app), ("cache", front)):
                rate, _p50, p95, errors = wrk(f"http://127.0.0.1:{port}{url_path}", seconds,
                                              connections, BROWSER)
                check(errors == 0, f"{kind} {where}: no error ({errors})")
                figures[where].append((rate, p95))
                print(f"    {kind:9} {where:5} {rate:9.0f} requests/s  p95 {p95:7.1f} ms")
        alone = statistics.median(rate for rate, _ in figures["app"])
        behind = statistics.median(rate for rate, _ in figures["cache"])
        check(behind >= SPEED_TARGET * alone,
              f"{kind}: {behind:.0f} requests/s through the cache, {behind / alone:.1f}× the "
              f"application's {alone:.0f} (target ≥ {SPEED_TARGET:.0f}×; p95 "
              f"{statistics.median(p for _, p in figures['cache']):.1f} ms against "
              f"{statistics.median(p for _, p in figures['app']):.1f} ms)")


# Freshness ----------------------------------------------------------------------------------

def digest(answer: Answer) -> str:
    return hashlib.sha256(answer.body).hexdigest()


def warm(port: int, path: str) -> None:
    """Until nginx hands the page out of its cache (and the application's grace is over)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if fetch(port, path, {"Accept-Encoding": BROWSER}).header("x-cache") == "HIT":
            return
        time.sleep(0.1)
    check(False, f"{path} is kept by nginx")


def time_to_show(port: int, paths: list[str], change) -> dict[str, float | None]:
    """Make the change, then read each page through the cache every 20 ms until it shows
    the page as it settles (read again 3 s later): the seconds from the change's commit
    (None: it never changed, or not within 4 s)."""
    for path in paths:
        warm(port, path)
    before = {path: digest(fetch(port, path, {"Accept-Encoding": BROWSER})) for path in paths}
    change()
    changed = time.monotonic()
    seen: dict[str, list[tuple[float, str]]] = {path: [] for path in paths}
    while time.monotonic() - changed < 4:
        for path in paths:
            answer = fetch(port, path, {"Accept-Encoding": BROWSER})
            seen[path].append((time.monotonic() - changed, digest(answer)))
        time.sleep(0.02)
    time.sleep(3)
    shown = {}
    for path in paths:
        settled = digest(fetch(port, path, {"Accept-Encoding": BROWSER}))
        shown[path] = None if settled == before[path] else next(
            (moment for index, (moment, value) in enumerate(seen[path])
             if all(later == settled for _, later in seen[path][index:])), None)
    return shown


def freshness(port: int, what: str, paths: list[str], changes: list, samples: int) -> None:
    """``samples`` changes (taking ``changes`` in turn), each timed on every page."""
    times: dict[str, list[float | None]] = {path: [] for path in paths}
    for sample in range(samples):
        for path, seconds in time_to_show(port, paths, changes[sample % len(changes)]).items():
            times[path].append(seconds)
    for path, found in times.items():
        shown = [each for each in found if each is not None]
        check(len(shown) == len(found) and max(shown) <= FRESH_TARGET,
              f"{what}: shown on {path} through the cache after "
              + ", ".join("never" if each is None else f"{each:.2f}" for each in found)
              + f" s (target ≤ {FRESH_TARGET:.0f} s"
              + (f"; median {statistics.median(shown):.2f} s)" if shown else ")"))


def correct_and_sign_off(match_path: str):
    """A referee's correction of the first hand of a closed round's first match (the other
    seat declared), approved, signed and signed off."""
    from dataclasses import replace

    from django.contrib.auth import get_user_model

    from tournament.models import HandResult, Match, Table
    from tournament.services.approvals import approve_hand, sign_table
    from tournament.services.base import Actor
    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry
    from tournament.services.signoff import sign_off_match

    match_id = int(match_path.rstrip("/").rsplit("/", 1)[1])
    referee = Actor(user=get_user_model().objects.get(username=USERNAME),
                    device="bench/audience.py")

    def change():
        table = Table.objects.select_related("match__round__stage__tournament").get(
            match_id=match_id, position=1)
        wrong = HandResult.objects.filter(table=table, hand=1, is_current=True).get()
        entry = HandEntry.of(wrong)
        result = record_hand_result(
            referee, table, 1, replace(entry, declarer_seat=3 - entry.declarer_seat),
            seen_version=wrong.version, request_token=uuid.uuid4(),
            reason="The other seat declared; both players confirmed it at the desk.")
        for seat in (1, 2):
            approve_hand(referee, result, seat)
        for each in Table.objects.filter(match_id=match_id).select_related(
                "match__round__stage__tournament"):
            for seat in (1, 2):
                sign_table(referee, each, seat)
        sign_off_match(referee, Match.objects.select_related(
            "round__stage__tournament", "home", "away").get(pk=match_id))

    return change


def live_results_off():
    from django.contrib.auth import get_user_model

    from tournament.models import Tournament
    from tournament.services.base import Actor
    from tournament.services.tournaments import update_tournament

    director = Actor(user=get_user_model().objects.get(username=USERNAME))

    def change():
        update_tournament(director, Tournament.objects.get(slug="demo"),
                          live_results=Tournament.LiveResults.CLOSED)

    return change, lambda: update_tournament(
        director, Tournament.objects.get(slug="demo"), live_results=Tournament.LiveResults.LIVE)


# Languages and privacy ----------------------------------------------------------------------

def language_of(answer: Answer, kind: str) -> str:
    """The language an answer is in, read off its content where it says."""
    if "html" in answer.header("content-type"):
        found = re.search(r'<html lang="([^"]+)"', answer.text)
        return found.group(1) if found else "?"
    if kind.endswith(".csv"):
        return "zh-hans" if CJK.search(answer.text.splitlines()[0]) else "en"
    return answer.header("content-language") or "?"


def languages(port: int, paths: dict[str, str]) -> None:
    print("\nlanguages: each reader gets their own, whoever asked first")
    chinese_cookie = {"Cookie": "django_language=zh-hans", "Accept-Language": "zh-hans"}
    english_cookie = {"Cookie": "django_language=en", "Accept-Language": "en"}
    for kind, path in paths.items():
        if kind in ("final",):
            continue
        if kind == "api":
            # The API's language is Accept-Language: asked in turn, each gets its own.
            for wanted in ("zh-hans", "en", "zh-hans", "en"):
                answer = fetch(port, path, {"Accept-Language": wanted,
                                            "Accept-Encoding": BROWSER})
                check(answer.status == 200 and answer.header("content-language") == wanted,
                      f"API asked in {wanted}: {answer.header('content-language')}")
            continue
        # A Chinese reader with a Chinese cookie asks for the English address first, then
        # an English reader; the Chinese address for a reader with an English cookie.
        for headers, address, wanted in ((chinese_cookie, path, "en"),
                                         (english_cookie, path, "en"),
                                         (english_cookie, "/zh-hans" + path, "zh-hans"),
                                         (chinese_cookie, "/zh-hans" + path, "zh-hans")):
            answer = fetch(port, address, {**headers, "Accept-Encoding": BROWSER})
            got = language_of(answer, kind)
            check(answer.status == 200 and got == wanted,
                  f"{kind} at {address}: {got} ({answer.status}, {answer.header('x-cache')})")


def privacy(port: int, cache: Path, paths: dict[str, str]) -> None:
    print("\nprivacy: a signed-in page for no one else; staff and devices never kept")
    login = fetch(port, "/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.text).group(1)
    csrf = re.search(r"csrftoken=([^;]+)", login.header("set-cookie")).group(1)
    signed = fetch(port, "/accounts/login/", {
        "Cookie": f"csrftoken={csrf}", "Content-Type": "application/x-www-form-urlencoded",
        "Referer": "http://127.0.0.1/accounts/login/"}, method="POST",
        body=f"csrfmiddlewaretoken={token}&username={USERNAME}&password={PASSWORD}")
    session = re.search(r"sessionid=([^;]+)", signed.header("set-cookie"))
    if not check(session is not None, "the director logged in through the cache"):
        return
    cookie = {"Cookie": f"sessionid={session.group(1)}; csrftoken={csrf}"}
    for kind in ("standings", "match", "round"):
        path = paths[kind]
        mine = fetch(port, path, {**cookie, "Accept-Encoding": BROWSER})
        check(USERNAME in mine.text and "private" in mine.header("cache-control"),
              f"{kind}: the director sees their own page, private")
        public = [fetch(port, path, {"Accept-Encoding": BROWSER}) for _ in range(3)]
        check(all(USERNAME not in answer.text for answer in public),
              f"{kind}: an anonymous reader, asking next, never gets it "
              f"({', '.join(answer.header('x-cache') for answer in public)})")
    staff = ["/manage/", "/manage/demo/", paths["standings"].replace("/t/", "/manage/"),
             "/accounts/login/", "/admin/", "/api/tables/1", "/api/matches/1/sign-off"]
    for path in staff:
        seen = []
        for headers in ({}, cookie, {"Authorization": "Bearer not-a-token"}):
            for _ in range(2):
                answer = fetch(port, path, headers)
                seen.append(f"{answer.status} {answer.header('x-cache') or '-'}")
        check(not any(cache in each for each in seen
                      for cache in ("HIT", "STALE", "UPDATING", "REVALIDATED")),
              f"{path} never kept (anonymous, signed in, a device; twice each: "
              f"{', '.join(seen)})")
    keys = kept_keys(cache)
    staff_keys = [key for key in keys
                  if re.search(r"//[^/]+/(manage|accounts|admin|i18n|api/tables|api/matches)/",
                               key)]
    check(keys != [] and staff_keys == [],
          f"the cache keeps {len(keys)} answers, none of a staff or device address "
          f"{staff_keys[:3]}")


# The run ------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="the checks only, without the throughput runs (.ci/run)")
    parser.add_argument("--seconds", type=int, default=10, help="seconds of each wrk run")
    parser.add_argument("--runs", type=int, default=2, help="runs of each, in turn")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--database", default=DEFAULT_DATABASE,
                        help="a PostgreSQL database made afresh and dropped at the end")
    args = parser.parse_args()
    missing = [tool for tool in ("nginx", *([] if args.quick else ["wrk"]))
               if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists()]
    if missing:
        raise SystemExit(f"missing: apt-get install -y {' '.join(missing)}")
    if not redis_answers(CACHE_URL):
        raise SystemExit(f"Redis does not answer at {CACHE_URL}")
    os.environ["PATH"] += ":/usr/sbin"
    set_up(args.database)
    try:
        paths = addresses()
        log = Path(tempfile.mkdtemp(prefix="dupgin-audience-")) / "server.log"
        with production_server(log) as base:
            app = int(base.rsplit(":", 1)[1])
            wait_for(base + "/accounts/login/")
            with nginx(app) as (front, cache):
                print(f"application 127.0.0.1:{app} (manage.py serve, 2 workers, Redis "
                      f"cache); nginx 127.0.0.1:{front} ({CONFIG.relative_to(ROOT)})")
                if not args.quick:
                    throughput(app, front, paths, args.seconds, args.runs, args.connections)
                languages(front, paths)
                privacy(front, cache, paths)
                samples = 2 if args.quick else 6
                print(f"\nfreshness: from the change's commit to the page through the cache "
                      f"({samples} changes, in turn)")
                correction = correct_and_sign_off(paths["match"])
                freshness(front, "a correction signed off",
                          [paths["match"], paths["group standings"]], [correction], samples)
                off, on = live_results_off()
                on()
                time.sleep(2.5)  # every copy of the final's page now shows its results
                freshness(front, "live results switched off, then on again", [paths["final"]],
                          [off, on], samples)
            errors = [line for line in log.read_text(errors="replace").splitlines()
                      if "Traceback" in line or "Internal Server Error" in line]
            check(errors == [], f"no error in the server's log ({len(errors)})")
    finally:
        drop(args.database)
    print(f"\n{len(failures)} failure(s)" if failures else "\nall checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
