"""The duplicate rating kept with each person (issue 54; the method: scoring/ratings.py,
docs/ratings.md).

- ``RatingPoint``: a person's rating after each rated event they played: one point per
  event, the history the profile pages draw (issue 55), and the state the next recompute
  starts from (the skill and its variance, exactly as the engine left them).
- ``PersonRating``: each rated person's latest point, for the lists.
- ``MasterPointScale``: the points each place earns in a rated event of one category
  (issue 55; defaults and why in docs/ratings.md), a superuser's to edit.
- ``MasterPointAward``: what each person earned at each finished, rated event with a
  category, by the team's final place.
- ``RatingState``: one row. ``stale_since`` is the earliest date whose ratings a change
  made out of date, written in the changing service's own transaction; the recompute after
  its commit (``services.ratings``) clears it. Its row is the lock that puts recomputes
  one after the other.

Every row here is written by ``services.ratings`` only, and only from stored results.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class RatingState(models.Model):
    ONLY = 1

    stale_since = models.DateField(null=True, blank=True)
    refreshed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(pk=1), name="rating_state_one_row")]

    def __str__(self) -> str:
        return f"ratings out of date since {self.stale_since}" if self.stale_since else \
            "ratings up to date"


class RatingPoint(models.Model):
    person = models.ForeignKey("tournament.Person", on_delete=models.CASCADE,
                               related_name="rating_points")
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE,
                                   related_name="rating_points")
    date = models.DateField(_("date"))  # the event's last day: its rating period
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("deviation"))
    hands = models.PositiveIntegerField(_("hands"))  # every rated hand so far, all events
    provisional = models.BooleanField(_("provisional"))
    skill = models.FloatField()  # points a hand (scoring.ratings.Skill.mean)
    variance = models.FloatField()

    class Meta:
        ordering = ["person", "date", "tournament"]
        constraints = [
            models.UniqueConstraint(fields=["person", "tournament"],
                                    name="rating_point_once_per_event"),
            models.CheckConstraint(condition=Q(deviation__gte=0) & Q(variance__gt=0),
                                   name="rating_point_spread_positive"),
        ]
        indexes = [models.Index(fields=["date"], name="rating_point_date")]

    def __str__(self) -> str:
        return f"{self.person_id} after {self.tournament_id}: {self.rating:.1f}"


class PersonRating(models.Model):
    person = models.OneToOneField("tournament.Person", on_delete=models.CASCADE,
                                  related_name="rating")
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("deviation"))  # on the day of the last rated event
    hands = models.PositiveIntegerField(_("hands"))
    provisional = models.BooleanField(_("provisional"))
    skill = models.FloatField()
    variance = models.FloatField()
    last_played = models.DateField(_("last rated event"))

    class Meta:
        ordering = ["-rating", "person"]
        constraints = [
            models.CheckConstraint(condition=Q(deviation__gte=0) & Q(variance__gt=0),
                                   name="person_rating_spread_positive"),
        ]
        indexes = [models.Index(fields=["-rating"], name="person_rating_order")]

    def __str__(self) -> str:
        return f"{self.person_id}: {self.rating:.1f} ± {self.deviation:.1f}"


class Category(models.TextChoices):
    """How much a rated event weighs for master points (issue 55): a superuser's setting."""

    CLUB = "club", _("Club")
    NATIONAL = "national", _("National")
    INTERNATIONAL = "international", _("International")
    WORLD = "world", _("World")


class MasterPointScale(models.Model):
    category = models.CharField(_("category"), max_length=20, choices=Category.choices,
                                unique=True)
    # Points by place, first place first: a place beyond the list earns nothing.
    points = models.JSONField(_("points by place"))
    # No award below this share of the field, however long the list (docs/ratings.md).
    share_of_field = models.PositiveSmallIntegerField(
        _("places awarded, in per cent of the teams"), default=40)

    class Meta:
        ordering = ["category"]
        constraints = [
            models.CheckConstraint(condition=Q(category__in=[c.value for c in Category]),
                                   name="master_point_scale_category_valid"),
            models.CheckConstraint(condition=Q(share_of_field__gte=1)
                                   & Q(share_of_field__lte=100),
                                   name="master_point_scale_share_valid"),
        ]

    def __str__(self) -> str:
        return str(Category(self.category).label)


class MasterPointAward(models.Model):
    person = models.ForeignKey("tournament.Person", on_delete=models.CASCADE,
                               related_name="master_points")
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE,
                                   related_name="master_points")
    team = models.ForeignKey("tournament.Team", on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField(_("place"))
    points = models.DecimalField(_("master points"), max_digits=8, decimal_places=2)

    class Meta:
        ordering = ["tournament", "place", "person"]
        constraints = [
            models.UniqueConstraint(fields=["person", "tournament"],
                                    name="master_points_once_per_event"),
            models.CheckConstraint(condition=Q(points__gt=0) & Q(place__gte=1),
                                   name="master_points_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} at {self.tournament_id}: {self.points}"
