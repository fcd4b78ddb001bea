"""Deal generation and the packing printouts, timed.

    python bench/deals.py

Prints: 10,000 deals generated (target < 1 s); deal sheets + box labels + packing list for a
256-match round with 8 hands, i.e. 4,096 box labels (target < 10 s, < 500 MB).
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import bench_user, insert_players, run_slug


def bench_generation(count: int = 10_000) -> float:
    from scoring.deals import DealPlace, deal_key, new_key, shuffled

    derived = deal_key(new_key())
    start = time.perf_counter()
    for hand in range(1, count + 1):
        shuffled(derived, DealPlace(1, 1, 1, hand))
    return time.perf_counter() - start


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="dupgin-bench-"))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_round(matches: int):
    """A tournament of 2 × matches teams and its first Swiss round, with deals."""
    import datetime as dt

    from tournament.models import Player, Stage, Team, Tournament
    from tournament.services import Actor
    from tournament.services.deals import generate_deals
    from tournament.services.draw import generate_round
    from tournament.services.stages import create_stage, enter_teams

    root = bench_user()
    actor = Actor(user=root)
    tournament = Tournament.objects.create(
        name="Bench Open", slug=run_slug("bench"), starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 1, 3), status="running")
    teams = Team.objects.bulk_create(
        Team(tournament=tournament, code=f"T{n}", name=f"Team {n:04d}", seed=n)
        for n in range(1, 2 * matches + 1))
    insert_players(
        Player(team=team, name=f"{name} {team.code}", number=number)
        for team in teams for number, name in ((1, "王小明"), (2, "Player")))
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=9)
    enter_teams(actor, stage, teams)
    round_ = generate_round(actor, stage)
    generate_deals(actor, round_)
    return round_


def bench_printouts(matches: int = 256) -> dict[str, float]:
    setup_django()
    from tournament.pdf.deals import BoxLabels, DealSheet, PackingList
    from tournament.selectors.boxes import round_boxes

    round_ = make_round(matches)
    timings: dict[str, float] = {}
    start = time.perf_counter()
    boxes = round_boxes(round_)
    timings["boxes loaded"] = time.perf_counter() - start
    sizes = {}
    for name, document in (("deal sheet", DealSheet), ("box labels", BoxLabels),
                           ("packing list", PackingList)):
        start = time.perf_counter()
        pdf = document(boxes).render()
        timings[name] = time.perf_counter() - start
        sizes[name] = len(pdf)
    timings["total"] = sum(timings.values())
    print(f"  boxes: {len(boxes.boxes)} labels, {len(boxes.deals)} deals")
    for name, size in sizes.items():
        print(f"  {name}: {size / 1024:.0f} KiB")
    return timings


def main() -> None:
    seconds = bench_generation()
    print(f"10,000 deals generated: {seconds:.3f} s ({seconds * 100:.1f} µs per deal)"
          "  [target < 1 s]")
    timings = bench_printouts()
    for name, value in timings.items():
        print(f"  {name}: {value:.2f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Printouts for 256 matches × 8 hands: {timings['total']:.2f} s "
          f"[target < 10 s]; peak memory of the process {peak:.0f} MB [target < 500 MB]")


if __name__ == "__main__":
    main()
