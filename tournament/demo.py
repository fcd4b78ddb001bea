"""A finished demo event, built through the services as staff would build it (issue 14).

``python manage.py demo [--seed N] [--live] [--replace]`` and ``quickstart`` on its first
start call ``build_demo``. What it makes (tournament slug ``demo``):

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
tests). They have roles in the demo only; deleting the demo makes all three inactive,
without a usable password (``demo_accounts.retire_accounts``), and a later demo brings them
back with new passwords.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import hmac
import random
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from unittest import mock
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from scoring import seating
from scoring.bots import GinWaiter, Greedy, Move, Strategy, TableView
from scoring.box import Box
from scoring.match import plays_extra_hands
from scoring.melds import best_discard_of_mask
from scoring.simulate import HandRecord, Seat, play_box
from tournament.demo_accounts import DIRECTOR, REFEREE, SCORER, SLUG
from tournament.models import Deal, HandResult, Match, Role, Round, Stage, Table, Tournament

DEFAULT_SEED = 2026
TIME_ZONE = "Europe/Vienna"
FIRST_DAY = dt.date(2025, 10, 17)

# code, name, country, (player 1, player 2[, reserve]): seeds in this order.
TEAMS = [
    ("CHN-R", "中国红队", "China", ("王磊", "陈静", "赵敏")),
    ("ENG", "London Rummy Society", "England", ("Oliver Bennett", "Priya Shah")),
    ("USA", "New York Gin Club", "United States", ("Dorothy Reyes", "Marcus Whitfield")),
    ("TPE", "中華台北", "Chinese Taipei", ("林志明", "黃雅婷")),
    ("FRA", "Les As de Paris", "France", ("Camille Lefèvre", "Julien Moreau")),
    ("GER", "Berliner Kartenfreunde", "Germany", ("Lukas Schneider", "Anna Becker")),
    ("JPN", "Team Sakura", "Japan", ("佐藤健", "鈴木花子")),
    ("ITA", "Scala Quaranta Milano", "Italy", ("Giulia Romano", "Marco Bianchi")),
    ("HKG", "香港維港隊", "Hong Kong", ("陳嘉欣", "Tony Leung Ka-fai")),
    ("ESP", "Barcelona Descarte", "Spain", ("Lucía Fernández", "Javier Ortega")),
    ("KOR", "Seoul Knockers", "Korea", ("Kim Min-jun", "Park Ji-woo")),
    ("BRA", "Rio Canastra", "Brazil", ("Ana Beatriz Souza", "Rafael Lima")),
    ("CHN-B", "中国蓝队", "China", ("张伟", "刘洋")),
    ("IND", "Mumbai Aces", "India", ("Arjun Mehta", "Ananya Iyer")),
    ("AUS", "Sydney Sundowners", "Australia", ("Chloe Nguyen", "Jack O'Brien")),
    ("ISR", "Tel Aviv Gin", "Israel", ("Noa Levi", "Daniel Cohen")),
]

# Round start times, venue time: (day, hour, minute); the knockout follows the groups.
GROUP_STARTS = [(0, 9, 30), (0, 11, 15), (0, 14, 0), (0, 15, 45), (1, 9, 30), (1, 11, 15),
                (1, 14, 0)]
KNOCKOUT_STARTS = [(1, 15, 45), (2, 9, 30), (2, 11, 30)]
HAND_MINUTES = 9
HANDS_PER_MATCH = 6  # boxes a match (the default is 8): the demo builds in seconds


# Seeded randomness and the clock ----------------------------------------------------------

class Seeded:
    """Every value the demo draws, from the seed: the same seed gives the same values in
    the same order."""

    def __init__(self, seed: int):
        self.seed = seed
        self.counts: dict[str, int] = {}
        self.salts = self.rng("salts")

    def bytes(self, label: str, length: int = 32) -> bytes:
        number = self.counts[label] = self.counts.get(label, 0) + 1
        message = f"{label}|{number}".encode()
        out = b""
        block = 0
        while len(out) < length:
            out += hmac.digest(f"duplicate-gin-demo|{self.seed}".encode(),
                               message + f"|{block}".encode(), hashlib.sha256)
            block += 1
        return out[:length]

    def use_salts(self, label: str) -> None:
        """The salts from here on come from their own stream: the players' PINs get the
        same salts whether or not the demo accounts existed before."""
        self.salts = self.rng(f"salts {label}")

    def rng(self, label: str) -> random.Random:
        return random.Random(int.from_bytes(self.bytes(label), "big"))

    def token(self) -> uuid.UUID:
        return uuid.UUID(bytes=self.bytes("request token", 16), version=4)


class Clock:
    """The event's time: moved on by the demo, never back; read through
    ``django.utils.timezone.now`` while the demo is built."""

    def __init__(self, start: dt.datetime):
        self.moment = start

    def now(self) -> dt.datetime:
        return self.moment

    def at(self, moment: dt.datetime) -> dt.datetime:
        self.moment = max(self.moment, moment)
        return self.moment


def venue_time(day: int, hour: int, minute: int) -> dt.datetime:
    local = dt.datetime.combine(FIRST_DAY + dt.timedelta(days=day), dt.time(hour, minute),
                                tzinfo=ZoneInfo(TIME_ZONE))
    return local.astimezone(dt.UTC)


@contextlib.contextmanager
def seeded(seed: int, clock: Clock, *, seeded_passwords: bool = False) -> Iterator[Seeded]:
    """While the demo is built: the clock, and the seed in place of the system's
    randomness (module docstring). The demo accounts' passwords follow from the seed only
    when asked (``demo --seed N``): otherwise they are the system's random ones, so that
    nobody can work them out from the default seed."""
    values = Seeded(seed)
    passwords = values.rng("passwords") if seeded_passwords else secrets.SystemRandom()

    def random_string(length, allowed_chars="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789"):
        return "".join(values.salts.choice(allowed_chars) for _ in range(length))

    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch("django.utils.timezone.now", clock.now))
        stack.enter_context(mock.patch("scoring.deals.new_key",
                                       lambda: values.bytes("deal key")))
        stack.enter_context(mock.patch("django.contrib.auth.hashers.get_random_string",
                                       random_string))
        stack.enter_context(mock.patch("tournament.services.staff.secrets",
                                       mock.Mock(choice=passwords.choice)))
        yield values


# Players: bots that sometimes miscount ----------------------------------------------------

@dataclass(frozen=True)
class Miscounter:
    """Plays like ``base`` but, now and then, knocks with a few points too many: a false
    knock (RULES.md §7), which the simulator records and the hand goes on."""

    base: Strategy
    rng: random.Random
    rate: float
    name: str = "miscounter"

    def takes_discard(self, hand: int, upcard: int, view: TableView) -> bool:
        return self.base.takes_discard(hand, upcard, view)

    def move(self, hand: int, taken: int | None, view: TableView) -> Move:
        move = self.base.move(hand, taken, view)
        if move.declare or move.discard is None or view.opening or not view.may_declare:
            return move
        keep = 0 if taken is None else 1 << taken
        after, discard = best_discard_of_mask(hand, keep)
        limit = view.rules.knock_limit
        if limit < after <= limit + 3 and self.rng.random() < self.rate:
            return Move(discard, True)
        return move


def player_style(number: int) -> float:
    """Each player's leaning, fixed for the event: how often he knocks at once rather than
    wait for gin (by the order players are listed)."""
    return (0.8, 0.5, 0.2)[number % 3]


def play_of(leaning: float, rng: random.Random) -> Strategy:
    """How a player plays one box: knocks at once, or waits for gin until the stock is
    short (how short, from box to box); now and then he miscounts. Two tables of a match
    play the same box differently, so a knockout match tied after its boxes is soon
    decided by the extra ones, as in real play."""
    base = Greedy() if rng.random() < leaning else GinWaiter(knocks_below=rng.randint(2, 16))
    return Miscounter(base, rng, rate=0.015)


# The event --------------------------------------------------------------------------------

@dataclass
class Built:
    tournament: Tournament
    passwords: dict[str, str | None] = field(default_factory=dict)
    hands: int = 0
    false_knocks: int = 0
    cards_entries: int = 0
    extra_hands: int = 0


class Demo:
    def __init__(self, seed: int, live: bool, clock: Clock, values: Seeded, progress=None):
        self.seed, self.live, self.clock, self.values = seed, live, clock, values
        self.progress = progress or (lambda text: None)
        self.styles: dict[int, float] = {}
        self.slip_pending = False  # the wrong seat entered in round 2 of the groups
        self.wrong: HandResult | None = None

    # Actors ---------------------------------------------------------------------------

    def accounts(self) -> None:
        from tournament.services import Actor

        User = get_user_model()
        director = User.objects.filter(username=DIRECTOR).first()
        if director is None:
            # The organiser's account: it creates the tournament and is its director. It
            # never logs in (no usable password), so the right to create tournaments it
            # needs gives nobody anything.
            director = User.objects.create_user(DIRECTOR)
            director.user_permissions.add(Permission.objects.get(
                content_type__app_label="tournament", codename="add_tournament"))
            director = User.objects.get(pk=director.pk)
        elif not director.is_active:  # retired with an earlier demo; still no password
            director.is_active = True
            director.save(update_fields=["is_active"])
        self.director = Actor(user=director, ip="10.20.0.1", device="Demo: director's laptop")

    def staff(self, tournament: Tournament, built: Built) -> None:
        from tournament.services import Actor
        from tournament.services.staff import assign_role

        # Accounts retired with an earlier demo (deleting it makes them inactive, without a
        # usable password) come back with new passwords.
        for username in (REFEREE, SCORER):
            built.passwords.update(revive_account(username))
        referee, password = assign_role(self.director, tournament, username=REFEREE,
                                        role=Role.REFEREE, is_chief_referee=True,
                                        create_account=True)
        built.passwords.setdefault(REFEREE, password)
        self.referee = Actor(user=referee.user, ip="10.20.0.2",
                             device="Demo: referee's tablet")
        scorer, password = assign_role(self.director, tournament, username=SCORER,
                                       role=Role.SCORER, create_account=True)
        built.passwords.setdefault(SCORER, password)
        self.scorer_user = scorer.user

    def scorer(self, table: Table):
        from tournament.services import Actor

        return Actor(user=self.scorer_user, ip=f"10.20.1.{table.number}",
                     device=f"Demo: scoring tablet {table.number}")

    # The whole event --------------------------------------------------------------------

    def build(self) -> Built:
        from tournament.services.seeding import seed_from_standings
        from tournament.services.stages import allot_groups, create_stage
        from tournament.services.teams import create_team, parse_team_entry, set_player_pin
        from tournament.services.tournaments import create_tournament, open_to_public

        self.clock.at(venue_time(-7, 18, 0))  # set up a week before
        self.accounts()
        tournament = create_tournament(
            self.director, name="Demo Team Cup", slug=SLUG, starts_on=FIRST_DAY,
            ends_on=FIRST_DAY + dt.timedelta(days=2), venue="Vienna (demo event)",
            time_zone=TIME_ZONE, live_results=Tournament.LiveResults.FINISHED_BOXES,
            hands_per_match=HANDS_PER_MATCH)
        built = Built(tournament)
        self.staff(tournament, built)
        teams = []
        pins = self.values.rng("pins")
        self.values.use_salts("pins")
        for seed, (code, name, country, players) in enumerate(TEAMS, 1):
            raw = {"code": code, "name": name, "country": country, "seed": str(seed),
                   "player1": players[0], "player2": players[1]}
            if len(players) > 2:
                raw["reserve"] = players[2]
            team = create_team(self.director, tournament, parse_team_entry(raw))
            teams.append(team)
            for player in team.players.order_by("number"):
                set_player_pin(self.director, player, f"{pins.randrange(10000):04d}")
        for number, player_id in enumerate(
                tournament.teams.order_by("seed", "players__number").values_list(
                    "players__id", flat=True)):
            self.styles[player_id] = player_style(number)
        groups = create_stage(self.director, tournament, name="Groups",
                              kind=Stage.Kind.GROUPS)
        # Snake seeding: A has seeds 1, 4, 5, 8, …; B has 2, 3, 6, 7, …
        allot_groups(self.director, groups, [
            [t for i, t in enumerate(teams) if i % 4 in (0, 3)],
            [t for i, t in enumerate(teams) if i % 4 in (1, 2)],
        ])
        knockout = create_stage(self.director, tournament, name="Knockout",
                                kind=Stage.Kind.KNOCKOUT, third_place_match=True,
                                qualify_from=groups, qualifiers_per_group=4)
        self.clock.at(venue_time(0, 8, 30))
        open_to_public(self.director, tournament)

        for number, start in enumerate(GROUP_STARTS, 1):
            self.play_round(groups, number, venue_time(*start), built)
        self.clock.at(venue_time(*KNOCKOUT_STARTS[0]) - dt.timedelta(minutes=25))
        knockout.refresh_from_db()
        seed_from_standings(self.director, knockout)
        for number, start in enumerate(KNOCKOUT_STARTS, 1):
            last = number == len(KNOCKOUT_STARTS)
            self.play_round(knockout, number, venue_time(*start), built,
                            stop=last and self.live)
        if not self.live:
            self.finish(tournament)
        built.tournament = Tournament.objects.get(pk=tournament.pk)
        return built

    def finish(self, tournament: Tournament) -> None:
        from tournament.services.deals import reveal_key
        from tournament.services.tournaments import update_tournament

        self.clock.at(self.clock.moment + dt.timedelta(minutes=30))
        reveal_key(self.director, tournament)
        update_tournament(self.director, Tournament.objects.get(pk=tournament.pk),
                          status=Tournament.Status.FINISHED)

    # One round --------------------------------------------------------------------------

    def play_round(self, stage: Stage, number: int, start: dt.datetime, built: Built, *,
                   stop: bool = False) -> Round:
        from tournament.services.deals import generate_deals
        from tournament.services.draw import generate_round
        from tournament.services.rounds import close_round, publish_round, start_round

        self.clock.at(start - dt.timedelta(minutes=20))
        round_ = generate_round(self.director, stage, expected_number=number)
        generate_deals(self.director, round_)
        self.clock.at(start - dt.timedelta(minutes=15))
        round_ = publish_round(self.director, round_)
        self.before_play(stage, round_, start)
        self.clock.at(start)
        round_ = start_round(self.director, round_)
        rules = round_.rules
        matches = list(Match.objects.filter(round=round_, forfeited_by=None)
                       .select_related("round__stage__tournament", "home", "away")
                       .order_by("number"))
        tables = {m.pk: list(Table.objects.filter(match=m).select_related(
            "match__round__stage__tournament").order_by("position")) for m in matches}
        seats = self.seats(round_)
        hands = round_.hands_per_match
        self.slip_pending = stage.kind == Stage.Kind.GROUPS and number == 2
        last_hand = hands // 2 + 1 if stop else hands
        for hand in range(1, last_hand + 1):
            moment = start + dt.timedelta(minutes=HAND_MINUTES * hand - 2)
            deal = self.deal(round_, 1, hand)
            for index, match in enumerate(matches):
                for table in tables[match.pk]:
                    self.clock.at(moment + dt.timedelta(seconds=20 * index + 9 * table.position))
                    approve = not (stop and hand == last_hand and table.position == 2)
                    slip = self.slip_pending and index == 0 and hand >= 5
                    self.play_hand(table, hand, deal, rules, seats, built, approve=approve,
                                   wrong_seat=slip)
            self.during_play(stage, round_, hand, matches)
        if stop:
            return round_
        finish = start + dt.timedelta(minutes=HAND_MINUTES * hands + 3)
        for index, match in enumerate(matches):
            self.clock.at(finish + dt.timedelta(seconds=30 * index))
            match = self.extra_hands(match, tables[match.pk], rules, seats, built)
            self.sign(match, tables[match.pk])
        self.clock.at(finish + dt.timedelta(minutes=8))
        round_ = close_round(self.director, Round.objects.get(pk=round_.pk))
        self.after_close(stage, round_, finish + dt.timedelta(minutes=12))
        self.progress(f"{stage.name}, round {number} played")
        return round_

    def seats(self, round_: Round) -> dict[tuple[int, int], int]:
        """(table id, seat) → the player's id, from the round's line-ups (RULES.md §8)."""
        from tournament.models import RoundEntry

        lineups: dict[int, dict[str, tuple[int, int]]] = {}
        for match, side, first, second in RoundEntry.objects.filter(
                round=round_).exclude(match=None).values_list(
                "match_id", "side", "first_player_id", "second_player_id"):
            lineups.setdefault(match, {})[side] = (first, second)
        return {(table.pk, seat): seating.player_in_seat(table.position, seat,
                                                       lineups[table.match_id])
                for table in Table.objects.filter(round=round_).exclude(
                    match__forfeited_by__isnull=False) for seat in (1, 2)}

    def deal(self, round_: Round, deal_set: int, hand: int) -> Deal:
        return Deal.objects.get(round=round_, deal_set=deal_set, hand=hand, is_current=True)

    def play_hand(self, table: Table, hand: int, deal: Deal, rules, seats, built: Built, *,
                  approve: bool = True, wrong_seat: bool = False) -> HandResult:
        """The table plays the box, the scorer enters what happened, both players
        approve."""
        from tournament.services.approvals import approve_hand
        from tournament.services.cards import CardsEntry, settle_cards
        from tournament.services.entry import record_hand_result

        dealer = seating.dealer_seat(hand)
        seat_of = {Seat.DEALER: dealer, Seat.NON_DEALER: 3 - dealer}
        # Named by where it is played, never by database ids: a second build in the same
        # database (other ids) plays the same event.
        match = table.match
        rng = self.values.rng(f"play {match.round.stage.order} {match.round.number} "
                              f"{match.number} {table.position} {hand}")
        players = {seat: self.player(seats[table.pk, seat], rng) for seat in (1, 2)}
        record = play_box(Box.from_order(deal.cards.split()), players[dealer],
                          players[3 - dealer], rules=rules)
        entry = entry_of(record, seat_of)
        wrong_seat = wrong_seat and record.declarer is not None and record.false_knock is None
        cards = None
        if (record.declarer is not None and record.false_knock is None
                and table.number % 2 == 1 and not wrong_seat):
            # The scorer types both final hands; the engine finds the rest.
            kept = record.final_hands[record.declarer]
            other = record.final_hands[record.declarer.other]
            settled = settle_cards(CardsEntry(
                declarer_seat=seat_of[record.declarer],
                declarer_cards=" ".join(str(c) for c in kept),
                opponent_cards=" ".join(str(c) for c in other)), rules,
                claimed=record.score.outcome.value if record.score.outcome.value != "undercut"
                else "knock")
            assert settled.entry == entry, (settled.entry, entry)
            cards = settled.record
            built.cards_entries += 1
        if wrong_seat:
            entry = swap_seats(entry)
        actor = self.scorer(table)
        result = record_hand_result(actor, table, hand, entry, seen_version=0,
                                    request_token=self.values.token(), cards=cards)
        expected = (record.points(Seat.DEALER), record.points(Seat.NON_DEALER))
        stored = {1: result.seat1_points, 2: result.seat2_points}
        assert wrong_seat or (stored[dealer], stored[3 - dealer]) == expected, (
            record.to_dict(), entry)
        if wrong_seat:
            self.wrong, self.slip_pending = result, False
        built.hands += 1
        built.false_knocks += record.false_knock is not None
        if approve:
            self.clock.at(self.clock.moment + dt.timedelta(seconds=4))
            for seat in (1, 2):
                approve_hand(actor, result, seat)
        return result

    def player(self, player_id: int, rng: random.Random) -> Strategy:
        return play_of(self.styles[player_id], rng)

    def extra_hands(self, match: Match, tables: list[Table], rules, seats,
                    built: Built) -> Match:
        """A knockout match level after its hands plays on, two boxes at a time."""
        from tournament.selectors.results import is_knockout, match_totals
        from tournament.services.extra_hands import add_extra_hands

        for _ in range(50):
            match = Match.objects.select_related("round__stage__tournament", "home",
                                                 "away").get(pk=match.pk)
            home, away = match_totals(match)
            if not plays_extra_hands(knockout=is_knockout(match), home_total=home,
                                     away_total=away):
                return match
            match = add_extra_hands(self.referee, match)
            for hand in range(match.hands - rules.knockout_tiebreak_hands + 1,
                              match.hands + 1):
                deal = self.deal(match.round, 1, hand)
                for table in tables:
                    self.clock.at(self.clock.moment + dt.timedelta(minutes=3))
                    self.play_hand(Table.objects.select_related(
                        "match__round__stage__tournament").get(pk=table.pk), hand, deal,
                        rules, seats, built)
                built.extra_hands += 1
        raise RuntimeError(f"match {match.number} of {match.round} is still tied after 100 "
                           "extra hands")

    def sign(self, match: Match, tables: list[Table]) -> Match:
        from tournament.services.approvals import sign_table
        from tournament.services.signoff import sign_off_match

        for table in tables:
            actor = self.scorer(table)
            for seat in (1, 2):
                self.clock.at(self.clock.moment + dt.timedelta(seconds=5))
                sign_table(actor, table, seat)
        self.clock.at(self.clock.moment + dt.timedelta(seconds=40))
        return sign_off_match(self.referee, Match.objects.select_related(
            "round__stage__tournament", "home", "away").get(pk=match.pk))

    # What happens besides the play ------------------------------------------------------

    def before_play(self, stage: Stage, round_: Round, start: dt.datetime) -> None:
        """Round 6 of the groups: a team does not come back on the second day."""
        from tournament.services.penalties import record_penalty

        if stage.kind != Stage.Kind.GROUPS or round_.number != 6:
            return
        self.clock.at(start - dt.timedelta(minutes=5))
        team = stage.tournament.teams.get(code="ISR")
        match = Match.objects.get(round=round_, home=team) if Match.objects.filter(
            round=round_, home=team).exists() else Match.objects.get(round=round_, away=team)
        record_penalty(self.referee, team=team, round=round_, match=match, kind="default",
                       reason="The team did not come back for the second day and withdrew "
                              "from the tournament.")

    def during_play(self, stage: Stage, round_: Round, hand: int,
                    matches: list[Match]) -> None:
        from tournament.services.penalties import record_penalty

        if stage.kind != Stage.Kind.GROUPS:
            return
        tournament = stage.tournament
        where = (round_.number, hand)
        self.clock.at(self.clock.moment + dt.timedelta(seconds=30))
        if where == (2, 1):
            team = tournament.teams.get(code="BRA")
            match = next(m for m in matches if team.pk in (m.home_id, m.away_id))
            record_penalty(self.referee, team=team, round=round_, match=match,
                           kind="lateness", minutes=6,
                           reason="Rafael Lima sat down six minutes after the start.")
        elif where == (4, 3):
            team = tournament.teams.get(code="GER")
            record_penalty(self.referee, team=team, round=round_, kind="warning",
                           reason="Slow play at table 1, timed by the referee.")
        elif where == (5, 6):
            team = tournament.teams.get(code="GER")
            record_penalty(self.referee, team=team, round=round_, kind="small_points",
                           amount=20, reason="Slow play again after the warning of round 4.")

    def after_close(self, stage: Stage, round_: Round, moment: dt.datetime) -> None:
        """Round 2 of the groups: a hand was signed off with the wrong seat; after the
        round is closed the players come to the referee, who corrects it."""
        if stage.kind != Stage.Kind.GROUPS or round_.number != 2:
            return
        self.correction = self.correct(round_, moment)

    def correct(self, round_: Round, moment: dt.datetime) -> HandResult:
        from tournament.services.approvals import approve_hand, sign_table
        from tournament.services.entry import record_hand_result
        from tournament.services.hands import HandEntry
        from tournament.services.signoff import sign_off_match

        wrong = self.wrong
        table = Table.objects.select_related("match__round__stage__tournament").get(
            pk=wrong.table_id)
        right = swap_seats(HandEntry.of(wrong))
        self.clock.at(moment)
        result = record_hand_result(
            self.referee, table, wrong.hand, right, seen_version=wrong.version,
            request_token=self.values.token(),
            reason=f"The scorer put the {right.outcome.replace('_', ' ')} in the other seat; "
                   "both players confirmed at the referee's desk who declared.")
        self.clock.at(moment + dt.timedelta(minutes=2))
        for seat in (1, 2):
            approve_hand(self.referee, result, seat)
        for each in Table.objects.filter(match=table.match).select_related(
                "match__round__stage__tournament"):
            for seat in (1, 2):
                sign_table(self.referee, each, seat)
        self.clock.at(moment + dt.timedelta(minutes=4))
        sign_off_match(self.referee, Match.objects.select_related(
            "round__stage__tournament", "home", "away").get(pk=table.match_id))
        return result


def entry_of(record: HandRecord, seat_of: dict[Seat, int]):
    """What the scorer enters for a hand the simulator played: the counts."""
    from tournament.services.hands import HandEntry

    score = record.score
    outcome = "knock" if score.outcome.value == "undercut" else score.outcome.value
    false_knock = record.false_knock
    fk_seat = seat_of[false_knock.player] if false_knock else None
    fk_deadwood = false_knock.deadwood if false_knock else None
    if record.declarer is None:
        return HandEntry("draw", None, None, None, fk_seat, fk_deadwood)
    return HandEntry(
        outcome, seat_of[record.declarer],
        score.declarer_deadwood,
        None if false_knock else score.opponent_deadwood, fk_seat, fk_deadwood)


def swap_seats(entry):
    """The same entry with the other seat as the declarer (a scorer's slip)."""
    from dataclasses import replace

    return replace(entry, declarer_seat=3 - entry.declarer_seat)


# Entry points -----------------------------------------------------------------------------

def revive_account(username: str) -> dict[str, str]:
    """A demo account retired with an earlier demo: active again, with a new password
    (``{username: password}``); nothing for an account that does not exist or is active."""
    from tournament.services.staff import _new_password

    user = get_user_model().objects.filter(username=username, is_active=False).first()
    if user is None:
        return {}
    password = _new_password()
    user.set_password(password)
    user.is_active = True
    user.save(update_fields=["password", "is_active"])
    return {username: password}


class DemoExists(Exception):
    pass


def build_demo(seed: int = DEFAULT_SEED, *, live: bool = False, replace: bool = False,
               progress=None, seeded_passwords: bool = False) -> Built:
    """Build the demo in one transaction (all or nothing; each service's own transaction is
    a savepoint in it). An existing ``demo`` tournament is deleted first with ``replace``
    (through the delete service, as its director), else ``DemoExists`` is raised."""
    from tournament.services import Actor
    from tournament.services.tournaments import delete_tournament

    clock = Clock(venue_time(-7, 18, 0))
    existing = Tournament.objects.filter(slug=SLUG).first()
    if existing is not None and not replace:
        raise DemoExists(f"a tournament with the short name {SLUG!r} exists already "
                         f"({existing.name})")
    with transaction.atomic():
        if existing is not None:
            director = existing.staff.filter(role=Role.DIRECTOR).select_related(
                "user").first()
            user = director.user if director else get_user_model().objects.filter(
                is_superuser=True).first()
            delete_tournament(Actor(user=user, device="manage.py demo --replace"), existing,
                              confirm_name=existing.name)
        with seeded(seed, clock, seeded_passwords=seeded_passwords) as values:
            return Demo(seed, live, clock, values, progress).build()
