"""The first start, timed (issue 27, item 1).

    python bench/quickstart.py [--runs 3] [--timeout 300]

Runs the README's command, ``python manage.py quickstart 127.0.0.1:PORT``, on a fresh
temporary data folder (``VAR_DIR``: a new SQLite database, no static files collected yet)
and asks for the home page every 50 ms. For each run it prints, in seconds from the start
of the command:

- ``first answer``: the first HTTP answer (target < 10 s on a quiet two-core machine):
  the "starting" page (503, tournament/starting.py) while quickstart sets up, or the site;
- ``home page``: the application's home page (200), and whether it said the demo was still
  being built; and how many requests were refused after the first answer (none: the
  starting page hands its socket to the server);
- ``demo ready``: the demo tournament's page (``/t/demo/``) answers 200;
- ``a page in Chromium``: once the demo is ready, the median time of 30 requests for
  each of two demo pages (``PAGES``) from a page open in Debian's Chromium, over the
  connection it keeps open, as a scorer's tablet asks (left out without Chromium). The
  server sends each answer at once (TCP_NODELAY, ``tournament/starting.py``): before, the
  last part of each waited some 40 ms for the browser's delayed acknowledgement;
- when each phase's line was printed (migrated, director account, system checks, serving);
- the CPU time quickstart's own process had used by the first answer, and its helpers
  (collectstatic and the system checks, on the other core meanwhile): what the first
  answer takes on a quiet machine, whatever the load of this one;

with the machine's load average at the start next to them (other work on the same cores
makes any wall-clock figure longer). The command's output is kept in the data folder
(``quickstart.out``) and the folder is removed afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILDING_MARK = 'id="demo-build"'  # templates/public/includes/demo_build.html
CHROMIUM = "/usr/bin/chromium"
PAGES = ("t/demo/", "t/demo/standings/")  # asked for from Chromium once the demo is ready
# What quickstart prints as it goes: the start of a line, and the phase it ends.
PHASES = [("Database ready.", "migrated"), ("Log in at", "director"),
          ("System check", "checked"), ("Quit the server with", "serving")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> tuple[int, str] | None:
    """The status and body, or None when nothing answers yet."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")
    except (OSError, urllib.error.URLError):
        return None


