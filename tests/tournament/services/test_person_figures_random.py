"""A person's profile reads each event's figures for that player alone (issue 59:
``selectors.persons._event_figures``), no longer from the whole event's standings: on
random events (``test_field_random``: hands entered and corrected, matches signed off,
penalties, defaults and withdrawals, rounds closed, drawn and started, deals per round or
per match) and under each live-results setting (a round in play seen not at all, box by
box, or live), every player's line on the profile must be the player's row of the event's
public pages, exactly: hands, points, points a hand, against the field a hand (none under
the minimum), the place and the number of teams ranked."""

from __future__ import annotations

import pytest
import test_field_random as field_random
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tournament.models import Player, Tournament
from tournament.selectors.event_ranking import event_ranking
from tournament.selectors.field import field_standings
from tournament.selectors.persons import person_profile
from tournament.selectors.public import tournament_views
from tournament.selectors.public_standings import public_individual


def expected(tournament, views) -> dict[int, tuple]:
    """player → what the event's own public pages show of them."""
    individual = {row.player.pk: row for row in public_individual(tournament, views).rows}
    field = {row.player.pk: row for row in field_standings(tournament, views=views).rows}
    ranking = event_ranking(tournament, views) if tournament.public_standings else None
    figures = {}
    for player in Player.objects.filter(team__tournament=tournament):
        row, against = individual.get(player.pk), field.get(player.pk)
        place = next((r.place for r in ranking.rows if r.team.pk == player.team_id),
                     None) if ranking else None
        figures[player.pk] = (
            row.line.hands if row else 0, row.line.points if row else None,
            row.per_hand if row else None, against.per_hand if against else None,
            place, len(ranking.rows) if ranking else 0)
    return figures


@pytest.mark.slow
class RandomPersonFigureTests(field_random.RandomFieldTests):
    test_field_standings_equal_the_fraction_code = None  # test_field_random's own

    def check(self, history):
        tournament = Tournament.objects.get(pk=self.tournament.pk)
        _rounds, views = tournament_views(tournament)
        wanted = expected(tournament, views)
        for player in Player.objects.filter(team__tournament=tournament).select_related(
                "person"):
            profile = person_profile(player.person)
            (line,) = [line for line in profile.events if line.player.pk == player.pk]
            shown = (line.hands, line.points, line.per_hand, line.against_field, line.place,
                     line.places)
            assert shown == wanted[player.pk], (history, player.pk)
        if any(figures[0] and figures[3] is None for figures in wanted.values()):
            event("a player under the field's minimum")
        if any(view.provisional or not view.everything for view in views.by_round.values()):
            event(f"a round in play, {tournament.live_results}")

    @settings(max_examples=4, deadline=None, phases=field_random.random_event.PHASES,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def test_a_profile_shows_each_event_s_own_figures(self, data):
        self.make_event(data)
        Tournament.objects.filter(pk=self.tournament.pk).update(live_results=data.draw(
            st.sampled_from(Tournament.LiveResults.values), label="live results"))
        steps = {"hand": self.step_hand, "sign off": self.step_sign_off,
                 "penalty": self.step_penalty, "undo": self.step_undo,
                 "advance": self.advance}
        history = []
        self.check(history)
        for _number in range(data.draw(st.integers(1, 24), label="steps")):
            name = data.draw(st.sampled_from([*steps, "advance"]), label="step")
            history.append(steps[name](data))
            self.check(history)
