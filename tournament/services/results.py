"""Hand results, approvals, signatures, sign-off and corrections (issue 6, RULES.md §10).

The FCG procedure: staff record each hand, both players approve it, at the end both players
of each table sign, and the referee signs the match off. Points always come from
``scoring.hand``; nothing here adds up a hand by itself.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring import seating
from scoring.box import Box, box_conflicts
from scoring.errors import RuleError
from scoring.hand import FalseKnock, HandScore, Party, score_hand
from scoring.match import knockout_decided
from scoring.showdown import Showdown, settle
from tournament.models import (
    Approval,
    Deal,
    HandResult,
    Match,
    Player,
    Round,
    RoundEntry,
    Stage,
    Table,
    TableSignature,
)
from tournament.permissions import Perm, has_perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.deals import deal_set_of, make_missing_deals
from tournament.services.pins import check_pin, counts_wrong_pins
from tournament.services.text import clean_text


@dataclass(frozen=True)
class HandEntry:
    """What a scorer types for one hand. Seats are the table's seats 1 and 2."""

    outcome: str
    declarer_seat: int | None = None
    declarer_deadwood: int | None = None
    opponent_deadwood: int | None = None
    false_knock_seat: int | None = None
    false_knock_deadwood: int | None = None

    @property
    def words(self) -> str:
        """The entry as a referee would say it: "knock 4 vs 12", "gin vs 30", "draw"."""
        if self.outcome == "draw":
            text = "draw"
        elif self.outcome in ("gin", "big_gin"):
            label = "Big Gin" if self.outcome == "big_gin" else "gin"
            text = f"{label} by seat {self.declarer_seat} vs {self.opponent_deadwood}"
        else:
            text = (f"{self.outcome} by seat {self.declarer_seat} "
                    f"{self.declarer_deadwood} vs {self.opponent_deadwood}")
        if self.false_knock_seat:
            text += f", false knock by seat {self.false_knock_seat} at {self.false_knock_deadwood}"
        return text

    @classmethod
    def of(cls, result: HandResult) -> HandEntry:
        outcome = "knock" if result.outcome == "undercut" else result.outcome
        return cls(outcome, result.declarer_seat, result.declarer_deadwood,
                   result.opponent_deadwood, result.false_knock_seat,
                   result.false_knock_deadwood)


class StaleResult(ServiceError):
    """Someone saved this hand since the form was opened; ``current`` is what is stored."""

    def __init__(self, current: HandResult | None):
        what = f"{HandEntry.of(current).words} (version {current.version}, by " \
               f"{current.entered_by})" if current else "nothing"
        super().__init__(f"this hand was changed meanwhile; it now holds {what}. "
                         "Check it and save again if yours is right.")
        self.current = current


# Scoring ------------------------------------------------------------------------------

def score_entry(entry: HandEntry, rules) -> HandScore:
    """The engine's score of an entry, with every slip reported as a ServiceError naming
    the field when there is one."""
    errors: dict[str, list[str]] = {}
    if entry.outcome != "draw" and entry.declarer_seat not in (1, 2):
        errors["declarer_seat"] = ["choose the seat that declared: 1 or 2"]
    if entry.outcome == "draw" and entry.declarer_seat is not None:
        errors["declarer_seat"] = ["a draw has no declarer"]
    if entry.false_knock_seat is not None and entry.false_knock_seat not in (1, 2):
        errors["false_knock_seat"] = ["a false knock is by seat 1 or seat 2"]
    if (entry.false_knock_seat is None) != (entry.false_knock_deadwood is None):
        errors["false_knock_deadwood"] = ["a false knock needs both the seat and the deadwood"]
    if errors:
        raise ServiceError("; ".join(m for ms in errors.values() for m in ms),
                           field_errors=errors)
    false_knock = None
    if entry.false_knock_seat is not None:
        by = (Party.DECLARER if entry.false_knock_seat == entry.declarer_seat
              else Party.OPPONENT)
        false_knock = FalseKnock(by=by, deadwood=entry.false_knock_deadwood)
    try:
        return score_hand(entry.outcome, entry.declarer_deadwood, entry.opponent_deadwood,
                          rules=rules, false_knock=false_knock)
    except RuleError as error:
        raise ServiceError(str(error), field_errors={_field_of(str(error)): [str(error)]}) \
            from None


def _field_of(message: str) -> str:
    """The form field an engine message is about, so the screen shows it in place."""
    if "opponent" in message:
        return "opponent_deadwood"
    if "false knock's recorded deadwood" in message or "it is not a false knock" in message:
        return "false_knock_deadwood"
    if "may not declare later" in message:
        return "declarer_seat"
    if "deadwood" in message or "knock" in message or "gin" in message.lower():
        return "declarer_deadwood"
    return "outcome"


