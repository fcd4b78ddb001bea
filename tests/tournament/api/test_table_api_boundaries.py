"""The device API's boundaries (issue 48, item 3), through the real API: a request token is
one command's (its kind, account and target), reused for anything else it is a 409 that
says so, never a 500 nor another command's answer; a table or match of a draft round is a
404 like one that does not exist, read, written or bound by nobody, the round unnamed."""

import uuid

import pytest
from django.test import Client

from tests.tournament.services.test_locking_races import interleave
from tournament.models import (
    Approval,
    AuditEntry,
    CommandReceipt,
    DeviceToken,
    HandResult,
    Match,
    Stage,
    TableBinding,
    TableSignature,
)
from tournament.services.devices import create_table_devices

REUSED = "this request token was used for another command; reload the page"
DRAW = {"figures": {"outcome": "draw"}}
KNOCK = {"figures": {"outcome": "knock", "declarer_seat": 1, "declarer_deadwood": 4,
                     "opponent_deadwood": 12}}


@pytest.fixture
def two_hands(director_actor, round_in_play):
    """A two-hand round of two matches in play, a device for each of its four tables."""
    round_ = round_in_play(4, hands=2)
    return round_, {slip.table: slip for slip in create_table_devices(director_actor, round_)}


@pytest.fixture
def referee(tournament, staff_user) -> Client:
    """A referee's device token: every table of the round, the sign-off."""
    key = DeviceToken.new_token()
    DeviceToken.objects.create(user=staff_user(tournament, "referee", username="chen"),
                               digest=DeviceToken.digest_of(key))
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}")


def device(slip) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {slip.token}")


def post(client, path, body):
    return client.post(path, body, content_type="application/json")


def enter(client, table, hand, token, body=DRAW, seen=0):
    return post(client, f"/api/tables/{table.pk}/hands/{hand}",
                {**body, "seen_version": seen, "request_token": str(token)})


def approve(client, table, hand, seat, token, version=1):
    return post(client, f"/api/tables/{table.pk}/hands/{hand}/approvals",
                {"seat": seat, "version": version, "request_token": str(token)})


def sign(client, table, seat, token):
    revision = client.get(f"/api/tables/{table.pk}").json()["revision"]
    return post(client, f"/api/tables/{table.pk}/signatures",
                {"seat": seat, "revision": revision, "request_token": str(token)})


def refused_as_reused(answer) -> bool:
    return answer.status_code == 409 and answer.json()["detail"] == REUSED


# Request tokens ------------------------------------------------------------------------------

def test_a_token_sent_again_for_the_same_command_answers_the_first(two_hands):
    round_, slips = two_hands
    table = round_.tables.get(number=1)
    me, token = device(slips[1]), uuid.uuid4()
    first = enter(me, table, 1, token, KNOCK)
    again = enter(me, table, 1, token, KNOCK)
    assert first.status_code == again.status_code == 201
    assert first.json()["hands"] == again.json()["hands"]
    approval = uuid.uuid4()
    assert approve(me, table, 1, 1, approval).status_code == 201
    assert approve(me, table, 1, 1, approval).status_code == 201
    assert HandResult.objects.count() == 1 and Approval.objects.count() == 1


def test_a_token_reused_for_another_hand_is_refused(two_hands):
    round_, slips = two_hands
    table = round_.tables.get(number=1)
    me, token = device(slips[1]), uuid.uuid4()
    assert enter(me, table, 1, token).status_code == 201
    answer = enter(me, table, 2, token)
    assert refused_as_reused(answer), answer.content
    assert not HandResult.objects.filter(hand=2).exists()


def test_a_token_reused_for_another_seat_is_refused_not_a_500(two_hands):
    round_, slips = two_hands
    table = round_.tables.get(number=1)
    me, token = device(slips[1]), uuid.uuid4()
    enter(me, table, 1, uuid.uuid4())
    assert approve(me, table, 1, 1, token).status_code == 201
    answer = approve(me, table, 1, 2, token)
    assert refused_as_reused(answer), answer.content
    assert list(Approval.objects.values_list("seat", flat=True)) == [1]
    # The same with signatures: seat 1 signs with a token, seat 2 sends it.
    approve(me, table, 1, 2, uuid.uuid4())
    enter(me, table, 2, uuid.uuid4())
    for seat in (1, 2):
        approve(me, table, 2, seat, uuid.uuid4())
    signature = uuid.uuid4()
    assert sign(me, table, 1, signature).status_code == 201
    answer = sign(me, table, 2, signature)
    assert refused_as_reused(answer), answer.content
    assert list(TableSignature.objects.values_list("seat", flat=True)) == [1]


