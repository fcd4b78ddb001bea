"""Keeping the persons' duplicate ratings (issue 54; the method: scoring/ratings.py and
docs/ratings.md; the hands: selectors.rated_hands; the rows: models/ratings.py).

Never stale, never half-done:

- A change that can move a rating (a round closed, a correction, a sign-off, a penalty
  or a withdrawal, a seat swap, a tournament's dates, a person's link, a merge, the rated
  flag) is noticed through ``services.base.audit``'s ``audited`` signal (``note_change``;
  the receiver is connected when the app is ready). In the changing service's
  own transaction it writes the earliest date it makes out of date into the one
  ``RatingState`` row; once that transaction commits, ``refresh_ratings`` recomputes in a
  transaction of its own and clears the date. A crash between the two leaves the date
  written: the next refresh, or ``manage.py rate``, catches up.
- Incrementally: the ratings before that date cannot change (the hands are taken date by
  date), so the recompute starts from each person's last point before it and rates only
  the rated events from that date on.
- Only a superuser marks an event rated (``set_rated``); a director never can.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Min
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext

from scoring.ratings import Skill, ratings_of, skills_by_date
from tournament.models import (
    MasterPointAward,
    PersonRating,
    RatingPoint,
    RatingState,
    Tournament,
)
from tournament.selectors.rated_hands import rated_hands
from tournament.services.base import audit
from tournament.services.events import announce_change, audited
from tournament.services.locking import lock
from tournament.services.master_points import award_master_points

logger = logging.getLogger(__name__)

# The audited actions of a rated tournament that can move a rating.
RATING_ACTIONS = frozenset({
    "round.close", "round.swap", "round.undo", "result.correct", "match.sign_off",
    "match.extra_hands", "penalty.record", "penalty.undo", "tournament.update",
    "player.person_link", "player.person_unlink", "tournament.rated", "tournament.category",
})
# Actions of no tournament: who is whom may change at any event (a merge, an unlink), an
# event went, or a master point scale changed.
SITE_ACTIONS = frozenset({"person.merge", "person.unlink", "tournament.delete",
                          "ratings.scale"})
BEGINNING = dt.date.min


@receiver(audited)
def _on_audited(sender, tournament: Tournament | None, action: str, **kwargs) -> None:
    note_change(tournament, action)


def note_change(tournament: Tournament | None, action: str) -> None:
    """What ``audit`` says, inside the changing transaction (the ``audited`` signal)."""
    if tournament is None:
        if action in SITE_ACTIONS and (RatingPoint.objects.exists()
                                       or MasterPointAward.objects.exists()
                                       or action == "ratings.scale"):
            mark_stale(BEGINNING)
    elif action in RATING_ACTIONS and (tournament.rated or action == "tournament.rated"):
        mark_stale(earliest_date(tournament))


def earliest_date(tournament: Tournament) -> dt.date:
    """The first date a change in this tournament can move: its last day, or an earlier
    day its points were kept under (its dates changed since)."""
    kept = RatingPoint.objects.filter(tournament=tournament).aggregate(first=Min("date"))
    return min(filter(None, (tournament.ends_on, kept["first"])))


def _locked_state() -> RatingState:
    """The one row, locked; made again if a database was emptied without its migrations
    (a test's flush): a missing row must never stop a change."""
    RatingState.objects.get_or_create(pk=RatingState.ONLY)
    return lock(ratings=True).one("ratings")


def mark_stale(since: dt.date) -> None:
    """Out of date from ``since`` on; recomputed once the caller's transaction commits."""
    state = _locked_state()
    if state.stale_since is None or since < state.stale_since:
        state.stale_since = since
        state.save(update_fields=["stale_since"])
    transaction.on_commit(_refresh_after_commit)


def _refresh_after_commit() -> None:
    try:
        refresh_ratings()
    except Exception:  # the change itself is committed: the date stays for the next try
        logger.exception("the ratings could not be recomputed; run manage.py rate")


@dataclass(frozen=True)
class Refresh:
    since: dt.date
    events: int
    hands: int
    points: int
    awards: int  # master points awarded (services.master_points)


def refresh_ratings(*, full: bool = False) -> Refresh | None:
    """Recompute what is out of date (everything with ``full``); None when nothing was."""
    with transaction.atomic():
        state = _locked_state()
        since = BEGINNING if full else state.stale_since
        if since is None:
            return None
        done = _recompute(since)
        state.stale_since, state.refreshed_at = None, timezone.now()
        state.save(update_fields=["stale_since", "refreshed_at"])
        # The persons' pages (the site's cache scope) are built again once this commits:
        # the change that made the ratings out of date announced itself before they were.
        announce_change(None)
    return done


def _recompute(since: dt.date) -> Refresh:
    start = {}
    for point in RatingPoint.objects.filter(date__lt=since).order_by(
            "person_id", "-date", "-tournament_id"):
        key = str(point.person_id)
        if key not in start:
            start[key] = Skill(point.skill, point.variance, point.hands, point.date)
    events = {t.pk: t for t in Tournament.objects.filter(rated=True, ends_on__gte=since)}
    hands = rated_hands(list(events))
    played: dict[str, set[str]] = {}
    for hand in hands:
        played.setdefault(hand.event, set()).update((hand.dealer, hand.non_dealer))
    RatingPoint.objects.filter(date__gte=since).delete()
    points = []
    for date, skills in skills_by_date(hands, start=start):
        for event in sorted(key for key in played if events[int(key)].ends_on == date):
            players = sorted(played[event], key=int)
            rows = ratings_of({player: skills[player] for player in players}, date)
            for row in rows:
                skill = skills[row.player]
                points.append(RatingPoint(
                    person_id=int(row.player), tournament_id=int(event), date=date,
                    rating=row.rating, deviation=row.deviation, hands=row.hands,
                    provisional=row.provisional, skill=skill.mean, variance=skill.variance))
    RatingPoint.objects.bulk_create(points, batch_size=1000)
    _rebuild_person_ratings()
    awards = award_master_points(since)
    return Refresh(since, len(played), len(hands), len(points), awards)


def _rebuild_person_ratings() -> None:
    """Each person's latest point, for the lists (a few thousand rows at most)."""
    latest: dict[int, RatingPoint] = {}
    for point in RatingPoint.objects.order_by("person_id", "-date", "-tournament_id"):
        latest.setdefault(point.person_id, point)
    PersonRating.objects.all().delete()
    PersonRating.objects.bulk_create([
        PersonRating(person_id=person, rating=p.rating, deviation=p.deviation, hands=p.hands,
                     provisional=p.provisional, skill=p.skill, variance=p.variance,
                     last_played=p.date)
        for person, p in latest.items()], batch_size=1000)


def set_rated(actor, tournament: Tournament, rated: bool) -> Tournament:
    """Whether an event counts for the ratings: a superuser's decision only."""
    user = actor.user
    if user is None or not user.is_authenticated or not user.is_superuser:
        raise PermissionDenied(gettext("only a superuser decides which events are rated"))
    with transaction.atomic():
        tournament = lock(tournaments=[tournament]).one("tournaments")
        if tournament.rated != rated:
            tournament.rated = rated
            tournament.save(update_fields=["rated"])
            audit(actor, tournament, "tournament.rated", rated=rated)
    return tournament
