"""Which tournaments the site holds: those anyone may see (the home page's list and the
API's), and which short names are taken (the backups page)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from tournament.models import Tournament


def listed_tournaments(*, paged: bool = False) -> QuerySet[Tournament]:
    """Every tournament past its set-up (one in set-up is its directors' alone), the latest
    first: on the same first day by name, each with its deal keys (the home page: two
    queries); ``paged``, by short name instead, an order no two tournaments share, and
    without the keys (the API's pages: a count and a slice)."""
    tournaments = Tournament.objects.exclude(status=Tournament.Status.SETUP)
    if paged:
        return tournaments.order_by("-starts_on", "slug")
    return tournaments.order_by("-starts_on", "name").prefetch_related("deal_keys")


def taken_slugs(slugs: Iterable[str]) -> set[str]:
    """The short names among ``slugs`` that a tournament on this site has (one query): the
    backups page links those and says the others are not here."""
    return set(Tournament.objects.filter(slug__in=set(slugs)).values_list("slug", flat=True))
