"""The write API for table devices (issue 21): a device's token, its one table, the same
commands as the pages (versions, revisions, request tokens), refusals as JSON naming the
field, and nothing of it in the public cache."""

import uuid

import pytest
from django.test import Client

from tournament.models import Approval, DeviceToken, HandResult, Match, TableSignature
from tournament.services.devices import create_table_devices


@pytest.fixture
def devices(director_actor, round_in_play):
    """A one-hand round of two matches in play, and a device (account, password, token) for
    each of its four tables."""
    round_ = round_in_play(4, hands=1)
    return round_, {slip.table: slip for slip in create_table_devices(director_actor, round_)}


def device(slip) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {slip.token}")


def table_of(round_, number):
    return round_.tables.get(number=number)


def post(client, path, body):
    return client.post(path, body, content_type="application/json")


def test_a_device_session_reads_enters_approves_and_signs(devices):
    round_, slips = devices
    table = table_of(round_, 1)
    me = device(slips[1])
    shown = me.get(f"/api/tables/{table.pk}")
    assert shown.status_code == 200 and "no-store" in shown["Cache-Control"]
    state = shown.json()
    assert state["number"] == 1 and state["hands"][0]["result"] is None
    # The table's state, in the pages' words (tournament.states), at each step.
    assert (state["status"], state["status_word"]) == ("waiting", "not started")
    answer = post(me, f"/api/tables/{table.pk}/hands/1", {
        "figures": {"outcome": "knock", "declarer_seat": 1, "declarer_deadwood": 4,
                    "opponent_deadwood": 12},
        "seen_version": 0, "request_token": str(uuid.uuid4())})
    assert answer.status_code == 201, answer.content
    hand = answer.json()["hands"][0]["result"]
    assert (hand["version"], hand["seat1_points"], hand["explanation"]) == (
        1, 23, "Knock 4 vs 12: 15 + 8 = 23")
    assert answer.json()["status_word"] == "awaiting approval"
    for seat in (1, 2):
        answer = post(me, f"/api/tables/{table.pk}/hands/1/approvals", {
            "seat": seat, "version": 1, "request_token": str(uuid.uuid4())})
        assert answer.status_code == 201, answer.content
    state = answer.json()
    assert state["ready_to_sign"] and state["hands"][0]["result"]["approved_by"] == [1, 2]
    assert state["status"] == "awaiting_signatures"
    token = str(uuid.uuid4())
    for seat in (1, 2):
        answer = post(me, f"/api/tables/{table.pk}/signatures", {
            "seat": seat, "revision": state["revision"],
            "request_token": token if seat == 1 else str(uuid.uuid4())})
        assert answer.status_code == 201, answer.content
    assert answer.json()["signed"] == [1, 2]
    assert answer.json()["status"] == "awaiting_sign_off"  # done: the referee's turn
    # The first signature sent again (its token): the same answer, nothing twice.
    again = post(me, f"/api/tables/{table.pk}/signatures", {
        "seat": 1, "revision": state["revision"], "request_token": token})
    assert again.status_code == 201 and TableSignature.objects.count() == 2


def test_cards_mode_is_settled_inside_the_command(devices):
    round_, slips = devices
    table = table_of(round_, 2)
    answer = post(device(slips[2]), f"/api/tables/{table.pk}/hands/1", {
        "cards": {"outcome": "knock", "declarer_seat": 1,
                  "declarer_cards": "AS 2S 3S 7H 7D 7C 9C TC JC 4D",
                  "opponent_cards": "4S 5S KH KD QH QD JH JD 8H 8D"},
        "seen_version": 0, "request_token": str(uuid.uuid4())})
    assert answer.status_code == 201, answer.content
    result = HandResult.objects.get(table=table)
    assert result.cards and result.explanation.startswith("Knock 4 vs")


