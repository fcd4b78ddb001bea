"""Which hand results a member of staff may see while a round is played (issue 9).

No result of a box is shown to anyone who may still sit at a table that has to play it.
Referees and directors see everything (they sign off and correct, and do not play). A
scorer sees the results of the table the device scores this round, and any other table's
result of a box only once every table that plays that box has entered it: both tables of
the match when every match has its own deal set, the whole field when one set serves the
round. After the round is closed everything is public anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from scoring.rules import DealScope
from tournament.models import HandResult, Round, Table
from tournament.permissions import Perm, has_perm


@dataclass(frozen=True)
class ResultView:
    everything: bool
    own_table: int | None = None  # the pk of the table this device scores
    finished: frozenset[tuple[int, int]] = frozenset()  # (deal set, hand) every table entered
    deal_set_of: dict[int, int] | None = None  # table pk → its deal set

    def shows(self, table_id: int, hand: int) -> bool:
        if self.everything or table_id == self.own_table:
            return True
        deal_set = (self.deal_set_of or {}).get(table_id)
        return (deal_set, hand) in self.finished


def sees_every_result(user, round_: Round) -> bool:
    tournament = round_.stage.tournament
    return (round_.status == Round.Status.CLOSED
            or has_perm(user, tournament, Perm.SIGN_OFF)
            or has_perm(user, tournament, Perm.VIEW_DEALS))


def result_view(user, round_: Round, *, own_table: int | None = None) -> ResultView:
    """What this user may see of the round's results (two queries for a scorer)."""
    if sees_every_result(user, round_):
        return ResultView(everything=True)
    per_match = round_.rules.deal_scope == DealScope.MATCH
    tables = Table.objects.filter(round=round_).values_list("pk", "match__number",
                                                            "match__extra_hands")
    deal_set_of: dict[int, int] = {}
    playing: dict[tuple[int, int], int] = {}  # (deal set, hand) → tables that play it
    for pk, match_number, extra in tables:
        deal_set = match_number if per_match else 1
        deal_set_of[pk] = deal_set
        for hand in range(1, round_.hands_per_match + extra + 1):
            playing[deal_set, hand] = playing.get((deal_set, hand), 0) + 1
    entered: dict[tuple[int, int], int] = {}
    rows = (HandResult.objects.filter(table__round=round_, is_current=True)
            .values_list("table__match__number", "hand").annotate(n=Count("id")))
    for match_number, hand, count in rows:
        key = (match_number if per_match else 1, hand)
        entered[key] = entered.get(key, 0) + count
    finished = frozenset(key for key, count in entered.items() if count >= playing.get(key, 0))
    return ResultView(everything=False, own_table=own_table, finished=finished,
                      deal_set_of=deal_set_of)
