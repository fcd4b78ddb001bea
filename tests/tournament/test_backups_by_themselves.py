"""Backups that happen by themselves (issue 50, item 1): the production server (``manage.py
serve``) on a database of its own, a round in play, a backup interval of two seconds.

Hands are entered through the pages; backup files appear in the folder and in the mirror
with no command run; the snapshot opens as a database whose standings are the server's;
the server is killed (SIGKILL) and a new one, started from the mirror's copy, holds every
hand saved before the last backup. With the mirror's stick missing, the dashboard warns and
the server keeps working. On SQLite, and on PostgreSQL (``pg_dump``/``pg_restore`` of the
server's version, which ``.ci/run`` installs)."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-Long-pass-123"

# Run in a child on the server's database: a round in play, a director and a scorer.
SETUP = """
import json, django
django.setup()
from django.contrib.auth import get_user_model
from tournament.models import Role, Stage, StaffRole, Tournament
from tournament.services import Actor
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams
from tournament.services.teams import insert_team, parse_team_entry
User = get_user_model()
boss = User.objects.create_superuser("boss", "", PASSWORD)
li = User.objects.create_user("li", password=PASSWORD)
t = Tournament.objects.create(name="Backup Cup", slug="backup-cup", starts_on="2026-12-06",
                              ends_on="2026-12-07", status="running")
StaffRole.objects.create(tournament=t, user=boss, role=Role.DIRECTOR)
StaffRole.objects.create(tournament=t, user=li, role=Role.SCORER)
actor = Actor(user=boss)
teams = [insert_team(t, parse_team_entry({"code": f"T{n}", "name": f"Team {n}",
         "player1": f"P{n}a", "player2": f"P{n}b", "seed": str(n)})) for n in (1, 2, 3, 4)]
stage = create_stage(actor, t, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=2)
enter_teams(actor, stage, teams)
round_ = generate_round(actor, stage)
publish_round(actor, round_, override_reason="test")
start_round(actor, round_)
print(json.dumps({"stage": stage.pk, "tables": sorted(round_.tables.values_list("pk", flat=True))}))
""".replace("PASSWORD", repr(PASSWORD))

# Run in a child on a database: its standings and its hands, as JSON.
READ = """
import json, django
django.setup()
from tournament.models import HandResult, Stage
from tournament.selectors.standings import stage_standings
stage = Stage.objects.get(tournament__slug="backup-cup")
rows = [[line.rank, line.team.code, repr(line.totals)]
        for line in stage_standings(stage, lots=False).lines]
hands = sorted(HandResult.objects.filter(is_current=True).values_list(
    "table_id", "hand", "outcome", "seat1_points"))
print(json.dumps({"standings": rows, "hands": [list(h) for h in hands]}))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    """A database of its own and the servers started on it, in this test's folder."""

    def __init__(self, tmp_path: Path, subprocess_env, database: str | None):
        self.tmp = tmp_path
        self.database = database  # a PostgreSQL database name, or None for SQLite
        self.servers: list[subprocess.Popen] = []
        self.env_of = subprocess_env

    def env(self, var: Path, **more) -> dict:
        url = (f"postgres://{os.environ.get('PGUSER', 'postgres')}@127.0.0.1:5432/"
               f"{self.database}" if self.database else f"sqlite:///{var / 'db.sqlite3'}")
        values = {"VAR_DIR": str(var), "DATABASE_URL": url, "ALLOWED_HOSTS": "127.0.0.1",
                  "DJANGO_SETTINGS_MODULE": "tournament.settings", "HTTPS": "0",
                  "SECRET_KEY": "backup-test-" + "k" * 40, **more}
        return self.env_of(**values)

    def manage(self, var: Path, *args, **more) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT,
                              env=self.env(var, **more), capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def child(self, var: Path, code: str, database: str | None = None) -> dict:
        env = self.env(var)
        if database:
            env["DATABASE_URL"] = database
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def serve(self, var: Path, **more) -> str:
        port = free_port()
        log = open(self.tmp / f"server-{port}.log", "w")  # noqa: SIM115 (the child's)
        self.servers.append(subprocess.Popen(
            [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}", "--workers", "1",
             "--no-migrate"], cwd=ROOT, env=self.env(var, **more), stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(url + "/accounts/login/", timeout=5).ok:
                    return url
            except requests.RequestException:
                time.sleep(0.2)
        raise AssertionError((self.tmp / f"server-{port}.log").read_text())

    def kill(self) -> None:
        """SIGKILL to the server's process group (gunicorn, its worker, the keeper)."""
        server = self.servers[-1]
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()

    def close(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def log_in(url: str, username: str) -> requests.Session:
    session = requests.Session()
    session.get(url + "/accounts/login/")
    answer = session.post(url + "/accounts/login/", data={
        "username": username, "password": PASSWORD,
        "csrfmiddlewaretoken": session.cookies["csrftoken"]}, headers={"Referer": url})
    assert answer.ok and "sessionid" in session.cookies, answer.text[:300]
    return session


def save_hand(url: str, session: requests.Session, table: int, hand: int, points: int):
    answer = session.post(url + reverse("director:hand_save", args=["backup-cup", table, hand]),
                          data={f"h{hand}-outcome": "knock", f"h{hand}-declarer_seat": "1",
                                f"h{hand}-declarer_deadwood": "2",
                                f"h{hand}-opponent_deadwood": str(points),
                                f"h{hand}-seen_version": "0",
                                f"h{hand}-request_token": str(uuid.uuid4()),
                                "csrfmiddlewaretoken": session.cookies["csrftoken"]},
                          headers={"Referer": url})
    assert answer.ok, answer.text[:300]


def newest(folder: Path, pattern: str) -> Path | None:
    found = sorted(folder.glob(pattern)) if folder.is_dir() else []
    return found[-1] if found else None


def begun_at(snapshot: Path) -> float:
    """When the backup that wrote the snapshot began, from the stamp in its name."""
    stamp = snapshot.name.split("-", 1)[1].rsplit(".", 1)[0]
    return dt.datetime.strptime(stamp, "%Y%m%d-%H%M%S-%f").replace(
        tzinfo=dt.UTC).timestamp()


def wait_for(predicate, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError("waited in vain")


def pg_database(name: str):
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name],
                   check=False, capture_output=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True,
                   capture_output=True)


@pytest.fixture(params=[pytest.param("sqlite", marks=pytest.mark.own_database),
                        pytest.param("postgresql", marks=[
    pytest.mark.postgres, pytest.mark.django_db])])
def site(request, tmp_path, subprocess_env):
    """A site of the test's own: a SQLite file (run in the SQLite pass), or a PostgreSQL
    database of its own (run in the PostgreSQL pass, where pg_dump is installed)."""
    database = None
    if request.param == "postgresql":
        database = f"dupgin_backups_{os.getpid()}"
        pg_database(database)
    made = Site(tmp_path, subprocess_env, database)
    yield made
    made.close()
    if database:
        for name in (database, database + "_restored"):
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists",
                            name], check=False, capture_output=True)


