"""The demo's event: one build of it (``Demo``): the demo accounts' roles, the tournament
set up through the services as staff would (staff, teams and PINs, the group stage and the
knockout), its rounds played in order (``play.RoundPlay``) and the event finished. The
season's earlier event (demo/season.py) is one of these too; ``build_demo`` (builder.py)
runs them."""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournament.demo.clock import Clock, Seeded, venue_time
from tournament.demo.play import Built, RoundPlay
from tournament.demo.players import player_style
from tournament.demo.programme import (
    FEDERATION,
    FIRST_DAY,
    GROUP_STARTS,
    HANDS_PER_MATCH,
    KNOCKOUT_STARTS,
    TEAMS,
    TIME_ZONE,
    federation_id,
)
from tournament.demo_accounts import DIRECTOR, REFEREE, SCORER, SLUG
from tournament.models import HandResult, Role, Stage, Team, Tournament

logger = logging.getLogger(__name__)



class Demo(RoundPlay):
    """One build of the demo event (``build``): its set-up here, its rounds' play in
    ``RoundPlay``."""

    def __init__(self, seed: int, live: bool, clock: Clock, values: Seeded, progress=None, *,
                 season: bool = False):
        self.seed, self.live, self.clock, self.values = seed, live, clock, values
        self.progress = progress or (lambda text: None)
        self.season = season  # the players carry federation ids (demo --season)
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

    # The whole event --------------------------------------------------------------------

    def build(self) -> Built:
        from tournament.services.seeding import seed_from_standings
        from tournament.services.stages import allot_groups, create_stage
        from tournament.services.tournaments import create_tournament, open_to_public

        self.clock.at(venue_time(-7, 18, 0))  # set up a week before
        self.accounts()
        tournament = create_tournament(
            self.director, name="Demo Team Cup", slug=SLUG, starts_on=FIRST_DAY,
            ends_on=FIRST_DAY + dt.timedelta(days=2), venue="Vienna (demo event)",
            time_zone=TIME_ZONE, live_results=Tournament.LiveResults.FINISHED_BOXES,
            hands_per_match=HANDS_PER_MATCH, **self.federation())
        built = Built(tournament)
        self.staff(tournament, built)
        teams = self.register_teams(tournament)
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

    def federation(self) -> dict[str, str]:
        return {"federation": FEDERATION} if self.season else {}

    def register_teams(self, tournament: Tournament) -> list[Team]:
        """The sixteen teams in seed order, each player with a PIN (and, for the season, a
        federation id: the same persons at both events); each player's leaning."""
        from tournament.services.teams import create_team, parse_team_entry, set_player_pin

        teams = []
        pins = self.values.rng("pins")
        self.values.use_salts("pins")
        for seed, (code, name, country, players) in enumerate(TEAMS, 1):
            raw = {"code": code, "name": name, "country": country, "seed": str(seed),
                   "player1": players[0], "player2": players[1]}
            if len(players) > 2:
                raw["reserve"] = players[2]
            if self.season:
                for number, field in enumerate(("player1_id", "player2_id", "reserve_id")[
                        :len(players)], 1):
                    raw[field] = federation_id(seed, number)
            team = create_team(self.director, tournament, parse_team_entry(raw))
            teams.append(team)
            for player in team.players.order_by("number"):
                set_player_pin(self.director, player, f"{pins.randrange(10000):04d}")
        for number, player_id in enumerate(
                tournament.teams.order_by("seed", "players__number").values_list(
                    "players__id", flat=True)):
            self.styles[player_id] = player_style(number)
        return teams

    def finish(self, tournament: Tournament) -> None:
        from tournament.services.deals import reveal_key
        from tournament.services.tournaments import update_tournament

        self.clock.at(self.clock.moment + dt.timedelta(minutes=30))
        reveal_key(self.director, tournament)
        update_tournament(self.director, Tournament.objects.get(pk=tournament.pk),
                          status=Tournament.Status.FINISHED)


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