def seat_points(score: HandScore, declarer_seat: int | None) -> tuple[int, int]:
    if declarer_seat is None:
        return 0, 0
    mine, theirs = score.declarer_points, score.opponent_points
    return (mine, theirs) if declarer_seat == 1 else (theirs, mine)


# Cards mode -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardsEntry:
    """The final hands instead of the counts: the engine works out the rest (RULES.md §5)."""

    declarer_seat: int
    declarer_cards: str  # ten cards kept, or eleven for Big Gin
    opponent_cards: str
    declarer_melds: str = ""  # as laid down, melds separated by "/"; empty: the engine's


@dataclass(frozen=True)
class SettledCards:
    entry: HandEntry
    showdown: Showdown
    record: dict  # what is stored with the result

    @property
    def summary(self) -> str:
        layoffs = ", ".join(f"{lay.card}" for lay in self.showdown.opponent.layoffs)
        text = self.showdown.score.explanation
        return text + (f"; laid off: {layoffs}" if layoffs else "")


def settle_cards(cards: CardsEntry, rules, *, claimed: str | None = None) -> SettledCards:
    """Deadwoods, lay-offs and score from both final hands, by the rules alone: real cards,
    none twice, melds and deadwoods that agree. It never looks at the box (a reply that
    depended on the box's cards would tell the scorer what is in it); conflicts with the box
    are found when the result is saved and shown to the referee only."""
    if cards.declarer_seat not in (1, 2):
        raise ServiceError("choose the seat that declared: 1 or 2",
                           field_errors={"declarer_seat": ["choose seat 1 or 2"]})
    groups = [g for g in cards.declarer_melds.split("/") if g.strip()]
    try:
        showdown = settle(cards.declarer_cards, cards.opponent_cards,
                          declarer_melds=groups or None, rules=rules)
    except RuleError as error:
        field = "opponent_cards" if "opponent" in str(error) else "declarer_cards"
        raise ServiceError(str(error), field_errors={field: [str(error)]}) from None
    if claimed and claimed != showdown.declaration.value:
        label = showdown.declaration.label.lower()
        raise ServiceError(f"the cards make this a {label}, not {claimed.replace('_', ' ')}",
                           field_errors={"outcome": [f"the cards make it a {label}"]})
    score = showdown.score
    entry = HandEntry(outcome=showdown.declaration.value, declarer_seat=cards.declarer_seat,
                      declarer_deadwood=score.declarer_deadwood,
                      opponent_deadwood=score.opponent_deadwood)
    record = {key: value for key, value in showdown.to_dict().items()
              if key in ("declarer", "opponent", "layoffs")}
    return SettledCards(entry=entry, showdown=showdown, record=record)


def played_deal(table: Table, hand: int, current: HandResult | None) -> Deal | None:
    """The deal a table played a hand on: the one its first result recorded (a later
    version is the same play, corrected), else the deal current for its set and hand now.
    None when the round's deals were not made here."""
    if current is not None:
        return current.deal
    return Deal.objects.filter(round=table.match.round, hand=hand, is_current=True,
                               deal_set=deal_set_of(table.match.round, table.match.number)
                               ).first()


def _box_conflict(deal: Deal | None, cards: dict | None, rules) -> str:
    """What the stored final hands contradict in the box the table played (for the
    referee), or "" when there is nothing to check: no cards given, or no deal made here."""
    if not cards or deal is None:
        return ""
    shown = [card for side in ("declarer", "opponent")
             for meld in cards[side]["melds"] for card in meld] + [
        card for side in ("declarer", "opponent") for card in cards[side]["deadwood_cards"]]
    return "; ".join(box_conflicts(Box.from_order(deal.cards.split()), shown, rules))


# Recording ----------------------------------------------------------------------------------

def _locked_table(table: Table) -> Table:
    # Lock the table's row only: saves at other tables of the event go on in parallel.
    return (Table.objects.select_for_update(of=("self",))
            .select_related("match__round__stage__tournament", "match__home", "match__away")
            .get(pk=table.pk))


