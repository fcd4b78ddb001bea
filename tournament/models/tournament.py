"""The tournament and its rule settings."""

import functools
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring import DealScope, DrawRule, RuleError, Rules
from scoring.rules import (
    DEFAULT_RULES,
    HANDS_PER_MATCH_RANGE,
    KNOCK_LIMIT_RANGE,
    KNOCKOUT_TIEBREAK_HANDS_RANGE,
)
from tournament.models.fields import StampedTime
from tournament.models.history import history as history_of_changes
from tournament.models.ratings import Category
from tournament.names import TwoScripts
from tournament.wording import rule_message


def _range_validators(limits: tuple[int, int]) -> list:
    return [MinValueValidator(limits[0]), MaxValueValidator(limits[1])]


def _in_range(field: str, limits: tuple[int, int]) -> Q:
    return Q(**{f"{field}__gte": limits[0], f"{field}__lte": limits[1]})


def _default_time_zone() -> str:
    return settings.TIME_ZONE


@functools.cache
def time_zone_names() -> frozenset[str]:
    """Every name of the IANA time zone database this machine knows
    (``zoneinfo.available_timezones()``, read once)."""
    return frozenset(zoneinfo.available_timezones())


def _time_zones():
    return [(name, name) for name in sorted(time_zone_names())]


def validate_time_zone(value: str) -> None:
    """A venue's time zone is a name of the IANA database. The one check of every door: the
    settings page (``forms.TimeZoneField``) and the tournament file (``exchange``); the
    model's choices are the same names."""
    if value not in time_zone_names():
        raise ValidationError(
            _("“%(value)s” is not a time zone. Give a name of the IANA time zone database, "
              "such as Europe/Paris or Asia/Shanghai."),
            code="invalid_time_zone", params={"value": str(value)[:64]})


def validate_tiebreak_order(value: str) -> None:
    try:
        parse_tiebreak_order(value)
    except RuleError as error:
        raise ValidationError(rule_message(error)) from None


def parse_tiebreak_order(value: str) -> tuple[str, ...]:
    keys = tuple(key.strip() for key in value.split(",") if key.strip())
    return Rules(tiebreaks=keys).tiebreaks


# Addresses of the staff area that a tournament's short name would hide (/manage/SLUG/).
RESERVED_SLUGS = frozenset({"new", "import", "backups"})


def slug_taken(slug: str, *, but: int | None = None) -> bool:
    """Whether another tournament has this short name, whatever its case: ``WC-A`` and
    ``wc-a`` are one name to the people who type them, and the names of the table devices
    follow from it (issue 48). The one check of every door (the settings page, the
    tournament file, a restore); the constraint ``tournament_slug_unique_any_case`` backs
    it."""
    return Tournament.objects.filter(slug__iexact=slug).exclude(pk=but).exists()


def slug_taken_message(slug: str) -> str:
    return str(_("The short name %(slug)s is already taken (whatever its case: WC-A and wc-a "
                 "are the same short name).") % {"slug": slug})


