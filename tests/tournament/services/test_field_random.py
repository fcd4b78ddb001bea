"""Players against the field and the individual standings on random events (issue 28,
item 1, "done when"): the fast ``selectors.field.field_standings`` (integer arithmetic,
plain values read) against the one it replaced (``field_standings_reference.py``:
``Played`` objects and the ``Fraction`` code), and ``selectors.individual.individual``
(the seats' tallies added up) against the one that counted every hand
(``individual_reference.py``),
after every step of a random tournament taken through the services: hands entered and
corrected, matches signed off, point deductions, lateness, defaults and disqualifications
(a group stage withdraws the team: its tables leave the field) recorded and undone, rounds
closed, drawn, published and started. Every figure the pages show must be equal, exactly:
ranks, players, totals, per-hand figures, dealer and non-dealer splits, raw points,
provisional marks, the teams left out; for the staff's view, the scorers' (closed rounds,
official hands), the public's (``selectors.visibility.public_views``) and one round's.

The steps are those of ``test_standings_random.py``; the events here are bigger (6 to 10
teams: up to 10 tables on a deal, so the datum is trimmed from 8), with one or two hands a
match, one deal set for the field or one per match, and deals made in some rounds (a deal
named by its row) but not in others (named by its set and hand). 10 examples of up to 24
steps: about 20 s on a quiet machine. To see it fail, break the selector's seating or its
withdrawn teams (``tournament/selectors/field.py``).
"""

from __future__ import annotations

import uuid
from dataclasses import astuple
from fractions import Fraction

import field_standings_reference as reference
import individual_reference
import pytest
import test_standings_random as random_event
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tournament.models import HandResult, Round, StaffRole, Stage, Tournament
from tournament.selectors.field import field_standings
from tournament.selectors.individual import individual
from tournament.selectors.visibility import public_views
from tournament.services import Actor, ServiceError
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage, enter_teams
from tournament.services.teams import create_team, parse_team_entry
from tournament.services.tournaments import update_tournament


def line_figures(line):
    exact = (line.against_field, line.per_hand, line.dealer_against_field,
             line.non_dealer_against_field)
    assert all(type(value) is Fraction for value in exact)
    # Each hand's own difference (``per_deal``, read by no page) is not kept where the
    # database adds a round up (``scoring.field.FieldSums.add_seat``); ``tests/scoring`` compares
    # it where it is.
    return (line.player, line.rank, line.hands, line.against_field, line.per_hand,
            line.dealer_hands, line.dealer_against_field, line.non_dealer_hands,
            line.non_dealer_against_field)


def figures(standings):
    """Everything the pages and the bulletin read of the standings."""
    return {
        "minimum": standings.minimum_hands, "players": standings.players,
        "unranked": standings.unranked, "provisional": standings.provisional,
        "rounds": [r.pk for r in standings.rounds],
        "per match": [r.pk for r in standings.per_match_rounds],
        "left out": [t.pk for t in standings.left_out_teams],
        "rows": [(row.rank, row.player.pk, row.team.pk, row.points, row.dealer_points,
                  row.non_dealer_points, row.provisional, row.against_field, row.per_hand,
                  row.points_per_hand, row.dealer_against_field,
                  row.non_dealer_against_field, line_figures(row.line))
                 for row in standings.rows],
    }


def individual_figures(standings):
    """Everything the pages, the downloads and the API read of the individual standings."""
    return {"players": standings.players, "provisional": standings.provisional,
            "rows": [(row.rank, row.player.pk, row.team.pk, row.per_hand, astuple(row.line))
                     for row in standings.rows]}


