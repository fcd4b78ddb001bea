"""The audit log: who did what, when, in words a director can read.

An entry keeps its action and its data; its sentence is written when it is shown, in the
reader's language (``tournament.audit_wording``). Entries recorded before that keep the
English sentence they were recorded with (``recorded_summary``), shown marked as such.

The wording names other models' choices (a role, a stage's kind, a penalty's kind), so it
imports the models; the models do not import it: the application hands its ``sentence`` to
``word_entries_with`` when it is ready (``TournamentConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import models

from tournament.models.fields import StampedTime

_sentence: Callable[[AuditEntry], str] | None = None


def word_entries_with(sentence: Callable[[AuditEntry], str]) -> None:
    """Every entry's ``summary`` is ``sentence(entry)`` from now on."""
    global _sentence
    _sentence = sentence


class AuditEntry(models.Model):
    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="audit_entries",
        null=True, blank=True,
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    # Kept as text too, so the log still reads right after an account is deleted.
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=60)
    # The sentence an entry was recorded with, in English: entries made before sentences
    # were written when shown have it; every newer one leaves it empty. Read ``summary``.
    recorded_summary = models.TextField(blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    created_at = StampedTime(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return self.summary

    @property
    def summary(self) -> str:
        """The sentence in the active language (the recorded one for an older entry)."""
        if _sentence is None:
            raise RuntimeError("audit entries are worded once the application is ready")
        return _sentence(self)

    @summary.setter
    def summary(self, text: str) -> None:
        """``AuditEntry(summary=…)`` records a sentence as it is (shown as recorded)."""
        self.recorded_summary = text

    @property
    def recorded_in_english(self) -> bool:
        """An older entry, shown with the English sentence it was recorded with."""
        return bool(self.recorded_summary)
