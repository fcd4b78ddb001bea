"""The history kept of the models people change (django-simple-history), with its manager
class made once.

django-simple-history builds a new manager class (``from_queryset``) each time a model's
``history`` is read, and each save of a tracked model reads it: about a millisecond a save
(a tenth of the time of saving a team). The class it builds is the same every time."""

from __future__ import annotations

import functools

from simple_history.manager import HistoryManager
from simple_history.models import HistoricalRecords


class HistoryManagerMadeOnce(HistoryManager):
    @classmethod
    @functools.cache
    def from_queryset(cls, queryset_class, class_name=None):
        return super().from_queryset(queryset_class, class_name)


def history(**options) -> HistoricalRecords:
    """``HistoricalRecords(**options)`` with the manager class made once."""
    return HistoricalRecords(history_manager=HistoryManagerMadeOnce, **options)