def test_a_stale_approval_signature_or_sign_off_is_a_409_that_does_nothing(
        devices, staff_user, tournament):
    round_, slips = devices
    table = table_of(round_, 1)
    me, other_screen = device(slips[1]), device(slips[1])
    path = f"/api/tables/{table.pk}/hands/1"
    post(me, path, {"figures": {"outcome": "knock", "declarer_seat": 1,
                                "declarer_deadwood": 5, "opponent_deadwood": 20},
                    "seen_version": 0, "request_token": str(uuid.uuid4())})
    post(other_screen, path, {"figures": {"outcome": "gin", "declarer_seat": 2,
                                          "opponent_deadwood": 30},
                              "seen_version": 1, "request_token": str(uuid.uuid4())})
    answer = post(me, f"{path}/approvals", {"seat": 1, "version": 1,
                                            "request_token": str(uuid.uuid4())})
    assert answer.status_code == 409
    assert "now holds gin by seat 2 vs 30 (version 2" in answer.json()["detail"]
    assert not Approval.objects.exists()
    stale_entry = post(me, path, {"figures": {"outcome": "draw"}, "seen_version": 1,
                                  "request_token": str(uuid.uuid4())})
    assert stale_entry.status_code == 409 and HandResult.objects.count() == 2

    for seat in (1, 2):
        post(other_screen, f"{path}/approvals", {"seat": seat, "version": 2,
                                                 "request_token": str(uuid.uuid4())})
    seen = me.get(f"/api/tables/{table.pk}").json()["revision"]
    post(other_screen, path, {"figures": {"outcome": "draw"}, "seen_version": 2,
                              "request_token": str(uuid.uuid4())})
    for seat in (1, 2):
        post(other_screen, f"{path}/approvals", {"seat": seat, "version": 3,
                                                 "request_token": str(uuid.uuid4())})
    answer = post(me, f"/api/tables/{table.pk}/signatures", {
        "seat": 1, "revision": seen, "request_token": str(uuid.uuid4())})
    assert answer.status_code == 409 and "changed since" in answer.json()["detail"]
    assert not TableSignature.objects.exists()

    # The referee signs off through the API too, with a device token of its own.
    referee = staff_user(tournament, "referee", username="chen")
    key = DeviceToken.new_token()
    DeviceToken.objects.create(user=referee, digest=DeviceToken.digest_of(key))
    ref = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
    match = table.match
    for number in (1, 2):
        t = match.tables.get(position=number)
        state = ref.get(f"/api/tables/{t.pk}").json()
        if state["hands"][0]["result"] is None:
            post(ref, f"/api/tables/{t.pk}/hands/1", {
                "figures": {"outcome": "draw"}, "seen_version": 0,
                "request_token": str(uuid.uuid4())})
            for seat in (1, 2):
                post(ref, f"/api/tables/{t.pk}/hands/1/approvals", {
                    "seat": seat, "version": 1, "request_token": str(uuid.uuid4())})
        state = ref.get(f"/api/tables/{t.pk}").json()
        for seat in (1, 2):
            post(ref, f"/api/tables/{t.pk}/signatures", {
                "seat": seat, "revision": state["revision"],
                "request_token": str(uuid.uuid4())})
    seen = ref.get(f"/api/tables/{table.pk}").json()["match_revision"]
    post(other_screen, path, {"figures": {"outcome": "draw"}, "seen_version": 3,
                              "request_token": str(uuid.uuid4())})
    answer = post(ref, f"/api/matches/{match.pk}/sign-off", {
        "revision": seen, "request_token": str(uuid.uuid4())})
    assert answer.status_code == 409 and Match.objects.get(pk=match.pk).signed_off_at is None


def test_a_device_works_at_its_own_table_only(devices):
    round_, slips = devices
    answer = device(slips[1]).get(f"/api/tables/{table_of(round_, 2).pk}")
    assert answer.status_code == 403
    assert "scores table 1 in this round" in answer.json()["detail"]
    body = {"figures": {"outcome": "draw"}, "seen_version": 0,
            "request_token": str(uuid.uuid4())}
    assert post(device(slips[1]), f"/api/tables/{table_of(round_, 2).pk}/hands/1",
                body).status_code == 403
    assert not HandResult.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "wrong token", "scorer's session"])
def test_without_a_device_token_nothing_is_read_or_written(devices, who, staff_user,
                                                            tournament):
    round_, _slips = devices
    client = {"anonymous": Client(),
              "wrong token": Client(HTTP_AUTHORIZATION="Bearer nonsense")}.get(who)
    if client is None:
        client = Client()
        client.force_login(staff_user(tournament, "scorer", username="li"))
    table = table_of(round_, 1)
    assert client.get(f"/api/tables/{table.pk}").status_code == 401
    answer = post(client, f"/api/tables/{table.pk}/hands/1", {
        "figures": {"outcome": "draw"}, "seen_version": 0, "request_token": str(uuid.uuid4())})
    assert answer.status_code == 401 and not HandResult.objects.exists()
    assert answer["WWW-Authenticate"] == 'Bearer realm="table devices"'  # how to get in
    not_json = client.post(f"/api/tables/{table.pk}/hands/1", "{not json",
                           content_type="application/json", HTTP_AUTHORIZATION="Bearer x")
    assert not_json.status_code == 401  # the token is checked first, whatever the body


def test_a_device_of_another_tournament_sees_no_table(devices, make_tournament,
                                                      director_actor, staff_user):
    round_, _slips = devices
    other = make_tournament(name="Other", slug="other")
    stranger = staff_user(other, "scorer", username="stranger")
    key = DeviceToken.new_token()
    DeviceToken.objects.create(user=stranger, digest=DeviceToken.digest_of(key))
    answer = Client(HTTP_AUTHORIZATION=f"Bearer {key}").get(
        f"/api/tables/{table_of(round_, 1).pk}")
    assert answer.status_code == 404


