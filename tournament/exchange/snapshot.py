"""A consistent snapshot of the whole database beside the tournament files (issue 50).

SQLite: the online backup API copies the database page by page while the server goes on
writing, and gives a file that opens as the database was at one moment. PostgreSQL:
``pg_dump`` in its custom format (``pg_restore`` reads it), from the client of the
server's major version or a newer one (Debian's ``postgresql-client-NN``), when one is
installed; otherwise the snapshot is left out, and the report says why. Written beside its
final name and renamed, readable by its owner only, as the tournament files are.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.db import connection

_STAMP = "%Y%m%d-%H%M%S-%f"
_NAME = re.compile(r"^database-(?P<stamp>\d{8}-\d{6}-\d{6})\.(?P<kind>sqlite3|dump)$")


@dataclass(frozen=True)
class Snapshot:
    name: str
    taken_at: dt.datetime
    size: int


class SnapshotSkipped(Exception):
    """No snapshot could be taken here; the message says why, in words for the report."""


def list_snapshots(folder: Path) -> list[Snapshot]:
    """The snapshots in the folder, newest first."""
    try:
        paths = list(folder.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for path in paths:
        match = _NAME.match(path.name)
        if match is None or not path.is_file():
            continue
        try:
            taken_at = dt.datetime.strptime(match["stamp"], _STAMP).replace(tzinfo=dt.UTC)
            size = path.stat().st_size
        except (ValueError, OSError):
            continue
        found.append(Snapshot(path.name, taken_at, size))
    return sorted(found, key=lambda s: (s.taken_at, s.name), reverse=True)


def take_snapshot(folder: Path, now: dt.datetime) -> Snapshot:
    """The database's snapshot written into the folder; SnapshotSkipped when this database
    cannot be copied here (OSError when the folder cannot be written)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    vendor = connection.vendor
    kind = {"sqlite": "sqlite3", "postgresql": "dump"}.get(vendor)
    if kind is None:
        raise SnapshotSkipped(f"no snapshot of a {vendor} database")
    name = f"database-{now.astimezone(dt.UTC).strftime(_STAMP)}.{kind}"
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".database-", suffix="." + kind)
    os.close(handle)
    try:
        os.chmod(temporary, 0o600)
        if vendor == "sqlite":
            _sqlite(Path(temporary))
        else:
            _pg_dump(Path(temporary))
        with open(temporary, "rb") as file:
            os.fsync(file.fileno())
        os.replace(temporary, folder / name)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return Snapshot(name, now, (folder / name).stat().st_size)


def _sqlite(target: Path) -> None:
    """Through a connection of its own, in one step: it reads what is committed, whatever
    this process's connection is doing (the backup API waits, without end, on a database
    locked by a transaction of the connection it reads through)."""
    if connection.is_in_memory_db():
        raise SnapshotSkipped("the database is in memory (the tests'): nothing to copy")
    source = sqlite3.connect(connection.settings_dict["NAME"], timeout=30)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy, pages=-1)
    finally:
        copy.close()
        source.close()


def pg_dump_program() -> tuple[str | None, str]:
    """The pg_dump that can dump this server (its major version or newer), and a word on
    which one; (None, why not) when none is installed."""
    connection.ensure_connection()
    major = connection.pg_version // 10000
    candidates = [f"/usr/lib/postgresql/{n}/bin/pg_dump" for n in range(major, major + 5)]
    on_path = shutil.which("pg_dump")
    if on_path:
        candidates.append(on_path)
    for program in candidates:
        if not os.path.exists(program):
            continue
        try:
            said = subprocess.run([program, "--version"], capture_output=True, text=True,
                                  timeout=20, check=False).stdout
        except OSError:
            continue
        found = re.search(r"(\d+)(?:\.\d+)?", said)
        if found and int(found[1]) >= major:
            return program, said.strip()
    return None, (f"no pg_dump of PostgreSQL {major} or newer is installed (Debian: "
                  f"apt-get install postgresql-client-{major})")


def _pg_dump(target: Path) -> None:
    program, why = pg_dump_program()
    if program is None:
        raise SnapshotSkipped(why)
    settings = connection.settings_dict
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    command = [program, "--format=custom", "--no-owner", f"--file={target}",
               f"--dbname={settings['NAME']}"]
    if settings.get("HOST"):
        command.append(f"--host={settings['HOST']}")
    if settings.get("PORT"):
        command.append(f"--port={settings['PORT']}")
    if settings.get("USER"):
        command.append(f"--username={settings['USER']}")
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600,
                          check=False)
    if done.returncode != 0:
        raise OSError(f"pg_dump failed: {done.stderr.strip()[:500]}")
