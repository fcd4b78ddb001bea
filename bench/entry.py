"""Hand-result saves under concurrent scorers, and the entry screen's save latency.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dupgin_bench python bench/entry.py

(The database is created if it is missing and emptied first.) Prints: sustained saves per
second through the enter command (``services.commands.enter``, what the pages and the API
call) with 16 concurrent writers, each scoring its own
table (target >= 250/s on the 2-core machine, issue 28); approvals per second through the approve
command (``services.commands.approve``, what the pages and the API call) by the same 16
processes, both seats approving the hands they saved (target: no fewer than the saves); one
scorer alone, the median time of a save, an approval and a signature through the commands
(target: approving and signing no dearer than saving); and the p50/p95 latency of the
entry screen's save request (an htmx POST through the whole Django stack).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import bench_user, insert_players, run_slug

WRITERS = 16
SECONDS = 10.0


def setup() -> None:
    url = os.environ.setdefault("DATABASE_URL",
                                "postgres://postgres@127.0.0.1:5432/dupgin_bench")
    os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="dupgin-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    os.environ.setdefault("HTTPS", "0")
    if url.startswith("postgres"):
        import psycopg

        name = url.rsplit("/", 1)[1].split("?")[0]
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            db.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)


def make_round(matches: int):
    import datetime as dt

    from tournament.models import Player, Stage, Team, Tournament
    from tournament.services import Actor
    from tournament.services.draw import generate_round
    from tournament.services.rounds import publish_round, start_round
    from tournament.services.stages import create_stage, enter_teams

    user = bench_user()
    actor = Actor(user=user)
    tournament = Tournament.objects.create(
        name="Bench Open", slug=run_slug("bench"), starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 1, 3), status="running", hands_per_match=64)
    teams = Team.objects.bulk_create(
        Team(tournament=tournament, code=f"T{n}", name=f"Team {n}", seed=n)
        for n in range(1, 2 * matches + 1))
    insert_players(Player(team=t, name=f"P{n} {t.code}", number=n)
                               for t in teams for n in (1, 2))
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(actor, stage, teams)
    round_ = generate_round(actor, stage)
    publish_round(actor, round_)
    start_round(actor, round_)
    return actor, tournament, round_


def _writer(n: int, actor_pk: int, table_pk: int, start_at: float, stop_at: float,
            out) -> None:
    """One scorer process: save hands at its own table until the time is up."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from tournament.services import Actor, commands
    from tournament.services.entry import StaleResult
    from tournament.services.hands import HandEntry

    connections.close_all()  # never share the parent's connection after fork
    actor = Actor(user=get_user_model().objects.get(pk=actor_pk), ip=f"10.0.0.{n}")
    versions: dict[int, int] = {}
    saves = stale = hand = 0
    while time.time() < start_at:
        time.sleep(0.001)
    while time.time() < stop_at:
        hand = hand % 64 + 1
        entry = HandEntry("knock", 1 + hand % 2, 1 + hand % 9, 20)
        try:
            result = commands.enter(actor, table_pk, hand, entry,
                                    seen_version=versions.get(hand, 0),
                                    request_token=uuid.uuid4()).result
        except StaleResult:
            stale += 1
            continue
        versions[hand] = result.version
        saves += 1
    out.put((saves, stale))


def bench_saves(actor, round_) -> tuple[float, int, int]:
    """WRITERS processes, as a server with several workers would run them."""
    import multiprocessing

    from django.db import connections

    tables = list(round_.tables.order_by("number").values_list("pk", flat=True)[:WRITERS])
    connections.close_all()
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    start_at = time.time() + 2.0
    stop_at = start_at + SECONDS
    workers = [context.Process(target=_writer,
                               args=(n, actor.user.pk, tables[n], start_at, stop_at, out))
               for n in range(WRITERS)]
    for worker in workers:
        worker.start()
    results = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    saves = sum(s for s, _ in results)
    return saves / SECONDS, saves, sum(t for _, t in results)


