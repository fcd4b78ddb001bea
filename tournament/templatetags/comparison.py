"""How the comparison with the field reads on the pages: "+1.83", "−0.67", "0.00".

Figures arrive rounded to two decimals (``selectors.field_results.two_places``); points are whole.
Signs are real minus signs, as on the score lines (``scores.signed``).
"""

from decimal import Decimal

from django import template

from tournament.templatetags.scores import MINUS, signed

register = template.Library()


@register.filter
def versus(value: Decimal | None) -> str:
    """A figure against the field with its sign; a dash when there is none."""
    if value is None:
        return "—"
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0.00"


@register.filter
def points(value: int | None) -> str:
    """Whole points with their sign."""
    return "—" if value is None else signed(value)


@register.filter
def share(part: int, whole: int) -> str:
    """A count as a whole percentage of ``whole`` ("25%"); nothing of nothing."""
    if not whole:
        return ""
    return f"{round(100 * part / whole)}%"
