"""Values every template sees: the version for the footer and the staff navigation."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament import __version__
from tournament.permissions import Perm

# (label, url name, permission needed) for the staff area of one tournament.
STAFF_NAV = (
    (_("Dashboard"), "director:dashboard", Perm.VIEW_STAFF_AREA),
    (_("Teams"), "director:team_list", Perm.MANAGE_TEAMS),
    (_("Stages and rounds"), "director:stage_list", Perm.MANAGE_ROUNDS),
    (_("Standings"), "director:standings", Perm.VIEW_STAFF_AREA),
    (_("Deals"), "director:deal_key", Perm.VIEW_DEALS),
    (_("Staff"), "director:staff", Perm.MANAGE_STAFF),
    (_("Settings"), "director:tournament_edit", Perm.EDIT_TOURNAMENT),
    (_("Penalties"), "director:penalty_list", Perm.RECORD_PENALTY),
    (_("Audit log"), "director:audit", Perm.VIEW_AUDIT),
)


def site(request):
    context = {"app_version": __version__}
    tournament = getattr(request, "tournament", None)
    perms = getattr(request, "tournament_perms", frozenset())
    if tournament is not None:
        path = request.path
        items = []
        for label, url_name, perm in STAFF_NAV:
            if perm in perms:
                url = reverse(url_name, args=[tournament.slug])
                active = path == url if url_name == "director:dashboard" else path.startswith(url)
                items.append({"label": label, "url": url, "active": active})
        context["staff_nav"] = items
    return context
