"""What every service shares: who is acting, the domain error, the audit log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from tournament.models import AuditEntry, Tournament
from tournament.prepared import insert
from tournament.services.events import announce_change, audited


class ServiceError(Exception):
    """A request the rules or the data do not allow, with a message for people.

    ``field_errors`` maps a form field (or a CSV line) to its own messages when the caller
    can show them next to the place that is wrong.
    """

    def __init__(self, message: str, *, field_errors: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.field_errors = field_errors or {}


class Stale(ServiceError):
    """What the person was shown has moved on since (a newer version of the hand, a table
    or match changed): nothing was done (services.commands)."""


@dataclass(frozen=True)
class Actor:
    """The person behind a service call and where the call came from."""

    user: Any
    ip: str | None = None
    device: str = ""

    @classmethod
    def from_request(cls, request) -> Actor:
        # The same client address as login throttling: behind a proxy, from its header.
        from tournament.client_ip import client_ip

        return cls(
            user=request.user,
            ip=client_ip(request),
            device=request.META.get("HTTP_USER_AGENT", "")[:200],
        )

    @property
    def name(self) -> str:
        user = self.user
        if user is None or not user.is_authenticated:
            return "system"
        return user.get_full_name() or user.get_username()


def audit(
    actor: Actor, tournament: Tournament | None, action: str, *, announce: bool = True,
    within_round: int | None = None, within_match: int | None = None, **data: Any
) -> AuditEntry:
    """Write one audit entry; call it inside the service's transaction. The entry keeps
    the action and the data, which hold every name and number its sentence needs: the
    sentence is written when it is shown, in the reader's language
    (``tournament.audit_wording``, one wording for each action). Once the transaction
    commits, the change is announced (the public pages are built again), unless
    ``announce`` is False: an entry that changes nothing the public sees (an export).
    ``within_round`` (and ``within_match``): the change touched that round's (that match's)
    results alone, so the public pages of the other rounds (matches) stay as they are
    (``services.events.within_table``, ``public_cache``)."""
    if announce:
        announce_change(tournament.slug if tournament is not None else None, within_round,
                        within_match)
    user = actor.user if actor.user is not None and actor.user.is_authenticated else None
    entry = insert(AuditEntry(
        tournament=tournament,
        actor=user,
        actor_name=actor.name,
        action=action,
        data=data,
        ip_address=actor.ip,
    ))
    # In this transaction: a change that can move a rated event's ratings marks them out
    # of date (services.ratings listens; they are recomputed once it commits).
    audited.send(sender=None, tournament=tournament, action=action)
    if getattr(settings, "AUDIT_WORDING_CHECK", False):  # the test suite: every new entry
        from tournament.audit_wording import check_wording

        check_wording(entry)
    return entry
