"""Which hand results a member of staff may see while a round is played (issue 9).

No result of a box is shown to anyone who may still sit at a table that has to play it.
Referees and directors see everything (they sign off and correct, and do not play). A
scorer sees the results of the table the device scores this round, and any other table's
result of a box only once every table that plays that box has entered it: both tables of
the match when every match has its own deal set, the whole field when one set serves the
round. After the round is closed everything is public anyway.

The public (``public_view``, ``public_views``: every public page, the travellers and the
public standings ask them, and nothing else decides) sees a round in play as the
tournament's ``live_results`` setting says, whoever is logged in:

- ``closed`` (the default): nothing but progress until the round is closed, so that players
  still to play a box never learn how it went elsewhere;
- ``finished_boxes``: a box's results (never its cards) once it is **finished**: every
  table that plays it has a current result approved by both seats (tables of a forfeited
  match play no more and are not waited for);
- ``live``: every result as it is entered, marked provisional.

A match's total shows under the same rule: once every box of the match is finished
everywhere (a forfeit at once: it tells nothing of a box), or live. A closed round shows
everything; a draft shows nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count

from scoring.rules import DealScope
from tournament.models import HandResult, Round, Table, Tournament
from tournament.permissions import Perm, has_perm


@dataclass(frozen=True)
class ResultView:
    everything: bool
    own_table: int | None = None  # the pk of the table this device scores
    finished: frozenset[tuple[int, int]] = frozenset()  # (deal set, hand) every table entered
    deal_set_of: dict[int, int] | None = None  # table pk → its deal set
    # The public's view of a round in play under "live": everything, marked provisional.
    provisional: bool = False
    # match pk → the boxes (deal set, hand) its total waits for (the public's views only).
    boxes_of_match: dict[int, frozenset[tuple[int, int]]] | None = None

    def shows(self, table_id: int, hand: int) -> bool:
        if self.everything or table_id == self.own_table:
            return True
        deal_set = (self.deal_set_of or {}).get(table_id)
        return (deal_set, hand) in self.finished

    def shows_match(self, match_id: int) -> bool:
        """Whether the match's total may be shown: every box of it finished everywhere."""
        if self.everything:
            return True
        boxes = (self.boxes_of_match or {}).get(match_id)
        return boxes is not None and boxes <= self.finished


HIDDEN = ResultView(everything=False)


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


# The public ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class PublicViews:
    """The public's view of each round of a tournament (``public_views``)."""

    by_round: dict[int, ResultView]

    def of(self, round_id: int) -> ResultView:
        return self.by_round.get(round_id, HIDDEN)

    def shows(self, round_id: int, table_id: int, hand: int) -> bool:
        return self.of(round_id).shows(table_id, hand)

    def shows_match(self, round_id: int, match_id: int) -> bool:
        return self.of(round_id).shows_match(match_id)

    def provisional(self, round_id: int) -> bool:
        return self.of(round_id).provisional


def public_view(round_: Round, *, tournament: Tournament | None = None) -> ResultView:
    """What anyone, logged in or not, sees of the round's results (the module's rule; at
    most two queries, none for a closed round)."""
    return public_views([round_], tournament=tournament).of(round_.pk)


def public_views(rounds: Iterable[Round], *,
                 tournament: Tournament | None = None) -> PublicViews:
    """``public_view`` of several rounds of one tournament at once: at most two queries
    whatever their number (the rounds' tables, then the approved results)."""
    rounds = list(rounds)
    by_round: dict[int, ResultView] = {}
    in_play = []
    for round_ in rounds:
        if round_.status == Round.Status.CLOSED:
            by_round[round_.pk] = ResultView(everything=True)
        elif round_.status == Round.Status.IN_PLAY:
            in_play.append(round_)
    if not in_play:
        return PublicViews(by_round)
    tournament = tournament or in_play[0].stage.tournament
    setting = tournament.live_results
    if setting == Tournament.LiveResults.LIVE:
        for round_ in in_play:
            by_round[round_.pk] = ResultView(everything=True, provisional=True)
        return PublicViews(by_round)
    rounds_by_id = {round_.pk: round_ for round_ in in_play}
    tables = (Table.objects.filter(round__in=in_play)
              .values_list("pk", "round_id", "match_id", "match__number", "match__extra_hands",
                           "match__forfeited_by_id"))
    deal_set_of: dict[int, dict[int, int]] = {pk: {} for pk in rounds_by_id}
    boxes_of_match: dict[int, dict[int, frozenset]] = {pk: {} for pk in rounds_by_id}
    playing: dict[int, dict[tuple[int, int], set[int]]] = {pk: {} for pk in rounds_by_id}
    for pk, round_id, match_id, match_number, extra, forfeited_by in tables:
        round_ = rounds_by_id[round_id]
        deal_set = match_number if round_.rules.deal_scope == DealScope.MATCH else 1
        deal_set_of[round_id][pk] = deal_set
        boxes = frozenset((deal_set, hand)
                          for hand in range(1, round_.hands_per_match + extra + 1))
        if forfeited_by is not None:
            # Decided by a default: its tables play no more, and its total tells nothing
            # of a box.
            boxes_of_match[round_id][match_id] = frozenset()
            continue
        boxes_of_match[round_id][match_id] = boxes
        for box in boxes:
            playing[round_id].setdefault(box, set()).add(pk)
    approved: set[tuple[int, int]] = set()
    if setting == Tournament.LiveResults.FINISHED_BOXES:
        approved = set(HandResult.objects.filter(table__round__in=in_play, is_current=True)
                       .annotate(seats=Count("approvals", distinct=True)).filter(seats=2)
                       .values_list("table_id", "hand"))
    for round_id in rounds_by_id:
        finished = frozenset(
            box for box, tables in playing[round_id].items()
            if setting == Tournament.LiveResults.FINISHED_BOXES
            and all((table, box[1]) in approved for table in tables))
        by_round[round_id] = ResultView(everything=False, finished=finished,
                                        deal_set_of=deal_set_of[round_id],
                                        boxes_of_match=boxes_of_match[round_id])
    return PublicViews(by_round)
