"""The tournament's keys, their commitments, and the deals of each round (issue 5).

How a deal is made is ``scoring.deals`` (docs/deals.md); this module decides when and from
which key, keeps what was made, and records who saw it.

Keys have a life (docs/deals.md §1): a key deals until it is revealed, and never after,
because anyone can re-create its deals then. A deal needed after a reveal (a new stage, a
reserve deal, extra hands of a tied knockout match) comes from the next key, made with its
own commitment. Every deal is made through ``_dealing_key``, which locks the secret key's
row, so a reveal and a deal never cross: either the deal lands first (and the reveal sees
its open round and refuses) or the reveal does (and the deal takes the next key).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from scoring import deals as dealing
from scoring.rules import DealScope
from tournament.audit_wording import round_name
from tournament.models import Deal, DealKey, Round, Tournament
from tournament.permissions import Perm, has_perm, require
from tournament.services.base import Actor, ServiceError, audit
from tournament.services.text import clean_text


def secret_key(tournament: Tournament) -> DealKey | None:
    """The key that deals now (none before the first is made, or right after a reveal)."""
    return DealKey.objects.filter(tournament=tournament, revealed_at=None).first()


def _dealing_key(actor: Actor, tournament: Tournament) -> DealKey:
    """The secret key, locked for the caller's transaction; the next key is made when there
    is none. Its commitment is public from that moment."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a key is taken for dealing inside the service's transaction")
    key = DealKey.objects.select_for_update().filter(tournament=tournament,
                                                     revealed_at=None).first()
    if key is not None:
        return key
    number = (DealKey.objects.filter(tournament=tournament).aggregate(last=Max("number"))
              ["last"] or 0) + 1
    secret = dealing.new_key()
    try:
        with transaction.atomic():
            key = DealKey.objects.create(tournament=tournament, number=number,
                                         key_hex=secret.hex(),
                                         commitment=dealing.commitment(secret))
    except IntegrityError:  # made by a concurrent request a moment ago
        return DealKey.objects.select_for_update().get(tournament=tournament, revealed_at=None)
    audit(actor, tournament, "deals.new_key", key=number, commitment=key.commitment)
    return key


def make_key(actor: Actor, tournament: Tournament) -> DealKey:
    """The secret key, made now if there is none (a tournament's first key is made with
    it, so its commitment is public before any deal)."""
    with transaction.atomic():
        return _dealing_key(actor, tournament)


def new_key(actor: Actor, tournament: Tournament) -> DealKey:
    """A director makes the next key ahead of its deals, so that its commitment can be
    announced (and a public value chosen) before they are made."""
    require(actor.user, tournament, Perm.VIEW_DEALS)
    with transaction.atomic():
        if secret_key(tournament) is not None:
            raise ServiceError(
                gettext("the tournament has a secret key already; a new key is made only after "
                        "it is revealed"))
        return _dealing_key(actor, tournament)


def set_public_value(actor: Actor, tournament: Tournament, value: str) -> DealKey:
    """Mix a value nobody could know in advance (a lottery draw) into every deal of the
    secret key."""
    require(actor.user, tournament, Perm.VIEW_DEALS)
    try:
        value = clean_text(value, label=gettext_lazy("public value"), max_length=200, required=True)
    except ValueError as error:
        raise ServiceError(str(error), field_errors={"public_value": [str(error)]}) from None
    with transaction.atomic():
        key = _dealing_key(actor, tournament)
        if key.deals.exists():
            raise ServiceError(
                gettext("deal key %(key)s has made deals already; the public value can only be "
                        "set before its first deal") % {"key": key.number})
        key.public_value = value
        key.public_value_set_at = timezone.now()
        key.save(update_fields=["public_value", "public_value_set_at"])
        audit(actor, tournament, "deals.public_value", key=key.number, value=value)
    return key


def deal_sets(round_: Round) -> list[int]:
    """Deal set numbers of a round: one for the field, or one per match (setting)."""
    if round_.rules.deal_scope == DealScope.MATCH:
        return list(round_.matches.order_by("number").values_list("number", flat=True))
    return [1]


def generate_deals(actor: Actor, round_: Round) -> list[Deal]:
    """Make every deal a round needs: each deal set, each hand of the match."""
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.VIEW_DEALS)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("stage__tournament").get(
            pk=round_.pk)
        if round_.status == Round.Status.CLOSED:
            raise ServiceError(
                gettext("%(round)s is closed; its deals cannot be made now") % {"round": round_})
        if round_.deals.exists():
            raise ServiceError(
                gettext("the deals of %(round)s have been made already") % {"round": round_})
        extra = max(round_.matches.values_list("extra_hands", flat=True), default=0)
        hands = round_.hands_per_match + extra
        places = [_place(round_, deal_set, hand)
                  for deal_set in deal_sets(round_) for hand in range(1, hands + 1)]
        if not places:
            raise ServiceError(gettext("%(round)s has no match to deal for") % {"round": round_})
        key = _dealing_key(actor, tournament)
        made = Deal.objects.bulk_create(_deals(round_, key, places))
        audit(actor, tournament, "deals.generate", round=round_.pk, key=key.number,
              deals=len(made), round_name=round_name(round_))
    return made


