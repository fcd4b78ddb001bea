"""The people behind the players (issue 52): one ``Person`` for every ``Player`` row of every
tournament, the same person at every event they play.

A person belongs to no tournament. A player is linked to an existing person only by that
person's exact federation and federation id (the tournament's federation and the id typed
for the player); otherwise a new person is made for the player. Editing, merging and
unlinking persons is for superusers (docs/roles.md), never for one tournament's director,
and no page lists persons to a director.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.history import history as history_of_changes
from tournament.names import TwoScripts


class Person(TwoScripts, models.Model):
    # The name as the person writes it, and optionally in the other script (Latin or
    # Chinese): the reader's language picks which is shown first (issue 56).
    name = models.CharField(_("name"), max_length=100)
    other_name = models.CharField(_("name in the other script"), max_length=100, blank=True)
    federation = models.CharField(
        _("federation"), max_length=20, blank=True,
        help_text=_("The federation that registered the person, e.g. FCG."))
    federation_id = models.CharField(_("federation id"), max_length=30, blank=True)
    country = models.CharField(_("country"), max_length=100, blank=True)
    # A superuser may keep a person off the public lists and profiles (issue 55); their
    # results stay in their events.
    hidden = models.BooleanField(_("hidden from public lists and profiles"), default=False)
    history = history_of_changes()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            # One person per federation id of a federation; a person with either blank is
            # told apart by nothing but their row.
            models.UniqueConstraint(
                fields=["federation", "federation_id"], name="person_federation_id_unique",
                condition=~Q(federation="") & ~Q(federation_id=""),
                violation_error_message=_(
                    "A person with this federation and federation id already exists.")),
        ]

    def __str__(self) -> str:
        return self.name
