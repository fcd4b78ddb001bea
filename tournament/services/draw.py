"""Drawing a round: who meets whom, at which tables, with which line-ups (issue 4).

The pairing rules themselves are pure functions in ``scoring.pairing``; this module gathers
what they need from the database, saves their answer in one transaction, and lets a
director swap two teams by hand with every consequence spelt out first.

**The schedule** (``Stage.schedule``). A group stage and a knockout keep their pairing plan
on the stage, stored under the stage's row lock when a round is drawn and the stage has
none yet (its first round, or a stage drawn before schedules were stored: then it is
derived from the teams' numbers, as the draw always was). Later rounds are drawn from it,
and a swap rewrites it, so a swap in round 1 carries into every later round. Teams are
team ids, never positions; a bye is ``null``::

    {"kind": "groups",
     "groups": {"<group id>": [[[home_id, away_id_or_null], ...],   # round 1, board order
                               ...]},                              # one list per round
     "swaps": [{"round": 2, "group": "<group id>", "teams": [a_id, b_id]}, ...]}

    {"kind": "knockout",
     "bracket": [[home_id, away_id_or_null], ...],                  # round 1, bracket order
     "swaps": [{"round": 1, "teams": [a_id, b_id]}, ...]}

``swaps`` lists the swaps made so far in the order they were made: drawing round n again
after it was undone first reverts the swaps made in round n or later (a swap is its own
inverse), so undoing a round undoes its swaps too. A Swiss stage has no schedule (each
round is paired from the standings). Entering or allotting a stage's teams, which is only
possible while it has no round, clears the schedule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from scoring.errors import RuleError
from scoring.match import knockout_winner
from scoring.pairing import (
    SwapConflict,
    SwissTeam,
    next_round,
    round_robin,
    seeded_bracket,
    swap_conflicts,
    swap_in_bracket,
    swap_in_schedule,
    swiss_pairing,
    third_place_match,
)
from scoring.seating import Side, table_number
from tournament.models import (
    Group,
    Match,
    Player,
    Round,
    RoundEntry,
    Stage,
    StageTeam,
    Table,
    Team,
)
from tournament.permissions import Perm, require
from tournament.selectors.stage import ranked, team_records
from tournament.services.base import Actor, ServiceError, audit


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
    # What drawing the round did besides pairing, for the audit log.
    notes: list[str] = field(default_factory=list)


# The schedule of a group stage or a knockout ---------------------------------------------

Boards = list[tuple[int, int | None]]


def _derived_schedule(stage: Stage) -> dict | None:
    """The schedule from the teams' numbers: each group's Berger table, the seeded bracket."""
    if stage.kind == Stage.Kind.GROUPS:
        members: dict[str, list[int]] = {}
        for group_id, team_id in stage.entries.order_by(
                "group__order", "position").values_list("group_id", "team_id"):
            members.setdefault(str(group_id), []).append(team_id)
        try:
            groups = {group: [[list(board) for board in boards] for boards in round_robin(ids)]
                      for group, ids in members.items()}
        except RuleError as error:
            raise ServiceError(str(error)) from None
        return {"kind": "groups", "swaps": [], "groups": groups}
    if stage.kind == Stage.Kind.KNOCKOUT:
        seeds = list(stage.entries.order_by("position").values_list("team_id", flat=True))
        try:
            bracket = seeded_bracket(seeds)
        except RuleError as error:
            raise ServiceError(str(error)) from None
        return {"kind": "knockout", "swaps": [], "bracket": [list(b) for b in bracket]}
    return None


def _scheduled_teams(schedule: dict) -> dict[int, str | None] | None:
    """Each team of a stored schedule with its group id (None in a knockout), or None
    when the schedule is not of a shape this module writes."""
    try:
        if schedule["kind"] == Stage.Kind.GROUPS:
            boards = [(group, board) for group, rounds in schedule["groups"].items()
                      for round_boards in rounds for board in round_boards]
        elif schedule["kind"] == Stage.Kind.KNOCKOUT:
            boards = [(None, board) for board in schedule["bracket"]]
        else:
            return None
        if any(len(board) != 2 for _group, board in boards):
            return None
        return {team: group for group, board in boards for team in board if team is not None}
    except (KeyError, TypeError, AttributeError):
        return None


def _schedule(stage: Stage, *, store: bool) -> dict | None:
    """The stage's schedule; derived from the teams' numbers when it has none yet (and then
    stored if ``store``, which needs the stage's row lock). None for a Swiss stage."""
    if stage.kind == Stage.Kind.SWISS:
        return None
    schedule = stage.schedule
    if schedule is not None:
        entered = {team: None if group is None else str(group)
                   for team, group in stage.entries.values_list("team_id", "group_id")}
        if schedule.get("kind") != stage.kind or _scheduled_teams(schedule) != entered:
            if stage.rounds.exists():
                raise ServiceError(
                    f"the stored schedule of {stage.name} does not match its teams; undo "
                    "its rounds and draw again")
            schedule = None
    if schedule is None:
        schedule = _derived_schedule(stage)
        if store:
            stage.schedule = schedule
            stage.save(update_fields=["schedule"])
    return schedule


def _apply_swap(schedule: dict, swap: dict) -> dict:
    """The schedule with one swap made (or, made again, undone)."""
    a, b = swap["teams"]
    try:
        if schedule["kind"] == Stage.Kind.GROUPS:
            rounds = [[tuple(board) for board in boards]
                      for boards in schedule["groups"][swap["group"]]]
            swapped = swap_in_schedule(rounds, swap["round"], a, b)
            groups = {**schedule["groups"],
                      swap["group"]: [[list(board) for board in boards] for boards in swapped]}
            return {**schedule, "groups": groups}
        bracket = swap_in_bracket([tuple(board) for board in schedule["bracket"]], a, b)
        return {**schedule, "bracket": [list(board) for board in bracket]}
    except RuleError as error:
        raise ServiceError(f"the schedule cannot take this swap: {error}") from None


def _schedule_for_round(stage: Stage, number: int, draw: Draw) -> dict:
    """The schedule to draw round ``number`` from, stored: the swaps of rounds that were
    undone (round ``number`` or later) are reverted first. Needs the stage's row lock."""
    schedule = _schedule(stage, store=True)
    swaps = schedule.get("swaps", [])
    undone = [swap for swap in swaps if swap["round"] >= number]
    if undone:
        for swap in reversed(undone):
            schedule = _apply_swap(schedule, swap)
        schedule["swaps"] = [swap for swap in swaps if swap["round"] < number]
        stage.schedule = schedule
        stage.save(update_fields=["schedule"])
        codes = dict(Team.objects.filter(
            pk__in=[t for swap in undone for t in swap["teams"]]).values_list("pk", "code"))
        draw.notes.append("swaps of an undone round reverted: " + ", ".join(
            f"{codes.get(a, a)} and {codes.get(b, b)}" for a, b in
            (swap["teams"] for swap in undone)))
    return schedule


def _boards(rows: list) -> Boards:
    return [(home, away) for home, away in rows]


# Pairing per kind of stage ------------------------------------------------------------

def _draw_groups(stage: Stage, number: int) -> Draw:
    draw = Draw()
    schedule = _schedule_for_round(stage, number, draw)
    teams = Team.objects.in_bulk(list(_scheduled_teams(schedule)))
    last_round = 0
    for group in stage.groups.order_by("order"):
        rounds = schedule["groups"].get(str(group.pk))
        if rounds is None:
            continue  # a group without teams
        last_round = max(last_round, len(rounds))
        if number > len(rounds):
            continue  # a smaller group has finished its round robin
        for home, away in _boards(rounds[number - 1]):
            if away is None:
                draw.byes.append(teams[home])
            else:
                draw.pairings.append(Pairing(teams[home], teams[away], group))
    if number > last_round:
        raise ServiceError(
            f"{stage.name} is complete: its round robin has {last_round} round(s)"
        )
    return draw


def _draw_swiss(stage: Stage, number: int) -> Draw:
    if stage.swiss_rounds and number > stage.swiss_rounds:
        raise ServiceError(f"{stage.name} was planned with {stage.swiss_rounds} rounds")
    records = ranked(team_records(stage))
    field_ = [
        SwissTeam(id=r.team_id, points=r.match_points, rank=rank,
                  opponents=frozenset(r.opponents), byes=r.byes, home_count=r.home_matches)
        for rank, r in enumerate(records, 1)
    ]
    try:
        pairing = swiss_pairing(field_)
    except RuleError as error:
        raise ServiceError(str(error)) from None
    teams = Team.objects.in_bulk([r.team_id for r in records])
    return Draw(
        pairings=[Pairing(teams[home], teams[away]) for home, away in pairing.pairs],
        byes=[teams[pairing.bye]] if pairing.bye is not None else [],
    )


def _draw_knockout(stage: Stage, number: int) -> Draw:
    draw = Draw()
    schedule = _schedule_for_round(stage, number, draw)
    teams = Team.objects.in_bulk(list(_scheduled_teams(schedule)))
    bracket = [(teams[home], None if away is None else teams[away])
               for home, away in _boards(schedule["bracket"])]
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
        raise ServiceError(f"{stage.name} is complete: its final has been played")
    try:
        pairs = next_round(results)
    except RuleError as error:
        raise ServiceError(str(error)) from None
    draw.pairings = [Pairing(home, away) for home, away in pairs]
    if len(results) == 2 and stage.third_place_match and all(loser for _w, loser in results):
        draw.pairings.append(Pairing(*third_place_match(results)))
    return draw


def _knockout_result(match: Match) -> tuple[Team, Team]:
    """(winner, loser) of a signed-off knockout match."""
    if match.signed_off_at is None or match.home_total is None:
        raise ServiceError(f"match {match.number} ({match}) has no official result yet")
    try:
        side = knockout_winner(match.home_total, match.away_total)
    except RuleError:
        raise ServiceError(
            f"match {match.number} ({match}) is tied; it goes on with extra hands until "
            "it is decided"
        ) from None
    return (match.home, match.away) if side is Side.HOME else (match.away, match.home)


def _match_between(round_: Round, a: Team, b: Team) -> Match:
    for match in round_.matches.all():
        if {match.home_id, match.away_id} == {a.pk, b.pk}:
            return match
    raise ServiceError(f"{round_} has no match between {a.code} and {b.code}")


DRAWERS: dict[str, Callable[[Stage, int], Draw]] = {
    Stage.Kind.GROUPS: _draw_groups,
    Stage.Kind.SWISS: _draw_swiss,
    Stage.Kind.KNOCKOUT: _draw_knockout,
}


# Line-ups ----------------------------------------------------------------------------

def _default_lineups(teams: list[Team]) -> dict[int, tuple[int, int]]:
    """Players 1 and 2 at tables 1 and 2; a team without both cannot be drawn."""
    lineups: dict[int, dict[int, int]] = {t.pk: {} for t in teams}
    for team_id, number, player_id in Player.objects.filter(
        team__in=teams, is_reserve=False
    ).values_list("team_id", "number", "id"):
        lineups[team_id][number] = player_id
    missing = sorted(t.code for t in teams if set(lineups[t.pk]) != {1, 2})
    if missing:
        raise ServiceError(
            "these teams have no line-up (two regular players are needed): "
            + ", ".join(missing)
        )
    return {team_id: (players[1], players[2]) for team_id, players in lineups.items()}


# Saving -------------------------------------------------------------------------------

def _save_draw(round_: Round, draw: Draw, *, first_match: int = 1) -> None:
    """Matches numbered in board order, tables 2m−1 and 2m, one entry per team."""
    teams = [t for p in draw.pairings for t in (p.home, p.away)] + draw.byes
    lineups = _default_lineups(teams)
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
                f"round {expected_number} of {stage.name} has already been generated"
                if expected_number < number else
                f"{stage.name} has no round {expected_number - 1} yet"
            )
        previous = stage.rounds.filter(number=number - 1).first()
        if previous is not None and previous.status != Round.Status.CLOSED:
            raise ServiceError(
                f"{previous.label} of {stage.name} is {previous.get_status_display().lower()}; "
                "close it before drawing the next round"
            )
        if stage.entries.count() < 2:
            raise ServiceError(f"{stage.name} needs at least two teams before a round is drawn")
        draw = DRAWERS[stage.kind](stage, number)
        if not draw.pairings:
            raise ServiceError(f"round {number} of {stage.name} would have no match")
        try:
            with transaction.atomic():
                # The round keeps the rules it is drawn under (RULES.md: settings apply
                # to the rounds drawn after a change, never to one already drawn).
                round_ = Round.objects.create(stage=stage, number=number,
                                              rule_settings=stage.tournament.rules.to_dict())
                _save_draw(round_, draw)
        except IntegrityError:
            raise ServiceError(
                f"round {number} of {stage.name} has just been generated by someone else"
            ) from None
        audit(actor, tournament, "round.generate",
              f"{actor.name} drew {round_}: {len(draw.pairings)} matches"
              + (", bye: " + ", ".join(t.code for t in draw.byes) if draw.byes else "")
              + "".join(f"; {note}" for note in draw.notes),
              round=round_.pk)
    return round_