def _deals(round_: Round, key: DealKey, places: list[dealing.DealPlace]) -> list[Deal]:
    """Unsaved deals of a round at these places, made from the (locked, secret) key."""
    derived = dealing.deal_key(key.key, key.public_value)
    return [Deal(round=round_, key=key, deal_set=place.deal_set, hand=place.hand,
                 reserve=place.reserve, cards=dealing.shuffled(derived, place).text)
            for place in places]


def _place(round_: Round, deal_set: int, hand: int, reserve: int = 0) -> dealing.DealPlace:
    return dealing.DealPlace(stage=round_.stage.order, round=round_.number,
                             deal_set=deal_set, hand=hand, reserve=reserve)


def replace_deal(actor: Actor, deal: Deal, reason: str) -> Deal:
    """A reserve deal for a compromised one (a leak, a mis-packed box), with the reason. It
    applies to the tables that have no result for that hand yet: a result already entered
    keeps the deal it was played on."""
    round_ = deal.round
    tournament = round_.stage.tournament
    require(actor.user, tournament, Perm.VIEW_DEALS)
    try:
        reason = clean_text(reason, label=gettext_lazy("reason"), max_length=500, required=True)
    except ValueError as error:
        raise ServiceError(str(error), field_errors={"reason": [str(error)]}) from None
    with transaction.atomic():
        old = Deal.objects.select_for_update().select_related("round__stage__tournament").get(
            pk=deal.pk)
        if not old.is_current:
            raise ServiceError(gettext("this deal has already been replaced"))
        if old.round.status == Round.Status.CLOSED:
            raise ServiceError(
                gettext("%(round)s is closed; its deals are history now") % {"round": old.round})
        reserve = (Deal.objects.filter(round=old.round, deal_set=old.deal_set, hand=old.hand)
                   .order_by("-reserve").values_list("reserve", flat=True).first()) + 1
        key = _dealing_key(actor, tournament)
        old.is_current = False
        old.replaced_reason = reason
        old.replaced_at = timezone.now()
        old.save(update_fields=["is_current", "replaced_reason", "replaced_at"])
        new, = _deals(old.round, key, [_place(old.round, old.deal_set, old.hand, reserve)])
        new.save()
        # Tables that played the hand keep their results on the old deal; the reserve deal
        # is for the tables still to play it.
        played = old.results.values("table_id").distinct().count()
        audit(actor, tournament, "deals.replace", round=old.round_id, key=key.number,
              hand=old.hand, deal_set=old.deal_set, reserve=reserve, reason=reason,
              played=played, round_name=round_name(old.round))
    return new


def reveal_key(actor: Actor, tournament: Tournament) -> DealKey:
    """Publish the secret key once every round it dealt is closed, so anyone can check
    those deals. It never deals again: later deals come from the next key."""
    require(actor.user, tournament, Perm.VIEW_DEALS)
    with transaction.atomic():
        key = DealKey.objects.select_for_update().filter(tournament=tournament,
                                                         revealed_at=None).first()
        if key is None:
            raise ServiceError(gettext("there is no secret key to reveal"))
        if not key.deals.exists():
            raise ServiceError(
                gettext("deal key %(key)s has made no deal yet; there is nothing to check with it")
                % {"key": key.number})
        open_rounds = (Round.objects.filter(deals__key=key).exclude(status=Round.Status.CLOSED)
                       .select_related("stage").distinct().order_by("stage__order", "number"))
        names = [str(round_) for round_ in open_rounds]
        if names:
            raise ServiceError(
                gettext("deal key %(key)s dealt rounds that are not closed (%(rounds)s); "
                        "revealing it now would reveal their deals")
                % {"key": key.number,
                   "rounds": ", ".join(names[:5]) + (", …" if len(names) > 5 else "")})
        key.revealed_at = timezone.now()
        key.save(update_fields=["revealed_at"])
        audit(actor, tournament, "deals.reveal", key=key.number)
    return key


def may_see_deals(user, round_: Round) -> bool:
    """Deals of a round are secret until it is closed, except to directors."""
    if round_.status == Round.Status.CLOSED:
        return True
    return has_perm(user, round_.stage.tournament, Perm.VIEW_DEALS)


def record_download(actor: Actor, round_: Round, printout: str, paper: str) -> None:
    """Every download of a round's deals before it closes: who, when, what (the printout
    by its name in the address, ``audit_wording.printout_names``, and the paper)."""
    audit(actor, round_.stage.tournament, "deals.download", round=round_.pk,
          printout=printout, paper=paper, round_name=round_name(round_))


def make_missing_deals(actor: Actor, round_: Round, deal_set: int, hands: int) -> int:
    """Deals for hands a set does not have yet (extra hands of a tied knockout match),
    from the secret key; call it inside the caller's transaction. Returns how many were
    made."""
    have = set(round_.deals.filter(deal_set=deal_set).values_list("hand", flat=True))
    places = [_place(round_, deal_set, hand) for hand in range(1, hands + 1)
              if hand not in have]
    if not places:
        return 0
    key = _dealing_key(actor, round_.stage.tournament)
    return len(Deal.objects.bulk_create(_deals(round_, key, places)))
