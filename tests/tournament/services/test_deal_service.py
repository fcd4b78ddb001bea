import pytest
from django.core.exceptions import PermissionDenied

from scoring.deals import DealPlace, commitment, make_deal
from tournament.models import AuditEntry, Deal, DealKey, Stage
from tournament.services import ServiceError
from tournament.services.deals import (
    generate_deals,
    make_key,
    replace_deal,
    reveal_key,
    set_public_value,
)
from tournament.services.draw import generate_round
from tournament.services.stages import create_stage, enter_teams


@pytest.fixture
def round_(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=5)
    enter_teams(director_actor, stage, teams(6))
    return generate_round(director_actor, stage)


def test_key_is_made_once_and_committed(tournament, director_actor):
    key = make_key(director_actor, tournament)
    assert make_key(director_actor, tournament).pk == key.pk
    assert key.commitment == commitment(key.key)
    assert len(key.key_hex) == 64


def test_deals_are_the_documented_construction(director_actor, round_, tournament):
    made = generate_deals(director_actor, round_)
    assert len(made) == 8  # one field-wide set, eight hands
    key = DealKey.objects.get(tournament=tournament)
    deal = Deal.objects.get(round=round_, deal_set=1, hand=3)
    expected = make_deal(key.key, DealPlace(stage=round_.stage.order, round=1, deal_set=1,
                                            hand=3))
    assert deal.cards == expected.text
    assert AuditEntry.objects.filter(action="deals.generate").exists()


def test_one_deal_set_per_match_when_the_setting_says_so(director_actor, tournament, teams):
    tournament.deal_scope = "match"
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=5)
    enter_teams(director_actor, stage, teams(6))
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    assert Deal.objects.filter(round=round_).count() == 3 * 8
    assert len(set(Deal.objects.values_list("cards", flat=True))) == 24


def test_a_round_is_dealt_under_the_rules_it_was_drawn_with(director_actor, round_,
                                                             tournament):
    """The setting changed after the draw: the drawn round keeps its own copy."""
    tournament.deal_scope = "match"
    tournament.hands_per_match = 4
    tournament.save()
    generate_deals(director_actor, round_)
    assert Deal.objects.filter(round=round_).count() == 8  # one set for the field, 8 hands


def test_deals_are_made_once(director_actor, round_):
    generate_deals(director_actor, round_)
    with pytest.raises(ServiceError, match="made already"):
        generate_deals(director_actor, round_)
    assert Deal.objects.count() == 8


def test_public_value_changes_the_deals_and_is_frozen_after(director_actor, round_,
                                                             tournament):
    set_public_value(director_actor, tournament, "Lotto 3 17 22 31 40 45")
    generate_deals(director_actor, round_)
    key = DealKey.objects.get(tournament=tournament)
    deal = Deal.objects.get(round=round_, hand=1)
    place = DealPlace(round_.stage.order, 1, 1, 1)
    assert deal.cards == make_deal(key.key, place, public_value="Lotto 3 17 22 31 40 45").text
    assert deal.cards != make_deal(key.key, place).text
    with pytest.raises(ServiceError, match="before its first deal"):
        set_public_value(director_actor, tournament, "another")


def test_reserve_deal_replaces_with_a_reason(director_actor, round_):
    generate_deals(director_actor, round_)
    old = Deal.objects.get(round=round_, hand=5)
    with pytest.raises(ServiceError, match="reason"):
        replace_deal(director_actor, old, "  ")
    new = replace_deal(director_actor, old, "box 5 at table 3 was mis-packed")
    old.refresh_from_db()
    assert (old.is_current, old.replaced_reason) == (False, "box 5 at table 3 was mis-packed")
    assert (new.hand, new.reserve, new.is_current) == (5, 1, True)
    assert new.cards != old.cards
    with pytest.raises(ServiceError, match="already been replaced"):
        replace_deal(director_actor, old, "again")
    assert "mis-packed" in AuditEntry.objects.get(action="deals.replace").summary


def test_scorers_and_referees_cannot_touch_deals(round_, tournament, staff_user, actor):
    for role in ("scorer", "referee"):
        person = actor(staff_user(tournament, role))
        with pytest.raises(PermissionDenied):
            generate_deals(person, round_)


def test_key_is_revealed_only_when_every_round_is_closed(director_actor, round_, tournament,
                                                         finish_round):
    generate_deals(director_actor, round_)
    with pytest.raises(ServiceError, match="not closed"):
        reveal_key(director_actor, tournament)
    finish_round(round_)
    key = reveal_key(director_actor, tournament)
    assert key.is_revealed


def test_revealed_key_recreates_every_deal_on_the_command_line(director_actor, round_,
                                                               tournament):
    import json
    import subprocess
    import sys

    set_public_value(director_actor, tournament, "lotto 1 2 3")
    generate_deals(director_actor, round_)
    key = DealKey.objects.get(tournament=tournament)
    output = subprocess.run(
        [sys.executable, "-m", "scoring", "deals", "--key", key.key_hex,
         "--stage", str(round_.stage.order), "--round", str(round_.number), "--hands", "8",
         "--public-value", key.public_value],
        capture_output=True, text=True, check=True).stdout
    printed = [json.loads(line) for line in output.splitlines()]
    stored = list(Deal.objects.filter(round=round_).order_by("hand"))
    assert len(printed) == len(stored) == 8
    for record, deal in zip(printed, stored, strict=True):
        assert " ".join(record["dealer"] + record["non_dealer"] + record["stock"]) == deal.cards


def test_results_keep_the_deal_they_were_played_on(director_actor, round_, tournament):
    """A reserve deal replaces a box only for the tables still to play it (issue 10)."""
    import uuid

    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry
    from tournament.services.rounds import publish_round, start_round

    generate_deals(director_actor, round_)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    first, second = round_.tables.order_by("number")[:2]

    def enter(table, seen=0):
        return record_hand_result(director_actor, table, 5, HandEntry("knock", 1, 4, 12),
                                  seen_version=seen, request_token=uuid.uuid4())

    played = enter(first)
    old = Deal.objects.get(round=round_, hand=5, is_current=True)
    assert played.deal == old
    new = replace_deal(director_actor, old, "box 5 seen by a kibitzer at table 2")
    assert enter(second).deal == new  # table 2 plays the reserve deal
    assert enter(first, seen=1).deal == old  # table 1's correction stays on its deal
    assert "1 table(s) had played the old deal" in AuditEntry.objects.get(
        action="deals.replace").summary
