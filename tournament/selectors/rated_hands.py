"""The hands the duplicate rating reads (issue 54; services.ratings, scoring/ratings.py).

Which hands count, in rated tournaments only:

- the current result of every hand of a match signed off, in a round that has been closed
  (a round re-opened for a tied knockout match keeps its other matches' hands; the
  re-opened match counts again once signed off): what is still secret or provisional never
  reaches a rating;
- not a forfeited match (nobody played), and not a table with a team withdrawn from its
  stage (the datum leaves those out, docs/rules.md §14);
- each hand names its box by the deal it was played on (``field_results.deal_key``), the
  dealer's cards to the player in the dealer's seat (``scoring.seating.dealer_seat``), and
  its date is the tournament's last day: one rating period per event.

Players are named by their person's id, so one person's hands at every event are one
player's. Three queries and one per stage with a withdrawn team, whatever the size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from scoring import seating
from scoring.ratings import RatedHand
from tournament.models import HandResult, Round, TableSeat
from tournament.selectors.field_results import deal_key, deals_per_match
from tournament.selectors.penalties import withdrawn_teams


def rated_hands(tournament_ids: Collection[int]) -> list[RatedHand]:
    """Every counted hand of these tournaments, as the rating engine reads them."""
    rounds = {r.pk: r for r in Round.objects.filter(
        stage__tournament_id__in=tournament_ids, closed_at__isnull=False,
    ).select_related("stage__tournament")}
    if not rounds:
        return []
    out_by_stage = {}
    for round_ in rounds.values():
        if round_.stage_id not in out_by_stage:
            out_by_stage[round_.stage_id] = withdrawn_teams(round_.stage)
    persons: dict[int, dict[int, str]] = defaultdict(dict)
    for table_id, seat, person_id in TableSeat.objects.filter(
            round_id__in=list(rounds)).order_by().values_list(
            "table_id", "seat", "player__person_id"):
        persons[table_id][seat] = str(person_id)
    hands = []
    per_match = {pk: deals_per_match(r) for pk, r in rounds.items()}
    for (round_id, table_id, hand, match_number, deal_id, seat1_points, home, away) in (
            HandResult.objects.filter(
                is_current=True, table__round_id__in=list(rounds),
                table__match__signed_off_at__isnull=False,
                table__match__forfeited_by__isnull=True)
            .order_by().values_list(
                "table__round_id", "table_id", "hand", "table__match__number", "deal_id",
                "seat1_points", "table__match__home_id", "table__match__away_id")):
        round_ = rounds[round_id]
        out = out_by_stage[round_.stage_id]
        seats = persons.get(table_id, {})
        if (out and (home in out or away in out)) or len(seats) != 2:
            continue
        tournament = round_.stage.tournament
        key = deal_key(deal_id, round_id, match_number, hand, per_match[round_id])
        box = f"deal {key}" if deal_id is not None else "/".join(map(str, key))
        if seating.dealer_seat(hand) == 1:
            dealer, non_dealer, dealer_points = seats[1], seats[2], seat1_points
        else:
            dealer, non_dealer, dealer_points = seats[2], seats[1], -seat1_points
        hands.append(RatedHand(tournament.ends_on, str(tournament.pk), box, dealer,
                               non_dealer, dealer_points))
    return hands