def _approver(n: int, actor_pk: int, table_pk: int, start_at: float, stop_at: float,
              out) -> None:
    """One scorer process: both seats approve every current hand at its own table."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from tournament.models import HandResult
    from tournament.services import Actor, commands

    connections.close_all()
    actor = Actor(user=get_user_model().objects.get(pk=actor_pk), ip=f"10.0.0.{n}")
    results = list(HandResult.objects.filter(table_id=table_pk, is_current=True)
                   .order_by("hand").values_list("hand", "version"))
    approvals = 0
    while time.time() < start_at:
        time.sleep(0.001)
    begun = time.perf_counter()
    for hand, version in results:
        for seat in (1, 2):
            if time.time() >= stop_at:
                break
            commands.approve(actor, table_pk, hand, seat, version=version,
                             request_token=uuid.uuid4())
            approvals += 1
    out.put((approvals, time.perf_counter() - begun))


def bench_approvals(actor, round_) -> tuple[float, int]:
    """The same WRITERS processes approving the hands they saved: approvals per second."""
    import multiprocessing

    from django.db import connections

    tables = list(round_.tables.order_by("number").values_list("pk", flat=True)[:WRITERS])
    connections.close_all()
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    start_at = time.time() + 2.0
    workers = [context.Process(target=_approver, args=(n, actor.user.pk, tables[n], start_at,
                                                        start_at + SECONDS, out))
               for n in range(WRITERS)]
    for worker in workers:
        worker.start()
    results = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    approvals = sum(a for a, _ in results)
    return approvals / max(seconds for _, seconds in results), approvals


SERIAL_TABLES = 4


def bench_serial(actor, round_) -> dict[str, float]:
    """One scorer alone at tables no writer used, one after the other: the median time of
    a save, an approval and a signature through the commands the pages and the API call
    (``services.commands``: the version or revision checked, the request token's receipt
    kept), in ms. Four tables, so that the signatures' median is of eight."""
    tables = (round_.tables.select_related("match__round__stage__tournament")
              .order_by("number")[WRITERS:WRITERS + SERIAL_TABLES])
    timings: dict[str, list[float]] = {"save": [], "approval": [], "signature": []}
    for table in tables:
        _serial_table(actor, table, timings)
    return {kind: statistics.median(values) * 1000 for kind, values in timings.items()}


def _serial_table(actor, table, timings: dict[str, list[float]]) -> None:
    from tournament.services import commands
    from tournament.services.hands import HandEntry

    def timed(kind, function, *args, **kwargs):
        start = time.perf_counter()
        value = function(*args, **kwargs)
        timings[kind].append(time.perf_counter() - start)
        return value

    entered = [timed("save", commands.enter, actor, table.pk, hand,
                     HandEntry("knock", 1 + hand % 2, 1 + hand % 9, 20), seen_version=0,
                     request_token=uuid.uuid4()) for hand in range(1, 65)]
    for done in entered:
        for seat in (1, 2):
            timed("approval", commands.approve, actor, table.pk, done.result.hand, seat,
                  version=done.result.version, request_token=uuid.uuid4())
    table.refresh_from_db(fields=["revision"])
    for seat in (1, 2):
        timed("signature", commands.sign, actor, table.pk, seat, revision=table.revision,
              request_token=uuid.uuid4())


def bench_request_latency(tournament, round_, requests: int = 300) -> tuple[float, float]:
    import re

    from django.test import Client
    from django.urls import reverse

    from tournament.models import StaffRole

    scorer = StaffRole.objects.model.user.field.related_model.objects.create_user(
        "scorer", password="bench-Pass-123")
    StaffRole.objects.create(tournament=tournament, user=scorer, role="scorer")
    client = Client()
    client.force_login(scorer)
    table = round_.tables.order_by("-number").first()
    page_url = reverse("director:table_entry", args=[tournament.slug, table.pk])
    timings = []
    versions: dict[int, int] = {}
    for n in range(requests):
        hand = n % 64 + 1
        data = {f"h{hand}-outcome": "knock", f"h{hand}-declarer_seat": "1",
                f"h{hand}-declarer_deadwood": "4", f"h{hand}-opponent_deadwood": str(10 + n % 9),
                f"h{hand}-seen_version": str(versions.get(hand, 0)),
                f"h{hand}-request_token": str(uuid.uuid4())}
        url = reverse("director:hand_save", args=[tournament.slug, table.pk, hand])
        start = time.perf_counter()
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        timings.append(time.perf_counter() - start)
        assert response.status_code == 200 and b"saved" in response.content, response.content
        versions[hand] = versions.get(hand, 0) + 1
    assert re.search(rb"Table", client.get(page_url).content)
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.95) - 1]


def main() -> None:
    setup()
    from django.db import connection

    actor, tournament, round_ = make_round(matches=WRITERS)
    rate, saves, stale = bench_saves(actor, round_)
    print(f"database: {connection.vendor}")
    print(f"{WRITERS} concurrent writers for {SECONDS:.0f} s: {saves} saves, {rate:.0f} saves/s "
          f"[target >= 250/s: {'met' if rate >= 250 else 'NOT met'}]; {stale} stale-version "
          "refusals")
    approvals_rate, approvals = bench_approvals(actor, round_)
    print(f"{WRITERS} concurrent approvers (both seats, the hands saved above): {approvals} "
          f"approvals, {approvals_rate:.0f} approvals/s [target: no fewer than saves/s: "
          f"{'met' if approvals_rate >= rate else 'NOT met'}]")
    serial = bench_serial(actor, round_)
    cheap = max(serial["approval"], serial["signature"]) <= serial["save"]
    print("one scorer alone, median in the service: save {save:.2f} ms, approval "
          "{approval:.2f} ms, signature {signature:.2f} ms".format(**serial)
          + f" [target: approval and signature no dearer than a save: "
          f"{'met' if cheap else 'NOT met'}]")
    p50, p95 = bench_request_latency(tournament, round_)
    print(f"entry screen save request (htmx POST, whole stack): p50 {p50 * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms")


if __name__ == "__main__":
    main()
