"""The secret behind the boxes: the tournament key and the deals made from it (issue 5).

The construction is in ``scoring.deals`` and docs/deals.md; these rows only remember what
was made, so a deal never changes once boxes are packed.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.fields import StampedTime


class DealKey(models.Model):
    """One of a tournament's 256-bit keys, its published commitment and the optional public
    value.

    Keys have a life: a key deals until it is revealed and never after (anyone can re-create
    its deals then). Deals needed after a reveal come from the next key, made with its own
    commitment; a tournament has at most one secret key at a time. Kept out of the
    Tournament row so that no form, admin page or export of the tournament can carry it by
    accident.
    """

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="deal_keys"
    )
    number = models.PositiveSmallIntegerField(_("key number"), default=1)
    key_hex = models.CharField(max_length=64)
    commitment = models.CharField(_("commitment (SHA-256 of the key)"), max_length=64)
    public_value = models.CharField(_("public value"), max_length=200, blank=True)
    public_value_set_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(_("key revealed"), null=True, blank=True)
    created_at = StampedTime(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="deal_key_number_unique"),
            models.UniqueConstraint(fields=["tournament"], condition=Q(revealed_at__isnull=True),
                                    name="deal_key_one_secret"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_key_number_min"),
            models.CheckConstraint(condition=Q(key_hex__regex=r"^[0-9a-f]{64}$"),
                                   name="deal_key_hex"),
            models.CheckConstraint(condition=Q(commitment__regex=r"^[0-9a-f]{64}$"),
                                   name="deal_key_commitment_hex"),
        ]

    def __str__(self) -> str:
        return f"deal key {self.number} of {self.tournament}"

    @property
    def key(self) -> bytes:
        return bytes.fromhex(self.key_hex)

    @property
    def is_revealed(self) -> bool:
        return self.revealed_at is not None


class Deal(models.Model):
    """One deal of a round: the contents of every box of that hand and deal set.

    A reserve deal (``reserve`` ≥ 1) replaces a compromised one; the replaced deal stays,
    marked not current, with the reason, so the hand records can say what happened.
    """

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE,
                              related_name="deals")
    # The key it was made from (never a revealed one: services.deals checks under a lock).
    key = models.ForeignKey(DealKey, on_delete=models.PROTECT, related_name="deals")
    deal_set = models.PositiveIntegerField(_("deal set"))
    hand = models.PositiveSmallIntegerField(_("hand"))
    reserve = models.PositiveSmallIntegerField(default=0)
    cards = models.CharField(max_length=155)  # the 52 cards in dealing order, "KS KH …"
    is_current = models.BooleanField(default=True)
    replaced_reason = models.TextField(blank=True)
    replaced_at = models.DateTimeField(null=True, blank=True)
    created_at = StampedTime(auto_now_add=True)

    class Meta:
        ordering = ["round", "deal_set", "hand", "reserve"]
        constraints = [
            models.UniqueConstraint(fields=["round", "deal_set", "hand", "reserve"],
                                    name="deal_place_unique"),
            models.UniqueConstraint(fields=["round", "deal_set", "hand"],
                                    condition=Q(is_current=True), name="deal_one_current"),
            models.CheckConstraint(condition=Q(deal_set__gte=1, hand__gte=1),
                                   name="deal_numbers_min"),
            models.CheckConstraint(condition=Q(is_current=True) | ~Q(replaced_reason=""),
                                   name="deal_replaced_with_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.round}, set {self.deal_set}, hand {self.hand}"
