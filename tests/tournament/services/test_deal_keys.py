"""Keys have a life: a revealed key never deals again (issue 9, docs/deals.md §1).

After a reveal anyone holding the key can re-create what it made, so a new stage, a reserve
deal or the extra hands of a tied knockout match must come from a new key, and the public
check page must re-create every deal from the key that made it.
"""

import json
import shlex
import subprocess
import sys
import uuid

import pytest
from django.urls import reverse

from scoring.deals import DealPlace, make_deal
from tournament.models import AuditEntry, Deal, DealKey, Stage
from tournament.selectors.keys import deal_keys
from tournament.services import ServiceError
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.deals import (
    generate_deals,
    make_key,
    new_key,
    replace_deal,
    reveal_key,
    set_public_value,
)
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.extra_hands import add_extra_hands
from tournament.services.hands import HandEntry
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams

KNOCK = HandEntry("knock", declarer_seat=1, declarer_deadwood=4, opponent_deadwood=12)
DRAW = HandEntry("draw")


def place_of(deal):
    return DealPlace(deal.round.stage.order, deal.round.number, deal.deal_set, deal.hand,
                     deal.reserve)


def made_by(deal, key):
    return deal.cards == make_deal(key.key, place_of(deal), public_value=key.public_value).text


@pytest.fixture
def referee(tournament, staff_user, actor):
    return actor(staff_user(tournament, "referee", username="referee-chen"))


@pytest.fixture
def first_stage_revealed(director_actor, tournament, teams, finish_round):
    """A group stage round dealt with key 1, played, closed, and key 1 revealed."""
    make_key(director_actor, tournament)
    field = teams(4)
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=1)
    enter_teams(director_actor, stage, field)
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    finish_round(round_)
    return reveal_key(director_actor, tournament), field


def knockout_round(director_actor, tournament, field):
    stage = create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, field[:2])
    return generate_round(director_actor, stage)


def test_a_new_stage_after_a_reveal_is_dealt_from_a_new_key(director_actor, tournament,
                                                              first_stage_revealed):
    revealed, field = first_stage_revealed
    final = knockout_round(director_actor, tournament, field)
    generate_deals(director_actor, final)
    deals = list(Deal.objects.filter(round=final).select_related("key", "round__stage"))
    second = DealKey.objects.get(tournament=tournament, number=2)
    assert not second.is_revealed and second.commitment != revealed.commitment
    assert deals and all(deal.key == second for deal in deals)
    assert all(made_by(deal, second) and not made_by(deal, revealed) for deal in deals)
    assert AuditEntry.objects.filter(action="deals.new_key", data__key=2).exists()


def test_a_reserve_deal_after_a_reveal_comes_from_the_new_key(director_actor, tournament,
                                                               first_stage_revealed):
    revealed, field = first_stage_revealed
    final = knockout_round(director_actor, tournament, field)
    generate_deals(director_actor, final)
    old = Deal.objects.get(round=final, hand=3)
    new = Deal.objects.select_related("key", "round__stage").get(
        pk=replace_deal(director_actor, old, "box 3 dropped").pk)
    assert new.key.number == 2 and new.reserve == 1
    assert made_by(new, new.key) and not made_by(new, revealed)


def test_extra_hands_after_a_correction_never_come_from_a_revealed_key(
        director_actor, tournament, teams, staff_user, actor, referee):
    """A knockout final is decided, signed off, closed and its key revealed; a referee's
    correction leaves it tied: the two extra boxes come from a new key."""
    scorer = actor(staff_user(tournament, "scorer", username="scorer-li"))
    make_key(director_actor, tournament)
    final = knockout_round(director_actor, tournament, teams(2))
    generate_deals(director_actor, final)
    publish_round(director_actor, final)
    start_round(director_actor, final)
    match = final.matches.get()
    for table in match.tables.all():
        for hand in range(1, match.hands + 1):
            result = record_hand_result(scorer, table, hand, KNOCK if table.position == 1
                                        else DRAW, seen_version=0, request_token=uuid.uuid4())
            approve_hand(scorer, result, 1)
            approve_hand(scorer, result, 2)
        sign_table(scorer, table, 1)
        sign_table(scorer, table, 2)
    sign_off_match(referee, match)
    close_round(director_actor, final)
    first = reveal_key(director_actor, tournament)

    table1 = match.tables.get(position=1)
    for hand in range(1, match.hands + 1):
        record_hand_result(referee, table1, hand, DRAW, seen_version=1,
                           request_token=uuid.uuid4(), reason="the scorer swapped the tables")
    match = add_extra_hands(referee, match)
    extra = list(Deal.objects.filter(round=final, hand__gt=8).select_related(
        "key", "round__stage"))
    assert [deal.hand for deal in extra] == [9, 10]
    assert all(deal.key.number == 2 and made_by(deal, deal.key) and not made_by(deal, first)
               for deal in extra)


