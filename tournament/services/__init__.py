"""Every state change that matters: one function, one transaction, permission-checked, audited.

Views and management commands call these; nothing else writes tournament data.
"""

from tournament.services.base import Actor, ServiceError

__all__ = ["Actor", "ServiceError"]