# Swapping two teams by hand -------------------------------------------------------------

@dataclass(frozen=True)
class SwapCheck:
    """What a swap would do: errors forbid it, warnings need the director's consent."""

    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass
class _Place:
    """Where a team is in a draft round: a match and side, or a bye."""

    entry: RoundEntry
    match: Match | None

    @property
    def opponent(self) -> Team | None:
        if self.match is None:
            return None
        return self.match.away if self.entry.side == RoundEntry.Side.HOME else self.match.home


def _places(round_: Round) -> dict[int, _Place]:
    entries = round_.entries.select_related("team", "match__home", "match__away")
    return {e.team_id: _Place(entry=e, match=e.match) for e in entries}


def _stage_entry(stage: Stage, team: Team) -> StageTeam | None:
    return stage.entries.filter(team=team).select_related("group").first()


def check_swap(round_: Round, team_a: Team, team_b: Team) -> SwapCheck:
    """Everything a swap of two teams would break, without changing anything."""
    errors: list[str] = []
    warnings: list[str] = []
    stage = round_.stage
    if round_.status != Round.Status.DRAFT:
        errors.append(f"{round_} is {round_.get_status_display().lower()}; only a draft "
                      "can be changed (undo it and draw again)")
    if team_a.pk == team_b.pk:
        errors.append("choose two different teams")
        return SwapCheck(tuple(errors), tuple(warnings))
    places = _places(round_)
    a, b = places.get(team_a.pk), places.get(team_b.pk)
    for team, place in ((team_a, a), (team_b, b)):
        if place is None:
            errors.append(f"{team.code} is not in {round_}")
    if errors:
        return SwapCheck(tuple(errors), tuple(warnings))
    if a.match is not None and a.match == b.match:
        warnings.append(f"{team_a.code} and {team_b.code} change sides: the other team deals "
                        "first at table 1")
        return SwapCheck(tuple(errors), tuple(warnings))

    new_opponents = {team_a: b.opponent, team_b: a.opponent}
    if stage.kind != Stage.Kind.GROUPS:
        # A group stage checks its whole round robin instead, rematches included.
        met = _met_before(round_)
        for team, opponent in new_opponents.items():
            if opponent is not None and frozenset((team.pk, opponent.pk)) in met:
                errors.append(f"{team.code} has already met {opponent.code} in {stage.name}")
    if stage.kind == Stage.Kind.GROUPS:
        groups = {t: _stage_entry(stage, t).group for t in (team_a, team_b)}
        if groups[team_a] != groups[team_b]:
            errors.append(f"{team_a.code} is in {groups[team_a]} and {team_b.code} in "
                          f"{groups[team_b]}; a group stage pairs teams of one group only")
        else:
            errors.extend(_round_robin_errors(round_, groups[team_a], team_a, team_b))
    elif stage.kind == Stage.Kind.KNOCKOUT:
        if round_.number > 1:
            errors.append("winners advance in a knockout: only the first round's seeded "
                          "bracket can be changed by hand")
        else:
            warnings.append("the seeded bracket changes: seeds no longer meet as planned")
    else:
        records = team_records(stage)
        for team, opponent in new_opponents.items():
            if opponent is not None and team.pk < opponent.pk:
                mine, theirs = records[team.pk].match_points, records[opponent.pk].match_points
                if mine != theirs:
                    warnings.append(f"{team.code} ({mine} match points) would meet "
                                    f"{opponent.code} ({theirs})")
        for team, place in ((team_a, b), (team_b, a)):
            if place.match is None and records[team.pk].byes:
                warnings.append(f"{team.code} would have a second bye")
    return SwapCheck(tuple(errors), tuple(warnings))


