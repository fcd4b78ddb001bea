"""Build the demo tournament (slug ``demo``) through the services: tournament/demo/.

``--season`` (issue 55) also builds an earlier event of the same persons four weeks before
(``demo-open``: a one-day Swiss of the same teams, played to the end and finished), gives
both events' players the same federation ids, and has a superuser (the site's first: there
must be one) count both for the ratings with a master points category; the ratings and
master points are computed before the command returns, so the persons' profiles show two
events of history. ``--replace`` deletes the season's earlier event too. Without
``--season`` the demo is what it always was (and quickstart builds that one).
"""

import argparse
import contextlib
import os
import time
import traceback

from django.core.management.base import BaseCommand, CommandError

from tournament import demo, first_start
from tournament.demo import DEFAULT_SEED, REFEREE, SCORER, SLUG, DemoExists


class Command(BaseCommand):
    help = (
        "Build a complete demo tournament (short name 'demo'): 16 teams, two groups of 8, "
        "a knockout of the top 4 of each group, every hand played by the simulator on the "
        "application's deals and entered, approved and signed off through the services. "
        "The same seed gives the same event."
    )

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=None,
                            help=f"the seed everything random derives from, the demo "
                                 f"accounts' passwords included (without it: seed "
                                 f"{DEFAULT_SEED}, the passwords random)")
        parser.add_argument("--live", action="store_true",
                            help="leave the final round in play, with some hands entered")
        parser.add_argument("--replace", action="store_true",
                            help="delete an existing demo tournament (and the season's "
                                 "earlier event) and build it again")
        parser.add_argument("--season", action="store_true",
                            help="also build an earlier event of the same players four "
                                 "weeks before, and count both for the ratings and master "
                                 "points (a superuser's decision: needs a superuser account)")
        parser.add_argument("--first-start", action="store_true",
                            help="build it as quickstart does on the first start: only when "
                                 "there is no tournament and none was ever deleted, one "
                                 "build at a time, its progress on the home page "
                                 "(tournament/first_start.py)")
        # Given by quickstart to the build it starts beside the server: the lock it took
        # for it, its own terminal, and the server's address.
        parser.add_argument("--lock-fd", type=int, default=None, help=argparse.SUPPRESS)
        parser.add_argument("--echo-fd", type=int, default=None, help=argparse.SUPPRESS)
        parser.add_argument("--site", default="", help=argparse.SUPPRESS)

    def handle(self, *args, seed, live, replace, season, **options):
        if options["first_start"]:
            return self.build_first_start(options["lock_fd"], options["echo_fd"],
                                          options["site"])
        started = time.perf_counter()
        seeded_passwords = seed is not None
        seed = DEFAULT_SEED if seed is None else seed
        try:
            # Looked up at each call, not bound at import: a test that stands in for the
            # build (tests/tournament/test_demo.py) leaves the next command the real one.
            built = demo.build_demo(seed, live=live, replace=replace,
                               seeded_passwords=seeded_passwords, season=season)
        except DemoExists as exists:
            self.stdout.write(f"Nothing done: {exists}. Use --replace to build it again.")
            return
        except Exception as error:  # the transaction rolled back: nothing is left
            raise CommandError(f"The demo was not built: {error}") from error
        first_start.forget_failure()
        seconds = time.perf_counter() - started
        tournament = built.tournament
        self.stdout.write(self.style.SUCCESS(
            f"Demo tournament built in {seconds:.1f} s (seed {seed}): {tournament.name}, "
            f"/t/{SLUG}/ — {built.hands} hands played by the simulator and entered "
            f"({built.cards_entries} with the final cards, {built.false_knocks} with a false "
            f"knock), {built.extra_hands} extra hands in tied knockout matches"
            + ("; the final round is in play." if live else ".")))
        if built.season is not None:
            self.stdout.write(season_line(built))
        for line in account_lines(built, seeded_passwords=seeded_passwords):
            self.stdout.write(line)


    def build_first_start(self, lock_fd, echo_fd, site):
        """The build quickstart starts beside the server: its output goes to the log, and
        the outcome to quickstart's terminal too (``echo_fd``), if it is still there."""
        started = time.perf_counter()
        self.stdout.write(f"Building the demo tournament (process {os.getpid()})…")
        try:
            built = first_start.build(lock_descriptor=lock_fd, say=self.stdout.write)
        except Exception as error:  # the transaction rolled back: nothing is left
            traceback.print_exc()
            message = (f"The demo tournament was not built: {error}. Its log: "
                       f"{first_start.log_path()}. Run python manage.py quickstart again to "
                       "try again.")
            echo(echo_fd, [message])
            raise CommandError(message) from error
        if built is None:
            self.stdout.write("Nothing done: there is a tournament already, or one was "
                              "deleted (the demo is built on the first start only).")
            return
        lines = [f"Demo tournament ready at {site}/t/{SLUG}/ (built in "
                 f"{time.perf_counter() - started:.1f} s); its staff accounts (they go "
                 "with the demo):", *account_lines(built)]
        for line in lines:
            self.stdout.write(line)
        echo(echo_fd, lines)


def echo(descriptor: int | None, lines: list[str]) -> None:
    """Lines for quickstart's terminal; nothing if it was closed meanwhile."""
    if descriptor is None:
        return
    with contextlib.suppress(OSError):
        os.write(descriptor, ("".join(f"{line}\n" for line in lines)).encode())


def season_line(built) -> str:
    """What the season added: the earlier event, the persons rated, the awards."""
    from tournament.models import MasterPointAward, PersonRating

    event, events = built.season.tournament, [built.season.tournament, built.tournament]
    rated = PersonRating.objects.filter(
        person__players__team__tournament=event).distinct().count()
    awards = MasterPointAward.objects.filter(tournament__in=events).count()
    return (f"The season: {event.name}, /t/{event.slug}/, on {event.starts_on} "
            f"({built.season.hands} hands); both events rated: {rated} persons with a "
            f"rating, {awards} master point awards.")


def account_lines(built, *, seeded_passwords: bool = False) -> list[str]:
    """The demo accounts and their passwords, a line each (also printed by quickstart)."""
    lines = []
    for username in (REFEREE, SCORER):
        password = built.passwords.get(username)
        if password is None:
            lines.append(f"  {username}: account kept from an earlier demo")
        elif seeded_passwords:
            lines.append(f"  {username}: password {password} (follows from the seed: delete "
                         "the demo before a real event)")
        else:
            lines.append(f"  {username}: password {password}")
    return lines