@pytest.mark.slow
class RandomFieldTests(random_event.RandomTournamentTests):
    test_stored_standings_equal_a_slow_reference = None  # run in its own module

    def make_event(self, data):
        users = {}
        for name in ("director", "referee", "chief"):
            users[name] = StaffRole.objects.model.user.field.related_model.objects.create_user(
                f"{name}-{uuid.uuid4().hex[:8]}")
        self.hands = data.draw(st.integers(1, 2), label="hands a match")
        tournament = Tournament.objects.create(
            name="Random Field Open", slug=f"field-{uuid.uuid4().hex[:8]}",
            starts_on="2026-11-20", ends_on="2026-11-22", status="running",
            hands_per_match=self.hands, tiebreak_order=random_event.TIEBREAKS,
            deal_scope=data.draw(st.sampled_from(["round", "match"]), label="deal sets"),
            field_minimum_hands=data.draw(st.integers(0, 3), label="minimum"),
            **data.draw(st.sampled_from(random_event.SETTINGS)))
        StaffRole.objects.create(tournament=tournament, user=users["director"], role="director")
        StaffRole.objects.create(tournament=tournament, user=users["referee"], role="referee")
        StaffRole.objects.create(tournament=tournament, user=users["chief"], role="referee",
                                 is_chief_referee=True)
        self.director, self.referee, self.chief = (
            Actor(user=users[name]) for name in ("director", "referee", "chief"))
        size = data.draw(st.integers(6, 10), label="teams")
        teams = [create_team(self.director, tournament, parse_team_entry(
            {"code": f"T{n}", "name": f"Team {n}", "player1": f"P{n}a",
             "player2": f"P{n}b"})) for n in range(1, size + 1)]
        kind = data.draw(st.sampled_from([Stage.Kind.GROUPS, Stage.Kind.SWISS]), label="kind")
        stage = create_stage(self.director, tournament, name="Stage", kind=kind,
                             swiss_rounds=3 if kind == Stage.Kind.SWISS else None)
        if kind == Stage.Kind.GROUPS:
            allot_groups(self.director, stage, [teams])
        else:
            enter_teams(self.director, stage, teams)
        self.tournament, self.stage, self.teams = tournament, stage, teams
        self.advance(data)  # round 1 drawn and published
        self.advance(data)  # and started

    def step_hand(self, data):
        matches = self.enterable()
        if not matches:
            return "no match to enter a hand in"
        match = data.draw(st.sampled_from(matches), label="match")
        table = match.tables.get(position=data.draw(st.sampled_from([1, 2]), label="table"))
        hand = data.draw(st.integers(1, self.hands), label="hand")
        self.enter(data, match, table, hand)
        return f"hand {hand} at {match} table {table.position}"

    def finish(self, data, match):
        """Every missing hand entered, approved, both tables signed, signed off."""
        match.refresh_from_db()
        for table in match.tables.order_by("position"):
            for hand in range(1, self.hands + 1):
                if not HandResult.objects.filter(table=table, hand=hand,
                                                 is_current=True).exists():
                    self.enter(data, match, table, hand)
        for result in HandResult.objects.filter(table__match=match, is_current=True):
            approve_hand(self.director, result, 1)
            approve_hand(self.director, result, 2)
        for table in match.tables.all():
            sign_table(self.director, table, 1)
            sign_table(self.director, table, 2)
        sign_off_match(data.draw(st.sampled_from([self.director, self.referee]),
                                 label="who signs off"), match)

    def advance(self, data):
        """As in test_standings_random, and the deals of a new round made or not."""
        latest = Round.objects.filter(stage=self.stage).order_by("-number").first()
        if latest is not None and latest.status == "published":
            start_round(self.director, latest)
            return f"started {latest}"
        if latest is not None and latest.status == "in_play":
            for match in latest.matches.filter(signed_off_at=None, forfeited_by=None):
                self.finish(data, match)
            close_round(self.director, latest)
            return f"closed {latest}"
        if data.draw(st.booleans(), label="new settings"):
            update_tournament(self.director, self.tournament,
                              **data.draw(st.sampled_from(random_event.SETTINGS),
                                          label="settings"))
        try:
            new = generate_round(self.director, self.stage)
        except ServiceError as error:
            return f"no next round: {error}"
        # A round of byes only (its teams withdrawn) has nothing to deal: the service says so.
        if new.matches.exists() and data.draw(st.booleans(), label="deals made"):
            generate_deals(self.director, new)
        publish_round(self.director, new, override_reason="a correction is pending")
        return f"drew and published {new}"

    def check(self, history):
        rounds = list(Round.objects.filter(stage=self.stage).select_related("stage")
                      .order_by("number"))
        views = public_views([r for r in rounds if r.status != Round.Status.DRAFT],
                             tournament=self.tournament)
        first = {rounds[0].pk}
        seen = []
        for kwargs, old in (({}, {}), *((same, same) for same in (
                {"closed_only": True, "official_only": True},
                {"stage": self.stage, "round_ids": first})),
                ({"views": views}, {"shows": views.shows})):
            fast = figures(field_standings(self.tournament, **kwargs))
            slow = figures(reference.field_standings(self.tournament, **old))
            assert fast == slow, (history, kwargs)
            seen.append(fast)
        for kwargs, old in (({}, {}), ({"official_only": True}, {"official_only": True}),
                            ({"views": views}, {"shows": views.shows}),
                            ({"stage": self.stage, "minimum_hands": 2},
                             {"stage": self.stage, "minimum_hands": 2})):
            fast = individual_figures(individual(self.tournament, **kwargs))
            slow = individual_figures(individual_reference.individual(self.tournament, **old))
            assert fast == slow, (history, kwargs)
        # What the examples cover (pytest --hypothesis-show-statistics).
        counted = seen[0]
        if counted["left out"]:
            event("a withdrawn team's tables left out")
        if counted["provisional"]:
            event("provisional hands")
        if len({row[0] for row in counted["rows"]}) < len(counted["rows"]):
            event("players sharing a rank")
        tables = HandResult.objects.filter(table__round=rounds[0], hand=1,
                                           is_current=True).count()
        event(f"round 1, hand 1 at {'8 or more' if tables >= 8 else 'fewer than 8'} tables")
        if HandResult.objects.filter(table__round__stage=self.stage, is_current=True,
                                     version__gt=1).exists():
            event("a corrected hand")

    @settings(max_examples=10, deadline=None, phases=random_event.PHASES,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def test_field_standings_equal_the_fraction_code(self, data):
        self.make_event(data)
        steps = {"hand": self.step_hand, "sign off": self.step_sign_off,
                 "penalty": self.step_penalty, "undo": self.step_undo,
                 "advance": self.advance}
        history = []
        self.check(history)
        for _number in range(data.draw(st.integers(1, 24), label="steps")):
            name = data.draw(st.sampled_from([*steps, "advance"]), label="step")
            history.append(steps[name](data))
            self.check(history)
