"""The devices at the tables (issue 21): the accounts a tournament made for its tables, which
table a scorer account scores in a round, the tokens table devices authenticate with on the
API, and the receipts that make a command sent twice harmless."""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class TableDevice(models.Model):
    """The account a tournament made for one of its table numbers (issue 48): the device
    services act on the accounts recorded here for their tournament, never on an account
    found by its name, so one tournament's director can never reach another's devices. An
    account is the device of one table of one tournament at most (``user`` is unique)."""

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE,
                                   related_name="table_devices")
    number = models.PositiveSmallIntegerField(_("table"))
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="table_device")
    made_at = models.DateTimeField(auto_now_add=True)
    # When its password and API token were last given out, and by which request: the same
    # request again (a double click) answers the same slips, never a second set.
    issued_at = models.DateTimeField(null=True, blank=True)
    issue_token = models.UUIDField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="table_device_one_per_table"),
            models.CheckConstraint(condition=Q(number__gte=1),
                                   name="table_device_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user} (table {self.number} of {self.tournament})"


class TableBinding(models.Model):
    """A scorer account scores one table per round. Kept here, not in a browser session,
    so that logging in again keeps it; a director or referee moves it (audited)."""

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE,
                              related_name="bindings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="table_bindings")
    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE,
                              related_name="bindings")
    bound_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                 related_name="+")
    bound_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="table_binding_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} scores {self.table} in {self.round}"


class DeviceToken(models.Model):
    """A table device's key to the write API (``Authorization: Bearer …``): one per scorer
    account, stored as its SHA-256 only, shown once on the device's slip."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="device_token")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"device token of {self.user}"

    @staticmethod
    def digest_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def new_token(cls) -> str:
        return secrets.token_urlsafe(32)


class CommandReceipt(models.Model):
    """A command done at a match that leaves no row of its own to carry its request token
    (a sign-off): the same token again answers with what was done, never does it twice.
    An approval and a signature keep their token on their own row."""

    class Action(models.TextChoices):
        SIGN_OFF = "sign_off", _("sign off")

    request_token = models.UUIDField(unique=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE,
                                   related_name="+")
    match = models.ForeignKey("tournament.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(action__in=["sign_off"]),
                                   name="command_receipt_action_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.request_token}"
