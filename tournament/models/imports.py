"""A tournament file uploaded on the import page and waiting for its director to confirm
the preview (issue 25). Kept in the database, not in a session or on one server's disk, so
any worker, or any server of the event, finds it; deleted once imported, and a day after
it was uploaded at the latest (``services.imports``)."""

import uuid

from django.conf import settings
from django.db import models


class PendingImport(models.Model):
    class Source(models.TextChoices):
        UPLOAD = "upload", "upload"
        BACKUP = "backup", "backup"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="pending_imports")
    file_name = models.CharField(max_length=255)
    source = models.CharField(max_length=6, choices=Source.choices, default=Source.UPLOAD)
    size = models.PositiveBigIntegerField()
    data = models.BinaryField()
    uploaded_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.file_name} uploaded by {self.user}"
