"""The second copy of every backup (issue 50): a folder on a USB stick or a network share
(the setting ``BACKUP_MIRROR_DIR``), so that a dead laptop loses its disk, not the event.

Each file is copied beside its final name, flushed, renamed, then read back and compared by
its SHA-256 with the original. The mirror's folder is made when missing, but its parent
must exist: a stick that is not plugged in is a problem to report, never a folder to make
on the laptop's own disk. Every problem is raised as ``MirrorProblem`` with words for the
dashboard; nothing here stops a backup in the first folder.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


class MirrorProblem(Exception):
    """The mirror could not take a copy; the message says why."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def ready(mirror: Path) -> Path:
    """The mirror folder, made if missing (its parent must exist)."""
    if not mirror.parent.is_dir():
        raise MirrorProblem(f"the mirror folder {mirror} cannot be reached: {mirror.parent} "
                            f"does not exist (is the stick plugged in, the share mounted?)")
    try:
        mirror.mkdir(mode=0o700, exist_ok=True)
    except OSError as error:
        raise MirrorProblem(f"the mirror folder {mirror} cannot be made: "
                            f"{error.strerror or error}") from None
    if not mirror.is_dir():
        raise MirrorProblem(f"the mirror {mirror} is not a folder")
    return mirror


def copy_verified(source: Path, mirror: Path) -> str:
    """Copy one backup into the mirror and check the copy; returns its SHA-256."""
    expected = sha256_of(source)
    try:
        handle, temporary = tempfile.mkstemp(dir=mirror, prefix=".mirror-")
    except OSError as error:
        raise MirrorProblem(f"cannot write into the mirror {mirror}: "
                            f"{error.strerror or error}") from None
    try:
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "wb") as out, open(source, "rb") as file:
            for chunk in iter(lambda: file.read(1 << 20), b""):
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, mirror / source.name)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise MirrorProblem(f"copying {source.name} into the mirror {mirror} failed: "
                            f"{error.strerror or error}") from None
    copied = sha256_of(mirror / source.name)
    if copied != expected:
        (mirror / source.name).unlink(missing_ok=True)
        raise MirrorProblem(f"the copy of {source.name} in the mirror {mirror} differs from "
                            f"the original (SHA-256 {copied[:12]}… against {expected[:12]}…)")
    return copied
