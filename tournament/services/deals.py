"""The tournament key, its commitment, and the deals of each round (issue 5).

How a deal is made is ``scoring.deals`` (docs/deals.md); this module decides when, keeps
what was made, and records who saw it.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import deals as dealing
from scoring.rules import DealScope
from tournament.models import Deal, DealKey, Round, Tournament
from tournament.permissions import Perm, has_perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.text import clean_text


def ensure_key(tournament: Tournament) -> DealKey:
    """The tournament's key, made on first use; its commitment is public from then on."""
    existing = DealKey.objects.filter(tournament=tournament).first()
    if existing is not None:
        return existing
    key = dealing.new_key()
    try:
        with transaction.atomic():
            return DealKey.objects.create(tournament=tournament, key_hex=key.hex(),
                                          commitment=dealing.commitment(key))
    except IntegrityError:  # made by a concurrent request a moment ago
        return DealKey.objects.get(tournament=tournament)


def _has_deals(tournament: Tournament) -> bool:
    return Deal.objects.filter(round__stage__tournament=tournament).exists()


def set_public_value(actor: Actor, tournament: Tournament, value: str) -> DealKey:
    """Mix a value nobody could know in advance (a lottery draw) into every deal."""
    require(actor.user, tournament, Perm.VIEW_DEALS)
    try:
        value = clean_text(value, label="public value", max_length=200, required=True)
    except ValueError as error:
        raise ServiceError(str(error), field_errors={"public_value": [str(error)]}) from None
    with transaction.atomic():
        ensure_key(tournament)
        key = DealKey.objects.select_for_update().get(tournament=tournament)
        if _has_deals(tournament):
            raise ServiceError("deals have been made already; the public value can only be "
                               "set before the first deal")
        key.public_value = value
        key.public_value_set_at = timezone.now()
        key.save(update_fields=["public_value", "public_value_set_at"])
        audit(actor, tournament, "deals.public_value",
              f"{actor.name} set the public value mixed into the deals: {value}")
    return key


def deal_sets(round_: Round) -> list[int]:
    """Deal set numbers of a round: one for the field, or one per match (setting)."""
    scope = round_.stage.tournament.deal_scope
    if scope == DealScope.MATCH:
        return list(round_.matches.order_by("number").values_list("number", flat=True))
    return [1]


def deal_set_of(round_: Round, match_number: int) -> int:
    return match_number if round_.stage.tournament.deal_scope == DealScope.MATCH else 1


def generate_deals(actor: Actor, round_: Round) -> list[Deal]:
    """Make every deal a round needs: each deal set, each hand of the match."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.VIEW_DEALS)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("stage__tournament").get(
            pk=round_.pk)
        if round_.status == Round.Status.CLOSED:
            raise ServiceError(f"{round_} is closed; its deals cannot be made now")
        if round_.deals.exists():
            raise ServiceError(f"the deals of {round_} have been made already")
        key = ensure_key(tournament)
        derived = dealing.deal_key(key.key, key.public_value)
        extra = max(round_.matches.values_list("extra_hands", flat=True), default=0)
        hands = round_.hands_per_match + extra
        made = [
            Deal(round=round_, deal_set=deal_set, hand=hand,
                 cards=dealing.shuffled(derived, _place(round_, deal_set, hand)).text)
            for deal_set in deal_sets(round_) for hand in range(1, hands + 1)
        ]
        if not made:
            raise ServiceError(f"{round_} has no match to deal for")
        Deal.objects.bulk_create(made)
        audit(actor, tournament, "deals.generate",
              f"{actor.name} made {len(made)} deals for {round_}", round=round_.pk)
    return made


def _place(round_: Round, deal_set: int, hand: int, reserve: int = 0) -> dealing.DealPlace:
    return dealing.DealPlace(stage=round_.stage.order, round=round_.number,
                             deal_set=deal_set, hand=hand, reserve=reserve)


def replace_deal(actor: Actor, deal: Deal, reason: str) -> Deal:
    """A reserve deal for a compromised one (a leak, a mis-packed box), with the reason."""
    round_ = deal.round
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.VIEW_DEALS)
    try:
        reason = clean_text(reason, label="reason", max_length=500, required=True)
    except ValueError as error:
        raise ServiceError(str(error), field_errors={"reason": [str(error)]}) from None
    with transaction.atomic():
        old = Deal.objects.select_for_update().select_related("round__stage__tournament").get(
            pk=deal.pk)
        if not old.is_current:
            raise ServiceError("this deal has already been replaced")
        if old.round.status == Round.Status.CLOSED:
            raise ServiceError(f"{old.round} is closed; its deals are history now")
        reserve = (Deal.objects.filter(round=old.round, deal_set=old.deal_set, hand=old.hand)
                   .order_by("-reserve").values_list("reserve", flat=True).first()) + 1
        key = ensure_key(tournament)
        old.is_current = False
        old.replaced_reason = reason
        old.replaced_at = timezone.now()
        old.save(update_fields=["is_current", "replaced_reason", "replaced_at"])
        new = Deal.objects.create(
            round=old.round, deal_set=old.deal_set, hand=old.hand, reserve=reserve,
            cards=dealing.make_deal(key.key, _place(old.round, old.deal_set, old.hand, reserve),
                                    public_value=key.public_value).text,
        )
        audit(actor, tournament, "deals.replace",
              f"{actor.name} replaced hand {old.hand} of set {old.deal_set} in {old.round} "
              f"with reserve deal {reserve}; reason: {reason}", round=old.round_id)
    return new


def reveal_key(actor: Actor, tournament: Tournament) -> DealKey:
    """Publish the key once every round is closed, so anyone can check every deal."""
    require(actor.user, tournament, Perm.VIEW_DEALS)
    with transaction.atomic():
        key = DealKey.objects.select_for_update().filter(tournament=tournament).first()
        if key is None:
            raise ServiceError("this tournament has no deals to reveal")
        if key.is_revealed:
            raise ServiceError("the key has been revealed already")
        open_rounds = Round.objects.filter(stage__tournament=tournament).exclude(
            status=Round.Status.CLOSED).count()
        if open_rounds:
            raise ServiceError(f"{open_rounds} round(s) are not closed; revealing the key "
                               "now would reveal their deals")
        key.revealed_at = timezone.now()
        key.save(update_fields=["revealed_at"])
        audit(actor, tournament, "deals.reveal", f"{actor.name} revealed the tournament key")
    return key


def may_see_deals(user, round_: Round) -> bool:
    """Deals of a round are secret until it is closed, except to directors."""
    if round_.status == Round.Status.CLOSED:
        return True
    return has_perm(user, round_.stage.tournament, Perm.VIEW_DEALS)


def record_download(actor: Actor, round_: Round, what: str) -> None:
    """Every download of a round's deals before it closes: who, when, what."""
    audit(actor, round_.stage.tournament, "deals.download",
          f"{actor.name} downloaded the {what} of {round_}", round=round_.pk, what=what)


def make_missing_deals(round_: Round, deal_set: int, hands: int) -> int:
    """Deals for hands a set does not have yet (extra hands of a tied knockout match);
    call it inside the caller's transaction. Returns how many were made."""
    key = ensure_key(round_.stage.tournament)
    derived = dealing.deal_key(key.key, key.public_value)
    have = set(round_.deals.filter(deal_set=deal_set).values_list("hand", flat=True))
    made = [Deal(round=round_, deal_set=deal_set, hand=hand,
                 cards=dealing.shuffled(derived, _place(round_, deal_set, hand)).text)
            for hand in range(1, hands + 1) if hand not in have]
    Deal.objects.bulk_create(made)
    return len(made)
