"""What a PIN costs an approval, with the production settings' hashers on SQLite.

    python bench/pins.py

(A fresh SQLite database in a temporary directory; the real settings, not the test
suite's MD5 hasher.) Prints the time of ``approve_hand`` with a PIN per approval (target
< 5 ms), the same approvals by tap, and the PIN check alone with the PIN hasher and with
Django's default password hasher.
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

from common import bench_user, run_slug

HANDS = 64  # per table: 128 approvals with a PIN at table 1, 128 by tap at table 2


def setup() -> None:
    var = tempfile.mkdtemp(prefix="dupgin-bench-pins-")
    os.environ["VAR_DIR"] = var
    os.environ["DATABASE_URL"] = f"sqlite:///{var}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_tables():
    import datetime as dt

    from tournament.models import Stage, Tournament
    from tournament.services import Actor
    from tournament.services.approvals import seat_player
    from tournament.services.draw import generate_round
    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry
    from tournament.services.rounds import publish_round, start_round
    from tournament.services.stages import create_stage, enter_teams
    from tournament.services.teams import create_team, parse_team_entry, set_player_pin

    user = bench_user()
    actor = Actor(user=user, ip="10.0.0.1", device="bench")
    tournament = Tournament.objects.create(
        name="Bench Open", slug=run_slug("bench"), starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 1, 3), status="running", hands_per_match=HANDS,
        approvals_need_pin=True)
    teams = [create_team(actor, tournament, parse_team_entry(
        {"code": f"T{n}", "name": f"Team {n}", "player1": f"A{n}", "player2": f"B{n}"}))
        for n in (1, 2)]
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(actor, stage, teams)
    round_ = generate_round(actor, stage)
    publish_round(actor, round_)
    start_round(actor, round_)
    tables = list(round_.matches.get().tables.order_by("position"))
    pins = {}
    for seat in (1, 2):
        pins[seat] = f"{seat}{seat}{seat}{seat}24"
        set_player_pin(actor, seat_player(tables[0], seat), pins[seat])
    results = {table.pk: [record_hand_result(actor, table, hand, HandEntry("knock", 1, 4, 12),
                                             seen_version=0, request_token=uuid.uuid4())
                          for hand in range(1, HANDS + 1)] for table in tables}
    return actor, tournament, tables, pins, results


def time_approvals(actor, results, pins) -> list[float]:
    from tournament.services.approvals import approve_hand

    timings = []
    for result in results:
        for seat in (1, 2):
            start = time.perf_counter()
            approve_hand(actor, result, seat, pin=pins.get(seat))
            timings.append(time.perf_counter() - start)
    return timings


def time_check(pin: str, encoded: str, times: int) -> float:
    from django.contrib.auth.hashers import check_password

    start = time.perf_counter()
    for _ in range(times):
        assert check_password(pin, encoded)
    return (time.perf_counter() - start) / times


def main() -> None:
    setup()
    from django.conf import settings
    from django.contrib.auth.hashers import make_password

    from tournament.models import Approval
    from tournament.services.pins import hash_pin

    actor, tournament, tables, pins, results = make_tables()
    with_pin = time_approvals(actor, results[tables[0].pk], pins)
    tournament.approvals_need_pin = False
    tournament.save(update_fields=["approvals_need_pin"])
    by_tap = time_approvals(actor, results[tables[1].pk], {})
    assert not Approval.objects.filter(result__table=tables[0]).exclude(method="pin").exists()
    pin_hasher = time_check("2468", hash_pin("2468"), 200)
    default = time_check("2468", make_password("2468"), 5)

    mean = statistics.mean(with_pin) * 1000
    verdict = "met" if mean < 5 else "NOT met"
    hashers = ", ".join(h.rsplit(".", 1)[1] for h in settings.PASSWORD_HASHERS)
    print(f"database: SQLite; hashers: {hashers}")
    print(f"approve_hand with a PIN: {mean:.2f} ms per approval (median "
          f"{statistics.median(with_pin) * 1000:.2f} ms, {len(with_pin)} approvals) "
          f"[target < 5 ms: {verdict}]")
    print(f"approve_hand by tap: {statistics.mean(by_tap) * 1000:.2f} ms per approval (median "
          f"{statistics.median(by_tap) * 1000:.2f} ms, {len(by_tap)} approvals)")
    print(f"PIN check alone: {pin_hasher * 1000:.2f} ms with the PIN hasher, "
          f"{default * 1000:.0f} ms with Django's default password hasher")


if __name__ == "__main__":
    main()