def record_hand_result(
    actor: Actor, table: Table, hand: int, entry: HandEntry, *,
    seen_version: int, request_token: uuid.UUID | str, reason: str = "",
    cards: dict | None = None,
) -> HandResult:
    """Save a new version of a hand's result.

    ``seen_version`` is the version the scorer's form showed (0 for none): if another
    version was saved since, nothing is saved and the scorer is shown what is stored. The
    same ``request_token`` twice (a double click, a re-sent form) returns the first save.
    After sign-off only a referee may change a result, with a reason; that clears the
    sign-off and the players' signatures until they are given again.
    """
    tournament = table.round.stage.tournament
    require(actor.user, tournament, Perm.ENTER_RESULTS)
    try:
        token = uuid.UUID(str(request_token))
    except ValueError:
        raise ServiceError("the form has no valid request token; reload the page") from None
    with transaction.atomic():
        table = _locked_table(table)
        match = table.match
        round_ = match.round
        # One query finds both a save of this very form and the hand's current version.
        found = list(HandResult.objects.filter(
            Q(request_token=token) | Q(table=table, hand=hand, is_current=True)))
        earlier = next((r for r in found if r.request_token == token), None)
        current = next((r for r in found if r.is_current and r.table_id == table.pk
                        and r.hand == hand), None)
        if earlier is not None:
            if earlier.table_id != table.pk or earlier.hand != hand:
                raise ServiceError("this form was already used for another hand; reload it")
            return earlier
        correcting = is_correction(match)
        _check_can_enter(actor, round_, correcting)
        if correcting:
            try:
                reason = clean_text(reason, label="reason", max_length=500, required=True)
            except ValueError:
                raise ServiceError("a correction after sign-off needs a reason",
                                   field_errors={"reason": ["give the reason"]}) from None
        if not 1 <= hand <= match.hands:
            raise ServiceError(f"hand {hand} is not in this match: it has hands 1 to "
                               f"{match.hands}", field_errors={"hand": ["no such hand"]})
        score = score_entry(entry, round_.rules)
        if (current.version if current else 0) != seen_version:
            raise StaleResult(current)
        # The current version is always the latest: versions are never thrown away.
        version = (current.version if current else 0) + 1
        if current is not None:
            current.is_current = False
            current.save(update_fields=["is_current"])
        seat1, seat2 = seat_points(score, entry.declarer_seat)
        deal = played_deal(table, hand, current)
        result = HandResult.objects.create(
            table=table, hand=hand, deal=deal, version=version, outcome=score.outcome.value,
            declarer_seat=entry.declarer_seat,
            declarer_deadwood=score.declarer_deadwood, opponent_deadwood=score.opponent_deadwood,
            false_knock_seat=entry.false_knock_seat,
            false_knock_deadwood=entry.false_knock_deadwood,
            seat1_points=seat1, seat2_points=seat2, explanation=score.explanation,
            cards=cards, box_conflict=_box_conflict(deal, cards, round_.rules),
            entered_by=actor.user, ip_address=actor.ip, device=actor.device,
            reason=reason, request_token=token,
        )
        cleared = TableSignature.objects.filter(table=table).delete()[0]
        if correcting:
            _clear_sign_off(match, round_)
        audit(actor, tournament, "result.correct" if correcting else
              ("result.change" if current else "result.enter"),
              _describe(actor, table, hand, current, entry, score, reason, cleared),
              table=table.pk, hand=hand, version=result.version, match=match.pk)
    return result


def is_correction(match: Match) -> bool:
    """A change to a match that is signed off, or in a closed round: a referee's correction
    with a reason (RULES.md §10)."""
    return match.signed_off_at is not None or match.round.status == Round.Status.CLOSED


def check_may_enter(actor: Actor, table: Table) -> None:
    """Results, and previews of them, are for a round in play, or a referee's correction
    after sign-off; nothing else (raises ServiceError or PermissionDenied)."""
    require(actor.user, table.match.round.stage.tournament, Perm.ENTER_RESULTS)
    _check_can_enter(actor, table.match.round, is_correction(table.match))


def _check_can_enter(actor: Actor, round_: Round, correcting: bool) -> None:
    tournament = round_.stage.tournament
    if correcting:
        if not has_perm(actor.user, tournament, Perm.CORRECT_SIGNED_RESULT):
            raise ServiceError("this match is signed off; only a referee can correct it")
        return
    if round_.status != Round.Status.IN_PLAY:
        raise ServiceError(f"{round_} is {round_.get_status_display().lower()}; results are "
                           "entered only while it is in play")


def _clear_sign_off(match: Match, round_: Round) -> None:
    """A correction makes the match provisional until it is signed off again. A closed round
    stays closed (its records stay public; the match shows "being corrected")."""
    match.signed_off_at = None
    match.signed_off_by = None
    match.home_total = match.away_total = None
    match.save(update_fields=["signed_off_at", "signed_off_by", "home_total", "away_total"])