@pytest.mark.parametrize(("field", "value"), [
    ("declarer_deadwood", "٣"), ("declarer_deadwood", "\uff13"), ("declarer_deadwood", "1_0"),
    ("declarer_deadwood", "5 0"), ("declarer_deadwood", "+5"), ("declarer_deadwood", "3"),
    ("declarer_deadwood", 3.5), ("declarer_deadwood", True), ("opponent_deadwood", "12"),
    ("declarer_seat", "1"),
])
def test_numbers_are_json_numbers(devices, field, value):
    round_, slips = devices
    table = table_of(round_, 1)
    figures = {"outcome": "knock", "declarer_seat": 1, "declarer_deadwood": 4,
               "opponent_deadwood": 12, field: value}
    answer = post(device(slips[1]), f"/api/tables/{table.pk}/hands/1", {
        "figures": figures, "seen_version": 0, "request_token": str(uuid.uuid4())})
    assert answer.status_code == 422, answer.content
    assert any(field in error["loc"] for error in answer.json()["detail"])
    assert not HandResult.objects.exists()


def test_an_engine_refusal_names_its_field(devices):
    round_, slips = devices
    table = table_of(round_, 1)
    answer = post(device(slips[1]), f"/api/tables/{table.pk}/hands/1", {
        "figures": {"outcome": "knock", "declarer_seat": 1, "declarer_deadwood": 0,
                    "opponent_deadwood": 12},
        "seen_version": 0, "request_token": str(uuid.uuid4())})
    assert answer.status_code == 400
    refusal = answer.json()
    assert refusal["field"] == "declarer_deadwood" and "is gin" in refusal["detail"]
    chinese = device(slips[1]).post(
        f"/api/tables/{table.pk}/hands/1", {
            "figures": {"outcome": "knock", "declarer_seat": 1, "declarer_deadwood": 0,
                        "opponent_deadwood": 12},
            "seen_version": 0, "request_token": str(uuid.uuid4())},
        content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert chinese.json()["field"] == "declarer_deadwood"
    assert "is gin" not in chinese.json()["detail"]


def test_a_device_answer_is_never_served_from_the_public_cache(devices, settings):
    settings.PUBLIC_CACHE_SECONDS = 300
    round_, slips = devices
    table = table_of(round_, 1)
    assert device(slips[1]).get(f"/api/tables/{table.pk}").status_code == 200
    assert Client().get(f"/api/tables/{table.pk}").status_code == 401


@pytest.mark.parametrize(("role", "status"), [("scorer", 403), ("referee", 200),
                                              ("director", 200)])
def test_signing_off_through_the_api_is_for_referees_and_directors(devices, staff_user,
                                                                    tournament, role, status,
                                                                    director_actor):
    from tournament.services import commands
    from tournament.services.hands import HandEntry

    round_, _slips = devices
    match = round_.matches.order_by("number").first()
    for table in match.tables.all():
        commands.enter(director_actor, table.pk, 1, HandEntry("draw"), seen_version=0,
                       request_token=uuid.uuid4())
        for seat in (1, 2):
            commands.approve(director_actor, table.pk, 1, seat, version=1,
                             request_token=uuid.uuid4())
        table.refresh_from_db()
        for seat in (1, 2):
            commands.sign(director_actor, table.pk, seat, revision=table.revision,
                          request_token=uuid.uuid4())
    user = staff_user(tournament, role, username=f"{role}-api")
    key = DeviceToken.new_token()
    DeviceToken.objects.create(user=user, digest=DeviceToken.digest_of(key))
    client = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
    shown = client.get(f"/api/tables/{match.tables.first().pk}")
    revision = shown.json()["match_revision"] if shown.status_code == 200 else 0
    answer = post(client, f"/api/matches/{match.pk}/sign-off",
                  {"revision": revision, "request_token": str(uuid.uuid4())})
    assert answer.status_code == status, answer.content
    assert (Match.objects.get(pk=match.pk).signed_off_at is not None) == (status == 200)


def test_a_body_that_is_not_json_is_a_400_as_documented(devices):
    round_, slips = devices
    table = table_of(round_, 1)
    answer = device(slips[1]).post(f"/api/tables/{table.pk}/hands/1", "{not json",
                                   content_type="application/json")
    assert answer.status_code == 400  # docs/api.md: "Cannot parse request body"
    assert answer.json() == {"detail": "Cannot parse request body"}
    assert not HandResult.objects.exists()
