"""Drawing a round: who meets whom, at which tables, with which line-ups (issue 4).

The pairing rules themselves are pure functions in ``scoring.pairing``; this module gathers
what they need from the database and saves their answer in one transaction. A group stage
and a knockout are drawn from the pairing plan kept on the stage (``services.schedules``);
swapping two teams of a draft by hand is ``services.swaps``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop

from scoring.errors import RuleError
from scoring.match import knockout_winner
from scoring.pairing import SwissTeam, next_round, swiss_pairing, third_place_match
from scoring.seating import Side, table_number
from tournament.audit_wording import phrase, round_name
from tournament.models import (
    Group,
    Match,
    Player,
    Round,
    RoundEntry,
    Stage,
    Table,
    Team,
)
from tournament.permissions import Perm, require
from tournament.selectors.penalties import disqualified_players, withdrawn_teams
from tournament.selectors.stage import ranked, team_records
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.forfeits import forfeit_drawn_matches
from tournament.services.schedules import as_boards, schedule_for_round, scheduled_teams
from tournament.services.seats import write_seats
from tournament.wording import rule_message


@dataclass(frozen=True)
class Pairing:
    home: Team
    away: Team
    group: Group | None = None


@dataclass
class Draw:
    """A round's pairings in board order, before anything is saved."""

    pairings: list[Pairing] = field(default_factory=list)
    byes: list[Team] = field(default_factory=list)
    # Teams of a group stage without a match or a bye: their scheduled opponent has
    # withdrawn (RULES.md §11). They get no entry in the round, so no row and no points.
    sitting_out: list[Team] = field(default_factory=list)
    # What drawing the round did besides pairing, for the audit log (phrases).
    notes: list[dict] = field(default_factory=list)


# Pairing per kind of stage ------------------------------------------------------------

def _draw_groups(stage: Stage, number: int) -> Draw:
    draw = Draw()
    schedule = schedule_for_round(stage, number, draw.notes)
    teams = Team.objects.in_bulk(list(scheduled_teams(schedule)))
    withdrawn = withdrawn_teams(stage)  # left out; their scheduled opponents sit out
    left_out: list[Team] = []
    for group in stage.groups.order_by("order"):
        rounds = schedule["groups"].get(str(group.pk))
        if rounds is None:
            continue  # a group without teams
        if number > len(rounds):
            continue  # a smaller group has finished its round robin
        for home, away in as_boards(rounds[number - 1]):
            if home in withdrawn or away in withdrawn:
                left_out += [teams[t] for t in (home, away) if t in withdrawn]
                draw.sitting_out += [teams[t] for t in (home, away)
                                     if t is not None and t not in withdrawn]
            elif away is None:
                draw.byes.append(teams[home])
            else:
                draw.pairings.append(Pairing(teams[home], teams[away], group))
    last_round = stage.planned_rounds or 0  # from the schedule just read and stored
    if number > last_round:
        raise ServiceError(
            gettext("%(stage)s is complete: its round robin has %(last_round)s round(s)")
            % {"stage": stage.name, "last_round": last_round})
    if left_out:
        draw.notes.append(
            phrase(gettext_noop("withdrawn, left out: %(teams)s; sitting out (opponent "
                                "withdrawn): %(sitting)s"),
                   teams=[t.code for t in left_out], sitting=[t.code for t in draw.sitting_out])
            if draw.sitting_out else
            phrase(gettext_noop("withdrawn, left out: %(teams)s"),
                   teams=[t.code for t in left_out]))
    return draw


def _draw_swiss(stage: Stage, number: int) -> Draw:
    if stage.swiss_rounds and number > stage.swiss_rounds:
        raise ServiceError(
            gettext("%(stage)s was planned with %(swiss_rounds)s rounds")
            % {"stage": stage.name, "swiss_rounds": stage.swiss_rounds})
    # A disqualified team is paired no more: no match to forfeit, no bye (RULES.md §16).
    out = withdrawn_teams(stage)
    records = [r for r in ranked(team_records(stage)) if r.team_id not in out]
    field_ = [
        SwissTeam(id=r.team_id, points=r.match_points, rank=rank,
                  opponents=frozenset(r.opponents), byes=r.byes, home_count=r.home_matches)
        for rank, r in enumerate(records, 1)
    ]
    try:
        pairing = swiss_pairing(field_)
    except RuleError as error:
        raise ServiceError(rule_message(error)) from None
    teams = Team.objects.in_bulk([r.team_id for r in records])
    return Draw(
        pairings=[Pairing(teams[home], teams[away]) for home, away in pairing.pairs],
        byes=[teams[pairing.bye]] if pairing.bye is not None else [],
    )