def test_a_key_is_revealed_only_when_every_round_it_dealt_is_closed(
        director_actor, tournament, first_stage_revealed):
    _revealed, field = first_stage_revealed
    with pytest.raises(ServiceError, match="no secret key"):
        reveal_key(director_actor, tournament)
    final = knockout_round(director_actor, tournament, field)
    generate_deals(director_actor, final)
    with pytest.raises(ServiceError, match=r"\(Final, Final\)"):
        reveal_key(director_actor, tournament)


def test_a_director_makes_the_next_key_ahead_with_its_own_public_value(
        director_actor, tournament, first_stage_revealed):
    _revealed, field = first_stage_revealed
    second = new_key(director_actor, tournament)
    with pytest.raises(ServiceError, match="secret key already"):
        new_key(director_actor, tournament)
    set_public_value(director_actor, tournament, "lotto 4 8 15 16 23 42")
    final = knockout_round(director_actor, tournament, field)
    generate_deals(director_actor, final)
    second.refresh_from_db()
    deal = Deal.objects.select_related("round__stage").filter(round=final).first()
    assert second.public_value == "lotto 4 8 15 16 23 42" and made_by(deal, second)


def test_the_database_keeps_one_secret_key_per_tournament(tournament, director_actor):
    from django.db import IntegrityError, transaction

    make_key(director_actor, tournament)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealKey.objects.create(tournament=tournament, number=2, key_hex="ab" * 32,
                               commitment="cd" * 32)


def test_the_check_page_re_creates_every_deal_from_the_key_that_made_it(
        client, director_actor, tournament, first_stage_revealed, finish_round):
    """Every command the public page prints, run, gives exactly the stored deals of its
    key: the originals, the reserve deal and nothing else."""
    _revealed, field = first_stage_revealed
    final = knockout_round(director_actor, tournament, field)
    generate_deals(director_actor, final)
    replace_deal(director_actor, Deal.objects.get(round=final, hand=2), "mis-packed")
    page = client.get(reverse("public:deal_check", args=[tournament.slug])).content.decode()
    second = DealKey.objects.get(tournament=tournament, number=2)
    assert second.commitment in page and second.key_hex not in page
    finish_round(final)
    reveal_key(director_actor, tournament)
    page = client.get(reverse("public:deal_check", args=[tournament.slug])).content.decode()
    assert second.key_hex in page and "✓" in page

    for record in deal_keys(tournament):
        printed = {}
        for command in record.commands:
            assert command.replace("&quot;", '"') in page.replace("&#x27;", "'")
            argv = shlex.split(command)
            assert argv[:3] == ["python", "-m", "scoring"]
            output = subprocess.run([sys.executable, *argv[1:]], capture_output=True,
                                    text=True, check=True).stdout
            for line in output.splitlines():
                deal = json.loads(line)
                printed[(deal["stage"], deal["round"], deal["set"], deal["hand"],
                         deal["reserve"])] = " ".join(deal["dealer"] + deal["non_dealer"]
                                                      + deal["stock"])
        stored = {(d.round.stage.order, d.round.number, d.deal_set, d.hand, d.reserve): d.cards
                  for d in Deal.objects.filter(key=record.key).select_related("round__stage")}
        assert printed == stored and stored
