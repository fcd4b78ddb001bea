"""The hasher for players' PINs (tournament.services.pins), and which stored PIN hashes are
ever checked.

A PIN of 4 digits has 10,000 values: no work factor protects it from someone holding its
hash, and what protects it at the table is the lock after a few wrong tries. So the PIN hash
only keeps the PIN out of sight (salted PBKDF2 like account passwords, few rounds), cheap
enough that an approval with a PIN costs a few milliseconds, not the third of a second an
account password's hash takes. Account passwords keep Django's default hasher.

A hash names its own hasher and work factor, and a tournament file brings hashes from
elsewhere (issue 48): ``pbkdf2_sha256$30000000$…`` would make one PIN tap cost 29 s. So a
PIN hash is checked only when it is this hasher's, at exactly its iterations and in exactly
the form it writes (``is_own_pin_hash``), or a PIN hashed before this hasher existed, by
Django's ``pbkdf2_sha256`` at no more than Django's own iterations (``pin_checker``);
anything else never matches, and costs nothing.
"""

from __future__ import annotations

import functools
import re

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class PinHasher(PBKDF2PasswordHasher):
    algorithm = "pbkdf2_sha256_pin"
    iterations = 1_000


@functools.cache
def _own_form() -> re.Pattern:
    """The exact form of a hash ``PinHasher`` writes, from one it writes: its algorithm,
    its iterations, a salt of its characters and length, a hash of base64's characters and
    the digest's length."""
    hasher = PinHasher()
    _algorithm, _iterations, salt, digest = hasher.encode("0000", hasher.salt()).split("$")
    body = len(digest.rstrip("="))
    return re.compile(rf"{re.escape(PinHasher.algorithm)}\${PinHasher.iterations}"
                      rf"\$[A-Za-z0-9]{{{len(salt)}}}"
                      rf"\$[A-Za-z0-9+/]{{{body}}}={{{len(digest) - body}}}")


# Django's PBKDF2 hashes: at most 7 digits of iterations (compared with Django's below), a
# salt of Django's characters (12 before Django 3.2, 22 since), a SHA-256 digest in base64.
_LEGACY_FORM = re.compile(r"pbkdf2_sha256\$([1-9][0-9]{0,6})\$[A-Za-z0-9]{1,64}"
                          r"\$[A-Za-z0-9+/]{43}=")


def is_own_pin_hash(encoded: str) -> bool:
    """Whether ``encoded`` is a hash ``PinHasher`` writes: its algorithm, exactly its
    iterations, its salt and digest (what a tournament file's PIN hash must be)."""
    return isinstance(encoded, str) and _own_form().fullmatch(encoded) is not None


def pin_checker(encoded: str) -> PBKDF2PasswordHasher | None:
    """The hasher that checks a stored PIN hash, or None when the hash is never checked
    (and so never matches): ``PinHasher``'s own hashes, and PINs hashed before it existed by
    Django's ``pbkdf2_sha256`` at no more than Django's iterations. No hash can make a PIN
    check cost more than an account password's."""
    if is_own_pin_hash(encoded):
        return PinHasher()
    legacy = _LEGACY_FORM.fullmatch(encoded) if isinstance(encoded, str) else None
    if legacy is not None and int(legacy[1]) <= PBKDF2PasswordHasher.iterations:
        return PBKDF2PasswordHasher()
    return None