def _round_robin_errors(round_: Round, group: Group, team_a: Team, team_b: Team) -> list[str]:
    """Why exchanging two teams of a group in this round and every later one would make a
    pair of the group meet twice or never (nothing when they change sides in a match)."""
    stage = round_.stage
    try:
        schedule = _schedule(stage, store=False)
    except ServiceError as error:
        return [error.message]
    rounds = [_boards(boards) for boards in schedule["groups"].get(str(group.pk), [])]
    number = round_.number
    if number > len(rounds):
        return [f"{group} of {stage.name} has finished its round robin"]
    if {(team_a.pk, team_b.pk), (team_b.pk, team_a.pk)} & set(rounds[number - 1]):
        return []
    members = list(stage.entries.filter(group=group).values_list("team_id", flat=True))
    earlier = {"round__stage": stage, "round__number__lt": number}
    played: list[tuple[int, int | None]] = list(
        Match.objects.filter(home__in=members, **earlier).values_list("home_id", "away_id"))
    played += [(team, None) for team in RoundEntry.objects.filter(
        team__in=members, side=RoundEntry.Side.BYE, **earlier).values_list("team_id", flat=True)]
    conflicts = swap_conflicts(played, rounds[number - 1:], team_a.pk, team_b.pk,
                               first_round=number)
    codes = dict(Team.objects.filter(pk__in=members).values_list("pk", "code"))
    return [_conflict_message(conflict, codes) for conflict in conflicts]


