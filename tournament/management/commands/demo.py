"""Build the demo tournament (slug ``demo``) through the services: tournament/demo.py."""

import time

from django.core.management.base import BaseCommand, CommandError

from tournament.demo import DEFAULT_SEED, REFEREE, SCORER, SLUG, DemoExists, build_demo


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
                            help="delete an existing demo tournament and build it again")

    def handle(self, *args, seed, live, replace, **options):
        started = time.perf_counter()
        seeded_passwords = seed is not None
        seed = DEFAULT_SEED if seed is None else seed
        try:
            built = build_demo(seed, live=live, replace=replace,
                               seeded_passwords=seeded_passwords)
        except DemoExists as exists:
            self.stdout.write(f"Nothing done: {exists}. Use --replace to build it again.")
            return
        except Exception as error:  # the transaction rolled back: nothing is left
            raise CommandError(f"The demo was not built: {error}") from error
        seconds = time.perf_counter() - started
        tournament = built.tournament
        self.stdout.write(self.style.SUCCESS(
            f"Demo tournament built in {seconds:.1f} s (seed {seed}): {tournament.name}, "
            f"/t/{SLUG}/ — {built.hands} hands played by the simulator and entered "
            f"({built.cards_entries} with the final cards, {built.false_knocks} with a false "
            f"knock), {built.extra_hands} extra hands in tied knockout matches"
            + ("; the final round is in play." if live else ".")))
        for line in account_lines(built, seeded_passwords=seeded_passwords):
            self.stdout.write(line)


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