def _describe(actor, table, hand, before, entry, score, reason, cleared) -> str:
    where = f"hand {hand} at table {table.number}"
    if before is None:
        text = f"{actor.name} entered {where}: {entry.words} ({score.explanation})"
    else:
        text = (f"{actor.name} changed {where}: {HandEntry.of(before).words} → "
                f"{entry.words} ({score.explanation})")
    if reason:
        text += f"; reason: {reason}"
    if cleared:
        text += "; the players' signatures were cleared"
    return text


# Approvals, signatures, sign-off -------------------------------------------------------------

@counts_wrong_pins
def approve_hand(actor: Actor, result: HandResult, seat: int, *,
                 pin: str | None = None) -> Approval:
    """A player approves the current result of a hand: a tap for the seat on the scorer's
    device, or the player's PIN when the tournament asks for one."""
    table = result.table
    tournament = table.round.stage.tournament
    require(actor.user, tournament, Perm.ENTER_RESULTS)
    if seat not in (1, 2):
        raise ServiceError(f"table {table.number} has seats 1 and 2, not {seat}")
    with transaction.atomic():
        table = _locked_table(table)
        result = HandResult.objects.get(pk=result.pk)
        if not result.is_current:
            raise ServiceError(f"hand {result.hand} has a newer result; approve that one")
        existing = Approval.objects.filter(result=result, seat=seat).first()
        if existing is not None:
            return existing
        method = _check_player(table, seat, pin)
        approval = Approval.objects.create(result=result, seat=seat, method=method,
                                           recorded_by=actor.user)
        audit(actor, tournament, "result.approve",
              f"seat {seat} approved hand {result.hand} at table {table.number} "
              f"(version {result.version})", table=table.pk, hand=result.hand,
              match=table.match_id)
    return approval


def seat_player(table: Table, seat: int) -> Player:
    """The player in a seat of a table this round (the line-up and RULES.md §8)."""
    side, slot = seating.seat_holder(table.position, seat)
    entry = RoundEntry.objects.select_related("first_player", "second_player").get(
        match=table.match, side=side.value)
    return entry.first_player if slot == 1 else entry.second_player


def _check_player(table: Table, seat: int, pin: str | None) -> str:
    """How the player confirmed: "tap", or "pin" after checking it when the tournament
    asks for PINs (a wrong PIN is counted, and too many lock the player's PIN entry:
    services.pins)."""
    tournament = table.match.round.stage.tournament  # loaded with the locked table
    if not tournament.approvals_need_pin:
        return Approval.Method.TAP
    player = seat_player(table, seat)
    if not player.pin_hash:
        raise ServiceError(f"{player.name} (seat {seat}) has no PIN yet; the director sets it "
                           "on the team's page")
    check_pin(tournament, player, pin, table=table, seat=seat)
    return Approval.Method.PIN


def _missing_at(table: Table) -> list[str]:
    """What a table still lacks before its players may sign: results and approvals."""
    hands = table.match.hands
    current = {r.hand: r for r in HandResult.objects.filter(table=table, is_current=True)
               .prefetch_related("approvals")}
    missing = []
    for hand in range(1, hands + 1):
        result = current.get(hand)
        if result is None:
            missing.append(f"table {table.number}: hand {hand} has no result")
            continue
        approved = {a.seat for a in result.approvals.all()}
        for seat in (1, 2):
            if seat not in approved:
                missing.append(f"table {table.number}: hand {hand} is not approved by "
                               f"seat {seat}")
    return missing


@counts_wrong_pins
def sign_table(actor: Actor, table: Table, seat: int, *, pin: str | None = None,
               ) -> TableSignature:
    """A player signs the table's results at the end of the match."""
    tournament = table.round.stage.tournament
    require(actor.user, tournament, Perm.ENTER_RESULTS)
    if seat not in (1, 2):
        raise ServiceError(f"table {table.number} has seats 1 and 2, not {seat}")
    with transaction.atomic():
        table = _locked_table(table)
        missing = _missing_at(table)
        if missing:
            raise ServiceError("not ready to sign: " + "; ".join(missing[:4])
                               + ("; …" if len(missing) > 4 else ""))
        if TableSignature.objects.filter(table=table, seat=seat).exists():
            return TableSignature.objects.get(table=table, seat=seat)
        method = _check_player(table, seat, pin)
        signature, created = TableSignature.objects.get_or_create(
            table=table, seat=seat, defaults={"method": method, "recorded_by": actor.user})
        if created:
            audit(actor, tournament, "result.sign",
                  f"seat {seat} signed table {table.number}", table=table.pk,
                  match=table.match_id)
    return signature


