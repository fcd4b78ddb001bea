"""The knockout's pages, timed (issue 20).

    python bench/knockout.py [--teams 64] [--repeat 5]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dupgin_bench_knockout \\
        python bench/knockout.py

Builds a fresh knockout of ``--teams`` teams (64 by default: a round of 64 to the final,
with a match for third place) in a new database (SQLite in a temporary folder, or the
PostgreSQL database named by ``DATABASE_URL``, dropped and made again), draws every round
through the services and writes each match's official result as a sign-off does (the
better seed wins, one upset a round), then times each page a reader opens once the final is
played, uncached (the public cache off), through Django's test client: the public
standings page (the ranking and the bracket), the overview, the big-screen fragment, the
final-ranking API and CSV, the staff's final-ranking page and the bracket PDF. It prints
the median of ``--repeat`` requests and the queries of each. Target (docs/benchmarks.md):
every page under 300 ms for 64 teams.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import bench_user, run_slug  # noqa: E402  (bench/common.py)

TARGET_MS = 300


def setup() -> None:
    folder = tempfile.mkdtemp(prefix="dupgin-knockout-")
    os.environ.setdefault("VAR_DIR", folder)
    url = os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/knockout.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ["PUBLIC_CACHE_SECONDS"] = "0"
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
    call_command("collectstatic", "--noinput", verbosity=0)


def build(teams: int):
    from django.utils import timezone

    from tournament.models import Round, Stage, Team, Tournament
    from tournament.services import Actor
    from tournament.services.draw import generate_round
    from tournament.services.rounds import close_round, publish_round, start_round
    from tournament.services.stages import create_stage, enter_teams
    from tournament.services.team_results import write_bye_results, write_match_results
    from tournament.services.tournaments import create_tournament

    director = bench_user()
    actor = Actor(user=director)
    tournament = create_tournament(actor, name="Knockout bench",
                                   slug=run_slug("knockout-bench"), starts_on=timezone.localdate(),
                                   ends_on=timezone.localdate())
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    field = [Team.objects.create(tournament=tournament, code=f"K{n}", name=f"Team {n:03d}",
                                 seed=str(n)) for n in range(1, teams + 1)]
    for team in field:
        team.players.create(number=1, name=f"{team.code} one")
        team.players.create(number=2, name=f"{team.code} two")
    stage = create_stage(actor, tournament, name="Knockout", kind=Stage.Kind.KNOCKOUT,
                         third_place_match=True)
    enter_teams(actor, stage, field)
    while True:
        round_ = generate_round(actor, stage)
        publish_round(actor, round_, override_reason="bench")
        round_ = start_round(actor, Round.objects.get(pk=round_.pk))
        for index, match in enumerate(round_.matches.select_related("home", "away")):
            better = min((match.home, match.away), key=lambda t: int(t.code[1:]))
            upset = index == 1  # one upset a round
            home_wins = (better == match.home) != upset
            match.home_total, match.away_total = (25, -25) if home_wins else (-25, 25)
            match.signed_off_at = timezone.now()
            match.save()
            write_match_results(match)
        write_bye_results(round_)
        close_round(actor, Round.objects.get(pk=round_.pk))
        stage.refresh_from_db()
        if round_.number == stage.bracket_rounds:
            return tournament, stage, director


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    started = time.perf_counter()
    tournament, stage, director = build(args.teams)
    print(f"built a {args.teams}-team knockout in {time.perf_counter() - started:.1f} s "
          f"({connection.vendor})")
    slug = tournament.slug
    public, staff = Client(HTTP_HOST="localhost"), Client(HTTP_HOST="localhost")
    staff.force_login(director)
    pages = [
        ("public standings (ranking + bracket)", public,
         reverse("public:standings", args=[slug])),
        ("overview", public, reverse("public:tournament", args=[slug])),
        ("big-screen fragment", public, reverse("public:screen_fragment", args=[slug])),
        ("API final-ranking", public, f"/api/tournaments/{slug}/final-ranking"),
        ("final-ranking.csv", public, reverse("public:final_ranking_export",
                                              args=[slug, "csv"])),
        ("staff final ranking", staff, reverse("director:final_ranking", args=[slug])),
        ("bracket PDF", staff, reverse("director:bracket_pdf", args=[slug, stage.pk])),
    ]
    worst = 0.0
    for name, client, address in pages:
        assert client.get(address).status_code == 200, address  # warm: templates, fonts
        times = []
        for _ in range(args.repeat):
            with CaptureQueriesContext(connection) as queries:
                begin = time.perf_counter()
                response = client.get(address)
                times.append((time.perf_counter() - begin) * 1000)
            assert response.status_code == 200, address
        median = statistics.median(times)
        worst = max(worst, median)
        print(f"  {name:40} {median:7.1f} ms  {len(queries):3d} queries")
    verdict = "met" if worst < TARGET_MS else "NOT met"
    print(f"slowest {worst:.1f} ms; target < {TARGET_MS} ms each: {verdict}")


if __name__ == "__main__":
    main()
