"""schemathesis against ``/api/openapi.json`` (issue 13, "Done when"): every operation,
with valid and with invalid parameters, on a tournament with closed rounds and a round in
play, passes all of schemathesis's checks (issue 56, item 5): no 500, only answers its
schema documents (status, content type, body, headers), valid input accepted, invalid
input refused.

The app is called through WSGI in the test's transaction. Generated ids are steered to the
event's objects two times in three (the rest stay as generated: mostly 404s), so the
answers checked are real standings, matches and travellers, not only "not found". A
CI-sized number of examples per operation keeps it quick."""

from __future__ import annotations

import contextlib

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.core.parameters import ParameterLocation

from tests.tournament.views.public_event import build_event
from tournament.models import Deal, Match, Player

EXAMPLES = 12  # per operation and mode: CI-sized
DEVICE_PATHS = ("/api/tables", "/api/matches")


@contextlib.contextmanager
def wsgi_in_test_transaction():
    """Django closes a connection inside a transaction at the end of a request; the test
    client stops that for tests, and so does this, for the WSGI handler."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def steer(case, tournament, ids):
    """Most generated ids replaced by ids of the event (deterministically, from the value
    generated), the slug by the tournament's; not in a case whose path is the invalid part
    (schemathesis would still count it invalid, and expect a refusal of its valid path)."""
    if case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH):
        return
    params = dict(case.path_parameters or {})
    if "slug" in params:
        params["slug"] = tournament.slug
    for name, value in list(params.items()):
        if name in ids and isinstance(value, int) and value % 3:
            params[name] = ids[name][value % len(ids[name])]
    if "box_id" in params and isinstance(params["box_id"], int) and params["box_id"] % 3:
        deals = ids["boxes"].get(params.get("round_id"), [])
        if deals:
            params["box_id"] = deals[params["box_id"] % len(deals)]
    if case.path_parameters:
        case.path_parameters = params


@pytest.mark.parametrize("setting", ["finished_boxes", "live"])
def test_every_operation_answers_as_its_schema_says(director_actor, tournament, make_team,
                                                    setting):
    tournament.live_results = setting
    tournament.save()
    event = build_event(director_actor, tournament, make_team)
    rounds = [*event.closed, event.open]
    ids = {
        "round_id": [r.pk for r in rounds],
        "match_id": list(Match.objects.filter(round__in=rounds).values_list("pk", flat=True)),
        "team_id": [t.pk for t in event.teams],
        "player_id": list(Player.objects.filter(team__tournament=tournament)
                          .values_list("pk", flat=True)),
        "stage_id": [event.stage.pk],
        "person_id": list(Player.objects.filter(team__tournament=tournament)
                          .values_list("person_id", flat=True)),
        "boxes": {r.pk: list(Deal.objects.filter(round=r).values_list("pk", flat=True))
                  for r in rounds},
    }
    statuses: dict[str, set[int]] = {}
    with wsgi_in_test_transaction() as app:
        schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
        # The table devices' operations need a device token: tests/tournament/api/
        # test_table_api_schema.py walks them, authenticated.
        operations = [result.ok() for result in schema.get_all_operations()
                      if not result.ok().path.startswith(DEVICE_PATHS)]
        assert len(operations) >= 15
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(max_examples=EXAMPLES, deadline=None, database=None,
                          derandomize=True, phases=[Phase.explicit, Phase.generate],
                          suppress_health_check=list(HealthCheck))
                def check(case):
                    steer(case, tournament, ids)
                    # Called in-process, nothing unzips the answer: ask for it plain
                    # (tests/tournament/test_compression.py covers the gzip).
                    response = case.call(headers={"Accept-Encoding": "identity"})
                    statuses.setdefault(case.operation.path, set()).add(response.status_code)
                    case.validate_response(response)

                check()
    # The walk reached real objects of every operation, and bad input somewhere.
    # (A Swiss stage has no groups: the group table answers 404 here, tested in test_api.)
    assert {path for path, found in statuses.items() if 200 not in found} == {
        "/api/tournaments/{slug}/stages/{stage_id}/groups/{group_id}/standings"}, statuses
    assert any(422 in found for found in statuses.values()), statuses
