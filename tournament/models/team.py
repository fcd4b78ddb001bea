"""Teams of two players and an optional reserve (RULES.md §8)."""

from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from tournament.models.history import history as history_of_changes
from tournament.names import TwoScripts

TEAM_CODE_PATTERN = r"^[A-Z0-9][A-Z0-9-]{0,9}$"
# The fields of a team by name, as the team form, the CSV import (services.teams) and the
# audit log (audit_wording) name them.
FIELD_LABELS = {
    "code": _("team code"), "name": _("team name"),
    "other_name": _("team name in the other script"),
    "country": _("country or club"), "seed": _("seed"),
    "player1": _("player 1"), "player1_id": _("federation id of player 1"),
    "player2": _("player 2"), "player2_id": _("federation id of player 2"),
    "reserve": _("reserve"), "reserve_id": _("federation id of the reserve"),
}


class Team(TwoScripts, models.Model):
    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("team name"), max_length=100)
    # The name in the other script (Latin or Chinese), as a person's (issue 56): the reader's
    # language picks which is shown first (tournament.names).
    other_name = models.CharField(_("team name in the other script"), max_length=100, blank=True)
    code = models.CharField(
        _("short code"), max_length=10,
        validators=[RegexValidator(
            TEAM_CODE_PATTERN,
            _("Use 1 to 10 capital letters, digits or hyphens, starting with a letter or digit."),
        )],
        help_text=_("Printed on box labels and scorecards, e.g. CHN1."),
    )
    country = models.CharField(_("country or club"), max_length=100, blank=True)
    seed = models.PositiveIntegerField(
        _("seed"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    history = history_of_changes()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "code"], name="team_code_unique"),
            models.UniqueConstraint(
                "tournament", Lower("name"), name="team_name_unique",
                violation_error_message=_("A team with this name already exists."),
            ),
            models.UniqueConstraint(fields=["tournament", "seed"], name="team_seed_unique"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="team_seed_positive"),
        ]

    def __str__(self) -> str:
        return self.shown_name


class Player(TwoScripts, models.Model):
    """A registered player. Numbers 1 and 2 are the regular pair, 3 the reserve."""

    RESERVE_NUMBER = 3

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    # The human behind the row, the same at every event (models/person.py).
    person = models.ForeignKey("tournament.Person", on_delete=models.PROTECT,
                               related_name="players")
    name = models.CharField(_("name"), max_length=100)
    federation_id = models.CharField(_("federation id"), max_length=30, blank=True)
    number = models.PositiveSmallIntegerField(_("number in the team"))
    is_reserve = models.BooleanField(_("reserve"), default=False)
    # A hashed PIN the player types to approve hands and sign, when the tournament asks.
    pin_hash = models.CharField(max_length=128, blank=True)
    # Wrong PINs since the last right one; at the tournament's limit PIN entry is locked.
    pin_failures = models.PositiveSmallIntegerField(default=0)
    pin_locked_until = models.DateTimeField(null=True, blank=True)
    # The person a player is linked to is not part of the event's record (its links are in
    # the audit log: services.persons).
    history = history_of_changes(excluded_fields=["pin_hash", "pin_failures", "pin_locked_until",
                                                  "person"])

    class Meta:
        ordering = ["team", "number"]
        constraints = [
            models.UniqueConstraint(fields=["team", "number"], name="player_number_unique"),
            # Two regular players and at most one reserve, whatever the application does.
            models.CheckConstraint(
                condition=Q(is_reserve=False, number__in=[1, 2])
                | Q(is_reserve=True, number=3),
                name="player_number_matches_reserve_flag",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def other_name(self) -> str:
        """The person's name in the other script, shown beside the player's where there is
        room (tournament.names): read with the person, a query unless it came with the
        player (``select_related("person")``)."""
        return self.person.other_name
