"""What the staff pages read of the audit log besides the log itself: a match's history on
its page, and who created the tournament (the staff page)."""

from __future__ import annotations

from django.db.models import QuerySet

from tournament.models import AuditEntry, Match, Tournament


def match_history(tournament: Tournament, match: Match) -> QuerySet[AuditEntry]:
    """Every audit entry that names the match (a hand saved, a penalty, extra hands, the
    sign-off…), oldest first: a query set, one query when read."""
    return (AuditEntry.objects.filter(tournament=tournament, data__match=match.pk)
            .order_by("created_at"))


def creation_entry(tournament: Tournament) -> AuditEntry | None:
    """The audit entry of the tournament's creation, with the account that made it, or None
    (one query): an administrator who created it has no role in the staff list."""
    return (AuditEntry.objects.filter(tournament=tournament, action="tournament.create")
            .select_related("actor").order_by("created_at").first())
