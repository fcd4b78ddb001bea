"""What the services announce to the rest of the application.

``public_data_changed`` is sent once a service's transaction has committed a change of a
tournament (``services.base.audit`` sends it, so every state change does): the public
cache (``tournament.public_cache``) listens. ``slug`` names the tournament; None for a
change that is not one tournament's. ``round`` (a round's key, or None) says the change
touched that round's results alone: a hand saved, approved or signed for; ``match`` (a
match's key, or None), that match's alone. Only their own pages (and the tournament's pages
that sum rounds up) are built again.
``audited`` is sent at once, in the transaction.
"""

from collections.abc import Callable

from django.db import transaction
from django.dispatch import Signal

from tournament.models import Table, Tournament

public_data_changed = Signal()
# Sent by ``services.base.audit`` inside the changing transaction, with ``tournament`` (or
# None) and ``action``: what must follow a change in the same transaction listens (the
# ratings mark themselves out of date: services.ratings).
audited = Signal()


def announce_change(slug: str | None, within_round: int | None = None,
                    within_match: int | None = None) -> None:
    """Send ``public_data_changed`` when the current transaction commits (at once outside
    one); nothing is announced of a transaction rolled back. ``within_round``: the round
    whose results alone changed; ``within_match``: that round's match whose results alone
    changed, and in a way no other match's page shows (``within_table``)."""
    transaction.on_commit(lambda: public_data_changed.send(
        sender=None, slug=slug, round=within_round, match=within_match))


def within_table(table: Table, tournament: Tournament, *,
                 approved_by_both: Callable[[], bool] | None = None) -> dict:
    """What a change of a table's results reaches of the public pages (``audit``'s
    ``within_round`` and ``within_match``): its round's pages that show every match, and
    its match's page. Where the public sees a box's results once every table has them
    approved by both seats (``finished_boxes``), a change may show or hide the box on every
    match page of the round: a save of a hand whose result both seats had approved, or the
    approval that makes it approved by both (``approved_by_both``, asked only then: the
    result found by the save, or left by the approval). Such a change reaches every page of
    the round; a signature (no ``approved_by_both``) never does."""
    whole_round = (tournament.live_results == Tournament.LiveResults.FINISHED_BOXES
                   and approved_by_both is not None and approved_by_both())
    return {"within_round": table.round_id,
            "within_match": None if whole_round else table.match_id}
