"""Players against the field (issue 12, RULES.md §14): each player's hands of a stage or
of the tournament compared with the field of each deal, ranked per hand
(``field_standings``). The figures are ``scoring.field``; what the database adds up and the
other reads are ``selectors.field_sums``; which results count: ``selectors.field_results``.

Reads in a fixed number of queries, whatever the size of the field.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Hashable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring import seating
from scoring.field import DEALER, NON_DEALER, FieldLine, field_lines
from scoring.rules import DEFAULT_RULES
from tournament.models import Player, Round, Stage, Team
from tournament.selectors.field_kept import FieldTotals, add_points, field_totals
from tournament.selectors.field_results import deal_key, deals_per_match, two_places
from tournament.selectors.field_sums import _field_rows, _field_seats, _left_out_matches
from tournament.selectors.penalties import withdrawn_teams
from tournament.selectors.visibility import PublicViews


@dataclass(frozen=True)
class FieldRow:
    rank: int
    player: Player
    team: Team
    line: FieldLine
    points: int  # the raw points of the same hands
    dealer_points: int
    non_dealer_points: int
    provisional: bool

    @property
    def against_field(self) -> Decimal:
        return two_places(self.line.against_field)

    @property
    def per_hand(self) -> Decimal:
        return two_places(self.line.per_hand)

    @property
    def points_per_hand(self) -> Decimal:
        return two_places(Fraction(self.points, self.line.hands))

    @property
    def dealer_against_field(self) -> Decimal:
        return two_places(self.line.dealer_against_field)

    @property
    def non_dealer_against_field(self) -> Decimal:
        return two_places(self.line.non_dealer_against_field)


@dataclass(frozen=True)
class FieldStandings:
    stage: Stage | None
    rows: list[FieldRow]
    minimum_hands: int
    players: int  # players with a compared hand, before the minimum
    rounds: list[Round]  # the rounds whose hands count
    per_match_rounds: list[Round]  # rounds played with one deal set per match
    left_out_teams: list[Team]  # withdrawn teams whose tables are left out
    closed_only: bool
    official_only: bool

    @property
    def provisional(self) -> bool:
        return any(row.provisional for row in self.rows)

    @property
    def unranked(self) -> int:
        return self.players - len(self.rows)


def field_standings(tournament, *, stage: Stage | None = None, closed_only: bool = False,
                    official_only: bool = False, views: PublicViews | None = None,
                    round_ids: Collection[int] | None = None) -> FieldStandings:
    """Each player's hands of ``stage`` (every stage when None) against the field, ranked
    per hand with the minimum of hands of the latest round's rules (``field_minimum_hands``),
    with the raw points of the same hands. ``closed_only``: rounds that are closed (a
    scorer); ``official_only``: hands of signed-off matches only; ``views`` (the public's,
    ``selectors.visibility``) leaves out the results it does not show, from the field too;
    ``round_ids``: only these rounds are read (a day's bulletin).

    The rounds shown whole are added up by the database per player (``_field_sums``, then
    ``scoring.field.FieldSums.add_seat``); a round the public sees in part is read hand by
    hand. At most six queries and one more per stage, whatever the number of hands (the
    seats are read only for a round seen in part or a withdrawn team)."""
    where = {"stage": stage} if stage is not None else {"stage__tournament": tournament}
    statuses = [Round.Status.CLOSED] if closed_only else [Round.Status.IN_PLAY,
                                                          Round.Status.CLOSED]
    rounds = list(Round.objects.filter(status__in=statuses, **where).select_related("stage")
                  .order_by("stage__order", "number"))
    if round_ids is not None:
        rounds = [r for r in rounds if r.pk in round_ids]
    minimum = rounds[-1].rules.field_minimum_hands if rounds else \
        DEFAULT_RULES.field_minimum_hands
    per_match = {r.pk: deals_per_match(r) for r in rounds}
    shown_whole = [r for r in rounds if views is None or views.of(r.pk).everything]
    shown_in_part = [r.pk for r in rounds if views is not None and not views.of(r.pk).everything]
    stages = {r.stage_id: r.stage for r in rounds}
    out_by_stage = {pk: withdrawn_teams(s) for pk, s in stages.items()}
    left_out: set[int] = set()
    totals = FieldTotals()
    if shown_whole:
        left_out_matches = _left_out_matches(shown_whole, out_by_stage, official_only,
                                             left_out)
        totals = field_totals([r.pk for r in shown_whole],
                              [r.pk for r in shown_whole if per_match[r.pk]],
                              official_only, left_out_matches)
    summed = totals.sums  # kept between reads: never changed here
    raw = {player: list(points) for player, points in totals.raw.items()}
    provisional = totals.provisional
    # Who sat where, for a round seen in part and for the withdrawn teams' list.
    seated, lineup_teams, unsigned = _field_seats(list(per_match)) if rounds and (
        shown_in_part or left_out) else ({}, set(), set())
    seat1_dealing: dict[int, bool] = {}  # hand → seat 1 holds the dealer cards

    def seat1_deals_in(hand: int) -> bool:
        deals = seat1_dealing.get(hand)
        if deals is None:
            deals = seat1_dealing[hand] = seating.dealer_seat(hand) == 1
        return deals

    deals: dict[Hashable, list[int]] = defaultdict(list)  # the dealer cards' points
    hands: list[tuple[int, Hashable, str, int]] = []  # (player, deal, seat, points)
    rounds_by_pk = {r.pk: r for r in rounds}
    for (round_id, table_id, hand, match_id, match_number, deal_id, seat1, home, away) in (
            _field_rows(shown_in_part, official_only) if shown_in_part else ()):
        if not views.shows(round_id, table_id, hand):
            continue
        out = out_by_stage[rounds_by_pk[round_id].stage_id]
        if out and (home in out or away in out):
            left_out |= {home, away} & out
            continue
        seats = seated.get(table_id)
        if seats is None:
            continue  # a table without both seats (never written so by the draw)
        key = deal_key(deal_id, round_id, match_number, hand, per_match[round_id])
        seat1_deals = seat1_deals_in(hand)
        dealer_points = seat1 if seat1_deals else -seat1
        deals[key].append(dealer_points)
        one, two = seats
        hands.append((one, key, DEALER if seat1_deals else NON_DEALER, seat1))
        hands.append((two, key, NON_DEALER if seat1_deals else DEALER, -seat1))
        add_points(raw, one, seat1, as_dealer=seat1_deals)
        add_points(raw, two, -seat1, as_dealer=not seat1_deals)
        if match_id in unsigned:
            provisional.update(seats)
    lines = field_lines(hands, deals, minimum_hands=minimum, more=summed)
    players = {player.pk: player for player in
               Player.objects.filter(team__tournament=tournament).select_related("team")}
    rows = [FieldRow(rank=line.rank, player=players[line.player],
                     team=players[line.player].team, line=line, points=raw[line.player][0],
                     dealer_points=raw[line.player][1], non_dealer_points=raw[line.player][2],
                     provisional=line.player in provisional) for line in lines]
    rows.sort(key=lambda row: (row.rank, row.team.code, row.player.number))
    teams = {player.team_id: player.team for player in players.values()}
    rounds_per_match = [r for r in rounds if per_match[r.pk]]
    return FieldStandings(
        stage=stage, rows=rows, minimum_hands=minimum, players=len(raw), rounds=rounds,
        per_match_rounds=rounds_per_match,
        left_out_teams=sorted((teams[pk] for pk in left_out
                               if pk in lineup_teams and pk in teams),
                              key=lambda team: team.code),
        closed_only=closed_only, official_only=official_only)
