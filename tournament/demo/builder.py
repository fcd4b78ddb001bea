"""The demo's builder: ``build_demo``, the entry point, runs the demo's event (event.py)
and, with ``season``, the earlier one (season.py) in one transaction, under the seed and
the event's clock, deleting an earlier build first when asked to."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import transaction

from tournament.demo.clock import Clock, seeded, venue_time
from tournament.demo.event import Demo
from tournament.demo.play import Built
from tournament.demo.programme import (
    CATEGORY,
    FEDERATION,
)
from tournament.demo_accounts import SEASON_SLUG, SLUG, is_demo
from tournament.models import Person, Player, Role, Tournament

DEFAULT_SEED = 2026
logger = logging.getLogger(__name__)


class DemoExists(Exception):
    pass


def build_demo(seed: int = DEFAULT_SEED, *, live: bool = False, replace: bool = False,
               progress=None, seeded_passwords: bool = False, season: bool = False) -> Built:
    """Build the demo in one transaction (all or nothing; each service's own transaction is
    a savepoint in it). With ``season``, first an earlier event of the same persons, and
    both rated (demo/season.py); the ratings and master points are up to date on return.
    An existing ``demo`` tournament, and the season's earlier event, are deleted first
    with ``replace`` (through the delete service: as the demo's director, or as a
    superuser for a rated event), else ``DemoExists`` is raised."""
    from tournament.demo.season import build_season_event, rate, superuser
    from tournament.services.ratings import refresh_ratings

    clock = Clock(venue_time(-7, 18, 0))
    existing = Tournament.objects.filter(slug=SLUG).first()
    earlier = Tournament.objects.filter(slug=SEASON_SLUG).first()
    if earlier is not None and not is_demo(earlier):  # someone's own: never deleted
        if season:
            raise RuntimeError(f"a tournament with the short name {SEASON_SLUG!r} is in the "
                               f"way ({earlier.name}, not the demo's): give it another one")
        earlier = None
    clashes = [t for t in (existing, earlier if season else None) if t is not None]
    if clashes and not replace:
        raise DemoExists(f"a tournament with the short name {clashes[0].slug!r} exists "
                         f"already ({clashes[0].name})")
    old = [t for t in (earlier, existing) if t is not None] if replace else []
    # Asked before anything is done: a rated event is a superuser's to rate or delete.
    superuser_actor = superuser() if season or any(t.rated for t in old) else None
    with transaction.atomic():
        # The earlier event first: the cup's deletion then retires the demo accounts, which
        # have a role in no tournament left.
        for tournament in old:
            delete_old(tournament, superuser_actor)
        season_built = build_season_event(seed, superuser_actor, progress) if season \
            else None
        with seeded(seed, clock, seeded_passwords=seeded_passwords) as values:
            built = Demo(seed, live, clock, values, progress, season=season).build()
            if season:
                built.tournament = rate(superuser_actor, built.tournament, CATEGORY, clock)
        built.season = season_built
    if season:
        # Once committed, services.ratings has recomputed already (on_commit) and this finds
        # nothing to do; inside a caller's transaction (a test's) the commit is yet to come.
        try:
            refresh_ratings()
        except Exception:  # the demo is built: the date stays for manage.py rate
            logger.exception("the ratings could not be recomputed; run manage.py rate")
    return built


def delete_old(tournament: Tournament, superuser_actor) -> None:
    """An earlier build's event, through the delete service; the demo's persons it leaves
    with no player go with it (made by the demo alone, they would linger in the person
    lists)."""
    from tournament.services import Actor
    from tournament.services.tournaments import delete_tournament

    director = tournament.staff.filter(role=Role.DIRECTOR).select_related("user").first()
    if tournament.rated or director is None:
        user = superuser_actor.user if superuser_actor else get_user_model().objects.filter(
            is_superuser=True).first()
    else:
        user = director.user
    persons = list(Player.objects.filter(team__tournament=tournament).values_list(
        "person_id", flat=True))
    delete_tournament(Actor(user=user, device="manage.py demo --replace"), tournament,
                      confirm_name=tournament.name)
    Person.objects.filter(pk__in=persons, federation=FEDERATION, players=None).delete()
