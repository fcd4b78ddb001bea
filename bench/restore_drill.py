"""The restore drill of docs/deploy.md, scripted: the venue laptop dies in the middle of a
round, a second machine starts from the mirror's newest snapshot.

    python bench/restore_drill.py [FOLDER]      (default: a new folder under /tmp)

A server (``manage.py serve``, SQLite, ``BACKUP_INTERVAL=20``, the mirror in FOLDER/stick)
with a round in play; 32 hands saved through the pages over some 45 s; the server killed
with SIGKILL; the newest snapshot of the mirror copied in place of a second machine's
database; ``check_standings``; a server started on it. Prints how many hands were saved
after the last snapshot (the work lost), what the check said, how long the second machine
took to serve and how many hands it holds.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tournament.test_backups_by_themselves import PASSWORD, READ, SETUP  # noqa: E402

FOLDER = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="gin-drill-"))
MIRROR = FOLDER / "stick" / "gin"


def env(var: Path) -> dict:
    values = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    values.update(VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="tournament.settings",
                  ALLOWED_HOSTS="127.0.0.1", HTTPS="0", SECRET_KEY="drill-" + "k" * 40,
                  BACKUP_INTERVAL="20", BACKUP_MIRROR_DIR=str(MIRROR))
    return values


def manage(var: Path, *args: str) -> str:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env(var),
                          capture_output=True, text=True, check=True).stdout


def child(var: Path, code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env(var),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def serve(var: Path, port: int, log: str) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}", "--workers", "2"],
        cwd=ROOT, env=env(var), stdout=open(FOLDER / log, "w"),  # noqa: SIM115
        stderr=subprocess.STDOUT, start_new_session=True)
    for _ in range(600):
        try:
            if requests.get(f"http://127.0.0.1:{port}/accounts/login/", timeout=5).ok:
                return server
        except requests.RequestException:
            time.sleep(0.2)
    raise SystemExit(f"the server did not start: {FOLDER / log}")


def main() -> None:
    (FOLDER / "stick").mkdir(parents=True, exist_ok=True)
    laptop, second = FOLDER / "laptop", FOLDER / "second"
    manage(laptop, "quickstart", "--no-serve", "--no-demo")
    tables = child(laptop, SETUP)["tables"]
    server = serve(laptop, 8801, "laptop.log")
    url = "http://127.0.0.1:8801"
    session = requests.Session()
    session.get(url + "/accounts/login/")
    session.post(url + "/accounts/login/", data={
        "username": "boss", "password": PASSWORD,
        "csrfmiddlewaretoken": session.cookies["csrftoken"]}, headers={"Referer": url})
    saves, began = [], time.time()
    for hand in range(1, 9):
        for table in tables:
            answer = session.post(f"{url}/manage/backup-cup/tables/{table}/hands/{hand}/", data={
                f"h{hand}-outcome": "knock", f"h{hand}-declarer_seat": "1",
                f"h{hand}-declarer_deadwood": "2", f"h{hand}-opponent_deadwood": str(10 + hand),
                f"h{hand}-seen_version": "0", f"h{hand}-request_token": str(uuid.uuid4()),
                "csrfmiddlewaretoken": session.cookies["csrftoken"]}, headers={"Referer": url})
            answer.raise_for_status()
            saves.append(time.time())
        time.sleep(6)
    killed = time.time()
    os.killpg(server.pid, signal.SIGKILL)
    server.wait()
    snapshots = sorted(MIRROR.glob("database-*.sqlite3"))
    last = snapshots[-1].stat().st_mtime
    print(f"{len(saves)} hands saved over {saves[-1] - began:.1f} s; {len(snapshots)} "
          f"snapshots in the mirror; {sum(1 for t in saves if t > last)} saved after the "
          f"last one, taken {killed - last:.1f} s before the kill")
    started = time.time()
    second.mkdir()
    shutil.copy(snapshots[-1], second / "db.sqlite3")
    print("check_standings:", manage(second, "check_standings").strip().splitlines()[-1])
    server = serve(second, 8802, "second.log")
    print(f"the second machine serves {time.time() - started:.1f} s after the copy began, "
          f"with {len(child(second, READ)['hands'])} hands")
    os.killpg(server.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
