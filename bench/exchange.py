"""Export and import of a whole big tournament, timed (issue 14, item 2).

    python bench/exchange.py [--runs 3]

Works on a copy of the event of ``bench/standings.py`` (512 teams, 15 Swiss rounds, 8 hands
a table: 61,440 hand results, 122,880 approvals; build it first with that script), made in
``var/bench/exchange.sqlite3`` so the kept event is never changed. Prints, each the median
of ``--runs`` runs, with the target (< 60 s each):

- ``manage.py export_tournament bench-standings --include-secrets -o FILE``: the file's
  size and the time (the command run in this process, as ``call_command``);
- ``manage.py import_tournament FILE --slug … --map-user …``: the time, into the same
  database under a new short name each run (its people mapped to their own accounts);
- whether the imported copy exports to the same bytes (with its short name put back), and
  the integrity check of the copy;
- the rows' history in the file (issue 50): how many versions, how many bytes, and the
  time of its part of the export (``history.export_history``) and of the import (its
  checks, ``HistoryChecks.history``, and its writing, ``history.write_history``), each the
  median of the runs above;
- the same through the web pages (issue 25), as an administrator in Django's test client:
  the settings page's download with secrets (and whether it is the command's bytes), the
  upload, the preview (every check), the confirmation (checks again, then writes), and
  ``backup`` of the event (one file).
"""

from __future__ import annotations

import argparse
import io
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SLUG = "bench-standings"  # the event of bench/standings.py
TARGET = 60.0


def setup() -> None:
    var = ROOT / "var" / "bench"
    source = var / "standings.sqlite3"
    if not source.exists():
        sys.exit(f"no {source}: build the event first with python bench/standings.py")
    copy = var / "exchange.sqlite3"
    copy.unlink(missing_ok=True)
    with sqlite3.connect(source) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)  # a consistent copy even if the source is being written
    os.environ["DATABASE_URL"] = f"sqlite:///{copy}"
    os.environ.setdefault("VAR_DIR", str(var))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def verdict(seconds: float) -> str:
    return f"[target < {TARGET:.0f} s: {'met' if seconds < TARGET else 'NOT met'}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    setup()
    from django.core.management import call_command
    from django.db import connection

    from tournament.models import HandResult, Tournament
    from tournament.selectors.integrity import check_standings

    original = Tournament.objects.filter(slug=SLUG).first()
    if original is None:
        sys.exit("the bench event is not in var/bench/standings.sqlite3: run bench/standings.py")
    hands = HandResult.objects.filter(table__round__stage__tournament=original).count()
    version = connection.cursor().execute("select sqlite_version()").fetchone()[0]
    print(f"database: sqlite {version} (a copy of var/bench/standings.sqlite3)")
    print(f"event: {original.teams.count()} teams, "
          f"{original.stages.first().rounds.count()} rounds, {hands:,} hand results")
    folder = Path(tempfile.mkdtemp(prefix="dupgin-exchange-"))
    path = folder / "event.json"

    spent = time_history_parts()
    exports = []
    for _ in range(args.runs):
        started = time.perf_counter()
        call_command("export_tournament", SLUG, "--include-secrets", "-o", str(path),
                     stderr=io.StringIO())
        exports.append(time.perf_counter() - started)
    size = path.stat().st_size
    median = statistics.median(exports)
    print(f"export_tournament --include-secrets: {median:.1f} s, median of {args.runs} "
          f"{verdict(median)}; file {size / 1e6:.1f} MB; runs: "
          + ", ".join(f"{s:.1f} s" for s in exports))

    # A copy in the same database: each person of the file is mapped to their own account
    # (a file never takes an account over by its name alone).
    import json

    people = [p["username"] for p in json.loads(path.read_bytes())["people"]]
    mapping = [f"--map-user={name}={name}" for name in people]
    imports = []
    for run in range(1, args.runs + 1):
        started = time.perf_counter()
        call_command("import_tournament", str(path), "--slug", f"exchange-copy-{run}",
                     *mapping, stdout=io.StringIO())
        imports.append(time.perf_counter() - started)
    median = statistics.median(imports)
    print(f"import_tournament: {median:.1f} s, median of {args.runs} {verdict(median)}; runs: "
          + ", ".join(f"{s:.1f} s" for s in imports))

    history = json.loads(path.read_bytes())["history"]
    versions = sum(len(v) for v in history.values())
    from tournament.exchange.common import dump

    size = len(dump(history).encode())
    print(f"history: {versions:,} versions ("
          + ", ".join(f"{kind} {len(v):,}" for kind, v in history.items())
          + f"), {size / 1e6:.1f} MB; export "
          f"{statistics.median(spent['export']):.2f} s, import: checks "
          f"{statistics.median(spent['check']):.2f} s, writing "
          f"{statistics.median(spent['write']):.2f} s (medians)")

    again = folder / "again.json"
    call_command("export_tournament", "exchange-copy-1", "--include-secrets", "-o",
                 str(again), stderr=io.StringIO())
    same = (again.read_bytes().replace(b'"slug": "exchange-copy-1"', f'"slug": "{SLUG}"'
                                       .encode()) == path.read_bytes())
    print(f"the copy exports to the same bytes: {'yes' if same else 'NO'}")
    started = time.perf_counter()
    report = check_standings(Tournament.objects.get(slug="exchange-copy-1"))
    print(f"integrity check of the copy: {time.perf_counter() - started:.1f} s, "
          f"{report.summary}")
    web(path, people, folder)
    path.unlink()
    again.unlink()
    folder.rmdir()


