"""The demo of the first start, built beside the web server (issue 27, item 1).

``quickstart`` used to build the demo (``tournament/demo/``, 10–70 s) before it started
the server. Now, when it serves, it starts the build in a process of its own and starts the
server at once; the home page says the demo is being built and follows its progress, and
the demo appears when its one transaction commits (a half-built demo is never seen).

- **The rule** (``wanted``): the demo is built on the first start only, when there is no
  tournament and none was ever deleted (a director who deleted the demo does not get it
  back).
- **One build at a time**: every first-start build holds an exclusive lock on
  ``VAR_DIR/demo-build.lock`` (``flock``) from before it starts to its end, and checks the
  rule once it holds it. A second ``quickstart`` while a build runs does not start another;
  ``quickstart --no-serve`` waits for it, then finds the demo there and builds nothing.
  The lock goes with the process, however it ends, so a build killed half-way (its
  transaction rolled back: nothing of it is left) does not block the next.
- **Progress** (``progress``): ``VAR_DIR/demo-build.json``, written after each round by the
  build and read by the home page: the rounds played, or why it failed. It is removed when
  the demo is saved. A file saying "building" while nobody holds the lock is a build that
  stopped (killed, machine restarted).
- **Its own process**: the server never dies with the build nor the build with the server
  (Ctrl+C stops the server; the build goes on and the demo is there at the next start).
  It runs at a lower priority (``nice`` 10) so the server answers first, writes its output
  to ``VAR_DIR/demo-build.log`` and, when it is done, prints the demo's address and its
  accounts' passwords in the terminal of ``quickstart`` too.
- **SQLite** takes one writer at a time: while the build's transaction is open, reads go
  on (WAL) but a write (signing in, saving) waits for it, up to the database timeout
  (20 s); the home page says so.
- **The public cache** (``tournament/public_cache.py``) is not used while a build runs:
  the build's process announces its changes to its own cache only, so nothing the server
  built meanwhile (an empty list of tournaments) may outlive the build.

Without ``fork`` and ``flock`` (Windows) quickstart builds the demo before serving, as
before.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

STATE_FILE = "demo-build.json"
LOG_FILE = "demo-build.log"
LOCK_FILE = "demo-build.lock"
BUILDING, FAILED, STOPPED = "building", "failed", "stopped"
NICENESS = 10


def folder() -> Path:
    return Path(settings.VAR_DIR)


def log_path() -> Path:
    return folder() / LOG_FILE


def rounds_total() -> int:
    from tournament import demo

    return len(demo.GROUP_STARTS) + len(demo.KNOCKOUT_STARTS)


def can_build_in_background() -> bool:
    return fcntl is not None and hasattr(os, "fork")


def wanted() -> bool:
    """The first start's rule: no tournament yet and none ever deleted."""
    from tournament.models import AuditEntry, Tournament

    return not (Tournament.objects.exists()
                or AuditEntry.objects.filter(action="tournament.delete").exists())


# The progress file ------------------------------------------------------------------------

@dataclass(frozen=True)
class Progress:
    """What the home page shows: ``state`` is building, failed or stopped."""

    state: str
    played: int = 0
    rounds: int = 0
    error: str = ""
    log: str = ""

    @property
    def building(self) -> bool:
        return self.state == BUILDING


def _read() -> dict | None:
    try:
        state = json.loads((folder() / STATE_FILE).read_text())
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def _write(**state) -> None:
    """Written whole, then renamed over the old file: a reader never sees half of it."""
    path = folder() / STATE_FILE
    temporary = path.with_name(f".{STATE_FILE}.{os.getpid()}")
    temporary.write_text(json.dumps(state))
    os.replace(temporary, path)


def forget() -> None:
    """No build under way and none failed: the home page is itself again."""
    with contextlib.suppress(FileNotFoundError):
        (folder() / STATE_FILE).unlink()


def forget_failure() -> None:
    """The demo was built after all (``manage.py demo``): the failure is no longer news."""
    state = _read()
    if state and (state.get("state") != BUILDING or not running()):
        forget()


