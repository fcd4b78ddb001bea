"""Hand results, the players' approvals and signatures (issue 6, RULES.md §10).

A result is never overwritten: every entry is a new version of that table's hand, and the
current one is the latest. The database keeps one current version per table and hand, and
a request token makes a re-sent form harmless.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models.fields import StampedTime


class HandResult(models.Model):
    class Outcome(models.TextChoices):
        KNOCK = "knock", _("Knock")
        UNDERCUT = "undercut", _("Undercut")
        GIN = "gin", _("Gin")
        BIG_GIN = "big_gin", _("Big Gin")
        DRAW = "draw", pgettext_lazy("hand outcome", "Draw")

    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE,
                              related_name="results")
    hand = models.PositiveSmallIntegerField(_("hand"))
    # The deal the hand was played on, when the round's deals were made here: a reserve deal
    # that replaces it later applies to tables that have not played the hand yet.
    deal = models.ForeignKey("tournament.Deal", on_delete=models.PROTECT, null=True,
                             blank=True, related_name="results")
    version = models.PositiveIntegerField()
    is_current = models.BooleanField(default=True)
    # What the scorer entered (the outcome is what it turned out to be: a knock may be an
    # undercut) and what scoring made of it.
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    declarer_seat = models.PositiveSmallIntegerField(_("declarer's seat"), null=True,
                                                     blank=True)
    declarer_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    opponent_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    false_knock_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    false_knock_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    seat1_points = models.IntegerField()
    seat2_points = models.IntegerField()
    explanation = models.CharField(max_length=200)
    cards = models.JSONField(null=True, blank=True)  # cards mode: the hands as entered
    # Cards mode: what in the entered hands no play of the box could bring, for the referee
    # only (the scorer is never told: it would reveal the box).
    box_conflict = models.TextField(blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+")
    entered_at = StampedTime(auto_now_add=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    device = models.CharField(max_length=200, blank=True)
    reason = models.TextField(blank=True)  # a referee's correction after sign-off
    request_token = models.UUIDField(unique=True)
    # On PostgreSQL, a number from one sequence given to the row by the database at each
    # write (migration 0026): what the players against the field kept per round compare
    # (``selectors.field_kept``). Whatever the application writes here, the database
    # replaces; 0 on SQLite.
    revision = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["table", "hand", "version"]
        indexes = [models.Index(fields=["table", "revision"], name="hand_result_revisions")]
        constraints = [
            models.UniqueConstraint(fields=["table", "hand", "version"],
                                    name="result_version_unique"),
            models.UniqueConstraint(fields=["table", "hand"], condition=Q(is_current=True),
                                    name="result_one_current"),
            models.CheckConstraint(condition=Q(hand__gte=1, version__gte=1),
                                   name="result_numbers_min"),
            models.CheckConstraint(condition=~Q(outcome="draw") | Q(seat1_points=0),
                                   name="result_draw_scores_nothing"),
            models.CheckConstraint(condition=Q(seat1_points=-F("seat2_points")),
                                   name="result_zero_sum"),
            models.CheckConstraint(
                condition=Q(outcome="draw", declarer_seat__isnull=True)
                | Q(declarer_seat__in=[1, 2]) & ~Q(outcome="draw"),
                name="result_declarer_seat"),
            models.CheckConstraint(
                condition=Q(false_knock_seat__isnull=True, false_knock_deadwood__isnull=True)
                | Q(false_knock_seat__in=[1, 2], false_knock_deadwood__isnull=False),
                name="result_false_knock_complete"),
            models.CheckConstraint(condition=Q(outcome__in=["knock", "undercut", "gin",
                                                            "big_gin", "draw"]),
                                   name="result_outcome_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, hand {self.hand}, v{self.version}"

    def points(self, seat: int) -> int:
        return self.seat1_points if seat == 1 else self.seat2_points


class Approval(models.Model):
    """A player's approval of one version of a hand's result (a tap, or a PIN)."""

    class Method(models.TextChoices):
        TAP = "tap", _("tap")
        PIN = "pin", _("PIN")
        # The players signed the paper scorecard; a referee recorded it for the match
        # (desk entry, services.desk.approve_on_paper).
        PAPER = "paper", _("on paper")

    result = models.ForeignKey(HandResult, on_delete=models.CASCADE, related_name="approvals")
    seat = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=5, choices=Method.choices)
    approved_at = StampedTime(auto_now_add=True)
    # The approve command's request token (services.commands): sent again, it answers this
    # approval. None for an approval made otherwise (a file, the demo's bots).
    request_token = models.UUIDField(null=True, blank=True, unique=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["result", "seat"], name="approval_once"),
            models.CheckConstraint(condition=Q(seat__in=[1, 2]), name="approval_seat"),
            models.CheckConstraint(condition=Q(method__in=["tap", "pin", "paper"]),
                                   name="approval_method_valid"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} approved {self.result}"


class TableSignature(models.Model):
    """A player's signature for the whole table at the end of the match. Any later change
    of a result at the table clears both signatures (the audit log keeps them)."""

    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE,
                              related_name="signatures")
    seat = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=5, choices=Approval.Method.choices)
    signed_at = StampedTime(auto_now_add=True)
    # The sign command's request token, as an approval's.
    request_token = models.UUIDField(null=True, blank=True, unique=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="signature_once"),
            models.CheckConstraint(condition=Q(seat__in=[1, 2]), name="signature_seat"),
            models.CheckConstraint(condition=Q(method__in=["tap", "pin", "paper"]),
                                   name="signature_method_valid"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} signed {self.table}"
