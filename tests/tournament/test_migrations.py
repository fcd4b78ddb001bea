"""A new database is built by the squashed migration (0001–0017 in one): it must be the very
schema the seventeen migrations build one after the other, on SQLite and on PostgreSQL (the
suite's own database is built by the squash; the other is built here, in a child process, by
the migrations as they were, with the squash left out)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.tournament.schema_description import describe_schema, differences

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "tournament" / "migrations"
SQUASH = "0001_squashed_0017_seat_tallies"

# Run in the child: a test database of its own made by the migrations of MIGRATION_MODULES,
# described, dropped.
CHILD = """
import json, sys
import django
django.setup()
from django.db import connection
from tests.tournament.schema_description import describe_schema
name = connection.settings_dict["NAME"]
connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
try:
    schema = describe_schema(connection)
finally:
    connection.creation.destroy_test_db(name, verbosity=0)
print(json.dumps(schema))
"""


def test_the_squash_replaces_every_migration_before_it():
    squash = MigrationLoader(None, ignore_no_migrations=True).disk_migrations[
        ("tournament", SQUASH)]
    replaced = {name for _app, name in squash.replaces}
    on_disk = {path.stem for path in MIGRATIONS.glob("0*.py")} - {SQUASH}
    assert replaced == {name for name in on_disk if name[:4] <= "0017"}


@pytest.mark.django_db
def test_the_squash_builds_the_schema_the_migrations_before_it_build(tmp_path):
    old = tmp_path / "migrations_one_by_one"
    old.mkdir()
    (old / "__init__.py").write_text("")
    for path in MIGRATIONS.glob("0*.py"):
        if path.stem != SQUASH:
            shutil.copy(path, old / path.name)
    settings_lines = [
        "from tournament.settings_test import *  # noqa: F403",
        "MIGRATION_MODULES = {'tournament': 'migrations_one_by_one'}",
    ]
    if connection.vendor == "sqlite":
        settings_lines.append("DATABASES['default']['TEST'] = "
                              f"{{'NAME': {str(tmp_path / 'one_by_one.sqlite3')!r}}}")
    else:
        settings_lines.append("DATABASES['default']['TEST'] = "
                              f"{{'NAME': 'dupgin_one_by_one_{os.getpid()}'}}")
    (tmp_path / "one_by_one_settings.py").write_text("\n".join(settings_lines) + "\n")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "one_by_one_settings",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    child = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300, check=False)
    assert child.returncode == 0, child.stderr
    one_by_one = json.loads(child.stdout)

    squashed = describe_schema(connection)
    assert sum(len(items) for items in squashed.values()) > 200  # a schema was read
    assert any(key.startswith("trigger") for key in squashed)  # its triggers among them
    found = differences(one_by_one, squashed)
    assert not found, ("the squash builds another schema ('-' one by one only, '+' the "
                       "squash only):\n" + "\n".join(found[:40]))


def test_a_difference_is_named():
    a = {"table t": ["a integer NOT NULL", "b text"], "trigger x on t": ["CREATE TRIGGER x"]}
    b = {"table t": ["a integer NOT NULL", "b varchar(5)"]}
    assert differences(a, b) == ["- table t: b text", "+ table t: b varchar(5)",
                                 "- trigger x on t: CREATE TRIGGER x"]
    assert differences(a, a) == []
