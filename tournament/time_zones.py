"""The time zone field of the tournament's settings, and a time zone's name as the reader
reads it.

The IANA names are English ("Asia/Shanghai"); the CLDR data (through ``babel``) names
the place of almost every zone in the other languages ("上海"). A reader of another
language than English sees that name, with the IANA name beside it (two zones can be
one place: Asia/Calcutta and Asia/Kolkata), where CLDR has one; the IANA name alone where
it has none (Etc/GMT+5). The value stored and checked is always the IANA name."""

from __future__ import annotations

import functools

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from django import forms
from django.utils import translation
from django.utils.translation import pgettext, pgettext_lazy

from tournament.models.tournament import time_zone_names, validate_time_zone

# The time zone field: the IANA names grouped by their region (the part before the first
# "/"); the other names (UTC's aliases, Etc/GMT+5, US/Eastern, …) come last.
TIME_ZONE_REGIONS = {
    "Africa": pgettext_lazy("time zone region", "Africa"),
    "America": pgettext_lazy("time zone region", "America"),
    "Antarctica": pgettext_lazy("time zone region", "Antarctica"),
    "Arctic": pgettext_lazy("time zone region", "Arctic"),
    "Asia": pgettext_lazy("time zone region", "Asia"),
    "Atlantic": pgettext_lazy("time zone region", "Atlantic Ocean"),
    "Australia": pgettext_lazy("time zone region", "Australia"),
    "Europe": pgettext_lazy("time zone region", "Europe"),
    "Indian": pgettext_lazy("time zone region", "Indian Ocean"),
    "Pacific": pgettext_lazy("time zone region", "Pacific Ocean"),
}


@functools.cache
def _cldr_places(language: str) -> dict[str, str]:
    """{IANA name: its place in ``language``} of every zone whose place CLDR names in that
    language (read once per language); {} for English, whose names the IANA ones are."""
    if language.split("-")[0] == "en":
        return {}
    try:
        locale = Locale.parse(translation.to_locale(language))
    except (UnknownLocaleError, ValueError):
        return {}
    aliases = get_global("zone_aliases")
    places = {}
    for zone in time_zone_names():
        city = locale.time_zones.get(aliases.get(zone, zone), {}).get("city")
        if city:
            places[zone] = city
    return places


def place_name(zone: str, language: str | None = None) -> str | None:
    """The place ``zone`` is named after in the reader's language (CLDR), or None."""
    return _cldr_places(language or translation.get_language() or "en").get(zone)


def zone_label(zone: str, language: str | None = None, *, iana: str | None = None) -> str:
    """A time zone as the reader reads it: its place in the reader's language with the IANA
    name (or ``iana``, a part of it) in brackets, "上海 (Asia/Shanghai)" in Chinese; the
    IANA name alone where CLDR names no place in the reader's language (English)."""
    place = place_name(zone, language)
    if place is None:
        return iana or zone
    return pgettext("a time zone: its place (its IANA name)", "%(place)s (%(zone)s)") % {
        "place": place, "zone": iana or zone}


def time_zone_choices() -> list:
    """UTC first, then an option group per region ("Europe": Paris, … ; the place's name
    without the region, "_" as a space, so that typing a city's first letters in the list
    finds it; in the reader's language, with the IANA place beside it, where CLDR has it),
    then the other names as they are (with their place where CLDR has one)."""
    regions: dict[str, list] = {region: [] for region in TIME_ZONE_REGIONS}
    others = []
    for name in sorted(time_zone_names()):
        region, _slash, place = name.partition("/")
        if region in regions:
            regions[region].append((name, zone_label(name, iana=place.replace("_", " "))))
        elif name != "UTC":
            others.append((name, zone_label(name)))
    return [("UTC", "UTC"),
            *((TIME_ZONE_REGIONS[region], zones) for region, zones in regions.items() if zones),
            (pgettext_lazy("time zone region", "Other names"), others)]


class TimeZoneField(forms.ChoiceField):
    """A venue's time zone, chosen from the IANA names grouped by region (a filter above
    the list and the browser's own zone come from ``static/tournament/time_zone.js``; the
    list works without it; the filter matches the IANA name too). The value is checked by
    ``validate_time_zone``, as the tournament file's is."""

    def __init__(self, **kwargs):
        super().__init__(choices=time_zone_choices, **kwargs)

    def validate(self, value):
        forms.Field.validate(self, value)  # required
        if value not in self.empty_values:
            validate_time_zone(value)