def running() -> bool:
    """A build holds the lock (a shared lock is refused while it does)."""
    if fcntl is None:
        return False
    try:
        descriptor = os.open(folder() / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(descriptor)  # and with it the shared lock
    return False


def progress() -> Progress | None:
    """The build under way or the one that failed, else None."""
    state = _read()
    if state is None:
        return None
    values = {"played": _int(state.get("played")), "rounds": _int(state.get("rounds")),
              "error": str(state.get("error") or ""), "log": str(state.get("log") or "")}
    if state.get("state") == BUILDING:
        return Progress(BUILDING if running() else STOPPED, **values)
    if state.get("state") == FAILED:
        return Progress(FAILED, **values)
    return None


def building() -> bool:
    """A build is under way (asked by the public cache on every request: one ``stat`` when
    there is none)."""
    if not (folder() / STATE_FILE).exists():
        return False
    state = progress()
    return state is not None and state.building


def _int(value) -> int:
    try:
        return max(0, int(value))
    except (TypeError, ValueError):
        return 0


# The lock and the build -------------------------------------------------------------------

def _open_lock() -> int:
    return os.open(folder() / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)


@contextlib.contextmanager
def _lock(descriptor: int | None) -> Iterator[None]:
    """Held for the block; ``descriptor`` is a lock inherited from quickstart (taking it
    again is a no-op: the lock belongs to the open file both processes share)."""
    if fcntl is None:
        yield
        return
    own = descriptor is None
    if own:
        descriptor = _open_lock()
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)  # waits for a build under way
        yield
    finally:
        os.close(descriptor)  # the last process holding the file releases the lock


def build(*, lock_descriptor: int | None = None,
          say: Callable[[str], None] = lambda line: None):
    """Build the demo if the rule still wants it, holding the lock, with its progress in
    the progress file. Returns what ``demo.build_demo`` returns, or None when there was
    nothing to build. Raises what the build raised, after writing it to the file."""
    from tournament import demo

    with _lock(lock_descriptor):
        if not wanted():
            forget()  # a failure of an earlier build, or an empty file: no longer news
            return None
        state = {"state": BUILDING, "played": 0, "rounds": rounds_total(),
                 "pid": os.getpid(), "log": str(log_path()), "started": time.time()}
        _write(**state)

        def round_played(text: str) -> None:
            state["played"] += 1
            _write(**state)
            say(f"  {text} ({state['played']} of {state['rounds']} rounds)")

        try:
            built = demo.build_demo(progress=round_played)
        except BaseException as error:
            _write(**{**state, "state": FAILED,
                      "error": "".join(traceback.format_exception_only(error)).strip()})
            raise
        forget()
        return built


def start_in_background(manage_py: str, settings_module: str, site: str) -> bool:
    """Start the build in a process of its own, detached from this one (which goes on to
    become the web server), holding the lock from here. False when a build is under way
    already (nothing started). POSIX only: ``can_build_in_background``."""
    from django.db import connections

    descriptor = _open_lock()
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return False
    # Written before the server starts: its first page already shows the build.
    _write(state=BUILDING, played=0, rounds=rounds_total(), pid=None, log=str(log_path()),
           started=time.time())
    log = os.open(log_path(), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    sys.stdout.flush()
    sys.stderr.flush()
    connections.close_all()
    child = os.fork()
    if child == 0:  # a child that only starts the build and ends: no zombie left behind
        status = 0
        try:
            os.setsid()  # out of the terminal's process group: Ctrl+C stops only the server
            if os.fork() == 0:
                status = 127
                terminal = os.dup(1)
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                os.dup2(log, 1)
                os.dup2(log, 2)
                os.set_inheritable(descriptor, True)
                os.set_inheritable(terminal, True)
                os.nice(NICENESS)
                os.execv(sys.executable, [
                    sys.executable, manage_py, "demo", "--first-start",
                    "--lock-fd", str(descriptor), "--echo-fd", str(terminal),
                    "--site", site, "--settings", settings_module])
        except BaseException:
            with contextlib.suppress(BaseException):
                os.write(log, traceback.format_exc().encode())
        finally:
            os._exit(status)
    os.waitpid(child, 0)
    os.close(log)
    os.close(descriptor)  # the build's process holds the lock now
    return True
