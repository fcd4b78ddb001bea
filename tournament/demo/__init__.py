"""A finished demo event, built through the services as staff would build it (issue 14).

``python manage.py demo [--seed N] [--live] [--replace] [--season]`` and ``quickstart`` on
its first start call ``build_demo``. What it makes (tournament slug ``demo``):

- 16 teams from around the world, two groups of 8 playing a round robin (7 rounds), and a
  knockout of the top 4 of each group (quarter-finals, semi-finals, final and a match for
  third place), seeded from the group standings by ``services.seeding``;
- every round drawn, dealt (``services.deals``: the application's own deals), published,
  started, every hand played by two bots of ``scoring`` on the very box the table got
  (``scoring.simulate.play_box``), entered by a scorer (half the tables give the final
  cards, the rest the counts), approved by both players, the tables signed, the matches
  signed off by a referee and the round closed; a tied knockout match plays extra hands;
- some players miscount and knock above the knock limit now and then (a false knock,
  recorded, and the hand goes on); a lateness within the limit, a warning and a
  small-point deduction; a team that defaults a group match on the second day (and so
  withdraws from the group stage); a hand entered with the wrong seat, signed off, and
  corrected by the referee after the round was closed;
- at the end the deal key is revealed (anyone can then check every deal) and the
  tournament is finished. ``live=True`` stops in the final round instead: some hands
  entered, some approved, the round in play.
- ``season=True`` (``demo --season``, issue 55; ``season``): besides, an earlier event of
  the same persons four weeks before (``demo-open``, a one-day Swiss of the same teams,
  played and finished the same way), the players of both with the same federation ids,
  and both events rated with a master points category by a superuser; the ratings and
  master points are computed before ``build_demo`` returns. The cup's play is the same
  with or without it. Without it nothing of this is made: quickstart's demo is unrated.

Same seed, same event. Everything the services would draw at random comes from the seed
while the demo is built (``seeded``): the deal keys (``scoring.deals.new_key``), the
request tokens (passed in, as an entry form does), the salts of passwords and PINs
(``django.contrib.auth.hashers.get_random_string``), the staff accounts' one-time
passwords (``services.staff``) and every time (``django.utils.timezone.now``, which the
services and the models' automatic dates read) from a clock the demo moves along the
event's three days. Nothing else is patched and nothing is written past the services, but
the demo accounts: ``demo-director`` (no usable password: it only creates the tournament;
log in with your own director account, which sees every tournament), ``demo-referee`` and
``demo-scorer`` (random passwords, printed; from the seed only with ``demo --seed N``, for
tests). They have roles in the demo only (the director in the season's earlier event
too); deleting the demo makes all three inactive, without a usable password
(``demo_accounts.retire_accounts``), and a later demo brings them back with new
passwords. And ``replace`` deletes the persons of the demo's federation an earlier
``--season`` left with no player (made by the demo alone, they would linger in the lists).

The package, one module a job: ``programme`` (the teams and the timetable), ``clock`` (the
seed's values and the event's clock), ``players`` (the bots and what the scorer enters),
``play`` (the rounds as the tables play them), ``event`` (one event's set-up and the
order of its rounds), ``builder`` (``build_demo``: the events in one transaction) and
``season`` (the earlier event and the ratings). The
names the management commands, ``first_start``, the views and the tests use are imported
here.
"""

from __future__ import annotations

from tournament.demo.builder import DEFAULT_SEED, DemoExists, build_demo
from tournament.demo.clock import Clock, Seeded, seeded, venue_time
from tournament.demo.event import Demo, revive_account
from tournament.demo.play import Built, RoundPlay
from tournament.demo.players import Miscounter, entry_of, play_of, player_style, swap_seats
from tournament.demo.programme import (
    FIRST_DAY,
    GROUP_STARTS,
    HAND_MINUTES,
    HANDS_PER_MATCH,
    KNOCKOUT_STARTS,
    TEAMS,
    TIME_ZONE,
)
from tournament.demo_accounts import DIRECTOR, REFEREE, SCORER, SLUG

__all__ = [
    "DEFAULT_SEED", "DIRECTOR", "FIRST_DAY", "GROUP_STARTS", "HANDS_PER_MATCH", "HAND_MINUTES",
    "KNOCKOUT_STARTS", "REFEREE", "SCORER", "SLUG", "TEAMS", "TIME_ZONE", "Built", "Clock",
    "Demo", "DemoExists", "Miscounter", "RoundPlay", "Seeded", "build_demo", "entry_of",
    "play_of", "player_style", "revive_account", "seeded", "swap_seats", "venue_time",
]
