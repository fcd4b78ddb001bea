"""The directors' copy of a bulletin: every section, whatever the public switches keep off
the public pages (closed rounds only, as the public's)."""

from __future__ import annotations

from tournament.permissions import Perm
from tournament.views.access import staff_view
from tournament.views.public.bulletin import bulletin_response


@staff_view(Perm.VIEW_STAFF_AREA)
def bulletin(request, tournament, day=None):
    return bulletin_response(request, tournament, day, public=False)
