"""The rows of the desk entry pages (issue 24): a match's two tables hand by hand, in the
order of the scorecards, or one box across the field, in the order of its traveller."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from scoring.rules import DealScope
from scoring.shorthand import Shorthand
from tournament.models import HandResult, Match, Round
from tournament.selectors.draw import SeatPlan, TablePlan, match_plan, round_plan


def shorthand_of(result: HandResult) -> Shorthand:
    """A stored result as the desk types it (an undercut is typed as the knock it was)."""
    outcome = "knock" if result.outcome == "undercut" else result.outcome
    return Shorthand(outcome, result.declarer_seat,
                     result.declarer_deadwood if outcome == "knock" else None,
                     result.opponent_deadwood if outcome != "draw" else None,
                     result.false_knock_seat, result.false_knock_deadwood)


@dataclass(frozen=True)
class DeskRow:
    table: TablePlan
    hand: int
    result: HandResult | None

    @property
    def key(self) -> str:
        return f"t{self.table.table.pk}h{self.hand}"

    @property
    def version(self) -> int:
        return self.result.version if self.result is not None else 0

    @property
    def typed(self) -> str:
        return shorthand_of(self.result).text if self.result is not None else ""

    @property
    def dealer(self) -> SeatPlan:
        return self.table.dealer(self.hand)

    @property
    def approved(self) -> int:
        """How many seats approved it (counted with the result: ``_rows``)."""
        return self.result.approvals_counted if self.result is not None else 0


def _rows(tables: list[TablePlan], hands_of, *, hand: int | None = None) -> list[DeskRow]:
    """The rows of these tables' hands (``hand``: that hand only, all of them else), each
    with its current result and the number of its approvals (one query)."""
    results = HandResult.objects.filter(table_id__in=[t.table.pk for t in tables],
                                        is_current=True)
    if hand is not None:
        results = results.filter(hand=hand)
    stored = {(r.table_id, r.hand): r for r in
              results.annotate(approvals_counted=Count("approvals")).order_by()}
    return [DeskRow(table, number, stored.get((table.table.pk, number)))
            for table in tables for number in hands_of(table)]


def match_rows(match: Match) -> list[DeskRow]:
    """Table 1's hands, then table 2's: a scorecard after the other (four queries)."""
    plan = match_plan(match)
    return _rows(list(plan.tables), lambda table: range(1, match.hands + 1))


def box_tables(round_: Round, deal_set: int) -> list[TablePlan]:
    """The tables that play a deal set's boxes: every table of the round when one set
    serves the field, else the two tables of match ``deal_set``."""
    plan = round_plan(round_)
    if round_.rules.deal_scope == DealScope.MATCH:
        return [t for t in plan.tables if t.match.number == deal_set]
    return plan.tables if deal_set == 1 else []


def box_rows(round_: Round, deal_set: int, hand: int) -> list[DeskRow]:
    """Every table's row of one box, in table order (the traveller's)."""
    tables = sorted((t for t in box_tables(round_, deal_set) if hand <= t.match.hands),
                    key=lambda t: t.number)
    return _rows(tables, lambda table: (hand,), hand=hand)
