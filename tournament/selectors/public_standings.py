"""The standings as the public pages read them (issue 12): a stage's tables by the public's
view of its rounds (``public_standings``), the leaders, a stage's groups and the individual
standings over the hands the public may see; what the view shows is
``selectors.visibility``'s one rule.

Every function reads in a fixed number of queries, whatever the size of the event.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from tournament.models import Match, Round, Stage, Tournament
from tournament.selectors.individual import IndividualStandings, individual
from tournament.selectors.standings import (
    StageData,
    StageStandings,
    groups_of,
    last_stage_played,
    read_stage,
    tables_of,
)
from tournament.selectors.visibility import PublicViews


@dataclass(frozen=True)
class PublicStandings:
    """A stage's tables as the public sees them."""

    stage: Stage
    data: StageData
    tables: list[StageStandings]
    rounds: list[int]  # the rounds counted, the "after round N" choices
    after: int | None  # asked for; None: every round counted
    in_play: Round | None = None  # a round in play of the stage
    counted_in_play: int = 0  # its matches counted
    matches_in_play: int = 0
    live: bool = False  # the round in play counts with every result as entered

    @property
    def provisional(self) -> bool:
        return any(t.provisional for t in self.tables)

    @property
    def last_round(self) -> int | None:
        """The round the table is after."""
        if self.after is not None:
            return self.after
        return self.rounds[-1] if self.rounds else None

    @property
    def partly(self) -> bool:
        """The table counts some matches of the round in play, not all of them yet."""
        return (self.after is None and self.in_play is not None and not self.live
                and self.counted_in_play > 0)


def public_standings(stage: Stage, views: PublicViews, *, group=None,
                     after: int | None = None) -> PublicStandings:
    """The stage's standings by the public's view: closed rounds always; a round in play
    not at all while its results are kept back, its forfeits and the signed-off matches
    whose every box is finished everywhere under "finished boxes" (with its byes and
    penalties), everything (provisional rows marked) under "live". Eight queries at
    most."""
    data = read_stage(stage)
    rounds = [r for r in data.rounds if r.status in (Round.Status.IN_PLAY,
                                                     Round.Status.CLOSED)]
    in_play = next((r for r in rounds if r.status == Round.Status.IN_PLAY), None)
    counted = [r.number for r in rounds]
    extra = {}
    if in_play is not None:
        view = views.of(in_play.pk)
        if view.everything:
            extra = {"live": True}
        else:
            decided = list(Match.objects.filter(round=in_play).values_list(
                "pk", "home__code", "away__code", "signed_off_at", "forfeited_by_id"))
            keep = {(home, away) for pk, home, away, signed_off, forfeited in decided
                    if (signed_off is not None or forfeited is not None)
                    and view.shows_match(pk)}
            if keep:
                data = dataclasses.replace(data, matches=[
                    m for m in data.matches
                    if m.round != in_play.number or (m.home, m.away) in keep])
            else:
                # Nothing of the round shows: it does not count at all (byes and penalties
                # included), so that the table is exactly "after" the round before.
                counted = [n for n in counted if n != in_play.number]
            extra = {"counted_in_play": len(keep), "matches_in_play": len(decided)}
    if after not in counted or after == (counted[-1] if counted else None):
        after = None
    cap = after if after is not None else (counted[-1] if counted else 0)
    tables = tables_of(data, group=group, after_round=cap)
    return PublicStandings(stage=stage, data=data, tables=tables, rounds=counted,
                           after=after, in_play=in_play, **extra)


def leaders(tournament: Tournament, views: PublicViews, *, top: int = 3
            ) -> PublicStandings | None:
    """The top of the current standings (the last stage played)."""
    stage = last_stage_played(tournament)
    if stage is None:
        return None
    stage.tournament = tournament
    standings = public_standings(stage, views)
    tables = [dataclasses.replace(t, lines=t.lines[:top]) for t in standings.tables]
    return dataclasses.replace(standings, tables=tables)


def stage_groups(standings: PublicStandings):
    return groups_of(standings.data) if standings.stage.kind == Stage.Kind.GROUPS else []



def public_individual(tournament: Tournament, views: PublicViews, *, stage=None,
                      minimum_hands: int = 0) -> IndividualStandings:
    """The individual standings over the hands the public may see (three queries)."""
    return individual(tournament, stage=stage, minimum_hands=minimum_hands, views=views)
