"""The demo's rounds as the tables play them: each round drawn, dealt, published and
started, every hand played by the players' bots on the table's box, entered, approved and
signed, the matches signed off (a tied knockout match plays extra hands) and the round
closed; and what happens besides the play (a default, a lateness, a warning, a small-point
deduction, a hand corrected after the round)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from scoring import seating
from scoring.bots import Strategy
from scoring.box import Box
from scoring.match import plays_extra_hands
from scoring.simulate import Seat, play_box
from tournament.demo.players import entry_of, play_of, swap_seats
from tournament.demo.programme import HAND_MINUTES
from tournament.models import Deal, HandResult, Match, Round, Stage, Table, Tournament


@dataclass
class Built:
    """What the demo built: the tournament, the demo accounts' passwords and counts."""

    tournament: Tournament
    passwords: dict[str, str | None] = field(default_factory=dict)
    hands: int = 0
    false_knocks: int = 0
    cards_entries: int = 0
    extra_hands: int = 0
    season: Built | None = None  # the earlier event of demo --season (demo/season.py)


class RoundPlay:
    """The play of the demo's rounds, a part of ``builder.Demo``: it reads the demo's clock
    and seeded values (``clock``, ``values``), its actors (``director``, ``referee``,
    ``scorer_user``), the players' leanings (``styles``) and ``progress``, and keeps the
    hand entered with the wrong seat (``slip_pending``, ``wrong``, ``correction``)."""

    def scorer(self, table: Table):
        from tournament.services import Actor

        return Actor(user=self.scorer_user, ip=f"10.20.1.{table.number}",
                     device=f"Demo: scoring tablet {table.number}")

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
        """(table id, seat) → the player's id: who sits where (``TableSeat``, written with
        the line-ups by the draw, RULES.md §8)."""
        from tournament.models import TableSeat

        return {(table, seat): player for table, seat, player in TableSeat.objects.filter(
            round=round_).exclude(table__match__forfeited_by__isnull=False).values_list(
            "table_id", "seat", "player_id")}

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