def test_a_token_reused_at_another_table_is_refused_not_a_500(two_hands, referee):
    round_, _slips = two_hands
    one, two = round_.tables.get(number=1), round_.tables.get(number=2)
    token = uuid.uuid4()
    assert enter(referee, one, 1, token).status_code == 201
    answer = enter(referee, two, 1, token)
    assert refused_as_reused(answer), answer.content
    assert not HandResult.objects.filter(table=two).exists()
    enter(referee, two, 1, uuid.uuid4())
    approval = uuid.uuid4()
    assert approve(referee, one, 1, 1, approval).status_code == 201
    answer = approve(referee, two, 1, 1, approval)
    assert refused_as_reused(answer), answer.content
    # Naming a version that is no longer current: not the other table's approval either.
    answer = approve(referee, two, 1, 1, approval, version=7)
    assert refused_as_reused(answer), answer.content
    assert not Approval.objects.filter(result__table=two).exists()


def test_an_approvals_token_reused_for_an_entry_is_refused(two_hands):
    round_, slips = two_hands
    table = round_.tables.get(number=1)
    me, token = device(slips[1]), uuid.uuid4()
    enter(me, table, 1, uuid.uuid4())
    assert approve(me, table, 1, 1, token).status_code == 201
    answer = enter(me, table, 1, token, KNOCK, seen=1)  # a correction of hand 1
    assert refused_as_reused(answer), answer.content
    answer = enter(me, table, 2, token)
    assert refused_as_reused(answer), answer.content
    assert list(HandResult.objects.values_list("hand", "version")) == [(1, 1)]


def test_an_entrys_token_reused_for_a_sign_off_is_refused(two_hands, referee):
    round_, _slips = two_hands
    match = round_.matches.order_by("number").first()
    tables = list(match.tables.order_by("position"))
    entry = uuid.uuid4()
    for table in tables:
        for hand in (1, 2):
            token = entry if (table, hand) == (tables[0], 1) else uuid.uuid4()
            assert enter(referee, table, hand, token).status_code == 201
            for seat in (1, 2):
                approve(referee, table, hand, seat, uuid.uuid4())
        for seat in (1, 2):
            assert sign(referee, table, seat, uuid.uuid4()).status_code == 201
    revision = referee.get(f"/api/tables/{tables[0].pk}").json()["match_revision"]
    answer = post(referee, f"/api/matches/{match.pk}/sign-off",
                  {"revision": revision, "request_token": str(entry)})
    assert refused_as_reused(answer), answer.content
    assert Match.objects.get(pk=match.pk).signed_off_at is None
    assert not CommandReceipt.objects.exists()
    # A sign-off's token then reused for an entry (a correction) is refused as well.
    sign_off = uuid.uuid4()
    answer = post(referee, f"/api/matches/{match.pk}/sign-off",
                  {"revision": revision, "request_token": str(sign_off)})
    assert answer.status_code == 200, answer.content
    corrected = post(referee, f"/api/tables/{tables[0].pk}/hands/1", {
        **KNOCK, "seen_version": 1, "request_token": str(sign_off), "reason": "typo"})
    assert refused_as_reused(corrected), corrected.content
    assert Match.objects.get(pk=match.pk).signed_off_at is not None


