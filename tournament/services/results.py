"""Temporary: the names views/entry.py still imports from here, until it imports them from
their modules (entry, cards, hands, approvals, signoff, extra_hands; selectors.results)."""

from tournament.selectors.results import is_correction, match_totals
from tournament.services.approvals import approve_hand, seat_player, sign_table
from tournament.services.cards import CardsEntry, settle_cards
from tournament.services.entry import (
    StaleResult,
    check_may_enter,
    new_request_token,
    note_scoring_device,
    record_hand_result,
)
from tournament.services.extra_hands import add_extra_hands
from tournament.services.hands import HandEntry, score_entry
from tournament.services.signoff import sign_off_match

__all__ = ["CardsEntry", "HandEntry", "StaleResult", "add_extra_hands", "approve_hand",
           "check_may_enter", "is_correction", "match_totals", "new_request_token",
           "note_scoring_device", "record_hand_result", "score_entry", "seat_player",
           "settle_cards", "sign_off_match", "sign_table"]
