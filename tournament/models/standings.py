"""What the standings are made from (RULES.md §8–§10): one result row per team and round,
and the referees' penalties.

The services write a team's result row whenever its match changes (a hand saved, a
sign-off, a correction, a forfeit, a default that withdraws a team); the standings read only
these rows (``selectors.standings``), and ``manage.py check_standings`` recomputes them from
the hands to prove they agree.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournament.models.fields import StampedTime


class TeamResult(models.Model):
    """One team's result in one round: a match (played or forfeited) or a bye."""

    class Outcome(models.TextChoices):
        WIN = "win", _("win")
        TIE = "tie", _("tie")
        LOSS = "loss", _("loss")
        BYE = "bye", _("bye")

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE,
                              related_name="team_results")
    team = models.ForeignKey("tournament.Team", on_delete=models.PROTECT,
                             related_name="results")
    match = models.ForeignKey("tournament.Match", on_delete=models.CASCADE, null=True,
                              blank=True, related_name="team_results")
    opponent = models.ForeignKey("tournament.Team", on_delete=models.PROTECT, null=True,
                                 blank=True, related_name="+")
    outcome = models.CharField(max_length=4, choices=Outcome.choices)
    small_points = models.IntegerField(default=0)
    match_points = models.IntegerField(default=0)
    gins = models.PositiveSmallIntegerField(default=0)  # gins and Big Gins of its players
    forfeit = models.BooleanField(default=False)  # decided by a forfeit, not by play
    # Cleared: the match involves a team withdrawn from a group stage (RULES.md §10).
    void = models.BooleanField(default=False)
    provisional = models.BooleanField(default=True)  # not signed off (or being corrected)
    updated_at = StampedTime(auto_now=True)
    # On PostgreSQL, a number from one sequence given to the row by the database at each
    # write, and again when its match's home team or forfeit changes (migration 0026):
    # what the standings read kept per round compare (``selectors.stage_results``).
    # Whatever the application writes here, the database replaces; 0 on SQLite.
    revision = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["round", "team"]
        indexes = [models.Index(fields=["round", "revision"], name="team_result_revisions")]
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="team_result_once"),
            models.CheckConstraint(condition=Q(outcome__in=["win", "tie", "loss", "bye"]),
                                   name="team_result_outcome_valid"),
            models.CheckConstraint(
                condition=Q(outcome="bye", match__isnull=True, opponent__isnull=True)
                | Q(match__isnull=False, opponent__isnull=False) & ~Q(outcome="bye"),
                name="team_result_match_or_bye"),
            models.CheckConstraint(condition=~Q(opponent=F("team")),
                                   name="team_result_two_teams"),
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.round}: {self.outcome}"


class SeatTally(models.Model):
    """What one seat of a table made of the table's current hands
    (``scoring.individual.Tally``), rewritten with them (``services.team_results``): the
    individual standings add these up rather than read every hand of the event."""

    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE,
                              related_name="tallies")
    seat = models.PositiveSmallIntegerField()
    hands = models.PositiveSmallIntegerField(default=0)
    points = models.IntegerField(default=0)
    dealer_hands = models.PositiveSmallIntegerField(default=0)
    dealer_points = models.IntegerField(default=0)
    gins = models.PositiveSmallIntegerField(default=0)
    big_gins = models.PositiveSmallIntegerField(default=0)
    knocks = models.PositiveSmallIntegerField(default=0)
    undercuts_won = models.PositiveSmallIntegerField(default=0)
    undercuts_suffered = models.PositiveSmallIntegerField(default=0)
    false_knocks = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)

    FIGURES = ("hands", "points", "dealer_hands", "dealer_points", "gins", "big_gins",
               "knocks", "undercuts_won", "undercuts_suffered", "false_knocks", "draws")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seat_tally_once"),
            models.CheckConstraint(condition=Q(seat__in=[1, 2]), name="seat_tally_seat"),
            models.CheckConstraint(
                condition=Q(dealer_hands__lte=F("hands"))
                & Q(hands__gte=F("gins") + F("big_gins") + F("knocks") + F("draws")
                    + F("undercuts_won") + F("undercuts_suffered")),
                name="seat_tally_counts_within_hands"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of table {self.table_id}: {self.hands} hands"


class Penalty(models.Model):
    """A referee's decision against a team or one of its players, with its reason. Undoing
    one entered by mistake keeps the row (marked undone) and restores everything."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("warning")
        SMALL_POINTS = "small_points", _("small-point deduction")
        MATCH_POINTS = "match_points", _("match-point deduction")
        LATENESS = "lateness", _("lateness")
        DEFAULT = "default", _("default of a match")
        DISQUALIFICATION = "disqualification", _("disqualification")

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE,
                                   related_name="penalties")
    team = models.ForeignKey("tournament.Team", on_delete=models.PROTECT,
                             related_name="penalties")
    player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, null=True,
                               blank=True, related_name="penalties")
    round = models.ForeignKey("tournament.Round", on_delete=models.PROTECT,
                              related_name="penalties")
    match = models.ForeignKey("tournament.Match", on_delete=models.PROTECT, null=True,
                              blank=True, related_name="penalties")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    amount = models.PositiveSmallIntegerField(_("points deducted"), default=0)
    minutes = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    reason = models.TextField(_("reason"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    related_name="+")
    recorded_at = StampedTime(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  null=True, blank=True, related_name="+")
    undo_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["tournament", "recorded_at", "id"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["warning", "small_points", "match_points", "lateness",
                                      "default", "disqualification"]),
                name="penalty_kind_valid"),
            models.CheckConstraint(
                condition=Q(kind__in=["small_points", "match_points"], amount__gte=1)
                | ~Q(kind__in=["small_points", "match_points"]) & Q(amount=0),
                name="penalty_amount_for_deductions"),
            models.CheckConstraint(
                condition=Q(kind="lateness", minutes__isnull=False)
                | ~Q(kind="lateness") & Q(minutes__isnull=True),
                name="penalty_minutes_for_lateness"),
            models.CheckConstraint(
                condition=~Q(kind__in=["default", "lateness"]) | Q(match__isnull=False),
                name="penalty_match_for_default"),
            models.CheckConstraint(
                condition=Q(undone_at__isnull=True, undone_by__isnull=True)
                | Q(undone_at__isnull=False, undone_by__isnull=False),
                name="penalty_undone_by_someone"),
            models.CheckConstraint(condition=~Q(reason=""), name="penalty_has_a_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.team}"

    @property
    def is_active(self) -> bool:
        return self.undone_at is None
