"""``{{ moment|machine_time }}``: a moment as HTML's ``<time datetime>`` takes it, to the
second with its offset, in the current time zone (the Nu checker refuses the microseconds
``|date:'c'`` writes; issue 56)."""

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def machine_time(value) -> str:
    if not value:
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return value.replace(microsecond=0).isoformat()
