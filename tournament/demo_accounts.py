"""What marks the demo (tournament/demo/) out: its short name and its three accounts.

Apart from the demo's builder, which works through the services, so that a service can
tell the demo from a real tournament (deleting the demo retires its accounts) without
importing the builder.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tournament.models import Role, Tournament

SLUG = "demo"
SEASON_SLUG = "demo-open"  # the earlier event of ``demo --season`` (tournament/demo/season.py)
DIRECTOR, REFEREE, SCORER = "demo-director", "demo-referee", "demo-scorer"


def is_demo(tournament: Tournament) -> bool:
    """The demo: the tournament ``demo`` (or the season's earlier event, ``demo-open``)
    whose director is the demo's own account."""
    return tournament.slug in (SLUG, SEASON_SLUG) and tournament.staff.filter(
        user__username=DIRECTOR, role=Role.DIRECTOR).exists()


def retire_accounts() -> list[str]:
    """Deleting the demo: its referee and scorer accounts (passwords anyone could work out
    from a seed) made inactive, without a usable password; their sessions end with it.
    Called once the demo's rows are gone: an account with a role left (in another
    tournament) or an administrator's is not the demo's to retire (issue 48) and stays as
    it is. Returns the names retired."""
    retired = []
    for user in get_user_model().objects.filter(
            username__in=[DIRECTOR, REFEREE, SCORER], is_active=True, is_superuser=False,
            is_staff=False, staff_roles__isnull=True):
        user.set_unusable_password()
        user.is_active = False
        user.save(update_fields=["password", "is_active"])
        retired.append(user.get_username())
    return retired
