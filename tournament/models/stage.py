"""Stages of a tournament and the teams that enter them (RULES.md §11)."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.pairing import bracket_rounds
from tournament.models.history import history as history_of_changes
from tournament.names import TwoScripts


class Stage(TwoScripts, models.Model):
    class Kind(models.TextChoices):
        GROUPS = "groups", _("Group stage (round robin)")
        SWISS = "swiss", _("Swiss stage")
        KNOCKOUT = "knockout", _("Knockout")

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="stages"
    )
    name = models.CharField(_("name"), max_length=60)
    # The name in the other script, as a person's (issue 56; tournament.names).
    other_name = models.CharField(_("name in the other script"), max_length=60, blank=True)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    order = models.PositiveSmallIntegerField(_("order in the tournament"))
    swiss_rounds = models.PositiveSmallIntegerField(
        _("rounds planned"), null=True, blank=True,
        help_text=_("Swiss stage only: how many rounds the stage will have."),
    )
    third_place_match = models.BooleanField(_("third-place match"), default=False)
    # The pairing plan stored when the stage's first round is drawn, so that later rounds
    # follow it and a swap can rewrite it whole: the Berger table of each group, or the
    # knockout bracket (services.schedules documents the shape).
    schedule = models.JSONField(_("schedule"), null=True, blank=True)
    # A knockout seeded from an earlier stage's standings (RULES.md §11): the top
    # ``qualifiers_per_group`` of each group, then the ``extra_qualifiers`` best-placed of the
    # next place across groups.
    qualify_from = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="feeds",
        verbose_name=_("seeded from the standings of"),
    )
    qualifiers_per_group = models.PositiveSmallIntegerField(
        _("qualifiers per group"), null=True, blank=True)
    extra_qualifiers = models.PositiveSmallIntegerField(
        _("best-placed of the next place across groups"), default=0)
    history = history_of_changes()

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="stage_name_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=["groups", "swiss", "knockout"]), name="stage_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(swiss_rounds__isnull=True) | Q(kind="swiss", swiss_rounds__gte=1),
                name="stage_swiss_rounds_only_for_swiss",
            ),
        ]

    def __str__(self) -> str:
        return self.shown_name

    @property
    def bracket_rounds(self) -> int | None:
        """A knockout's rounds from the first to the final, from the bracket stored when
        its first round was drawn (None before, and for other stages)."""
        if self.kind != self.Kind.KNOCKOUT or not isinstance(self.schedule, dict):
            return None
        bracket = self.schedule.get("bracket")
        return bracket_rounds(2 * len(bracket)) if bracket else None

    @property
    def planned_rounds(self) -> int | None:
        """How many rounds the stage has: a Swiss stage's rounds planned, a knockout's
        rounds to the final, the longest round robin of a group stage (from the schedule
        stored when its first round was drawn). None while it cannot be known (a group
        stage or knockout not drawn yet, a Swiss stage without a number of rounds)."""
        if self.kind == self.Kind.SWISS:
            return self.swiss_rounds
        if self.kind == self.Kind.KNOCKOUT:
            return self.bracket_rounds
        groups = self.schedule.get("groups") if isinstance(self.schedule, dict) else None
        return max((len(rounds) for rounds in groups.values()), default=None) if groups \
            else None

    def is_last_round(self, number: int) -> bool:
        """Whether round ``number`` is the stage's last (or past it): no round is drawn
        after it."""
        planned = self.planned_rounds
        return planned is not None and number >= planned


class Group(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(_("name"), max_length=20)
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["stage", "order"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "name"], name="group_name_unique"),
            models.UniqueConstraint(fields=["stage", "order"], name="group_order_unique"),
        ]

    def __str__(self) -> str:
        return str(_("Group %(name)s") % {"name": self.name})


class StageTeam(models.Model):
    """A team entered in a stage: its group and its number there (Berger position in a
    group, seed in a knockout, ranking order at the start of a Swiss stage)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(
        "tournament.Team", on_delete=models.PROTECT, related_name="stage_entries"
    )
    group = models.ForeignKey(
        Group, on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
    )
    position = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        ordering = ["stage", "group__order", "position"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "team"], name="stage_team_unique"),
            models.UniqueConstraint(
                fields=["group", "position"], condition=Q(group__isnull=False),
                name="stage_team_position_in_group_unique",
            ),
            models.UniqueConstraint(
                fields=["stage", "position"], condition=Q(group__isnull=True),
                name="stage_team_position_unique",
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="stage_team_position_min"),
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.stage}"
