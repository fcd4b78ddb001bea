"""Cards mode: a hand entered as both final hands instead of the counts (docs/results.md).

The engine (``scoring.showdown``) works out both deadwoods, the lay-offs and the points
from the cards by the rules alone: the reply to the scorer never looks at the box, because
a reply that depended on the box would tell the scorer what is in it. Only when the result
is saved are its cards compared with the box the table played (``box_conflict``), and what
contradicts it is kept for the referee.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_noop

from scoring.box import Box, box_conflicts
from scoring.errors import RuleError
from scoring.showdown import Showdown, settle
from tournament.models import Deal
from tournament.services.base import ServiceError
from tournament.services.hands import HandEntry
from tournament.wording import rule_message

FALSE_KNOCK_WITH_CARDS = gettext_noop("a hand with a false knock is entered with the deadwood "
                                      "counts, not the cards")


@dataclass(frozen=True)
class CardsEntry:
    """The final hands instead of the counts: the engine works out the rest (RULES.md §5)."""

    declarer_seat: int
    declarer_cards: str  # ten cards kept, or eleven for Big Gin
    opponent_cards: str
    declarer_melds: str = ""  # as laid down, melds separated by "/"; empty: the engine's
    # A false knock cannot be told from the final hands (the count was noted when it
    # happened): given with the cards, it is refused, never dropped.
    false_knock_seat: int | None = None
    false_knock_deadwood: int | None = None
    # The outcome the scorer chose: the cards must make it so ("gin", "knock", "big_gin").
    claimed: str | None = None


@dataclass(frozen=True)
class SettledCards:
    entry: HandEntry
    showdown: Showdown
    record: dict  # what is stored with the result

    @property
    def laid_off(self) -> str:
        """The cards the opponent laid off, "5H, 6H"; empty when none."""
        return ", ".join(f"{lay.card}" for lay in self.showdown.opponent.layoffs)


def settle_cards(cards: CardsEntry, rules, *, claimed: str | None = None) -> SettledCards:
    """Deadwoods, lay-offs and score from both final hands, by the rules alone: real cards,
    none twice, melds and deadwoods that agree. It never looks at the box (a reply that
    depended on the box's cards would tell the scorer what is in it); conflicts with the box
    are found when the result is saved and shown to the referee only."""
    if cards.false_knock_seat is not None or cards.false_knock_deadwood is not None:
        message = gettext(FALSE_KNOCK_WITH_CARDS)
        raise ServiceError(message, field_errors={"false_knock_seat": [message]})
    if cards.declarer_seat not in (1, 2):
        raise ServiceError(
            gettext("choose the seat that declared: 1 or 2"),
            field_errors={"declarer_seat": [gettext("choose seat 1 or 2")]})
    groups = [g for g in cards.declarer_melds.split("/") if g.strip()]
    try:
        showdown = settle(cards.declarer_cards, cards.opponent_cards,
                          declarer_melds=groups or None, rules=rules)
    except RuleError as error:
        # In cards mode the counts come from the cards: an error about a count is shown at
        # the cards it was counted from.
        field = {None: "declarer_cards", "declarer_deadwood": "declarer_cards",
                 "outcome": "declarer_cards", "opponent_deadwood": "opponent_cards"
                 }.get(error.field, error.field)
        message = rule_message(error)
        raise ServiceError(message, field_errors={field: [message]}) from None
    claimed = claimed or cards.claimed
    if claimed and claimed != showdown.declaration.value:
        label = showdown.declaration.label.lower()
        raise ServiceError(
            gettext("the cards make this a %(label)s, not %(claimed)s")
            % {"label": label, "claimed": claimed.replace('_', ' ')},
            field_errors={"outcome": [gettext("the cards make it a %(label)s") % {"label": label}]})
    score = showdown.score
    entry = HandEntry(outcome=showdown.declaration.value, declarer_seat=cards.declarer_seat,
                      declarer_deadwood=score.declarer_deadwood,
                      opponent_deadwood=score.opponent_deadwood)
    record = {key: value for key, value in showdown.to_dict().items()
              if key in ("declarer", "opponent", "layoffs")}
    return SettledCards(entry=entry, showdown=showdown, record=record)


def box_conflict(deal: Deal | None, cards: dict | None, rules) -> str:
    """What the stored final hands contradict in the box the table played (for the
    referee), or "" when there is nothing to check: no cards given, or no deal made here."""
    if not cards or deal is None:
        return ""
    shown = [card for side in ("declarer", "opponent")
             for meld in cards[side]["melds"] for card in meld] + [
        card for side in ("declarer", "opponent") for card in cards[side]["deadwood_cards"]]
    return "; ".join(box_conflicts(Box.from_order(deal.cards.split()), shown, rules))