def test_another_account_sending_a_devices_token_is_refused(two_hands, referee):
    round_, slips = two_hands
    table = round_.tables.get(number=1)
    token = uuid.uuid4()
    assert enter(device(slips[1]), table, 1, token, KNOCK).status_code == 201
    # The same command, word for word, from the referee's account: not the device's answer.
    answer = enter(referee, table, 1, token, KNOCK)
    assert refused_as_reused(answer), answer.content
    approval = uuid.uuid4()
    assert approve(device(slips[1]), table, 1, 1, approval).status_code == 201
    answer = approve(referee, table, 1, 1, approval)
    assert refused_as_reused(answer), answer.content
    assert HandResult.objects.count() == Approval.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_entries_racing_with_one_token_one_is_refused_not_a_500(
        monkeypatch, two_hands, referee):
    """Both find the token unused; the first stops before it writes (its locks held), the
    second saves at another match meanwhile: the first then meets the token's unique column
    and is refused as a reuse."""
    round_, _slips = two_hands
    one, other = (m.tables.get(position=1) for m in round_.matches.order_by("number"))
    token = uuid.uuid4()
    header = referee.defaults["HTTP_AUTHORIZATION"]
    first, second, second_was = interleave(
        monkeypatch, lambda: enter(Client(HTTP_AUTHORIZATION=header), one, 1, token),
        "hand.save", lambda: enter(Client(HTTP_AUTHORIZATION=header), other, 1, token))
    assert second_was == "done"  # another match: it never waited for the first's locks
    assert first[0] == second[0] == "ok", (first, second)
    assert second[1].status_code == 201
    assert refused_as_reused(first[1]), first[1].content
    assert list(HandResult.objects.values_list("table_id", flat=True)) == [other.pk]


# Draft rounds ---------------------------------------------------------------------------------

@pytest.fixture
def draft(director_actor, tournament, teams):
    """A round drawn and not published (its stage's name is the secret to keep)."""
    from tournament.services.draw import generate_round
    from tournament.services.stages import create_stage, enter_teams

    stage = create_stage(director_actor, tournament, name="Secret Stage",
                         kind=Stage.Kind.SWISS, swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    assert round_.status == "draft"
    return round_


@pytest.fixture
def scorer_device(tournament, staff_user) -> Client:
    """A scorer account's device token, bound to no table yet (its first table becomes
    its table)."""
    key = DeviceToken.new_token()
    DeviceToken.objects.create(user=staff_user(tournament, "scorer", username="li"),
                               digest=DeviceToken.digest_of(key))
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}")


def test_a_device_never_reads_enters_at_or_binds_a_draft_rounds_table(
        draft, scorer_device, referee):
    table = draft.tables.get(number=1)
    me = scorer_device
    answers = [
        me.get(f"/api/tables/{table.pk}"),
        enter(me, table, 1, uuid.uuid4()),
        approve(me, table, 1, 1, uuid.uuid4()),
        post(me, f"/api/tables/{table.pk}/signatures",
             {"seat": 1, "revision": 0, "request_token": str(uuid.uuid4())}),
        referee.get(f"/api/tables/{table.pk}"),
        enter(referee, table, 1, uuid.uuid4()),
    ]
    for answer in answers:
        assert answer.status_code == 404, answer.content
        assert answer.json()["detail"] == "no such table"
    sign_off = post(referee, f"/api/matches/{table.match_id}/sign-off",
                    {"revision": 0, "request_token": str(uuid.uuid4())})
    assert sign_off.status_code == 404 and sign_off.json()["detail"] == "no such match"
    # Exactly what a table and a match that do not exist answer.
    assert me.get("/api/tables/2147483647").json() == answers[0].json()
    assert post(referee, "/api/matches/2147483647/sign-off",
                {"revision": 0, "request_token": str(uuid.uuid4())}).json() == sign_off.json()
    for answer in [*answers, sign_off]:
        assert "Secret" not in answer.content.decode()
    assert not TableBinding.objects.exists()
    assert not AuditEntry.objects.filter(action="device.bind").exists()
    assert not HandResult.objects.exists() and not Approval.objects.exists()


def test_a_draft_rounds_table_is_found_once_the_round_is_published(
        draft, director_actor, scorer_device):
    from tournament.services.rounds import publish_round, start_round

    table = draft.tables.get(number=1)
    publish_round(director_actor, draft, override_reason="test")
    start_round(director_actor, draft)
    me = scorer_device
    assert me.get(f"/api/tables/{table.pk}").status_code == 200
    assert enter(me, table, 1, uuid.uuid4()).status_code == 201
    assert TableBinding.objects.get().table_id == table.pk
