"""Standings of a big event, timed (issue 11).

    python bench/standings.py [--rebuild]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dupgin_bench_standings \\
        python bench/standings.py [--rebuild]

Builds, once, a 512-team Swiss event of 15 rounds with 8 hands per table (61,440 hand
results) and keeps it for the next runs: on SQLite in ``var/bench/standings.sqlite3``, on
PostgreSQL in the database of ``DATABASE_URL`` (created if missing). ``--rebuild`` makes it
again. Then prints, each with its target met or not:

- the full standings cold, team (``selectors.standings.stage_standings``) and individual
  (``selectors.individual.individual``), on a new database connection with nothing read
  before: target < 0.5 s for both together;
- one referee's correction of a signed-off hand (``services.entry.record_hand_result``)
  and the team standings afterwards: target < 25 ms for the standings (issue 28), in a
  process whose cycle collector is set as the server's (``tournament.collector``);
- ``python -m scoring standings`` ranking the same event from its JSON document (exported
  here from the database, as docs/engine.md describes it), timed as a child process:
  target < 1 s; its ranking is compared with the application's;
- for information: the integrity check of the event (``selectors.integrity``).

Each measure runs three times and the median decides (the build machine's load varies).

How the event is built: teams, the stage, every round's draw (the Swiss pairing from the
standings), publishing, starting, sign-offs (which write the result rows and the totals)
and closing go through the services. Each round is dealt (``services.deals``: one deal set
for the field, 8 boxes a round) and every hand result names the box it was played on. The
61,440 hands, their 122,880 approvals and the
15,360 table signatures are written with ``bulk_create`` (each hand scored by
``scoring.hand`` under the round's rules, exactly as ``record_hand_result`` stores it): one
by one through the entry service they would take minutes, and that path has its own
benchmark (``bench/entry.py``). Two point deductions go through the penalty service. On
PostgreSQL the build ends with ``ANALYZE``, as autovacuum soon does on a server after so
many new rows (without table statistics the planner joins the result rows by nested loops).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import REFERENCE_LOOP, calibration_loop, margin_words  # noqa: E402  (bench/common.py)

TEAMS = 512
ROUNDS = 15
HANDS = 8
SLUG = "bench-standings"
SEED = 2026
LOOP = [REFERENCE_LOOP]  # the calibration loop's time at the start of this run


def setup(rebuild: bool) -> None:
    var = ROOT / "var" / "bench"
    var.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("VAR_DIR", str(var))
    url = os.environ.setdefault("DATABASE_URL", f"sqlite:///{var / 'standings.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    if url.startswith("postgres"):
        import psycopg

        name = url.rsplit("/", 1)[1].split("?")[0]
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
            if rebuild:
                db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            exists = db.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                (name,)).fetchone()
            if not exists:
                db.execute(f'CREATE DATABASE "{name}"')
    elif rebuild:
        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# Building the event -----------------------------------------------------------------------

def random_entry(rng: random.Random):
    from tournament.services.hands import HandEntry

    seat = rng.choice((1, 2))
    dice = rng.random()
    if dice < 0.04:
        return HandEntry("draw")
    if dice < 0.18:
        return HandEntry("gin", seat, None, rng.randint(0, 60))
    if dice < 0.20:
        return HandEntry("big_gin", seat, None, rng.randint(0, 60))
    return HandEntry("knock", seat, rng.randint(1, 10), rng.randint(0, 45))


def build() -> None:
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from scoring.deals import deal_set_of
    from tournament.models import Approval, HandResult, Stage, TableSignature, Tournament
    from tournament.services import Actor
    from tournament.services.deals import generate_deals, make_key
    from tournament.services.draw import generate_round
    from tournament.services.hands import score_entry, seat_points
    from tournament.services.penalties import record_penalty
    from tournament.services.rounds import close_round, publish_round, start_round
    from tournament.services.signoff import sign_off_match
    from tournament.services.stages import create_stage, enter_teams
    from tournament.services.team_results import write_seat_tallies
    from tournament.services.teams import create_team, parse_team_entry

    started = time.perf_counter()
    rng = random.Random(SEED)
    Tournament.objects.filter(slug=SLUG).delete()
    user = (get_user_model().objects.filter(username="bench").first()
            or get_user_model().objects.create_superuser("bench", "", "bench-Pass-123"))
    actor = Actor(user=user, ip="10.0.0.1", device="bench")
    tournament = Tournament.objects.create(
        name="Bench Standings Open", slug=SLUG, starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 1, 3), status="running", hands_per_match=HANDS)
    make_key(actor, tournament)  # the drawing of lots is seeded from it
    teams = [create_team(actor, tournament, parse_team_entry(
        {"code": f"T{n}", "name": f"Team {n}", "player1": f"A{n}", "player2": f"B{n}"}))
        for n in range(1, TEAMS + 1)]
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=ROUNDS)
    enter_teams(actor, stage, teams)
    for number in range(1, ROUNDS + 1):
        round_ = generate_round(actor, stage, expected_number=number)
        deals = {(deal.deal_set, deal.hand): deal for deal in generate_deals(actor, round_)}
        publish_round(actor, round_)
        start_round(actor, round_)
        rules = round_.rules
        tables = list(round_.tables.select_related("match").order_by("number"))
        results = []
        for table in tables:
            deal_set = deal_set_of(round_.rules, table.match.number)
            for hand in range(1, HANDS + 1):
                entry = random_entry(rng)
                score = score_entry(entry, rules)
                seat1, seat2 = seat_points(score, entry.declarer_seat)
                results.append(HandResult(
                    table=table, hand=hand, deal=deals[deal_set, hand], version=1,
                    outcome=score.outcome.value,
                    declarer_seat=entry.declarer_seat,
                    declarer_deadwood=score.declarer_deadwood,
                    opponent_deadwood=score.opponent_deadwood, seat1_points=seat1,
                    seat2_points=seat2, explanation=score.explanation, entered_by=user,
                    request_token=uuid.uuid4()))
        with transaction.atomic():
            results = HandResult.objects.bulk_create(results, batch_size=2000)
            Approval.objects.bulk_create(
                (Approval(result=result, seat=seat, method="tap", recorded_by=user)
                 for result in results for seat in (1, 2)), batch_size=4000)
            TableSignature.objects.bulk_create(
                (TableSignature(table=table, seat=seat, method="tap", recorded_by=user)
                 for table in tables for seat in (1, 2)), batch_size=4000)
            write_seat_tallies(tables)  # as every hand saved through the services does
        for match in round_.matches.select_related("round__stage__tournament", "home",
                                                   "away"):
            sign_off_match(actor, match)
        if number == 5:
            record_penalty(actor, team=teams[6], round=round_, kind="match_points", amount=2,
                           reason="slow play")
            record_penalty(actor, team=teams[7], round=round_, kind="small_points",
                           amount=20, reason="slow play")
        close_round(actor, round_)
        print(f"  round {number:2d} built ({time.perf_counter() - started:.0f} s)",
              flush=True)
    spread_over_days()
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum soon does after so many new rows
    print(f"event built in {time.perf_counter() - started:.0f} s")


def spread_over_days() -> None:
    """The rounds played over the event's three days, five a day, two hours apart (the
    build plays them all within minutes): the bulletin of the last day is a real day's.
    Idempotent; for an event built before this was part of the build too."""
    import datetime as dt

    from tournament.models import Round, Tournament

    tournament = Tournament.objects.get(slug=SLUG)
    zone = dt.UTC
    for round_ in Round.objects.filter(stage__tournament=tournament).order_by("number"):
        day = tournament.starts_on + dt.timedelta(days=(round_.number - 1) // 5)
        start = dt.datetime.combine(day, dt.time(9 + 2 * ((round_.number - 1) % 5)),
                                    tzinfo=zone)
        Round.objects.filter(pk=round_.pk).update(
            published_at=start - dt.timedelta(minutes=30), started_at=start,
            closed_at=start + dt.timedelta(minutes=100))
    Tournament.objects.filter(pk=tournament.pk).update(
        ends_on=tournament.starts_on + dt.timedelta(days=(ROUNDS - 1) // 5), time_zone="UTC")


def event():
    from tournament.models import HandResult, Round, Stage, Tournament

    tournament = Tournament.objects.filter(slug=SLUG).first()
    if tournament is None:
        return None
    stage = Stage.objects.filter(tournament=tournament).first()
    closed = Round.objects.filter(stage=stage, status=Round.Status.CLOSED).count()
    hands = HandResult.objects.filter(table__round__stage=stage, is_current=True)
    # (Events built before the boxes were dealt here have hands without a deal: built again.)
    if (closed != ROUNDS or hands.count() != TEAMS * ROUNDS * HANDS
            or hands.filter(deal=None).exists()):
        return None
    return tournament, stage


def event_or_build():
    """(tournament, stage) of the kept event, built first if there is none (or an old one)
    and spread over its days: what the other benches of this event start from."""
    found = event()
    if found is None:
        print("building the event of bench/standings.py first (kept for the next runs)",
              flush=True)
        build()
        found = event()
    spread_over_days()  # (an event built before the build did it)
    return found


# The measures -----------------------------------------------------------------------------

def verdict(seconds: float, target: float, words: str) -> str:
    return (f"[target < {words}: {'met' if seconds < target else 'NOT met'}; "
            f"{margin_words(seconds, target, LOOP[0])}]")


def timed(function, *args, **kwargs):
    gc.collect()
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def cold_standings(stage_pk: int) -> tuple[float, float, int, int]:
    """Team and individual standings on a new connection, the stage read from scratch."""
    from django.db import connection, connections, reset_queries

    from tournament.models import Stage
    from tournament.selectors.individual import individual
    from tournament.selectors.standings import stage_standings

    connections.close_all()
    connection.ensure_connection()
    reset_queries()

    def team():
        stage = Stage.objects.select_related("tournament").get(pk=stage_pk)
        return stage, stage_standings(stage)

    (stage, table), team_time = timed(team)
    people, people_time = timed(individual, stage.tournament, stage=stage)
    assert len(table.lines) == TEAMS and people.players == 2 * TEAMS
    return team_time, people_time, len(table.lines), len(people.rows)


def correction(stage) -> tuple[float, float, object]:
    """A referee corrects hand 1 at the first table of the last round (it changes every
    run), then the standings; afterwards the match is approved, signed and signed off again
    (not timed), so the kept event stays official."""
    from tournament.models import HandResult, Table
    from tournament.selectors.standings import stage_standings
    from tournament.services import Actor
    from tournament.services.approvals import approve_hand, sign_table
    from tournament.services.entry import record_hand_result
    from tournament.services.hands import HandEntry
    from tournament.services.signoff import sign_off_match

    table = (Table.objects.select_related("match__round__stage__tournament")
             .filter(round__stage=stage, round__number=ROUNDS).order_by("number").first())
    current = HandResult.objects.get(table=table, hand=1, is_current=True)
    entry = (HandEntry("knock", 1, 4, 12) if current.outcome != "knock" or
             current.declarer_deadwood != 4 else HandEntry("gin", 2, None, 25))
    actor = Actor(user=current.entered_by, ip="10.0.0.2", device="bench")
    result, save_time = timed(record_hand_result, actor, table, 1, entry,
                              seen_version=current.version, request_token=uuid.uuid4(),
                              reason="the scorer typed the other seat")
    standings, standings_time = timed(stage_standings, stage)
    approve_hand(actor, result, 1)
    approve_hand(actor, result, 2)
    for each in Table.objects.filter(match=table.match):
        sign_table(actor, each, 1)
        sign_table(actor, each, 2)
    sign_off_match(actor, table.match)
    return save_time, standings_time, standings


def document(stage) -> dict:
    """The event as the JSON document of ``python -m scoring standings`` (docs/engine.md)."""
    from scoring.seating import seat_holder
    from tournament.models import HandResult, Match, RoundEntry
    from tournament.selectors.penalties import point_penalties, withdrawn_teams
    from tournament.selectors.standings import lots_seed

    rules = stage.tournament.rules.to_dict()
    codes = dict(stage.entries.values_list("team_id", "team__code"))
    hands: dict[int, list[list[dict]]] = {}
    for match, position, outcome, seat, declarer, opponent in (
            HandResult.objects.filter(table__round__stage=stage, is_current=True)
            .order_by("table__match_id", "table__position", "hand")
            .values_list("table__match_id", "table__position", "outcome", "declarer_seat",
                         "declarer_deadwood", "opponent_deadwood")):
        hand = {"outcome": "knock" if outcome == "undercut" else outcome}
        if seat is not None:
            hand["declarer"] = seat_holder(position, seat).side.value
            hand["declarer_deadwood"] = declarer
            hand["opponent_deadwood"] = opponent
        hands.setdefault(match, [[], []])[position - 1].append(hand)
    rounds: list[list[dict]] = [[] for _ in range(ROUNDS)]
    for pk, number, home, away, forfeited in (
            Match.objects.filter(round__stage=stage).order_by("round__number", "number")
            .values_list("pk", "round__number", "home_id", "away_id", "forfeited_by_id")):
        match = {"home": codes[home], "away": codes[away]}
        if forfeited is not None:
            match["forfeit"] = codes[forfeited]
        else:
            match["tables"] = hands.get(pk, [[], []])
        rounds[number - 1].append(match)
    return {
        "rules": rules, "teams": list(codes.values()), "rounds": rounds,
        "byes": [{"round": number, "team": codes[team]} for number, team in
                 RoundEntry.objects.filter(round__stage=stage, side="bye")
                 .values_list("round__number", "team_id")],
        "penalties": [{"team": codes[p.team_id], "kind": p.kind, "amount": p.amount,
                       "round": p.round.number} for p in point_penalties(stage)],
        "withdrawn": [codes[t] for t in withdrawn_teams(stage)
                      if stage.kind == stage.Kind.GROUPS],
        "lots_seed": lots_seed(stage).decode(),
    }


def command_line(stage, standings) -> tuple[float, int, bool]:
    """``python -m scoring standings`` on the event's document, timed as a child process
    (the interpreter's start included); whether its ranking is the application's."""
    data = json.dumps(document(stage))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        handle.write(data)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO")}
    runs = []
    for _ in range(3):
        with open(handle.name) as source:
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "scoring", "standings"],
                                  stdin=source, capture_output=True, text=True, check=True,
                                  cwd=ROOT, env=env)
            runs.append(time.perf_counter() - start)
    os.unlink(handle.name)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    ours = [(line["rank"], line["team"], line["match_points"], line["small_points"])
            for line in lines]
    app = [(line.rank, line.team.code, line.match_points, line.small_points)
           for line in standings.lines]
    return sorted(runs)[1], len(data), ours == app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild", action="store_true", help="build the event again")
    args = parser.parse_args()
    setup(args.rebuild)
    from django.db import connection

    found = event()
    if found is None:
        print(f"building the event: {TEAMS} teams, {ROUNDS} Swiss rounds, {HANDS} hands per "
              "table (kept for the next runs)")
        build()
        found = event()
    tournament, stage = found
    LOOP[0] = calibration_loop()
    print(f"the calibration loop (ten million additions): {LOOP[0]:.3f} s")
    from tournament.collector import tune_garbage_collection

    tune_garbage_collection()  # as the server's workers run (tournament/wsgi.py)
    connection.ensure_connection()
    version = (f" {connection.pg_version // 10000}" if connection.vendor == "postgresql"
               else f" {connection.connection.execute('select sqlite_version()').fetchone()[0]}")
    print(f"database: {connection.vendor}{version}")
    print(f"event: {TEAMS} teams, {ROUNDS} rounds, {TEAMS * ROUNDS * HANDS:,} hand results")

    # Every run is cold for the application (a new connection, nothing read or kept
    # before); the median of three runs decides, as the machine's load varies.
    cold = [cold_standings(stage.pk) for _ in range(3)]
    totals = sorted(t + p for t, p, _a, _b in cold)
    print(f"full standings cold: {totals[1]:.3f} s, median of 3 {verdict(totals[1], 0.5, '0.5 s')}"
          f"; runs: " + ", ".join(f"{t + p:.3f} s (team {t * 1000:.0f} ms, individual "
                                  f"{p * 1000:.0f} ms)" for t, p, _a, _b in cold))

    from tournament.selectors.standings import stage_standings

    corrections = []
    for _ in range(5):
        stage.refresh_from_db()
        save, after, standings = correction(stage)
        assert standings.provisional  # the corrected match counts, marked provisional
        corrections.append((save, after))
    after = sorted(a for _s, a in corrections)[2]
    print(f"standings after one correction: {after * 1000:.1f} ms, median of 5 "
          f"{verdict(after, 0.025, '25 ms')}; runs: " + ", ".join(
              f"{a * 1000:.1f} ms (the correction itself {s * 1000:.1f} ms)"
              for s, a in corrections))

    seconds, size, agree = command_line(stage, stage_standings(stage))
    print(f"python -m scoring standings on the event's JSON ({size / 1e6:.1f} MB): "
          f"{seconds:.3f} s, median of 3 {verdict(seconds, 1.0, '1 s')}; same ranking as the "
          f"application: {'yes' if agree else 'NO'}")

    from tournament.selectors.integrity import check_standings

    report, check = timed(check_standings, tournament)
    print(f"integrity check of the event: {check:.2f} s, {report.summary}")
    print(f"the calibration loop again: {calibration_loop():.3f} s")


if __name__ == "__main__":
    main()