class Tournament(TwoScripts, models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("Set-up (staff only)")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=120)
    # The name in the other script, as a person's (issue 56; tournament.names).
    other_name = models.CharField(_("name in the other script"), max_length=120, blank=True)
    slug = models.SlugField(
        _("short name in addresses"), max_length=50, unique=True,
        help_text=_("Letters, digits and hyphens, e.g. world-cup-2026."),
        error_messages={"unique": _("This short name is already taken.")},
    )
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    federation = models.CharField(
        _("federation"), max_length=20, blank=True,
        help_text=_("The federation whose ids the players carry, e.g. FCG: a player with "
                    "an id is the same person as at every event of that federation."))
    time_zone = models.CharField(
        _("time zone of the venue"), max_length=64, default=_default_time_zone,
        choices=_time_zones,
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SETUP
    )
    approvals_need_pin = models.BooleanField(
        _("players approve and sign with a PIN"), default=False,
        help_text=_("Otherwise a tap for their seat on the scorer's device is enough."),
    )
    pin_attempts = models.PositiveSmallIntegerField(
        _("wrong PINs before a lock"), default=5,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text=_("After this many wrong PINs in a row a player's PIN entry is locked."),
    )
    pin_lockout_minutes = models.PositiveSmallIntegerField(
        _("PIN lock (minutes)"), default=15,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 60)],
        help_text=_("A referee can lift a lock earlier on the round's progress page."),
    )

    # Rule settings (RULES.md); the names match scoring.Rules field for field.
    hands_per_match = models.PositiveSmallIntegerField(
        _("hands per match"), default=DEFAULT_RULES.hands_per_match,
        validators=_range_validators(HANDS_PER_MATCH_RANGE),
    )
    knock_limit = models.PositiveSmallIntegerField(
        _("knock limit"), default=DEFAULT_RULES.knock_limit,
        validators=_range_validators(KNOCK_LIMIT_RANGE),
    )
    knock_bonus = models.PositiveSmallIntegerField(
        _("knock bonus"), default=DEFAULT_RULES.knock_bonus
    )
    gin_bonus = models.PositiveSmallIntegerField(_("gin bonus"), default=DEFAULT_RULES.gin_bonus)
    undercut_bonus = models.PositiveSmallIntegerField(
        _("undercut bonus"), default=DEFAULT_RULES.undercut_bonus
    )
    big_gin_bonus = models.PositiveSmallIntegerField(
        _("Big Gin bonus"), default=DEFAULT_RULES.big_gin_bonus
    )
    draw_rule = models.CharField(
        _("draw rule"), max_length=20, default=DEFAULT_RULES.draw_rule,
        choices=[
            (DrawRule.STOCK_EXHAUSTED.value, _("Stock exhausted (FCG)")),
            (DrawRule.TWO_CARDS_LEFT.value, _("Two cards left (classic)")),
        ],
    )
    match_points_win = models.PositiveSmallIntegerField(
        _("match points for a win"), default=DEFAULT_RULES.match_points_win
    )
    match_points_tie = models.PositiveSmallIntegerField(
        _("match points for a tie"), default=DEFAULT_RULES.match_points_tie
    )
    match_points_loss = models.PositiveSmallIntegerField(
        _("match points for a loss"), default=DEFAULT_RULES.match_points_loss
    )
    match_points_bye = models.PositiveSmallIntegerField(
        _("match points for a bye"), default=DEFAULT_RULES.match_points_bye
    )
    small_points_bye = models.PositiveSmallIntegerField(
        _("small points for a bye"), default=DEFAULT_RULES.small_points_bye
    )
    match_points_forfeit_win = models.PositiveSmallIntegerField(
        _("match points for a forfeit win"), default=DEFAULT_RULES.match_points_forfeit_win
    )
    match_points_forfeit_loss = models.PositiveSmallIntegerField(
        _("match points for a forfeit loss"), default=DEFAULT_RULES.match_points_forfeit_loss
    )
    small_points_forfeit = models.PositiveSmallIntegerField(
        _("small points for a forfeit win"), default=DEFAULT_RULES.small_points_forfeit
    )
    deal_scope = models.CharField(
        _("deal sets"), max_length=10, default=DEFAULT_RULES.deal_scope,
        choices=[
            (DealScope.ROUND.value, _("One deal set per round for the whole field")),
            (DealScope.MATCH.value, _("One deal set per match")),
        ],
    )
    knockout_tiebreak_hands = models.PositiveSmallIntegerField(
        _("extra hands for a tied knockout match"),
        default=DEFAULT_RULES.knockout_tiebreak_hands,
        validators=_range_validators(KNOCKOUT_TIEBREAK_HANDS_RANGE),
    )
    lateness_limit_minutes = models.PositiveSmallIntegerField(
        _("lateness limit (minutes)"), default=DEFAULT_RULES.lateness_limit_minutes
    )
    # The planned length of a round (issue 58): each round takes it when drawn, and the
    # director may change that round's own (Round.planned_minutes). Not a rule of the game.
    round_minutes = models.PositiveSmallIntegerField(
        _("planned length of a round (minutes)"), default=80,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 60)],
        help_text=_("The round clock counts down from this, from the director's Start play; "
                    "the lateness limit counts from the same moment."))
    field_minimum_hands = models.PositiveSmallIntegerField(
        _("hands needed for the ranking against the field"),
        default=DEFAULT_RULES.field_minimum_hands,
    )
    tiebreak_order = models.CharField(
        _("tiebreak order"), max_length=100,
        default=",".join(DEFAULT_RULES.tiebreaks),
        validators=[validate_tiebreak_order],
        help_text=_("After match points and small points, in this order."),
    )

    # What the public sees (none of these is a rule of the game).
    class LiveResults(models.TextChoices):
        CLOSED = "closed", _("Nothing but progress until the round is closed")
        FINISHED_BOXES = "finished_boxes", _(
            "A box's results once every table playing it has an approved result")
        LIVE = "live", _("Every result as it is entered (provisional)")

    live_results = models.CharField(
        _("results of a round in play"), max_length=20, choices=LiveResults.choices,
        default=LiveResults.CLOSED,
        help_text=_("Players still to play a box must not learn how it went elsewhere: "
                    "the default shows nothing but progress until the round is closed."),
    )
    public_standings = models.BooleanField(_("public standings"), default=True)
    public_results = models.BooleanField(_("public match results and travellers"),
                                         default=True)
    public_players = models.BooleanField(_("public player pages and individual standings"),
                                         default=True)
    public_penalties = models.BooleanField(_("public penalty list"), default=True)
    # Whether the event's results count towards the persons' ratings (issue 55's lists and
    # profiles): a superuser's decision (services.ratings.set_rated), never a director's.
    rated = models.BooleanField(_("rated"), default=False)
    # The master points' category of a rated event (models/ratings.py): a superuser's too.
    category = models.CharField(_("category"), max_length=20, blank=True,
                                choices=Category.choices)
    anomaly_threshold = models.PositiveSmallIntegerField(
        _("anomaly threshold (points from the field's datum)"), default=60,
        help_text=_("A result this far from the other tables' results on the same box is "
                    "listed for the referee."),
    )
    box_balance_threshold = models.PositiveSmallIntegerField(
        _("box balance threshold (points)"), default=25,
        help_text=_("A box whose dealer cards averaged this much for or against is listed "
                    "as unbalanced for the chief referee."),
    )

    created_at = StampedTime(auto_now_add=True)
    updated_at = StampedTime(auto_now=True)
    # Not in the history (nor in the tournament file, docs/formats.md): the rated flag and
    # the category are a superuser's, their changes in the audit log; the round clock's
    # length is the director's, each round keeping its own.
    history = history_of_changes(excluded_fields=["rated", "category", "round_minutes"])

    RULE_FIELDS = (
        "hands_per_match", "knock_limit", "knock_bonus", "gin_bonus", "undercut_bonus",
        "big_gin_bonus", "draw_rule", "match_points_win", "match_points_tie",
        "match_points_loss", "match_points_bye", "small_points_bye",
        "match_points_forfeit_win", "match_points_forfeit_loss", "small_points_forfeit",
        "deal_scope", "knockout_tiebreak_hands", "lateness_limit_minutes",
        "field_minimum_hands",
    )
    PUBLIC_FIELDS = (
        "live_results", "public_standings", "public_results", "public_players",
        "public_penalties", "anomaly_threshold", "box_balance_threshold",
    )

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(category__in=["", *(c.value for c in Category)]),
                name="tournament_category_valid"),
            models.UniqueConstraint(
                Lower("slug"), name="tournament_slug_unique_any_case",
                violation_error_message=_("This short name is already taken."),
            ),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="tournament_dates_in_order"
            ),
            models.CheckConstraint(
                condition=_in_range("hands_per_match", HANDS_PER_MATCH_RANGE),
                name="tournament_hands_per_match_range",
            ),
            models.CheckConstraint(
                condition=_in_range("knock_limit", KNOCK_LIMIT_RANGE),
                name="tournament_knock_limit_range",
            ),
            models.CheckConstraint(
                condition=Q(match_points_win__gt=F("match_points_tie"))
                & Q(match_points_tie__gt=F("match_points_loss")),
                name="tournament_match_points_win_tie_loss",
            ),
            models.CheckConstraint(
                condition=Q(match_points_forfeit_win__gte=F("match_points_forfeit_loss")),
                name="tournament_match_points_forfeit",
            ),
            models.CheckConstraint(
                condition=Q(pin_attempts__gte=1, pin_lockout_minutes__gte=1),
                name="tournament_pin_lock_positive",
            ),
            models.CheckConstraint(
                condition=Q(live_results__in=["closed", "finished_boxes", "live"]),
                name="tournament_live_results_valid",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["setup", "running", "finished"]),
                name="tournament_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.shown_name

    def get_absolute_url(self) -> str:
        return reverse("public:tournament", args=[self.slug])

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.SETUP

    @property
    def rules(self) -> Rules:
        """The rule settings as the engine's immutable value."""
        values = {name: getattr(self, name) for name in self.RULE_FIELDS}
        return Rules(tiebreaks=parse_tiebreak_order(self.tiebreak_order), **values)

    def clean(self) -> None:
        if self.slug in RESERVED_SLUGS:
            raise ValidationError({"slug": _(
                "%(slug)s is the address of a page of the staff area; choose another short "
                "name.") % {"slug": self.slug}})
        if self.slug and slug_taken(self.slug, but=self.pk):
            raise ValidationError({"slug": slug_taken_message(self.slug)})
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("The last day cannot be before the first day.")})
        try:
            self.rules  # noqa: B018 - building the value is the validation
        except (RuleError, TypeError) as error:
            raise ValidationError(rule_message(error)) from None
