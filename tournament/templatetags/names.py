"""``{{ team|shown_name }}`` and ``{{ team|both_names }}``: a name in the reader's script,
alone (a tight cell) or with the other script's beside it (a heading, a team's page), as
``tournament.names`` picks them, for a model, a record or a dict with ``name`` and
``other_name``; ``{{ zone|zone_name }}``: a time zone's place in the reader's language."""

from django import template

from tournament import names
from tournament.time_zones import zone_label

register = template.Library()


@register.filter
def shown_name(thing) -> str:
    return names.shown_name(thing)


@register.filter
def both_names(thing):
    return names.both_names_html(thing)


@register.filter
def beside_name(thing) -> str:
    return names.beside_name(thing)


@register.filter
def zone_name(zone: str) -> str:
    """A time zone as the reader reads it ("上海 (Asia/Shanghai)" in Chinese)."""
    return zone_label(zone)