def _conflict_message(conflict: SwapConflict[int], codes: dict[int, str]) -> str:
    met, unmet = codes[conflict.met], codes[conflict.unmet]
    if conflict.other is None:
        return (f"{met} has had its bye and {unmet} has not: after the swap {met} would "
                f"have a second bye in round {conflict.again_in} and {unmet} none")
    other = codes[conflict.other]
    return (f"{other} has met {met} already and {unmet} has not: after the swap {other} "
            f"would meet {met} again in round {conflict.again_in} and {unmet} never")


def _met_before(round_: Round) -> set[frozenset[int]]:
    pairs = Match.objects.filter(round__stage=round_.stage, round__number__lt=round_.number)
    return {frozenset(p) for p in pairs.values_list("home_id", "away_id")}


def swap_teams(actor: Actor, round_: Round, team_a: Team, team_b: Team,
               *, accept_warnings: bool = False) -> SwapCheck:
    """Exchange two teams' places in a draft round; each keeps its own line-up."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.MANAGE_ROUNDS)
    with transaction.atomic():
        # The stage first, as when a round is drawn: the swap rewrites its schedule.
        Stage.objects.select_for_update().filter(pk=round_.stage_id).first()
        round_ = Round.objects.select_for_update().select_related("stage__tournament").get(
            pk=round_.pk)
        check = check_swap(round_, team_a, team_b)
        if check.errors:
            raise ServiceError("; ".join(check.errors))
        if check.warnings and not accept_warnings:
            raise ServiceError("the swap needs your consent: " + "; ".join(check.warnings))
        places = _places(round_)
        a, b = places[team_a.pk], places[team_b.pk]
        _rebuild(round_, a, b, team_a, team_b)
        follows = _swap_in_stored_schedule(round_, team_a, team_b)
        audit(actor, tournament, "round.swap",
              f"{actor.name} swapped {team_a.code} and {team_b.code} in {round_}"
              + (f" ({follows})" if follows else "")
              + (" despite: " + "; ".join(check.warnings) if check.warnings else ""),
              round=round_.pk, teams=[team_a.pk, team_b.pk])
    return check


def _swap_in_stored_schedule(round_: Round, team_a: Team, team_b: Team) -> str:
    """Rewrite the stage's schedule the way the round was changed: a group's remaining
    rounds or the knockout bracket; say what follows. Needs the stage's row lock."""
    stage = round_.stage
    schedule = _schedule(stage, store=False)
    if schedule is None:
        return ""  # a Swiss stage pairs each round from the standings
    swap: dict = {"round": round_.number, "teams": [team_a.pk, team_b.pk]}
    if stage.kind == Stage.Kind.GROUPS:
        group = _stage_entry(stage, team_a).group
        swap["group"] = str(group.pk)
    swapped = _apply_swap(schedule, swap)
    swapped["swaps"] = [*schedule.get("swaps", []), swap]
    stage.schedule = swapped
    stage.save(update_fields=["schedule"])
    if stage.kind == Stage.Kind.KNOCKOUT:
        return "the bracket follows"
    later = slice(round_.number, None)
    if swapped["groups"][swap["group"]][later] == schedule["groups"][swap["group"]][later]:
        return ""  # two opponents changed sides: nothing later moves
    return f"the later rounds of {group} follow"


