"""``python manage.py rate [--full] [--export]``: the persons' duplicate ratings.

Without options, recomputes what a change left out of date (normally done at once after
the change: this catches up after a failure, services.ratings). ``--full`` recomputes every
rated event from the first. ``--export`` then prints every counted hand as the JSON lines
``python -m scoring ratings`` reads (players named by person id), so anyone can re-run the
rating outside the application and get the same list (docs/ratings.md).
"""

import json

from django.core.management.base import BaseCommand

from tournament.models import Tournament
from tournament.selectors.rated_hands import rated_hands
from tournament.services.ratings import refresh_ratings


class Command(BaseCommand):
    help = "Recompute the persons' ratings from the stored results of the rated events."

    def add_arguments(self, parser):
        parser.add_argument("--full", action="store_true",
                            help="recompute from the first rated event, not only what is "
                                 "out of date")
        parser.add_argument("--export", action="store_true",
                            help="print the counted hands as JSON lines for "
                                 "python -m scoring ratings, and nothing else")

    def handle(self, *args, full, export, **options):
        if export:
            ids = list(Tournament.objects.filter(rated=True).values_list("pk", flat=True))
            for hand in sorted(rated_hands(ids)):
                self.stdout.write(json.dumps({
                    "event": hand.event, "date": hand.date.isoformat(), "box": hand.box,
                    "dealer": hand.dealer, "non_dealer": hand.non_dealer,
                    "dealer_points": hand.dealer_points}))
            return
        done = refresh_ratings(full=full)
        if done is None:
            self.stdout.write("The ratings are up to date.")
        else:
            self.stdout.write(
                f"Rated {done.hands} hands of {done.events} events from {done.since}: "
                f"{done.points} points of history written, {done.awards} master point "
                f"awards.")
