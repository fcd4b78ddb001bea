"""What every bench needs so that it can run again in the same data folder (``VAR_DIR``,
or a database kept between runs): its account made once, and a tournament of its own at
each run."""

from __future__ import annotations

import time


def bench_user(username: str = "bench", password: str = "bench-Pass-123"):
    """The bench's superuser, made at the first run and found at the next."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return users.filter(username=username).first() or users.create_superuser(
        username, "", password)


def run_slug(base: str) -> str:
    """A tournament slug of this run's own (a run never finds the last run's event)."""
    return f"{base}-{time.time_ns()}"


def insert_players(rows) -> list:
    """Player rows written straight to the database, each with a person of their own
    (every player is a person: tournament/models/person.py)."""
    from tournament.models import Person, Player

    rows = list(rows)
    for row, person in zip(rows, Person.objects.bulk_create(
            Person(name=row.name) for row in rows), strict=True):
        row.person = person
    return Player.objects.bulk_create(rows)
