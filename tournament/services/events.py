"""What the services announce to the rest of the application.

``public_data_changed`` is sent once a service's transaction has committed a change of a
tournament (``services.base.audit`` sends it, so every state change does): the public
cache (``tournament.public_cache``) listens. ``slug`` names the tournament; None for a
change that is not one tournament's.
"""

from django.db import transaction
from django.dispatch import Signal

public_data_changed = Signal()


def announce_change(slug: str | None) -> None:
    """Send ``public_data_changed`` when the current transaction commits (at once outside
    one); nothing is announced of a transaction rolled back."""
    transaction.on_commit(lambda: public_data_changed.send(sender=None, slug=slug))
