"""The demo's seeded randomness and the event's clock: every value the services would draw
at random comes from the seed, and every time from a clock the demo moves along the
event's three days (``seeded``, in place of the system's while the demo is built)."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import hmac
import random
import secrets
import uuid
from collections.abc import Iterator
from unittest import mock
from zoneinfo import ZoneInfo

from tournament.demo.programme import FIRST_DAY, TIME_ZONE


class Seeded:
    """Every value the demo draws, from the seed: the same seed gives the same values in
    the same order."""

    def __init__(self, seed: int, event: str = ""):
        self.seed = seed
        # The season's earlier event draws from a stream of its own (its deal keys, its
        # play): the cup's values stay the same with or without it.
        self.key = f"duplicate-gin-demo|{seed}" + (f"|{event}" if event else "")
        self.counts: dict[str, int] = {}
        self.salts = self.rng("salts")

    def bytes(self, label: str, length: int = 32) -> bytes:
        number = self.counts[label] = self.counts.get(label, 0) + 1
        message = f"{label}|{number}".encode()
        out = b""
        block = 0
        while len(out) < length:
            out += hmac.digest(self.key.encode(),
                               message + f"|{block}".encode(), hashlib.sha256)
            block += 1
        return out[:length]

    def use_salts(self, label: str) -> None:
        """The salts from here on come from their own stream: the players' PINs get the
        same salts whether or not the demo accounts existed before."""
        self.salts = self.rng(f"salts {label}")

    def rng(self, label: str) -> random.Random:
        return random.Random(int.from_bytes(self.bytes(label), "big"))

    def token(self) -> uuid.UUID:
        return uuid.UUID(bytes=self.bytes("request token", 16), version=4)


class Clock:
    """The event's time: moved on by the demo, never back; read through
    ``django.utils.timezone.now`` while the demo is built."""

    def __init__(self, start: dt.datetime):
        self.moment = start

    def now(self) -> dt.datetime:
        return self.moment

    def at(self, moment: dt.datetime) -> dt.datetime:
        self.moment = max(self.moment, moment)
        return self.moment


def venue_time(day: int, hour: int, minute: int) -> dt.datetime:
    local = dt.datetime.combine(FIRST_DAY + dt.timedelta(days=day), dt.time(hour, minute),
                                tzinfo=ZoneInfo(TIME_ZONE))
    return local.astimezone(dt.UTC)


@contextlib.contextmanager
def seeded(seed: int, clock: Clock, *, seeded_passwords: bool = False,
           event: str = "") -> Iterator[Seeded]:
    """While the demo is built: the clock, and the seed in place of the system's
    randomness (module docstring); ``event`` names another event's stream of values (the
    season's). The demo accounts' passwords follow from the seed only when asked (``demo
    --seed N``): otherwise they are the system's random ones, so that nobody can work them
    out from the default seed."""
    values = Seeded(seed, event)
    passwords = values.rng("passwords") if seeded_passwords else secrets.SystemRandom()

    def random_string(length, allowed_chars="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789"):
        return "".join(values.salts.choice(allowed_chars) for _ in range(length))

    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch("django.utils.timezone.now", clock.now))
        stack.enter_context(mock.patch("scoring.deals.new_key",
                                       lambda: values.bytes("deal key")))
        stack.enter_context(mock.patch("django.contrib.auth.hashers.get_random_string",
                                       random_string))
        stack.enter_context(mock.patch("tournament.services.staff.secrets",
                                       mock.Mock(choice=passwords.choice)))
        yield values
