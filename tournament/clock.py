"""The round clock (issue 58): how long a round has left, worked out from what is stored.

A round runs from the director's *Start play* (``Round.started_at``, also the reference for
lateness, docs/rules.md) for its planned minutes, plus the seconds added (by the director,
and the time it stood paused, added when play resumes). While paused it stands still: the
time left is what was left when it paused. A table may have minutes of its own beyond the
round's (an extension, ``Table.extra_minutes``).

The pages send the end time (an instant, UTC), never "minutes left": the browser counts
down from it (static/tournament/clock.js), so a page kept by a cache stays right. A paused
clock sends the time left instead, which does not move.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

WARNING_SECONDS = 5 * 60  # the last minutes, shown in red


@dataclass(frozen=True)
class RoundClock:
    started_at: dt.datetime | None
    planned_minutes: int
    added_seconds: int
    paused_at: dt.datetime | None

    @classmethod
    def of(cls, round_) -> RoundClock:
        return cls(round_.started_at, round_.planned_minutes, round_.clock_added_seconds,
                   round_.clock_paused_at)

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.paused_at is None

    @property
    def ends_at(self) -> dt.datetime | None:
        """When time is up, if the clock ran on from now without a pause."""
        if self.started_at is None:
            return None
        return self.started_at + dt.timedelta(minutes=self.planned_minutes,
                                              seconds=self.added_seconds)

    def table_ends_at(self, extra_minutes: int) -> dt.datetime | None:
        ends = self.ends_at
        return None if ends is None else ends + dt.timedelta(minutes=extra_minutes)

    def seconds_left(self, now: dt.datetime, extra_minutes: int = 0) -> int | None:
        """Whole seconds left (negative once time is up); None before Start play."""
        ends = self.table_ends_at(extra_minutes)
        if ends is None:
            return None
        at = self.paused_at or now
        return int((ends - at).total_seconds() // 1)

    def is_up(self, now: dt.datetime, extra_minutes: int = 0) -> bool:
        left = self.seconds_left(now, extra_minutes)
        return left is not None and left <= 0


def clock_text(seconds: int | None) -> str:
    """"12:05" (minutes and seconds) or "1:02:05"; "0:00" once time is up."""
    if seconds is None:
        return ""
    seconds = max(seconds, 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class ClockView:
    """What a page shows of a round's clock (templates/includes/round_clock.html)."""

    started: bool
    paused: bool
    ends_at: dt.datetime | None  # while running: the browser counts down to it
    seconds_left: int | None  # while paused (fixed), or at ``now`` for a page with one
    text: str  # at ``now``; "" for a page without one (the big screen: no "now")

    @property
    def ends_iso(self) -> str:
        return "" if self.ends_at is None else self.ends_at.astimezone(dt.UTC).strftime(
            "%Y-%m-%dT%H:%M:%SZ")

    @property
    def warning(self) -> bool:
        return self.seconds_left is not None and self.seconds_left <= WARNING_SECONDS


def clock_view(round_, now: dt.datetime | None = None) -> ClockView | None:
    """The round's clock while in play (None otherwise). Without ``now`` (a page a cache
    keeps) nothing depends on the moment it is drawn but a paused clock's fixed time."""
    if round_ is None or round_.started_at is None or round_.status != "in_play":
        return None
    clock = RoundClock.of(round_)
    paused = clock.paused_at is not None
    left = clock.seconds_left(now) if (now is not None or paused) else None
    return ClockView(True, paused, None if paused else clock.ends_at, left,
                     clock_text(left) if left is not None else "")
