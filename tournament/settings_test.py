"""Settings for the test suite: the real settings, minus what only costs time in tests."""

import os

from tournament.settings import *  # noqa: F403

# Templates render {% static %} without a collectstatic run first.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Real hashing costs a third of a second per account; tests make hundreds of them.
# Players' PINs keep their own cheap hasher, as in production (tournament/hashers.py).
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "tournament.hashers.PinHasher",
]
# The test client's login() authenticates without a request, which axes' backend refuses;
# this one throttles every real login the same way (tests/tournament/test_login_throttle.py).
AUTHENTICATION_BACKENDS = [
    "tournament.login_throttle.RequestOptionalAxesBackend",
    *AUTHENTICATION_BACKENDS[1:],  # noqa: F405
]
# Whitenoise serves app static files through the finders, so tests need no collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
# A file, not memory: concurrency tests run threads with their own connections, which
# must see one database and its real locking. One file per test run, so that two runs on
# one machine never share (or delete) each other's database.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
# Tests change data past the services (and inside transactions that never commit, so the
# services' announcements never fire): the public cache would serve one test another's
# pages. tests/tournament/test_public_cache.py turns it on where it is the subject.
PUBLIC_CACHE_SECONDS = 0
# Every audit entry a test makes is worded at once: an action without wording, or data its
# wording cannot use, fails the test that made it (tournament/audit_wording/).
AUDIT_WORDING_CHECK = True
# A test database is thrown away: PostgreSQL need not wait for the disk at each commit
# (the browser tests and the concurrency tests commit; the others roll back).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    _options = DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
    _options["options"] = (_options.get("options", "") + " -c synchronous_commit=off").strip()