def match_totals(match: Match) -> tuple[int, int]:
    """(home, away) small points from the current results at both tables."""
    totals = {seating.Side.HOME: 0, seating.Side.AWAY: 0}
    results = HandResult.objects.filter(table__match=match, is_current=True).select_related(
        "table")
    for result in results:
        for seat in (1, 2):
            side = seating.seat_holder(result.table.position, seat).side
            totals[side] += result.points(seat)
    return totals[seating.Side.HOME], totals[seating.Side.AWAY]


def sign_off_match(actor: Actor, match: Match) -> Match:
    """The referee makes the match official: every hand at both tables entered, approved,
    and both tables signed by both players."""
    tournament = match.round.stage.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    with transaction.atomic():
        match = (Match.objects.select_for_update().select_related("round__stage__tournament")
                 .get(pk=match.pk))
        if match.signed_off_at is not None:
            raise ServiceError(f"match {match.number} is signed off already")
        if match.round.status not in (Round.Status.IN_PLAY, Round.Status.CLOSED):
            raise ServiceError(f"{match.round} is not in play")
        tables = list(match.tables.order_by("position"))
        missing = [m for table in tables for m in _missing_at(table)]
        signed = set(TableSignature.objects.filter(table__match=match)
                     .values_list("table__number", "seat"))
        missing += [f"table {t.number}: seat {s} has not signed" for t in tables
                    for s in (1, 2) if (t.number, s) not in signed]
        if missing:
            raise ServiceError("cannot sign off: " + "; ".join(missing[:4])
                               + ("; …" if len(missing) > 4 else ""))
        home, away = match_totals(match)
        if match.round.stage.kind == Stage.Kind.KNOCKOUT and not knockout_decided(home, away):
            raise ServiceError(f"the match is tied at {home}; a knockout match goes on with "
                               "extra hands until it is decided")
        match.home_total, match.away_total = home, away
        match.signed_off_at = timezone.now()
        match.signed_off_by = actor.user
        match.save(update_fields=["home_total", "away_total", "signed_off_at",
                                  "signed_off_by"])
        audit(actor, tournament, "match.sign_off",
              f"{actor.name} signed off match {match.number} ({match.home.code} {home} – "
              f"{away} {match.away.code})", match=match.pk)
    return match


def note_scoring_device(actor: Actor, table: Table) -> None:
    """A scorer's device takes a table for the round (it then sees that table's results):
    recorded, so that one account scoring two tables of a round shows in the audit log."""
    audit(actor, table.match.round.stage.tournament, "result.device",
          f"{actor.name}'s device scores table {table.number} in {table.match.round}",
          table=table.pk, match=table.match_id, device=actor.device)


def new_request_token() -> str:
    return str(uuid.uuid4())



def add_extra_hands(actor: Actor, match: Match) -> Match:
    """A knockout match that ends level goes on with more boxes (RULES.md §11: the setting
    "extra hands for a tied knockout match", one pair at a time by default)."""
    tournament = match.round.stage.tournament
    require(actor.user, tournament, Perm.SIGN_OFF)
    with transaction.atomic():
        match = (Match.objects.select_for_update().select_related("round__stage__tournament")
                 .get(pk=match.pk))
        round_ = match.round
        if round_.stage.kind != Stage.Kind.KNOCKOUT:
            raise ServiceError("only a knockout match is played on after a tie")
        # In play, or being corrected after its round was closed.
        if (round_.status not in (Round.Status.IN_PLAY, Round.Status.CLOSED)
                or match.signed_off_at is not None):
            raise ServiceError(f"match {match.number} is not being played")
        tables = list(match.tables.all())
        entered = HandResult.objects.filter(table__match=match, is_current=True).count()
        if entered < len(tables) * match.hands:
            raise ServiceError(f"match {match.number} has hands without a result yet")
        home, away = match_totals(match)
        if knockout_decided(home, away):
            raise ServiceError(f"match {match.number} is not tied ({home} – {away})")
        extra = round_.rules.knockout_tiebreak_hands
        match.extra_hands += extra
        match.save(update_fields=["extra_hands"])
        made = _deal_extra_hands(actor, round_, match)
        audit(actor, tournament, "match.extra_hands",
              f"{actor.name} added {extra} hands to match {match.number} ({match.home.code} "
              f"{home} – {away} {match.away.code}): hands {match.hands - extra + 1} to "
              f"{match.hands}" + (f"; {made} new deals made" if made else ""),
              match=match.pk)
    return match


def _deal_extra_hands(actor: Actor, round_: Round, match: Match) -> int:
    """When the round's deals were made here, make the deals the new hands need."""
    if not round_.deals.exists():
        return 0
    return make_missing_deals(actor, round_, deal_set_of(round_, match.number), match.hands)
