"""Every page and download on the last day of a 512-team championship (issue 28, item 2).

    python bench/last_day.py [--runs 3] [--only TEXT]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dupgin_bench_standings \\
        python bench/last_day.py

Uses the 512-team, 15-round event of ``bench/standings.py`` (61,440 hands, every round dealt,
five rounds a day over three days; built there once and kept). Starts the production server
(``manage.py serve``: gunicorn, 2 workers, whitenoise) on a free loopback port with the
public cache off
(``PUBLIC_CACHE_SECONDS=0``: every answer is built, as the first one after each change is)
and asks for every GET address of ``tournament/urls.py`` (``ROUTES`` below, one entry per
URL name; ``tests/bench/test_last_day.py`` fails when a name is missing), filled with the
event's last round (256 matches), its first match, table, team, player and box, and each
kind of a printout or download. Public addresses are asked for anonymously, staff ones as a
director (a session of the bench's superuser), the table devices' API with a device token;
every request asks for gzip, as browsers do.

For each address it prints the median of ``--runs`` requests (after two not counted, which
fill the two workers' own caches: templates, translations, prepared lock queries), the
bytes received, its target and whether it is met:

- a page, or an answer of the API: < 300 ms and < 1 MB;
- a download (CSV, XLSX, the API's documents): < 500 ms and < 1 MB;
- the director's round page and the progress page of the 256-match round: < 200 ms;
- a printout: the smaller of 1.5 s and its own target (``bench/printing.py``);
- the whole tournament's file and a backup of it (70 MB for this event): their own target,
  < 60 s (issue 14); the size is what the event is.

The load average is printed first and last: the targets are for a quiet machine (load
under 1.5).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import standings as standings_bench  # noqa: E402  (bench/standings.py: the event)
from common import calibration_loop, margin_words, met_with_margin  # noqa: E402
from public import production_server, wait_for  # noqa: E402  (bench/public.py)

MB = 1024 * 1024


@dataclass(frozen=True)
class Target:
    seconds: float
    size: int | None
    words: str


PAGE = Target(0.3, MB, "300 ms, 1 MB")
DOWNLOAD = Target(0.5, MB, "500 ms, 1 MB")
ROUND_PAGE = Target(0.2, MB, "200 ms, 1 MB")
PRINTOUT = Target(1.5, None, "1.5 s")
LABELS = Target(0.8, None, "0.8 s")  # the box labels' own target (issue 15)
ARCHIVE = Target(60, None, "60 s")  # the whole tournament's file (issue 14)
# Every paper of a round in one PDF (issue 58): the sum of its parts' targets (the draw,
# the table cards, the deal sheets, the scorecards at 1.5 s each, the box labels at 0.8 s).
PAPERS = Target(6.8, None, "6.8 s")

# Every URL name of the project: who asks for it and its target. None: not a GET address
# (a form's POST only, or a redirect), with the reason in NOT_GET.
PUBLIC, STAFF, DEVICE = "public", "staff", "device"
ROUTES: dict[str, tuple[str, Target]] = {
    "public:home": (PUBLIC, PAGE),
    "public:tournament": (PUBLIC, PAGE),
    "public:rounds": (PUBLIC, PAGE),
    "public:round": (PUBLIC, PAGE),
    "public:hand_records": (PUBLIC, PAGE),
    "public:travellers": (PUBLIC, PAGE),
    "public:traveller": (PUBLIC, PAGE),
    "public:field": (PUBLIC, PAGE),
    "public:stage_field": (PUBLIC, PAGE),
    "public:match": (PUBLIC, PAGE),
    "public:standings": (PUBLIC, PAGE),
    "public:stage_standings": (PUBLIC, PAGE),
    "public:group_standings": (PUBLIC, PAGE),
    "public:individual": (PUBLIC, PAGE),
    "public:stage_individual": (PUBLIC, PAGE),
    "public:teams": (PUBLIC, PAGE),
    "public:team": (PUBLIC, PAGE),
    "public:player": (PUBLIC, PAGE),
    "public:penalties": (PUBLIC, PAGE),
    "public:bulletin": (PUBLIC, PRINTOUT),
    "public:day_bulletin": (PUBLIC, PRINTOUT),
    "public:deal_check": (PUBLIC, PAGE),
    "public:screen": (PUBLIC, PAGE),
    "public:screen_fragment": (PUBLIC, PAGE),
    "public:standings_export": (PUBLIC, DOWNLOAD),
    "public:final_ranking_export": (PUBLIC, DOWNLOAD),
    "public:stage_standings_export": (PUBLIC, DOWNLOAD),
    "public:group_standings_export": (PUBLIC, DOWNLOAD),
    "public:individual_export": (PUBLIC, DOWNLOAD),
    "public:stage_individual_export": (PUBLIC, DOWNLOAD),
    "public:round_export": (PUBLIC, DOWNLOAD),
    "public:travellers_export": (PUBLIC, DOWNLOAD),
    "public:traveller_export": (PUBLIC, DOWNLOAD),
    "public:penalties_export": (PUBLIC, DOWNLOAD),
    "public:persons": (PUBLIC, PAGE),
    "public:person": (PUBLIC, PAGE),
    "public:master_points": (PUBLIC, PAGE),
    "public:persons_export": (PUBLIC, DOWNLOAD),
    "public:master_points_export": (PUBLIC, DOWNLOAD),
    "director:home": (STAFF, PAGE),
    "director:tournament_create": (STAFF, PAGE),
    "director:import_upload": (STAFF, PAGE),
    "director:backups": (STAFF, PAGE),
    "director:backup_download": (STAFF, ARCHIVE),
    "director:dashboard": (STAFF, PAGE),
    "director:tournament_edit": (STAFF, PAGE),
    "director:tournament_delete": (STAFF, PAGE),
    "director:team_list": (STAFF, PAGE),
    "director:team_create": (STAFF, PAGE),
    "director:team_import": (STAFF, PAGE),
    "director:team_edit": (STAFF, PAGE),
    "director:team_delete": (STAFF, PAGE),
    "director:team_pins": (STAFF, PAGE),
    "director:staff": (STAFF, PAGE),
    "director:audit": (STAFF, PAGE),
    "director:bulletin": (STAFF, PRINTOUT),
    "director:day_bulletin": (STAFF, PRINTOUT),
    "director:penalty_list": (STAFF, PAGE),
    "director:penalty_create": (STAFF, PAGE),
    "director:penalty_undo": (STAFF, PAGE),
    "director:stage_list": (STAFF, PAGE),
    "director:stage_detail": (STAFF, PAGE),
    "director:standings": (STAFF, PAGE),
    "director:stage_standings": (STAFF, PAGE),
    "director:group_standings": (STAFF, PAGE),
    "director:standings_download": (STAFF, DOWNLOAD),
    "director:group_standings_download": (STAFF, DOWNLOAD),
    "director:stage_seeding": (STAFF, PAGE),
    "director:bracket_pdf": (STAFF, PRINTOUT),
    "director:final_ranking": (STAFF, PAGE),
    "director:final_ranking_download": (STAFF, DOWNLOAD),
    "director:field": (STAFF, PAGE),
    "director:stage_field": (STAFF, PAGE),
    "director:traveller": (STAFF, PAGE),
    "director:individual": (STAFF, PAGE),
    "director:individual_download": (STAFF, DOWNLOAD),
    "director:stage_individual": (STAFF, PAGE),
    "director:stage_individual_download": (STAFF, DOWNLOAD),
    "director:round_detail": (STAFF, ROUND_PAGE),
    "director:round_close": (STAFF, PAGE),
    "director:round_lineup": (STAFF, PAGE),
    "director:round_pdf": (STAFF, PRINTOUT),
    "director:deal_key": (STAFF, PAGE),
    "director:table_entry": (STAFF, PAGE),
    "director:match_page": (STAFF, PAGE),
    "director:desk_match": (STAFF, PAGE),
    "director:desk_round": (STAFF, PAGE),
    "director:desk_box": (STAFF, PAGE),
    "director:round_progress": (STAFF, ROUND_PAGE),
    "director:round_scorecards": (STAFF, PRINTOUT),
    "director:round_deals": (STAFF, PAGE),
    "director:round_deals_pdf": (STAFF, PRINTOUT),
    "director:round_papers": (STAFF, PAPERS),
    "director:certificates_pdf": (STAFF, PRINTOUT),
    "api:openapi-json": (PUBLIC, DOWNLOAD),
    "api:openapi-view": (PUBLIC, PAGE),
    "api:tournament_list": (PUBLIC, PAGE),
    "api:tournament_detail": (PUBLIC, PAGE),
    "api:round_list": (PUBLIC, PAGE),
    "api:round_detail": (PUBLIC, PAGE),
    "api:match_detail": (PUBLIC, PAGE),
    "api:overall_standings": (PUBLIC, PAGE),
    "api:stage_standings": (PUBLIC, PAGE),
    "api:group_standings": (PUBLIC, PAGE),
    "api:final_ranking": (PUBLIC, PAGE),
    "api:individual_standings": (PUBLIC, PAGE),
    "api:team_list": (PUBLIC, PAGE),
    "api:team_detail": (PUBLIC, PAGE),
    "api:player_list": (PUBLIC, PAGE),
    "api:player_detail": (PUBLIC, PAGE),
    "api:box_index": (PUBLIC, PAGE),
    "api:traveller": (PUBLIC, PAGE),
    "api:person_list": (PUBLIC, PAGE),
    "api:ratings": (PUBLIC, PAGE),
    "api:person_detail": (PUBLIC, PAGE),
    "api:read_table": (DEVICE, PAGE),
    "login": (PUBLIC, PAGE),
}

NOT_GET: dict[str, str] = {
    "api:api-root": "no page: /api/ answers 404 (the API's documents are /api/docs and "
                    "/api/openapi.json, measured)",
    "public:demo_build": "the first start's progress, answered only while the demo is built "
                         "(bench/quickstart.py)",
    "director:match_extra_hands": "a form's POST",
    "director:match_sign_off": "a form's POST",
    "director:desk_on_paper": "a form's POST",
    "director:hand_save": "the entry form's POST",
    "director:round_undo": "a form's POST",
    "director:round_devices": "a form's POST (the device slips made, with new passwords)",
    "director:round_clock": "a form's POST (the round clock's buttons)",
    "director:terminal_reading": "the table terminal's POST (the engine's reading of a hand)",
    "director:terminal_sign": "the table terminal's POST (a player's signature)",
    "terminal": "a table device's own page, in its own session: the staff's cookie finds no "
                "table there (tests/tournament/views/test_terminal.py reads it)",
    "director:stage_names": "a form's POST (a stage renamed)",
    "director:round_start": "a form's POST",
    "director:round_publish": "a form's POST",
    "director:round_swap": "a form's POST",
    "director:stage_qualification": "a form's POST (the qualifiers confirmed)",
    "director:standings_check": "a form's POST (the integrity check run)",
    "director:round_generate": "a form's POST (the next round drawn)",
    "director:stage_teams": "a form's POST (the teams entered)",
    "director:stage_groups": "a form's POST (the groups allotted)",
    "director:tournament_export": "a form's POST (the file, with or without its secrets): "
                                  "bench/exchange.py times it",
    "director:tournament_open": "a form's POST (opening the tournament to the public)",
    "director:staff_remove": "a form's POST",
    "director:staff_unlock": "a form's POST",
    "director:round_devices_bind": "a form's POST",
    "director:binding_move": "a form's POST",
    "director:hand_preview": "the entry form's htmx POST",
    "director:hand_approve": "a form's POST",
    "director:table_sign": "a form's POST",
    "director:desk_row": "the desk's POST of a typed line",
    "director:pin_unlock": "a form's POST",
    "director:deal_key_reveal": "a form's POST",
    "director:deal_key_new": "a form's POST",
    "director:round_deals_generate": "a form's POST",
    "director:deal_replace": "a form's POST",
    "director:import_preview": "the preview of an uploaded file: timed by bench/exchange.py",
    "director:backup_restore": "a form's POST",
    "director:backup_now": "a form's POST (a backup taken at once)",
    "director:queue_discard": "the entry screen's POST of a command its device discards",
    "director:queue_status": "the entry screen's check of where its kept commands may go, "
                             "asked only while it holds one (JSON, a few queries)",
    "api:enter_hand": "a device's PUT",
    "api:approve_hand": "a device's POST",
    "api:sign_table": "a device's POST",
    "api:sign_off": "a device's POST",
    "logout": "a form's POST",
    "set_language": "a form's POST",
}


def url_names() -> dict[str, str]:
    """Every URL name of the project (the admin's aside) → its route."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: dict[str, str] = {}

    def walk(resolver, prefix: str, namespace: str) -> None:
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if route.startswith("admin/"):
                    continue
                inner = pattern.namespace or ""
                walk(pattern, route, f"{namespace}:{inner}".strip(":") if inner else namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                found[f"{namespace}:{pattern.name}" if namespace else pattern.name] = route

    walk(get_resolver(), "", "")
    return found


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cpus"


# The event's objects -----------------------------------------------------------------------

def values_of(tournament, stage) -> dict[str, list]:
    """What fills the routes' parameters: the last round's objects, by the path word
    before the parameter or by its name (tests/tournament/views/routes.py)."""
    from tournament.models import Deal, Penalty, Player, Round, StaffRole
    from tournament.selectors.bulletin import bulletin_days

    last = Round.objects.filter(stage=stage).order_by("-number").first()
    match = last.matches.order_by("number").first()
    table = match.tables.order_by("position").first()
    deal = Deal.objects.filter(round=last, is_current=True).order_by("deal_set", "hand").first()
    player = Player.objects.filter(team=match.home).order_by("number").first()
    staff = StaffRole.objects.filter(tournament=tournament).order_by("pk").first()
    penalty = Penalty.objects.filter(tournament=tournament).order_by("pk").first()
    days = bulletin_days(tournament)
    return {
        "slug": [tournament.slug], "rounds": [last.pk], "stages": [stage.pk],
        "matches": [match.pk], "tables": [table.pk], "teams": [match.home_id],
        "team_pk": [match.home_id], "players": [player.pk], "deal_pk": [deal.pk],
        "boxes": [deal.pk], "staff": [staff.pk] if staff else [], "penalties": [penalty.pk],
        "hand": [1], "seat": [1], "deal_set": [deal.deal_set], "day": [days[-1].isoformat()],
        # On a Swiss event there is no group: its routes are asked for with the stage's
        # first group if any (none here; see the note the bench prints).
        "group_pk": list(stage.groups.values_list("pk", flat=True)[:1]),
        "round_id": [last.pk], "match_id": [match.pk], "team_id": [match.home_id],
        "player_id": [player.pk], "stage_id": [stage.pk], "box_id": [deal.pk],
        "table_id": [table.pk], "group_id": list(stage.groups.values_list("pk", flat=True)[:1]),
        # The persons across events (issue 55), by their person id.
        "persons": [player.person_id], "person_id": [player.person_id],
    }


def staff_cookie(user) -> str:
    """A session of ``user`` in the database the server reads, as a log-in makes one."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = next(  # the backend that finds users (not the throttle's)
        path for path in settings.AUTHENTICATION_BACKENDS if "ModelBackend" in path)
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def device_token(tournament, table) -> str:
    """A scorer's device bound to the table, with its token (as the device slips give)."""
    from django.contrib.auth import get_user_model

    from tournament.models import DeviceToken, StaffRole, TableBinding

    user, _ = get_user_model().objects.get_or_create(username="bench-device-1")
    StaffRole.objects.get_or_create(tournament=tournament, user=user,
                                    defaults={"role": "scorer"})
    TableBinding.objects.update_or_create(
        round=table.round, user=user,
        defaults={"table": table, "bound_by": get_user_model().objects.get(username="bench")})
    token = DeviceToken.new_token()
    DeviceToken.objects.update_or_create(user=user, defaults={
        "digest": DeviceToken.digest_of(token), "last_used_at": None})
    return token


def a_backup(tournament) -> str | None:
    """The name of a backup of the event (written once, kept in the bench's data folder)."""
    from tournament.exchange.backups import backup_dir, list_backups, write_backup

    files = [f for f in list_backups() if f.slug == tournament.slug]
    if files:
        return files[0].name
    return write_backup(tournament, backup_dir()).name


# Asking -----------------------------------------------------------------------------------

def get(url: str, headers: dict[str, str]) -> tuple[int, float, int]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br",
                                                   **headers})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            size = len(response.read())
            status = response.status
    except urllib.error.HTTPError as error:
        size, status = len(error.read()), error.code
    return status, time.perf_counter() - started, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="timed requests per address")
    parser.add_argument("--only", default="", help="only the URL names containing this")
    args = parser.parse_args()
    os.environ["PUBLIC_CACHE_SECONDS"] = "0"
    standings_bench.setup(rebuild=False)
    tournament, stage = standings_bench.event_or_build()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from tests.tournament.views.routes import fill
    from tournament.models import Table, Tournament

    print(load())
    loop = calibration_loop()
    print(f"the calibration loop (ten million additions): {loop:.3f} s")
    Tournament.objects.filter(pk=tournament.pk).update(
        public_standings=True, public_results=True, public_players=True,
        public_penalties=True)
    names = url_names()
    missing = sorted(set(names) - set(ROUTES) - set(NOT_GET))
    if missing:
        raise SystemExit(f"URL names neither measured nor listed as not GET: {missing}")
    values = values_of(tournament, stage)
    bench_user = get_user_model().objects.get(username="bench")
    headers = {STAFF: {"Cookie": staff_cookie(bench_user)}, PUBLIC: {},
               DEVICE: {"Authorization": "Bearer " + device_token(
                   tournament, Table.objects.get(pk=values["tables"][0]))}}
    backup = a_backup(tournament)
    values["name"] = [backup] if backup else []
    vendor = connection.vendor
    connection.close()

    log_path = ROOT / "var" / "bench" / "last_day-server.log"
    rows, missed, not_measured, short = [], [], [], []
    with production_server(log_path) as base:
        wait_for(base + "/")
        print(f"database: {vendor}; server: manage.py serve, 2 gunicorn workers; public cache "
              f"off; {args.runs} timed requests an address (median), after two not counted")
        for name, (who, target) in ROUTES.items():
            if args.only not in name:
                continue
            urls = fill(names[name], values)
            if not urls or any("<" in url for url in urls):
                not_measured.append(f"{name}: nothing of its kind in this event")
                continue
            for path in urls:
                try:
                    # Warm-up, once for each of the two workers (a worker's first answer of
                    # a page compiles its templates and fills its own caches).
                    for _ in range(2):
                        status, _seconds, _size = get(base + path, headers[who])
                except OSError as error:
                    not_measured.append(f"{name} {path}: {error} (see {log_path})")
                    missed.append(name)
                    continue
                if status != 200:
                    not_measured.append(f"{name} {path}: HTTP {status}")
                    continue
                timed = [get(base + path, headers[who]) for _ in range(args.runs)]
                seconds = statistics.median(t for _s, t, _z in timed)
                size = max(z for _s, _t, z in timed)
                met = seconds < target.seconds and (target.size is None or size < target.size)
                rows.append((name, path, seconds, size, target, met))
                if not met:
                    missed.append(name)
                # Issue 59's verdict, as bench/printing.py gives it: the time scaled to
                # the reference machine, whatever this machine's own time says.
                if not met_with_margin(seconds, target.seconds, loop):
                    short.append(name)
                print(f"{seconds * 1000:8.0f} ms {size / 1024:9,.0f} KiB  {path}  ({name}, "
                      f"{who}) [target < {target.words}: {'met' if met else 'NOT met'}; "
                      f"{margin_words(seconds, target.seconds, loop)}]", flush=True)
    for line in not_measured:
        print(f"not measured: {line}")
    print(f"{len(rows)} addresses measured, {len(rows) - len(missed)} met their target"
          + (f"; NOT met: {', '.join(dict.fromkeys(missed))}" if missed else ""))
    print(f"{len(rows) - len(short)} met issue 59's margin (the time scaled to the "
          f"reference machine, a third under the target)"
          + (f"; without the margin: {', '.join(dict.fromkeys(short))}" if short else ""))
    print(load(), f"; the calibration loop again: {calibration_loop():.3f} s")


if __name__ == "__main__":
    main()
