"""What several application servers on one database must share (issue 29, docs/deploy.md),
checked by ``manage.py check --deploy`` and said by ``serve``.

A server keeps two things of its own unless told otherwise: the public cache (a file cache
in its ``var/`` under ``serve``, local memory otherwise) and the ``SECRET_KEY`` it made on
its first start (``var/secret_key``). One server does not notice; a second server on the
same PostgreSQL database would serve public pages that the first one's changes never
renewed, and would refuse the first one's sessions and forms. SQLite is one machine's
database, so the warnings are for PostgreSQL only.
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks

PER_MACHINE_CACHES = ("locmem", "filebased", "dummy")


def shared_by_servers(engine: str, cache_backend: str, key_from_file: bool
                      ) -> list[checks.CheckMessage]:
    """The warnings for a database ``engine``, the default cache's ``cache_backend`` (its
    class path) and whether ``SECRET_KEY`` came from this machine's ``var/``."""
    if "postgresql" not in engine:
        return []
    messages = []
    if any(kind in cache_backend.lower() for kind in PER_MACHINE_CACHES):
        messages.append(checks.Warning(
            "The cache is this machine's alone: with several application servers on this "
            "database, a change made through one server would not renew the public pages "
            "another server keeps.",
            hint="Set CACHE_URL to a Redis every application server uses "
                 "(CACHE_URL=redis://cache.internal:6379/1).",
            id="tournament.W004"))
    if key_from_file:
        messages.append(checks.Warning(
            "SECRET_KEY was made on this machine (var/secret_key): another application "
            "server would refuse this one's sessions, log-ins and forms.",
            hint="Set the same SECRET_KEY on every application server.",
            id="tournament.W005"))
    return messages


@checks.register(checks.Tags.security, deploy=True)
def check_several_servers(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    return shared_by_servers(settings.DATABASES["default"]["ENGINE"],
                             settings.CACHES["default"]["BACKEND"],
                             settings.SECRET_KEY_FROM_FILE)
