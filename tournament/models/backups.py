"""Where the site's backups stand (issue 50): one row, shared by every server of the site.

The backup keeper of each server (``tournament/backup_keeper.py``) takes the timed backups
only while it holds the lease written here, so that on two servers one alone takes them; a
service that wants a backup at once (a round closed, a knockout match signed off, an
import) marks it wanted; each backup writes what it did, for the dashboard and the backups
page."""

from django.db import models
from django.db.models import Q

SITE = 1  # the one row


class BackupState(models.Model):
    id = models.PositiveSmallIntegerField(primary_key=True, default=SITE)
    # The keeper taking the timed backups ("host:pid"), until when (it renews it).
    holder = models.CharField(max_length=100, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)
    # A backup asked for at once, and why; cleared by the backup that follows it.
    wanted_at = models.DateTimeField(null=True, blank=True)
    wanted_why = models.CharField(max_length=200, blank=True, default="")
    # The last backup: when, by whom, and what it wrote, left out and could not do.
    taken_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.CharField(max_length=100, blank=True, default="")
    report = models.JSONField(default=dict, blank=True)
    # What went wrong with the mirror folder at the last backup ("" when nothing).
    mirror_problem = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(id=SITE), name="backup_state_one_row"),
        ]

    def __str__(self) -> str:
        return f"backups, last taken {self.taken_at}"
