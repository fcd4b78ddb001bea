"""``python -m scoring ratings``: hand lines in, one line per player out, best first."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from scoring.cli import main


def hand_line(box, dealer, non_dealer, points, date="2026-03-01", event="E1"):
    return json.dumps({"event": event, "date": date, "box": box, "dealer": dealer,
                       "non_dealer": non_dealer, "dealer_points": points})


def run(*args, lines=()):
    out = io.StringIO()
    main(["ratings", *args], stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


SEASON = [hand_line(f"E1/1/{n}", "P17", "P4", 27) for n in range(1, 9)] + [
    hand_line(f"E1/1/{n}", "P9", "P2", 3) for n in range(1, 9)] + [
    hand_line(f"E2/1/{n}", "P17", "P9", -4, date="2026-04-05", event="E2") for n in range(1, 9)
] + [hand_line(f"E2/1/{n}", "P2", "P4", 10, date="2026-04-05", event="E2") for n in range(1, 9)]


def test_one_line_per_player_best_first_with_the_contract_s_fields():
    rows = run(lines=SEASON)
    assert [set(row) for row in rows] == [
        {"player", "rating", "deviation", "hands", "provisional"}] * 4
    assert rows[0]["player"] == "P2"  # above the datum at both events
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows),
                                                     reverse=True)
    assert {row["player"]: row["hands"] for row in rows} == {"P17": 16, "P4": 16, "P9": 16,
                                                             "P2": 16}
    assert all(row["provisional"] is True for row in rows)  # 16 hands: under 100
    assert all(isinstance(row["rating"], float) and isinstance(row["deviation"], float)
               for row in rows)


def test_as_of_rates_with_the_hands_up_to_that_date():
    early = {row["player"]: row for row in run("--as-of", "2026-03-31", lines=SEASON)}
    assert {row["hands"] for row in early.values()} == {8}
    everything = {row["player"]: row for row in run(lines=SEASON)}
    assert early["P17"]["rating"] != everything["P17"]["rating"]
    # As of a later date nobody played, the same ratings and wider deviations.
    later = {row["player"]: row for row in run("--as-of", "2027-04-05", lines=SEASON)}
    assert later["P17"]["rating"] == everything["P17"]["rating"]
    assert later["P17"]["deviation"] > everything["P17"]["deviation"]


def test_bad_lines_get_an_error_naming_the_line_and_the_rest_goes_on():
    lines = [SEASON[0], "not json", "[1, 2]", "",
             hand_line("b", "P1", "P1", 3),
             hand_line("b", "P1", "P3", 2.5),
             hand_line("b", "P1", "P3", True),
             hand_line("b", "P1", "P3", 4, date="1 March 2026"),
             hand_line("b", "", "P3", 4),
             json.dumps({"event": "E1", "date": "2026-03-01", "box": "b"}),
             hand_line("E1/1/1", "P17", "P8", 1),  # P17 played that box already
             SEASON[8]]
    rows = run(lines=lines)
    errors = [row["error"] for row in rows if "error" in row]
    assert [error.split(":")[0] for error in errors] == [
        "line 2", "line 3", "line 5", "line 6", "line 7", "line 8", "line 9", "line 10",
        "line 11"]
    assert "themselves" in errors[2]
    assert "whole number" in errors[3] and "whole number" in errors[4]
    assert "YYYY-MM-DD" in errors[5]
    assert "dealer must be a non-empty string" in errors[6]
    assert "missing dealer, non_dealer, dealer_points" in errors[7]
    assert "already played box E1/1/1" in errors[8]
    players = [row["player"] for row in rows if "player" in row]
    assert sorted(players) == ["P17", "P2", "P4", "P9"]


def test_parameters_as_options_and_a_bad_date_option_stops_with_usage():
    rows = run("--base", "2000", "--provisional-hands", "10", lines=SEASON)
    assert all(row["provisional"] is False for row in rows)
    assert abs(sum(row["rating"] for row in rows) / 4 - 2000) < 1
    with pytest.raises(SystemExit):
        run("--as-of", "yesterday", lines=SEASON)


def test_the_command_line_itself():
    done = subprocess.run([sys.executable, "-m", "scoring", "ratings"],
                          input="\n".join(SEASON) + "\n", capture_output=True, text=True,
                          check=True)
    assert json.loads(done.stdout.splitlines()[0])["player"] == "P2"