def environment(var_dir: Path) -> dict[str, str]:
    """As on a fresh machine: the default settings, the data folder given."""
    dropped = {"DATABASE_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "HTTPS", "CACHE_URL",
               "DJANGO_SETTINGS_MODULE", "DJANGO_SUPERUSER_PASSWORD",
               "DJANGO_SUPERUSER_USERNAME", "DJANGO_SUPERUSER_EMAIL", "STATIC_ROOT"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["VAR_DIR"] = str(var_dir)
    env["PYTHONUNBUFFERED"] = "1"  # each line as it is printed, for its time
    return env


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The CPU time of quickstart's own process (which becomes the server) and of the
    helpers it waited for (collectstatic, the system checks), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return (0.0, 0.0)
    tick = os.sysconf("SC_CLK_TCK")
    own = (int(fields[11]) + int(fields[12])) / tick
    children = (int(fields[13]) + int(fields[14])) / tick
    return own, children


def stop_builder(var_dir: Path) -> None:
    """The demo's build runs in a process of its own (tournament/first_start.py): ended
    when the run gives up before it is done."""
    try:
        pid = json.loads((var_dir / "demo-build.json").read_text())["pid"]
        os.kill(int(pid), signal.SIGTERM)
    except (OSError, ValueError, KeyError, TypeError):
        pass


def page_times(site: str) -> dict[str, float]:
    """The median milliseconds of a request for each of ``PAGES`` from a page open in
    Chromium (its own fetch, over its kept connection); empty without Chromium."""
    if not os.path.exists(CHROMIUM):
        return {}
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page()
            page.goto(site + PAGES[0])
            return {path: page.evaluate("""async (path) => {
                const times = [];
                for (let i = 0; i < 30; i++) {
                  const start = performance.now();
                  await (await fetch(path, { cache: "no-store" })).text();
                  times.push(performance.now() - start);
                }
                times.sort((a, b) => a - b);
                return times[15]; }""", "/" + path) for path in PAGES}
        finally:
            browser.close()


def one_run(timeout: float, keep: bool) -> dict:
    var_dir = Path(tempfile.mkdtemp(prefix="dupgin-quickstart-"))
    port = free_port()
    home = f"http://127.0.0.1:{port}/"
    load = os.getloadavg()[0]
    out = open(var_dir / "quickstart.out", "w")  # noqa: SIM115 (closed below)
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "quickstart", f"127.0.0.1:{port}"], cwd=ROOT,
        env=environment(var_dir), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True, text=True)
    result = {"load": load, "first": None, "status": None, "site": None, "building": None,
              "demo": None, "refused": 0, "phases": {}, "cpu": (0.0, 0.0), "pages": {}}

    def read_output():  # each line with its time: where the seconds went
        for line in server.stdout:
            seconds = time.perf_counter() - started
            out.write(f"{seconds:7.2f} {line}")
            for mark, phase in PHASES:
                if line.startswith(mark) and phase not in result["phases"]:
                    result["phases"][phase] = seconds

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        deadline = started + timeout
        while time.perf_counter() < deadline and server.poll() is None:
            answer = fetch(home)
            now = time.perf_counter() - started
            if answer is None:
                result["refused"] += result["first"] is not None
            elif result["first"] is None:
                result["first"], result["status"] = now, answer[0]
            if answer is not None and answer[0] == 200:
                result["site"] = now
                result["cpu"] = cpu_seconds(server.pid)
                result["building"] = BUILDING_MARK in answer[1]
                break
            # Often until the first answer; then as a reader would, not to take the
            # process's time from its setting up.
            time.sleep(0.05 if result["first"] is None else 0.25)
        while result["site"] is not None and time.perf_counter() < deadline:
            answer = fetch(f"{home}t/demo/")
            if answer is not None and answer[0] == 200:
                result["demo"] = time.perf_counter() - started
                result["pages"] = page_times(home)
                break
            time.sleep(1)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        reader.join(timeout=5)
        if result["demo"] is None:
            stop_builder(var_dir)
        out.close()
        if server.returncode not in (0, -signal.SIGTERM) and result["first"] is None:
            print((var_dir / "quickstart.out").read_text(), file=sys.stderr)
        if keep:
            print(f"  data folder kept: {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds to wait for the demo (default 300)")
    parser.add_argument("--keep", action="store_true", help="keep the data folders")
    args = parser.parse_args()
    figures = {"first answer": [], "home page": [], "demo ready": []}
    pages: dict[str, list[float]] = {path: [] for path in PAGES}
    for run in range(1, args.runs + 1):
        r = one_run(args.timeout, args.keep)

        def seconds(value):
            return "none within the timeout" if value is None else f"{value:.1f} s"

        shown = {True: "the demo's progress shown", False: "no progress shown",
                 None: ""}[r["building"]]
        phases = ", ".join(f"{phase} {at:.1f}" for phase, at in r["phases"].items())
        own, helpers = r["cpu"]
        print(f"run {run} (load {r['load']:.2f}): first answer {seconds(r['first'])} "
              f"(HTTP {r['status']}); home page {seconds(r['site'])} ({shown}); demo ready "
              f"{seconds(r['demo'])}; refused after the first answer: {r['refused']}; "
              f"lines printed at: {phases}; CPU to the home page: quickstart {own:.1f} s, "
              f"its helpers {helpers:.1f} s", flush=True)
        if r["pages"]:
            print("  a page in Chromium: " + ", ".join(
                f"/{path} {ms:.1f} ms" for path, ms in r["pages"].items()), flush=True)
        for path, ms in r["pages"].items():
            pages[path].append(ms)
        for name, key in (("first answer", "first"), ("home page", "site"),
                          ("demo ready", "demo")):
            if r[key] is not None:
                figures[name].append(r[key])
    for name, values in figures.items():
        if values:
            print(f"{name}: median {statistics.median(values):.1f} s, "
                  f"{min(values):.1f}–{max(values):.1f} s over {len(values)} runs")
    for path, values in pages.items():
        if values:
            print(f"/{path} in Chromium: median {statistics.median(values):.1f} ms over "
                  f"{len(values)} runs")
    return 0 if len(figures["first answer"]) == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
