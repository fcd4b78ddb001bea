"""Master points by place (issue 55; the scales and why: docs/ratings.md).

A rated event of a category awards each team's players the points of the team's final
place on the category's scale (points by place, first place first), but only within the
top ``share`` per cent of the field (rounded down, at least one place): a small field does
not hand out a long scale's tail. Teams sharing a place (the ranking could not separate
them) share the places they occupy: two teams 3rd equal each get the mean of the points for
3rd and 4th. Pure and exact: Decimal, rounded half up to hundredths.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal

from scoring.errors import RuleError

HUNDREDTH = Decimal("0.01")
DEFAULT_SHARE = 40  # per cent of the field
# The default scale of each category, first place first (docs/ratings.md: why).
DEFAULT_SCALES = {
    "club": (10, 7, 5, 4, 3, 2, 1),
    "national": (40, 30, 22, 16, 12, 10, 8, 6, 4, 2),
    "international": (100, 75, 55, 40, 30, 25, 20, 15, 10, 8, 6, 4),
    "world": (250, 180, 130, 100, 80, 60, 45, 35, 25, 20, 15, 10, 8, 6, 4, 2),
}


def check_scale(points: Sequence[object], share: int) -> list[Decimal]:
    """The scale as Decimals, or RuleError naming what is wrong with it."""
    if not isinstance(points, (list, tuple)) or not points:
        raise RuleError("a scale is a list of points by place, first place first")
    if len(points) > 500:
        raise RuleError("a scale awards at most 500 places")
    values = []
    for place, value in enumerate(points, start=1):
        if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
            raise RuleError(f"place {place}: {value!r} is not a number")
        try:
            number = Decimal(str(value))
        except ArithmeticError:
            raise RuleError(f"place {place}: {value!r} is not a number") from None
        if not number.is_finite() or number < 0 or number >= 10**6:
            raise RuleError(f"place {place}: points from 0 to 999999, not {value}")
        if values and number > values[-1]:
            raise RuleError(f"place {place} earns more than place {place - 1}")
        values.append(number.quantize(HUNDREDTH, rounding=ROUND_HALF_UP))
    if not 1 <= share <= 100:
        raise RuleError(f"the share of the field is from 1 to 100 %, not {share}")
    return values


def awarded_places(teams: int, scale_length: int, share: int) -> int:
    """How many places earn points in a field of ``teams``."""
    return min(scale_length, max(1, teams * share // 100)) if teams else 0


def master_points(places: Mapping[Hashable, int | None], scale: Sequence[object],
                  share: int) -> dict[Hashable, Decimal]:
    """Each placed team's points (only the teams that earn any); ``places``: every team of
    the field, None for a team without a final place (withdrawn, not ranked)."""
    values = check_scale(scale, share)
    cut = awarded_places(len(places), len(values), share)
    sharing = Counter(place for place in places.values() if place is not None)
    awards = {}
    for team, place in places.items():
        if place is None:
            continue
        occupied = range(place, place + sharing[place])
        earned = [values[k - 1] for k in occupied if k <= cut]
        total = sum(earned, Decimal(0)) / len(occupied)
        total = total.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)
        if total > 0:
            awards[team] = total
    return awards