def _draw_knockout(stage: Stage, number: int) -> Draw:
    draw = Draw()
    schedule = schedule_for_round(stage, number, draw.notes)
    teams = Team.objects.in_bulk(list(scheduled_teams(schedule)))
    bracket = [(teams[home], None if away is None else teams[away])
               for home, away in as_boards(schedule["bracket"])]
    if number == 1:
        for home, away in bracket:
            if away is None:
                draw.byes.append(home)
            else:
                draw.pairings.append(Pairing(home, away))
        return draw
    # Follow the bracket through the rounds played: (winner, loser) of each slot in
    # bracket order; a first-round bye advances with no loser.
    rounds = list(stage.rounds.filter(number__lt=number).order_by("number")
                  .prefetch_related("matches__home", "matches__away"))
    results: list[tuple[Team, Team | None]] = [
        (home, None) if away is None else _knockout_result(_match_between(rounds[0], home, away))
        for home, away in bracket
    ]
    for round_ in rounds[1:]:
        # The bracket's matches come first in a round, a third-place match after them.
        main = sorted(round_.matches.all(), key=lambda m: m.number)[: len(results) // 2]
        results = [_knockout_result(match) for match in main]
    if len(results) < 2:
        raise ServiceError(
            gettext("%(stage)s is complete: its final has been played") % {"stage": stage.name})
    try:
        pairs = next_round(results)
    except RuleError as error:
        raise ServiceError(rule_message(error)) from None
    draw.pairings = [Pairing(home, away) for home, away in pairs]
    if len(results) == 2 and stage.third_place_match and all(loser for _w, loser in results):
        draw.pairings.append(Pairing(*third_place_match(results)))
    return draw


def _knockout_result(match: Match) -> tuple[Team, Team]:
    """(winner, loser) of a signed-off knockout match; a forfeited one is won by the team
    that did not default (RULES.md §11)."""
    if match.forfeited_by_id is not None:
        return ((match.away, match.home) if match.forfeited_by_id == match.home_id
                else (match.home, match.away))
    if match.signed_off_at is None or match.home_total is None:
        raise ServiceError(
            gettext("match %(number)s (%(match)s) has no official result yet")
            % {"number": match.number, "match": match})
    try:
        side = knockout_winner(match.home_total, match.away_total)
    except RuleError:
        raise ServiceError(
            gettext("match %(number)s (%(match)s) is tied; it goes on with extra hands until it "
                    "is decided") % {"number": match.number, "match": match}) from None
    return (match.home, match.away) if side is Side.HOME else (match.away, match.home)


def _match_between(round_: Round, a: Team, b: Team) -> Match:
    for match in round_.matches.all():
        if {match.home_id, match.away_id} == {a.pk, b.pk}:
            return match
    raise ServiceError(
        gettext("%(round)s has no match between %(a)s and %(b)s")
        % {"round": round_, "a": a.code, "b": b.code})


DRAWERS: dict[str, Callable[[Stage, int], Draw]] = {
    Stage.Kind.GROUPS: _draw_groups,
    Stage.Kind.SWISS: _draw_swiss,
    Stage.Kind.KNOCKOUT: _draw_knockout,
}


# Line-ups ----------------------------------------------------------------------------

def default_lineups(teams: list[Team]) -> dict[int, tuple[int, int]]:
    """Players 1 and 2 at tables 1 and 2, the reserve in the place of a disqualified one; a
    team without two players who may play cannot be drawn."""
    lineups: dict[int, dict[int, int]] = {t.pk: {} for t in teams}
    banned = disqualified_players([t.pk for t in teams])
    for team_id, number, player_id in Player.objects.filter(team__in=teams).values_list(
            "team_id", "number", "id"):
        if player_id not in banned:
            lineups[team_id][number] = player_id
    for players in lineups.values():
        reserve = players.pop(Player.RESERVE_NUMBER, None)
        for number in (1, 2):
            if number not in players and reserve is not None:
                players[number], reserve = reserve, None
    missing = sorted(t.code for t in teams if set(lineups[t.pk]) != {1, 2})
    if missing:
        raise ServiceError(
            (gettext("these teams have no line-up (two regular players are needed, and a "
                     "disqualified player cannot play): %(teams)s") if banned else
             gettext("these teams have no line-up (two regular players are needed): %(teams)s"))
            % {"teams": ", ".join(missing)})
    return {team_id: (players[1], players[2]) for team_id, players in lineups.items()}


# Saving -------------------------------------------------------------------------------

def _save_draw(round_: Round, draw: Draw, *, first_match: int = 1) -> None:
    """Matches numbered in board order, tables 2m−1 and 2m, one entry per team."""
    teams = [t for p in draw.pairings for t in (p.home, p.away)] + draw.byes
    lineups = default_lineups(teams)
    matches = Match.objects.bulk_create(
        Match(round=round_, number=n, group=p.group, home=p.home, away=p.away)
        for n, p in enumerate(draw.pairings, first_match)
    )
    Table.objects.bulk_create(
        Table(round=round_, match=m, position=pos, number=table_number(m.number, pos))
        for m in matches for pos in (1, 2)
    )
    entries = []
    for match in matches:
        for team, side in ((match.home, RoundEntry.Side.HOME), (match.away, RoundEntry.Side.AWAY)):
            first, second = lineups[team.pk]
            entries.append(RoundEntry(round=round_, team=team, match=match, side=side,
                                      first_player_id=first, second_player_id=second))
    entries.extend(RoundEntry(round=round_, team=t, side=RoundEntry.Side.BYE) for t in draw.byes)
    RoundEntry.objects.bulk_create(entries)
    write_seats(matches=[match.pk for match in matches])


def next_round_number(stage: Stage) -> int:
    last = stage.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def generate_round(actor: Actor, stage: Stage, *, expected_number: int | None = None) -> Round:
    """Pair the next round of a stage and save it as a draft.

    ``expected_number`` is the round the director saw on the page: when two directors press
    "generate" at once, the second is told the round exists instead of getting another one.
    """
    tournament = stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
        number = next_round_number(stage)
        if expected_number is not None and expected_number != number:
            raise ServiceError(
                gettext("round %(number)s of %(stage)s has already been generated")
                % {"number": expected_number, "stage": stage.name}
                if expected_number < number else
                f"{stage.name} has no round {expected_number - 1} yet"
            )
        previous = stage.rounds.filter(number=number - 1).first()
        if previous is not None and previous.status != Round.Status.CLOSED:
            raise ServiceError(
                gettext("%(previous)s of %(stage)s is %(status)s; close it before drawing the "
                        "next round")
                % {"previous": previous.label, "stage": stage.name,
                   "status": previous.get_status_display().lower()})
        if stage.entries.count() < 2:
            raise ServiceError(
                gettext("%(stage)s needs at least two teams before a round is drawn")
                % {"stage": stage.name})
        draw = DRAWERS[stage.kind](stage, number)
        if not draw.pairings and not draw.sitting_out:
            raise ServiceError(
                gettext("round %(number)s of %(stage)s would have no match")
                % {"number": number, "stage": stage.name})
        try:
            with transaction.atomic():
                # The round keeps the rules it is drawn under (RULES.md: settings apply
                # to the rounds drawn after a change, never to one already drawn).
                round_ = Round.objects.create(stage=stage, number=number,
                                              rule_settings=stage.tournament.rules.to_dict(),
                                              planned_minutes=stage.tournament.round_minutes)
                _save_draw(round_, draw)
                draw.notes += forfeit_drawn_matches(round_)
        except IntegrityError:
            raise ServiceError(
                gettext("round %(number)s of %(stage)s has just been generated by someone else")
                % {"number": number, "stage": stage.name}) from None
        audit(actor, tournament, "round.generate", round=round_.pk,
              round_name=round_name(round_), matches=len(draw.pairings),
              byes=[t.code for t in draw.byes], notes=draw.notes)
    return round_
