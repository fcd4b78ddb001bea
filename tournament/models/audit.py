"""The audit log: who did what, when, in words a director can read."""

from django.conf import settings
from django.db import models

from tournament.models.fields import StampedTime


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
    summary = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    created_at = StampedTime(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return self.summary
