"""The rating history as an SVG drawn on the server (issue 55): no script, readable at
360 px (the drawing scales to its box; the figures are in a table under it, for screen
readers and for anyone who wants the numbers)."""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 34  # room for the axis labels


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # the polyline's points
    band: str  # the polygon of rating ± deviation
    dots: list[tuple[float, float, str]]  # x, y, the label read on hover
    y_ticks: list[tuple[float, int]]  # y, rating
    x_labels: list[tuple[float, str, str]]  # x, the event's date, its text-anchor


def rating_chart(points) -> Chart | None:
    """``points``: RatingPoint-like rows in date order (``rating``, ``deviation``,
    ``date``); None without any."""
    points = list(points)
    if not points:
        return None
    low = min(p.rating - p.deviation for p in points)
    high = max(p.rating + p.deviation for p in points)
    step = _tick_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (inner_w / 2 if len(points) == 1 else inner_w * i / (len(points) - 1))

    def y(value: float) -> float:
        return TOP + inner_h * (high - value) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(p.rating):.1f}" for i, p in enumerate(points))
    upper = [f"{x(i):.1f},{y(p.rating + p.deviation):.1f}" for i, p in enumerate(points)]
    lower = [f"{x(i):.1f},{y(p.rating - p.deviation):.1f}" for i, p in enumerate(points)]
    if len(points) == 1:  # a band needs some width to be seen
        upper = [f"{x(0) - 6:.1f},{y(points[0].rating + points[0].deviation):.1f}",
                 f"{x(0) + 6:.1f},{y(points[0].rating + points[0].deviation):.1f}"]
        lower = [f"{x(0) - 6:.1f},{y(points[0].rating - points[0].deviation):.1f}",
                 f"{x(0) + 6:.1f},{y(points[0].rating - points[0].deviation):.1f}"]
    band = " ".join(upper + lower[::-1])
    ticks = [(y(v), v) for v in range(int(low), int(high) + 1, step)]
    every = max(1, math.ceil(len(points) / 6))  # at most about six dates under the axis
    labels = [(x(i), p.date.isoformat(), _anchor(i, len(points)))
              for i, p in enumerate(points) if i % every == 0 or i == len(points) - 1]
    dots = [(x(i), y(p.rating), f"{p.rating:.0f} ± {p.deviation:.0f}")
            for i, p in enumerate(points)]
    return Chart(WIDTH, HEIGHT, line, band, dots, ticks, labels)


def _anchor(i: int, count: int) -> str:
    """The first date starts at its point and the last ends at its own: never cut off."""
    if count == 1:
        return "middle"
    return "start" if i == 0 else "end" if i == count - 1 else "middle"


def _tick_step(span: float) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return 2000
