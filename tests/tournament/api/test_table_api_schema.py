"""schemathesis on the table devices' write API (issue 21, "Done when"; issue 56, item 5:
all its checks): every operation, authenticated as a table's own device (the token its slip
gives, bound to its table) and the match's sign-off as the referee's, with valid and invalid
bodies and parameters: no 500, every answer as the OpenAPI document says (status, content
type, body, headers), the token enforced (the same request without it or with a made-up one
is refused), invalid input refused, and at least one 2xx on each.

A body the document allows may still be refused by the rules of the game (ten cards that are
not a hand, a seat that has approved already): that is the 400 the document declares, which
schemathesis's check of valid data is told to expect beside its own list.

Generated values are steered one time in three towards a command that can succeed now (the
device's own table, hand 1, the version or revision it holds now, a new request token), so
that the walk reaches real saves, approvals, signatures and a sign-off, not only refusals.
"""

from __future__ import annotations

import uuid
import zlib

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.config import PositiveDataAcceptanceConfig

from tests.tournament.api.test_api_schema import DEVICE_PATHS, wsgi_in_test_transaction
from tournament.models import DeviceToken, HandResult, Match, Table
from tournament.services.devices import create_table_devices
from tournament.services.locking import shown_revision

EXAMPLES = 15  # per operation and mode: CI-sized


@pytest.fixture
def referee_token(tournament, staff_user):
    key = DeviceToken.new_token()
    DeviceToken.objects.create(user=staff_user(tournament, "referee", username="chen"),
                               digest=DeviceToken.digest_of(key))
    return key


def device_tokens(director_actor, round_) -> dict[int, str]:
    """Each table's device made as the director makes them (one account and token a table,
    bound to it): the table's id → the token on its slip."""
    slips = create_table_devices(director_actor, round_)
    tables = {t.number: t.pk for t in round_.tables.all()}
    return {tables[slip.table]: slip.token for slip in slips}


def valid_body(path: str, table: Table, generated) -> dict | None:
    """A command that can succeed at ``table`` now, for the operation at ``path``."""
    token = str(uuid.uuid4())
    current = HandResult.objects.filter(table=table, hand=1, is_current=True).first()
    table.refresh_from_db()
    if path.endswith("/hands/{hand}"):
        return {"figures": {"outcome": "draw"}, "request_token": token,
                "seen_version": current.version if current else 0}
    if path.endswith("/approvals"):
        if current is None:
            return None
        seat = 1 + stable(generated) % 2
        return {"seat": seat, "version": current.version, "request_token": token}
    if path.endswith("/signatures"):
        return {"seat": 1 + stable(generated) % 2, "revision": table.revision,
                "request_token": token}
    if path.endswith("/sign-off"):
        match = Match.objects.get(pk=table.match_id)
        return {"revision": shown_revision(match, Table.objects.filter(match=match)),
                "request_token": token}
    return None


def prepare(path: str, referee, table: Table) -> None:
    """What the operation needs before it can succeed (through the same commands): a
    result to approve, a table approved to sign, both tables signed to sign off."""
    from tournament.services import commands
    from tournament.services.hands import HandEntry

    match = Match.objects.get(pk=table.match_id)
    tables = [table] if not path.endswith("/sign-off") else list(
        Table.objects.filter(match=match).order_by("position"))
    for each in tables:
        if path.endswith(("/approvals", "/signatures", "/sign-off")) and not \
                HandResult.objects.filter(table=each, hand=1, is_current=True).exists():
            commands.enter(referee, each.pk, 1, HandEntry("draw"), seen_version=0,
                           request_token=uuid.uuid4())
        if path.endswith(("/signatures", "/sign-off")):
            version = HandResult.objects.get(table=each, hand=1, is_current=True).version
            for seat in (1, 2):
                commands.approve(referee, each.pk, 1, seat, version=version,
                                 request_token=uuid.uuid4())
        if path.endswith("/sign-off"):
            each.refresh_from_db()
            for seat in (1, 2):
                commands.sign(referee, each.pk, seat, revision=each.revision,
                              request_token=uuid.uuid4())


def stable(value) -> int:
    """A number from a generated value, the same in every run (``hash`` of a text is not)."""
    return zlib.crc32(str(value).encode())


def walk(operation, mode, table: Table, headers: dict, statuses: dict) -> None:
    """The operation's generated cases, a third steered to a command that can succeed."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    def check(case):
        # Each part given back whole (not changed in place): schemathesis then judges the
        # case again, and a negative case whose bad parts were steered away is a valid one,
        # checked as such. The token is the case's own header, as a client sends it.
        params = dict(case.path_parameters or {})
        if stable(params) % 3 == 0 or mode is GenerationMode.POSITIVE:
            if "table_id" in params:
                params["table_id"] = table.pk
            if "match_id" in params:
                params["match_id"] = table.match_id
            if "hand" in params:
                params["hand"] = 1
            case.path_parameters = params
            body = valid_body(case.operation.path, table, case.body)
            if body is not None and case.body is not None and stable(case.body) % 3 == 0:
                case.body = body
        case.headers = {**(case.headers or {}), **headers}
        response = case.call()
        statuses.setdefault(case.operation.path, set()).add(response.status_code)
        case.validate_response(response, headers=headers)

    check()


def test_every_device_operation_answers_as_its_schema_says(round_in_play, referee_token,
                                                            director_actor):
    from django.contrib.auth import get_user_model

    from tournament.services import Actor

    round_ = round_in_play(4, hands=1)
    tables = list(round_.tables.order_by("number"))
    tokens = device_tokens(director_actor, round_)
    referee = Actor(user=get_user_model().objects.get(username="chen"))
    statuses: dict[str, set[int]] = {}
    with wsgi_in_test_transaction() as app:
        schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
        schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
            expected_statuses=[*PositiveDataAcceptanceConfig().expected_statuses, "400"])
        operations = [result.ok() for result in schema.get_all_operations()
                      if result.ok().path.startswith(DEVICE_PATHS)]
        assert len(operations) == 5
        for index, operation in enumerate(operations):
            table = tables[index % len(tables)]
            # A match is signed off by the referee; all else by the table's own device.
            token = referee_token if operation.path.startswith("/api/matches") \
                else tokens[table.pk]
            prepare(operation.path, referee, table)
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                walk(operation, mode, table, {"Authorization": f"Bearer {token}"}, statuses)
    missing = {path for path, found in statuses.items()
               if not any(200 <= status < 300 for status in found)}
    assert not missing, statuses
    # A rule's refusal and a stale view were met, each as the document declares them.
    assert {400, 409} <= set().union(*statuses.values()), statuses
    assert all(any(status >= 400 for status in found) for found in statuses.values()), statuses
