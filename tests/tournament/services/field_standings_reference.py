"""``selectors.field.field_standings`` as it was before issue 28, kept to test the fast one
against: every result read as a ``Played`` (``played_results``, in table order), every hand made a
``PlayerOnDeal`` and every table a ``TableResult``, the figures worked out by the
``Fraction`` code of ``tests/scoring/field_reference.py``. Slow and obviously right."""

from __future__ import annotations

import importlib.util
import sys
from collections import defaultdict
from collections.abc import Callable, Collection, Hashable
from pathlib import Path

from scoring.field import DEALER, TableResult, players_on_deal
from scoring.rules import DEFAULT_RULES
from tournament.models import Player, Round, RoundEntry, Stage
from tournament.selectors.field import FieldRow, FieldStandings
from tournament.selectors.field_results import deals_per_match, played_results
from tournament.selectors.penalties import withdrawn_teams


def match_lineups(round_ids) -> dict[int, dict[str, RoundEntry]]:
    """match pk → side → its round entry, of these rounds' matches (one query): who sat
    where from the line-ups by ``scoring.seating`` (``players_on_deal``), not as stored
    (the stored seats are what this checks)."""
    lineups: dict[int, dict[str, RoundEntry]] = defaultdict(dict)
    for entry in RoundEntry.objects.filter(match__isnull=False, round_id__in=list(round_ids)):
        lineups[entry.match_id][entry.side] = entry
    return lineups


def _scoring_reference():
    """tests/scoring/field_reference.py (the test folders are not packages)."""
    name = "field_reference"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "scoring" / "field_reference.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def field_standings(tournament, *, stage: Stage | None = None, closed_only: bool = False,
                    official_only: bool = False,
                    shows: Callable[[int, int, int], bool] | None = None,
                    round_ids: Collection[int] | None = None) -> FieldStandings:
    against_the_field = _scoring_reference().against_the_field
    where = {"stage": stage} if stage is not None else {"stage__tournament": tournament}
    statuses = [Round.Status.CLOSED] if closed_only else [Round.Status.IN_PLAY,
                                                          Round.Status.CLOSED]
    rounds = list(Round.objects.filter(status__in=statuses, **where).select_related("stage")
                  .order_by("stage__order", "number"))
    if round_ids is not None:
        rounds = [r for r in rounds if r.pk in round_ids]
    minimum = rounds[-1].rules.field_minimum_hands if rounds else \
        DEFAULT_RULES.field_minimum_hands
    round_of = {r.pk: r for r in rounds}
    played = played_results(table__round_id__in=list(round_of)) if rounds else []
    if shows is not None:
        played = [p for p in played if shows(p.round_id, p.table_id, p.hand)]
    if official_only:
        played = [p for p in played if not p.provisional]
    stages = {r.stage_id: r.stage for r in rounds}
    out_by_stage = {pk: withdrawn_teams(s) for pk, s in stages.items()} if played else {}
    lineups = match_lineups(round_of) if played else {}
    deals: dict[Hashable, list[TableResult]] = defaultdict(list)
    hands = []
    raw: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])  # points, dealer, non-dealer
    provisional: set[int] = set()
    left_out: set[int] = set()
    for p in played:
        round_ = round_of[p.round_id]
        out = out_by_stage[round_.stage_id]
        if p.involves(out):
            left_out |= {p.home_id, p.away_id} & out
            continue
        entries = lineups.get(p.match_id, {})
        if len(entries) != 2:
            continue  # a match without both line-ups (never written so by the draw)
        key = p.key(deals_per_match(round_))
        deals[key].append(p.result())
        sides = {side: (entry.first_player_id, entry.second_player_id)
                 for side, entry in entries.items()}
        for hand in players_on_deal(p.position, p.hand, p.seat1_points, key, sides):
            hands.append(hand)
            line = raw[hand.player]
            line[0] += hand.points
            line[1 if hand.seat == DEALER else 2] += hand.points
            if p.provisional:
                provisional.add(hand.player)
    lines = against_the_field(hands, deals, minimum_hands=minimum)
    players = {player.pk: player for player in
               Player.objects.filter(team__tournament=tournament).select_related("team")}
    rows = [FieldRow(rank=line.rank, player=players[line.player],
                     team=players[line.player].team, line=line, points=raw[line.player][0],
                     dealer_points=raw[line.player][1], non_dealer_points=raw[line.player][2],
                     provisional=line.player in provisional) for line in lines]
    rows.sort(key=lambda row: (row.rank, row.team.code, row.player.number))
    teams = {e.team_id: e.team for entries in lineups.values() for e in entries.values()}
    return FieldStandings(
        stage=stage, rows=rows, minimum_hands=minimum, players=len(raw), rounds=rounds,
        per_match_rounds=[r for r in rounds if deals_per_match(r)],
        left_out_teams=sorted((teams[pk] for pk in left_out if pk in teams),
                              key=lambda team: team.code),
        closed_only=closed_only, official_only=official_only)
