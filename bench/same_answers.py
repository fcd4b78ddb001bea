"""The same demo, the same answers: this checkout against an earlier commit (issue 52: "no
behaviour change" of a refactor, checked on every public answer).

    python bench/same_answers.py [--against COMMIT] [--keep]

Builds the finished demo (seed 11, the same event every time) with each checkout in a
SQLite database of its own (the earlier commit in a git worktree, removed at the end), and
in each reads every public page and download of it in both languages and the API: the
overview, every round, every match, every team, every player, every box of the first two
rounds, the standings, the field, the individual ranking, the penalties, the bulletins,
the big screen, every CSV and XLSX (by their cells) and the bulletin's PDF (by its text).
Prints each address whose answer differs, and compares the tournament files (the newer
one without the fields the earlier one does not have). Exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run inside a checkout (its own code): build the demo, print {address: digest} and the
# tournament file as JSON.
WALK = r'''
import hashlib, io, json, os, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", verbosity=0, interactive=False)
from django.test import Client
from django.urls import reverse
from django.utils import translation
from tournament.demo import build_demo
from tournament.exchange.export import export_tournament
from tournament.models import Deal, Match, Player, Round, Stage, Team, Tournament

build_demo(11)
t = Tournament.objects.get(slug="demo")
slug = t.slug
names = [("home", []), ("tournament", [slug]), ("rounds", [slug]), ("field", [slug]),
         ("standings", [slug]), ("individual", [slug]), ("teams", [slug]),
         ("penalties", [slug]), ("bulletin", [slug]), ("deal_check", [slug]),
         ("screen", [slug]), ("screen_fragment", [slug]),
         ("standings_export", [slug, "csv"]), ("final_ranking_export", [slug, "xlsx"]),
         ("individual_export", [slug, "csv"]), ("penalties_export", [slug, "csv"])]
for stage in Stage.objects.filter(tournament=t):
    names += [("stage_standings", [slug, stage.pk]), ("stage_field", [slug, stage.pk]),
              ("stage_individual", [slug, stage.pk]),
              ("stage_standings_export", [slug, stage.pk, "xlsx"])]
    for group in stage.groups.all():
        names += [("group_standings", [slug, stage.pk, group.pk])]
rounds = list(Round.objects.filter(stage__tournament=t).order_by("stage__order", "number"))
for r in rounds:
    names += [("round", [slug, r.pk]), ("hand_records", [slug, r.pk]),
              ("travellers", [slug, r.pk]), ("round_export", [slug, r.pk, "csv"])]
for r in rounds[:2]:
    for deal in Deal.objects.filter(round=r).order_by("pk"):
        names += [("traveller", [slug, r.pk, deal.pk])]
    names += [("traveller_export", [slug, r.pk, Deal.objects.filter(round=r).first().pk,
                                    "xlsx"])]
names += [("match", [slug, m.pk]) for m in Match.objects.filter(round__stage__tournament=t)]
names += [("team", [slug, x.pk]) for x in Team.objects.filter(tournament=t)]
names += [("player", [slug, p.pk]) for p in Player.objects.filter(team__tournament=t)]
addresses = []
for language in ("en", "zh-hans"):
    with translation.override(language):
        addresses += [reverse("public:" + name, args=args) for name, args in names]
api = ["/api/tournaments", f"/api/tournaments/{slug}", f"/api/tournaments/{slug}/standings",
       f"/api/tournaments/{slug}/final-ranking", f"/api/tournaments/{slug}/individual",
       f"/api/tournaments/{slug}/teams", f"/api/tournaments/{slug}/players",
       f"/api/tournaments/{slug}/rounds"]
api += [f"/api/tournaments/{slug}/rounds/{r.pk}" for r in rounds]
api += [f"/api/tournaments/{slug}/rounds/{r.pk}/boxes" for r in rounds[:2]]
api += [f"/api/tournaments/{slug}/matches/{m.pk}"
        for m in Match.objects.filter(round__stage__tournament=t)]
api += [f"/api/tournaments/{slug}/players/{p.pk}"
        for p in Player.objects.filter(team__tournament=t)]

def contents(body):
    if body.startswith(b"PK"):
        import openpyxl
        book = openpyxl.load_workbook(io.BytesIO(body))
        return repr([[list(row) for row in s.iter_rows(values_only=True)]
                     for s in book.worksheets]).encode()
    if body.startswith(b"%PDF"):
        from pypdf import PdfReader
        return "\f".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages).encode()
    return body

client = Client()
found = {}
for address in addresses + api:
    for accept in (("en", "zh-hans") if address.startswith("/api/") else ("en",)):
        response = client.get(address, HTTP_ACCEPT_LANGUAGE=accept)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        found[f"{address} [{accept}]"] = (
            f"{response.status_code} {hashlib.sha256(contents(body)).hexdigest()}")
json.dump({"answers": found, "file": export_tournament(t, secrets=True)}, sys.stdout)
'''


def walk(checkout: Path) -> dict:
    """The demo's answers and file as ``checkout``'s code gives them."""
    with tempfile.TemporaryDirectory(prefix="dupgin-same-") as var:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{var}/db.sqlite3", "VAR_DIR": var,
               "DJANGO_SETTINGS_MODULE": "tournament.settings", "HTTPS": "0",
               "ALLOWED_HOSTS": "testserver", "PUBLIC_CACHE_SECONDS": "0",
               "BACKUPS_AUTOMATIC": "0", "PYTHONPATH": str(checkout)}
        out = subprocess.run([sys.executable, "-c", WALK], cwd=checkout, env=env,
                             capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"{checkout}: {out.stderr[-3000:]}")
        return json.loads(out.stdout)


def without_new_fields(newer: dict, older: dict) -> dict:
    """The newer file with only the keys the older one has, recursively."""
    if isinstance(newer, dict) and isinstance(older, dict):
        return {key: without_new_fields(value, older[key]) for key, value in newer.items()
                if key in older}
    if isinstance(newer, list) and isinstance(older, list) and len(newer) == len(older):
        return [without_new_fields(a, b) for a, b in zip(newer, older, strict=True)]
    return newer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="HEAD~1", help="the earlier commit")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", args.against], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    earlier = Path(tempfile.mkdtemp(prefix="dupgin-earlier-")) / "checkout"
    subprocess.run(["git", "worktree", "add", "-q", "--detach", str(earlier), commit],
                   cwd=ROOT, check=True)
    try:
        print(f"building the demo with {commit} and with this checkout …")
        before, after = walk(earlier), walk(ROOT)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(earlier)], cwd=ROOT)
    differing = [address for address in before["answers"]
                 if before["answers"][address] != after["answers"].get(address)]
    for address in differing:
        print(f"differs: {address}: {before['answers'][address]} → "
              f"{after['answers'].get(address)}")
    file_before = before["file"]
    file_after = without_new_fields(after["file"], file_before)
    file_after["version"] = file_before["version"]
    same_file = json.dumps(file_before, sort_keys=True) == json.dumps(file_after, sort_keys=True)
    added = sorted(key for key in after["file"]["tournament"]
                   if key not in file_before["tournament"])
    print(f"{len(before['answers'])} answers compared, {len(differing)} differ; the "
          f"tournament file {'the same' if same_file else 'DIFFERS'} but for the new fields "
          f"(the tournament's {', '.join(added) or 'none'}, and what the players carry)")
    return 1 if differing or not same_file else 0


if __name__ == "__main__":
    sys.exit(main())
