"""What every public page of a tournament shares: the tournament of the URL (none in
set-up), the switches that hide a page, the venue's time zone and the navigation."""

from __future__ import annotations

from functools import wraps

from django.http import Http404
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Match, Round, Tournament
from tournament.public_cache import mark_public, mark_round
from tournament.views.access import public_tournament

# (key, label, url name, the tournament's switch that must be on)
NAV = (
    ("home", _("Overview"), "public:tournament", None),
    ("rounds", _("Rounds and draws"), "public:rounds", None),
    ("standings", _("Standings"), "public:standings", "public_standings"),
    ("teams", _("Teams"), "public:teams", None),
    ("players", _("Players"), "public:individual", "public_players"),
    ("field", _("Against the field"), "public:field", "public_players"),
    ("penalties", _("Penalties"), "public:penalties", "public_penalties"),
    ("deals", _("Deals"), "public:deal_check", None),
)


def public_page(switch: str | None = None):
    """A public page of one tournament: 404 in set-up (except for its staff) and while the
    tournament's ``switch`` (e.g. ``public_standings``) is off. The view gets the
    tournament as its second argument and renders in the venue's time zone."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = public_tournament(request, slug)
            if switch is not None and not getattr(tournament, switch):
                raise Http404("not public in this tournament")
            with timezone.override(tournament.time_zone):
                response = view(request, tournament, *args, **kwargs)
            mark_public(response, tournament.slug)
            return response

        return wrapper

    return decorate


def public_nav(tournament: Tournament, path: str, active: str = "") -> list[dict]:
    """The tournament's public navigation: the pages its switches leave public, the one
    named ``active`` (else the one whose address starts ``path``) marked current."""
    items = []
    for key, label, name, switch in NAV:
        if switch is not None and not getattr(tournament, switch):
            continue
        try:
            url = reverse(name, args=[tournament.slug])
        except NoReverseMatch:  # a page of the site not installed (yet)
            continue
        items.append({"key": key, "label": label, "url": url})
    if not active:
        within = [item for item in items if path.startswith(item["url"])
                  and (item["key"] != "home" or path == item["url"])]
        active = max(within, key=lambda item: len(item["url"]))["key"] if within else ""
    for item in items:
        item["active"] = item["key"] == active
    return items


def render_public(request, tournament: Tournament, template: str, context: dict, *,
                  active: str = "", of_round: Round | None = None,
                  of_match: Match | None = None):
    """Render now (in the venue's time zone), ``active`` the current item of the
    tournament's navigation (``public/page.html``). ``of_round``: the page shows that
    round alone (its draw, boxes), ``of_match`` too: that match alone, so the public cache
    builds it again only when their results change, or anything but a round's results
    (``public_cache.mark_round``)."""
    response = render(request, template, {"tournament": tournament, "nav_active": active,
                                          **context})
    if of_round is not None:
        mark_round(response, of_round.pk, of_match.pk if of_match is not None else None)
    return response


def int_param(request, name: str) -> int | None:
    """A whole number from the query string, or None for anything else (never an error)."""
    value = request.GET.get(name, "")
    if not value.isdigit() or len(value) > 6:
        return None
    return int(value)
