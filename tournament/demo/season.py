"""The season of ``python manage.py demo --season`` (issue 55): an earlier event of the same
persons, so that a new user sees the players' profiles with a history, the rating list and
master points.

- Both events are of the demo's federation (``programme.FEDERATION``) and every player
  carries the same federation id at both (``programme.federation_id``): one person each
  (``services.persons``).
- The earlier event, "Vienna Autumn Open" (``demo-open``), four weeks before the cup: the
  same sixteen teams in a one-day Swiss of four rounds, every hand played by the same bots
  (each player with the same leaning) on the application's deals and entered, approved,
  signed and signed off through the same code as the cup's (``play.RoundPlay``); the deal
  key revealed and the event finished. Its director runs it alone (he may do all a referee
  and a scorer do): no other account gets a role in it, so deleting the cup still retires
  the demo's referee and scorer. Its values come from a stream of their own
  (``seeded(..., event="season")``): the cup is the same event with or without it.
- Both events are then rated and given a master points category (``programme.CATEGORY``,
  ``SEASON_CATEGORY``) through ``services.ratings.set_rated`` and
  ``services.master_points.set_category``: a superuser's decisions, taken by the site's
  first active superuser (there must be one: ``createsuperuser`` or ``quickstart``). The
  cup's closed rounds count even when it is left in play (``--live``); its master points
  come when it is finished.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from tournament.demo.clock import Clock, seeded, venue_time
from tournament.demo.event import Demo
from tournament.demo.play import Built
from tournament.demo.programme import (
    FIRST_DAY,
    HANDS_PER_MATCH,
    SEASON_CATEGORY,
    SEASON_DAY,
    SEASON_STARTS,
    TIME_ZONE,
)
from tournament.demo_accounts import SEASON_SLUG
from tournament.models import Stage, Tournament


class NoSuperuser(Exception):
    pass


class SeasonEvent(Demo):
    """The earlier event's build (``build``), the cup's set-up and play reused."""

    def build(self) -> Built:
        from tournament.services.stages import create_stage, enter_teams
        from tournament.services.tournaments import create_tournament, open_to_public

        self.clock.at(venue_time(SEASON_DAY - 7, 18, 0))  # set up a week before
        self.accounts()
        day = FIRST_DAY + dt.timedelta(days=SEASON_DAY)
        tournament = create_tournament(
            self.director, name="Vienna Autumn Open", slug=SEASON_SLUG, starts_on=day,
            ends_on=day, venue="Vienna (demo event)", time_zone=TIME_ZONE,
            live_results=Tournament.LiveResults.FINISHED_BOXES,
            hands_per_match=HANDS_PER_MATCH, **self.federation())
        built = Built(tournament)
        self.referee, self.scorer_user = self.director, self.director.user
        swiss = create_stage(self.director, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                             swiss_rounds=len(SEASON_STARTS))
        enter_teams(self.director, swiss, self.register_teams(tournament))
        self.clock.at(venue_time(SEASON_DAY, 9, 0))
        open_to_public(self.director, tournament)
        for number, start in enumerate(SEASON_STARTS, 1):
            self.play_round(swiss, number, venue_time(*start), built)
        self.finish(tournament)
        built.tournament = Tournament.objects.get(pk=tournament.pk)
        return built


def build_season_event(seed: int, superuser_actor, progress=None) -> Built:
    """The earlier event, played, then rated by ``superuser_actor``, on its own clock and
    its own stream of the seed's values, inside the caller's transaction."""
    clock = Clock(venue_time(SEASON_DAY - 7, 18, 0))
    with seeded(seed, clock, event="season") as values:
        built = SeasonEvent(seed, False, clock, values, progress, season=True).build()
        built.tournament = rate(superuser_actor, built.tournament, SEASON_CATEGORY, clock)
    return built


def superuser():
    """The actor of a superuser's decisions in the demo: the site's first active
    superuser."""
    from tournament.services import Actor

    user = get_user_model().objects.filter(is_superuser=True, is_active=True).order_by(
        "pk").first()
    if user is None:
        raise NoSuperuser("rating the demo's events is a superuser's decision and there is "
                          "no superuser: create one first (python manage.py createsuperuser, "
                          "or quickstart)")
    return Actor(user=user, ip="127.0.0.1", device="manage.py demo --season")


def rate(actor, tournament: Tournament, category: str, clock: Clock) -> Tournament:
    """The event counted for the ratings and given its category (the federation's
    decisions, a superuser's in the application), an hour after its last moment so far."""
    from tournament.services.master_points import set_category
    from tournament.services.ratings import set_rated

    clock.at(clock.moment + dt.timedelta(hours=1))
    tournament = set_rated(actor, tournament, True)
    return set_category(actor, tournament, category)
