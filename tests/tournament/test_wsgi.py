"""The production server's entry point (``tournament/wsgi.py``): the cycle collector set for
a server process, in a child process (freezing this one's objects would change the suite)."""

import os
import subprocess
import sys

PROBE = ("import gc, tournament.wsgi; "
         "print(gc.get_threshold(), gc.get_freeze_count() > 1000)")


def run(**env):
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


def test_the_server_process_collects_cycles_less_often_and_not_in_its_loaded_code():
    done = run()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "(50000, 20, 10) True"


def test_the_thresholds_can_be_set_and_a_bad_setting_says_what_is_wrong():
    assert run(GC_THRESHOLDS="1000,5,5").stdout.startswith("(1000, 5, 5) True")
    for bad in ("fast", "1,2", "0,10,10"):
        done = run(GC_THRESHOLDS=bad)
        assert done.returncode != 0
        assert "GC_THRESHOLDS is three whole numbers above 0" in done.stderr
        assert repr(bad) in done.stderr
