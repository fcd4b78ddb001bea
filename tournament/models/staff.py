"""Per-tournament staff roles."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    DIRECTOR = "director", _("Director")
    REFEREE = "referee", _("Referee")
    SCORER = "scorer", _("Scorer")


class StaffRole(models.Model):
    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="staff"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_roles"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    is_chief_referee = models.BooleanField(_("chief referee"), default=False)

    class Meta:
        ordering = ["role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staff_one_role"),
            models.CheckConstraint(
                condition=Q(is_chief_referee=False) | Q(role="referee"),
                name="staff_chief_is_referee",
            ),
            models.CheckConstraint(
                condition=Q(role__in=["director", "referee", "scorer"]), name="staff_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.title}"

    @property
    def title(self) -> str:
        if self.is_chief_referee:
            return str(_("Chief referee"))
        return str(self.get_role_display())