def time_history_parts() -> dict[str, list[float]]:
    """The history's part of each export and import, timed as they run: the functions
    the export and the import call are wrapped (in this process only)."""
    from tournament.exchange import check, export, write

    spent: dict[str, list[float]] = {"export": [], "check": [], "write": []}

    def timed(name, function):
        def run(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name].append(time.perf_counter() - started)
        return run

    export.export_history = timed("export", export.export_history)
    check.ImportPlan.history = timed("check", check.ImportPlan.history)
    write.write_history = timed("write", write.write_history)
    return spent


def web(path: Path, people: list[str], folder: Path) -> None:
    """The tournament file through the pages: download, upload, preview, import; backup."""
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client

    from tournament.exchange.backups import write_backup
    from tournament.models import Tournament

    call_command("collectstatic", interactive=False, verbosity=0)  # the pages link them
    admin = get_user_model().objects.filter(username="bench-admin").first() or \
        get_user_model().objects.create_superuser("bench-admin", "", None)
    client = Client(HTTP_HOST="localhost")
    client.force_login(admin)

    def timed(what, call):
        started = time.perf_counter()
        response = call()
        seconds = time.perf_counter() - started
        print(f"  {what}: {seconds:.1f} s (HTTP {response.status_code})")
        return response

    print("through the web pages:")
    data = path.read_bytes()
    download = timed("download with secrets (settings page)", lambda: client.post(
        f"/manage/{SLUG}/settings/export/", {"secrets": "1"}))
    print(f"  the download is the command's bytes: "
          f"{'yes' if download.content == data else 'NO'}")
    uploaded = timed("upload (read and kept for the preview)", lambda: client.post(
        "/manage/import/", {"file": SimpleUploadedFile("event.json", data)}))
    preview_url = uploaded["Location"]
    timed("preview (every check)", lambda: client.get(preview_url))
    choices = {"slug": "exchange-web", "import": "1",
               **{f"account_{index}": name for index, name in enumerate(people)}}
    done = timed("confirm (every check again, then one transaction)",
                 lambda: client.post(preview_url, choices))
    if done.status_code != 302:
        print("  the import was refused:", done.context["preview"].problems[:3])
        return
    started = time.perf_counter()
    backup = write_backup(Tournament.objects.get(slug=SLUG), folder)
    print(f"  backup of the event: {time.perf_counter() - started:.1f} s, "
          f"{backup.size / 1e6:.1f} MB")
    (folder / backup.name).unlink()


if __name__ == "__main__":
    main()
