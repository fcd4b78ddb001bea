"""Loading the tournament of a URL and checking the visitor may see the page."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.cache import patch_cache_control

from tournament.models import Tournament
from tournament.permissions import Perm, perms_of, require


def staff_view(perm: Perm):
    """A staff page of one tournament: login, then ``perm`` in the tournament of the URL.

    The view receives the tournament as its second argument, and times show in the
    venue's time zone. Staff pages show cards and results before they are published, so
    no browser or proxy may keep a copy: every response is ``Cache-Control: private,
    no-store``.
    """

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            require(request.user, tournament, perm)
            request.tournament = tournament
            request.tournament_perms = perms_of(request.user, tournament)
            with timezone.override(tournament.time_zone):
                response = view(request, tournament, *args, **kwargs)
            patch_cache_control(response, private=True, no_store=True)
            return response

        return wrapper

    return decorate


def public_tournament(request, slug) -> Tournament:
    """A tournament the public may see; one in set-up is visible to its staff only."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.is_public and not perms_of(request.user, tournament):
        from django.http import Http404

        raise Http404("no such tournament")
    return tournament