def _rebuild(round_: Round, a: _Place, b: _Place, team_a: Team, team_b: Team) -> None:
    """Re-create the matches the two teams are in, with the teams exchanged.

    Deleting and re-creating (a draft has no results) keeps every uniqueness constraint
    satisfied at each step, which updating the rows in place would not.
    """
    # A team coming off a bye brings its default line-up.
    lineups = {p.entry.team_id: (p.entry.first_player_id, p.entry.second_player_id)
               for p in (a, b) if p.match is not None}
    lineups.update(_default_lineups([p.entry.team for p in (a, b) if p.match is None]))
    swap = {team_a.pk: team_b, team_b.pk: team_a}
    matches = {p.match.pk: p.match for p in (a, b) if p.match is not None}
    saved = []
    for match in matches.values():
        home = swap.get(match.home_id, match.home)
        away = swap.get(match.away_id, match.away)
        keep = {e.team_id: (e.first_player_id, e.second_player_id)
                for e in match.entries.all()}
        keep.update(lineups)
        saved.append((match.number, match.group_id, home, away,
                       list(match.tables.values_list("position", "number")), keep))
    byes = [swap[p.entry.team_id] for p in (a, b) if p.match is None]
    RoundEntry.objects.filter(round=round_, team__in=[team_a, team_b]).delete()
    Match.objects.filter(pk__in=matches).delete()
    for number, group_id, home, away, tables, keep in saved:
        match = Match.objects.create(round=round_, number=number, group_id=group_id,
                                     home=home, away=away)
        Table.objects.bulk_create(Table(round=round_, match=match, position=pos, number=num)
                                  for pos, num in tables)
        RoundEntry.objects.filter(round=round_, team__in=[home, away]).delete()
        RoundEntry.objects.bulk_create(
            RoundEntry(round=round_, team=team, match=match, side=side,
                       first_player_id=keep[team.pk][0], second_player_id=keep[team.pk][1])
            for team, side in ((home, RoundEntry.Side.HOME), (away, RoundEntry.Side.AWAY))
        )
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round_, team=team, side=RoundEntry.Side.BYE) for team in byes
    )
