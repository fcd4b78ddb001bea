"""Rounds, their matches, tables and where each team is in a round (RULES.md §8)."""

from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring.pairing import round_slots
from scoring.rules import Rules
from tournament.models.fields import StampedTime
from tournament.models.history import history as history_of_changes
from tournament.wording import knockout_round_name


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in_play", _("In play")
        CLOSED = "closed", _("Closed")

    stage = models.ForeignKey("tournament.Stage", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round in the stage"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    # The rules the round is played under (``scoring.Rules.to_dict``), copied from the
    # tournament's settings when the round is drawn: a later change of a setting applies to
    # rounds drawn later, never to this one. Read it as ``round.rules``.
    rule_settings = models.JSONField(_("rules of the round"))
    created_at = StampedTime(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    publish_override_reason = models.TextField(blank=True)
    # The round clock (issue 58; tournament/clock.py): it runs from ``started_at`` for the
    # planned minutes, plus the time added (and the time it stood paused), and stands still
    # while paused.
    planned_minutes = models.PositiveSmallIntegerField(_("planned length (minutes)"),
                                                       default=80)
    clock_added_seconds = models.IntegerField(default=0)
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    # The clock's state is in the audit log, not in the history (nor the file).
    history = history_of_changes(excluded_fields=["planned_minutes", "clock_added_seconds",
                                                  "clock_paused_at"])

    class Meta:
        ordering = ["stage__order", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_min"),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "published", "in_play", "closed"]),
                name="round_status_valid",
            ),
            models.CheckConstraint(condition=Q(planned_minutes__gte=1)
                                   & Q(planned_minutes__lte=24 * 60),
                                   name="round_planned_minutes_range"),
            # Time may be added, never taken from the time already gone.
            models.CheckConstraint(condition=Q(clock_added_seconds__gte=0),
                                   name="round_clock_added_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.stage.shown_name}, {self.label}"

    @cached_property
    def rules(self) -> Rules:
        """The rules this round is played under (frozen when it was drawn)."""
        return Rules.from_dict(self.rule_settings)

    @property
    def hands_per_match(self) -> int:
        return self.rules.hands_per_match

    @property
    def label(self) -> str:
        """"Round 3"; in a knockout the bracket round's name ("Quarter-finals", "Final")."""
        rounds = self.stage.bracket_rounds
        if rounds is not None and 1 <= self.number <= rounds:
            return knockout_round_name(round_slots(self.number, rounds))
        return str(_("Round %(n)d") % {"n": self.number})

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.DRAFT


class Match(models.Model):
    """Home team A against away team B at two consecutive tables."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField(_("match"))
    group = models.ForeignKey(
        "tournament.Group", on_delete=models.PROTECT, null=True, blank=True,
        related_name="matches",
    )
    home = models.ForeignKey(
        "tournament.Team", on_delete=models.PROTECT, related_name="home_matches"
    )
    away = models.ForeignKey(
        "tournament.Team", on_delete=models.PROTECT, related_name="away_matches"
    )
    # A knockout match that ends level gets extra hands (RULES.md §11).
    extra_hands = models.PositiveSmallIntegerField(default=0)
    # Moves on with every signature at either table, every sign-off and extra hands; the
    # match's revision as shown is this plus its tables' (``services.commands``): a sign-off
    # names the one the referee saw, and is refused when the match has moved on since.
    revision = models.PositiveIntegerField(default=0)
    # The official result, written when the referee signs the match off.
    home_total = models.IntegerField(null=True, blank=True)
    away_total = models.IntegerField(null=True, blank=True)
    signed_off_at = models.DateTimeField(null=True, blank=True)
    signed_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+",
    )
    # A match one team defaulted (RULES.md §10): decided for the other team without play;
    # set and cleared only by the penalty services.
    forfeited_by = models.ForeignKey(
        "tournament.Team", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
    )
    history = history_of_changes()

    class Meta:
        ordering = ["round", "number"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="match_number_unique"),
            models.UniqueConstraint(fields=["round", "home"], name="match_home_once"),
            models.UniqueConstraint(fields=["round", "away"], name="match_away_once"),
            models.CheckConstraint(condition=~Q(home=F("away")), name="match_two_teams"),
            models.CheckConstraint(
                condition=Q(home_total__isnull=True, away_total__isnull=True)
                | Q(home_total=-F("away_total")),
                name="match_totals_zero_sum",
            ),
            # Official means totals, and totals mean official: written and cleared together.
            models.CheckConstraint(
                condition=Q(signed_off_at__isnull=True, home_total__isnull=True)
                | Q(signed_off_at__isnull=False, home_total__isnull=False),
                name="match_totals_when_signed_off",
            ),
            models.CheckConstraint(
                condition=Q(forfeited_by__isnull=True) | Q(forfeited_by=F("home"))
                | Q(forfeited_by=F("away")),
                name="match_forfeit_by_one_of_its_teams",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home} – {self.away}"

    @property
    def is_official(self) -> bool:
        return self.signed_off_at is not None

    @property
    def hands(self) -> int:
        return self.round.hands_per_match + self.extra_hands


class Table(models.Model):
    """One of a match's two tables; ``position`` is 1 or 2 in the seating of RULES.md §8.

    Who sat in each seat is stored (``TableSeat``). A table without a match (and then
    without a position) is allowed by the schema for the individual events to come; a round
    with matches has none (a trigger, docs/invariants.md), so every team round is as before.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True,
                              related_name="tables")
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    number = models.PositiveIntegerField(_("table"))
    # Moves on with every save and approval at the table: a player's signature names the
    # revision the screen showed, and is refused when the table has moved on since.
    revision = models.PositiveIntegerField(default=0)
    # Minutes this table may play beyond the round clock (issue 58): a director's
    # extension, with its reason in the audit log.
    extra_minutes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.UniqueConstraint(fields=["match", "position"], name="table_position_unique"),
            models.CheckConstraint(condition=Q(position__in=[1, 2]), name="table_position_1_2"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_min"),
            # A match's table has its position in the match; a table without a match has none.
            models.CheckConstraint(
                condition=Q(match__isnull=False, position__isnull=False)
                | Q(match__isnull=True, position__isnull=True),
                name="table_position_with_match",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Table %(n)d") % {"n": self.number})


class TableSeat(models.Model):
    """Who sat in seat 1 or 2 of a table: every read of "who played this seat" reads it.

    Written with the line-ups by ``services.seats`` (from them and ``scoring.seating``), and
    kept equal to them by the database: a seat row that contradicts its match's line-ups,
    or a line-up changed under its seats, is refused; a player sits at one seat of a round;
    the seats of a closed round never change (docs/invariants.md). ``round`` is the table's
    round, copied for the last of these (kept equal by a trigger).
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT,
                               related_name="seats")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
            models.UniqueConstraint(fields=["round", "player"],
                                    name="table_seat_player_once_per_round"),
            models.CheckConstraint(condition=Q(seat__in=[1, 2]), name="table_seat_1_2"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, seat {self.seat}"


class RoundEntry(models.Model):
    """Where a team is in a round: its match and side with its line-up, or a bye.

    One row per team and round is what makes "one match per team per round" a database
    constraint rather than a hope.
    """

    class Side(models.TextChoices):
        HOME = "home", _("Home")
        AWAY = "away", _("Away")
        BYE = "bye", _("Bye")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey("tournament.Team", on_delete=models.PROTECT,
                             related_name="round_entries")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True,
                              related_name="entries")
    side = models.CharField(max_length=4, choices=Side.choices)
    # The line-up: who plays at the match's table 1 and who at table 2.
    first_player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, null=True,
                                     blank=True, related_name="+")
    second_player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, null=True,
                                      blank=True, related_name="+")
    history = history_of_changes()

    class Meta:
        ordering = ["round", "team__name"]
        verbose_name_plural = "round entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="round_entry_once"),
            models.UniqueConstraint(
                fields=["match", "side"], condition=Q(match__isnull=False),
                name="round_entry_side_once",
            ),
            models.CheckConstraint(
                condition=Q(side="bye", match__isnull=True, first_player__isnull=True,
                            second_player__isnull=True)
                | Q(side__in=["home", "away"], match__isnull=False,
                    first_player__isnull=False, second_player__isnull=False),
                name="round_entry_match_or_bye",
            ),
            models.CheckConstraint(
                condition=Q(first_player__isnull=True) | ~Q(first_player=F("second_player")),
                name="round_entry_two_players",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.round}: {self.side}"