def restored(site: Site, snapshot: Path, var: Path) -> str | None:
    """The snapshot made a database again: a SQLite file in ``var``, or a new PostgreSQL
    database (its URL)."""
    var.mkdir(parents=True, exist_ok=True)
    if site.database is None:
        shutil.copy(snapshot, var / "db.sqlite3")
        return None
    name = site.database + "_restored"
    pg_database(name)
    program = re.sub(r"pg_dump$", "pg_restore", _pg_dump())
    subprocess.run([program, "-h", "127.0.0.1", "-U", "postgres", "--no-owner", "-d", name,
                    str(snapshot)], check=True, capture_output=True)
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def _pg_dump() -> str:
    for major in range(20, 9, -1):
        path = f"/usr/lib/postgresql/{major}/bin/pg_dump"
        if os.path.exists(path):
            return path
    return shutil.which("pg_dump") or "pg_dump"


def test_backups_happen_by_themselves_and_a_new_server_starts_from_the_mirror(
        site, tmp_path):
    var, mirror = tmp_path / "var", tmp_path / "stick" / "mirror"
    (tmp_path / "stick").mkdir()
    site.manage(var, "migrate", "-v0")
    tables = site.child(var, SETUP)["tables"]
    kind = "dump" if site.database else "sqlite3"
    url = site.serve(var, BACKUP_INTERVAL="2", BACKUP_MIRROR_DIR=str(mirror))
    scorer = log_in(url, "boss")  # a director enters at every table
    saved = 0
    for hand in (1, 2, 3):
        for table in tables:
            save_hand(url, scorer, table, hand, 10 + hand)
            saved += 1
    last_save = time.time()
    # No command was run: the keeper takes a backup within the interval, in both folders.
    backups = var / "backups"
    # One begun after the last save (its name's stamp): one written after it may have begun
    # before it, and rightly not hold it.
    snapshot = wait_for(lambda: (s := newest(mirror, f"database-*.{kind}"))
                        and begun_at(s) > last_save and s)
    assert newest(backups, "backup-cup-*.json") and newest(mirror, "backup-cup-*.json")
    assert (backups / snapshot.name).read_bytes() == snapshot.read_bytes()
    assert oct(backups.stat().st_mode & 0o777) == "0o700"
    assert oct(snapshot.stat().st_mode & 0o777) == "0o600"
    # The snapshot opens as a database whose standings are the server's.
    server = site.child(var, READ)
    copy = restored(site, snapshot, tmp_path / "restored")
    from_snapshot = site.child(tmp_path / "restored", READ, copy)
    assert from_snapshot == server and len(server["hands"]) == saved
    # The laptop dies; a second machine starts from the mirror.
    site.kill()
    second = site.serve(tmp_path / "restored", **({"DATABASE_URL": copy} if copy else {}))
    boss = log_in(second, "boss")
    for table in tables:
        page = boss.get(second + reverse("director:table_entry", args=["backup-cup", table]))
        assert page.ok and page.text.count("Knock 2 vs") >= 3, page.text[:500]
    assert site.child(tmp_path / "restored", READ, copy)["hands"] == server["hands"]


def test_a_missing_mirror_is_a_warning_and_the_server_keeps_working(site, tmp_path):
    var = tmp_path / "var"
    site.manage(var, "migrate", "-v0")
    tables = site.child(var, SETUP)["tables"]
    url = site.serve(var, BACKUP_INTERVAL="2",
                     BACKUP_MIRROR_DIR=str(tmp_path / "no-stick" / "mirror"))
    boss = log_in(url, "boss")
    save_hand(url, boss, tables[0], 1, 20)
    wait_for(lambda: newest(var / "backups", "backup-cup-*.json"))
    dashboard = wait_for(lambda: (page := boss.get(
        url + reverse("director:dashboard", args=["backup-cup"])).text)
        and "The mirror did not take the last backup" in page and page)
    assert "does not exist (is the stick plugged in" in dashboard
    save_hand(url, boss, tables[0], 2, 21)  # the server works on
    assert len(site.child(var, READ)["hands"]) == 2
