import io
import json
import random
import subprocess
import sys

import pytest

from scoring.cards import DECK
from scoring.cli import SUBCOMMANDS, Subcommand, main, register


def cards(text):
    return text.split()


def run(*args, lines=()):
    """``python -m scoring`` in a child process: (exit code, answers, stderr)."""
    stdin = "".join(json.dumps(line) + "\n" if not isinstance(line, str) else line + "\n"
                    for line in lines)
    done = subprocess.run([sys.executable, "-m", "scoring", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, answers, done.stderr


def test_analyze_answers_every_kind_of_line_in_order():
    code, answers, _ = run("analyze", lines=[
        {"hand": ["AS", "2S", "3S", "TD", "7H", "7D", "7C", "KS", "QH", "4D"]},
        {"hand": ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "9D", "9C", "9H", "KS"]},
        {"knocker": ["8S", "9S", "TS", "4H", "4D", "4C", "AH", "2C", "3D", "4S"],
         "opponent": ["7S", "6S", "JS", "QS", "KH", "KD", "2D", "9C", "5D", "AD"]},
        {"score": {"outcome": "knock", "declarer_deadwood": 4, "opponent_deadwood": 12}},
    ])
    assert code == 0
    hand, eleven, knock, score = answers
    assert hand == {"deadwood": 34, "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"]],
                    "deadwood_cards": ["4D", "TD", "QH", "KS"]}
    assert eleven["deadwood"] == 10 and eleven["big_gin"] is False
    assert (eleven["best_discard"], eleven["deadwood_after_discard"]) == ("KS", 0)
    assert knock["knocker_deadwood"] == 6
    assert knock["knocker_melds"] == [["4S", "4H", "4D", "4C"], ["8S", "9S", "TS"]]
    assert knock["opponent_deadwood"] == 37
    assert knock["layoffs"][:2] == [{"card": "7S", "meld": ["8S", "9S", "TS"]},
                                    {"card": "6S", "meld": ["8S", "9S", "TS"]}]
    assert (knock["outcome"], knock["points"]) == ("knock", {"knocker": 46, "opponent": -46})
    assert score["winner"] == "declarer"
    assert score["points"] == {"declarer": 23, "opponent": -23}


def test_analyze_gin_and_undercut_from_the_cards():
    _, (gin, undercut), _ = run("analyze", lines=[
        {"knocker": cards("AS 2S 3S 4S 7H 7D 7C 9D 9C 9H"),
         "opponent": cards("5S 6S KH KD QC 8H 8D JC 2D AD")},
        {"knocker": cards("AS 2S 3S 7H 7D 7C 9D 9C 9H TD"),
         "opponent": cards("4S 5S 6S KH KD KC 8H 8D 8C AD")},
    ])
    assert gin["outcome"] == "gin" and gin["layoffs"] == []
    assert gin["points"] == {"knocker": 95, "opponent": -95}
    assert undercut["outcome"] == "undercut"
    assert undercut["points"] == {"knocker": -34, "opponent": 34}


def test_a_bad_line_gets_an_error_and_the_rest_goes_on():
    code, answers, _ = run("analyze", lines=[
        "not json",
        "[1, 2]",
        {"hand": ["1X", "2S"]},
        {"hand": ["AS", "2S"]},
        {"hand": ["AS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]},
        {"cards": []},
        {"score": {"outcome": "gin", "declarer_deadwood": 4, "opponent_deadwood": 10}},
        {"score": {"outcome": "knock", "declarer_deadwood": 4, "opponent": 10}},
        {"knocker": cards("AS 2S 3S 7H 7D 7C 9D KC 9H TD"),
         "opponent": cards("4S 5S 6S KH KD QC 8H 8D 8C AD")},
        {"hand": "AS 2S 3S"},
        "",
        {"score": {"outcome": "draw"}},
    ])
    assert code == 0
    errors = [answer.get("error", "") for answer in answers]
    assert errors[0].startswith("not JSON")
    assert errors[1] == "each line must be a JSON object"
    assert errors[2].startswith("'1X': unknown suit 'X'")
    assert errors[3] == "hand has 2 cards; it must have 10 or 11"
    assert errors[4] == "AS appears twice; a deck has each card once"
    assert errors[5].startswith("expected {\"hand\"")
    assert "enter it as a knock" in errors[6]
    assert "unknown score fields ['opponent']" in errors[7]
    assert "false knock" in errors[8]
    assert "must be a list" in errors[9]
    assert answers[10] == {"winner": None, "points": {"declarer": 0, "opponent": 0},
                           "outcome": "draw", "explanation": "Draw: 0 (stock exhausted)"}
    assert len(answers) == 11  # the blank line is skipped


def test_rule_settings_as_options():
    _, answers, _ = run("analyze", "--knock-limit", "5", "--knock-bonus", "20", "--gin-bonus",
                        "30", "--undercut-bonus", "10", "--big-gin-bonus", "50",
                        "--draw-rule", "two_cards_left", lines=[
        {"score": {"outcome": "knock", "declarer_deadwood": 4, "opponent_deadwood": 12}},
        {"score": {"outcome": "knock", "declarer_deadwood": 6, "opponent_deadwood": 12}},
        {"score": {"outcome": "knock", "declarer_deadwood": 4, "opponent_deadwood": 4}},
        {"score": {"outcome": "gin", "opponent_deadwood": 10}},
        {"score": {"outcome": "big_gin", "opponent_deadwood": 10}},
        {"score": {"outcome": "draw"}},
    ])
    assert [a.get("points", {}).get("declarer") for a in answers] == [28, None, -10, 40, 60, 0]
    assert "above the knock limit 5" in answers[1]["error"]
    assert answers[5]["explanation"] == "Draw: 0 (two cards left in the stock)"


def test_a_false_knock_in_a_score_line():
    _, (answer,), _ = run("analyze", lines=[
        {"score": {"outcome": "knock", "declarer_deadwood": 4,
                   "false_knock": {"by": "opponent", "deadwood": 23}}}])
    assert answer["points"] == {"declarer": 34, "opponent": -34}


def test_bad_settings_and_commands_stop_with_usage():
    code, _, stderr = run("analyze", "--knock-limit", "0")
    assert code == 2 and "knock limit must be 1 to 99" in stderr
    code, _, stderr = run("analyze", "--draw-rule", "never")
    assert code == 2 and "invalid choice" in stderr
    code, _, stderr = run("shuffle")
    assert code == 2 and "invalid choice" in stderr


def test_simulate_plays_one_box_per_line():
    cards = list(DECK)
    random.Random(8).shuffle(cards)
    box = [str(card) for card in cards]
    code, answers, _ = run("simulate", "--non-dealer", "gin_waiter", lines=[
        {"box": box, "dealer": "greedy"},
        {"box": box, "dealer": "greedy", "non_dealer": "greedy"},
        {"box": box[:51]},
        {"box": box, "dealer": "genius"},
    ])
    assert code == 0
    first, second, short, unknown = answers
    assert first["non_dealer_strategy"] == "gin_waiter"
    assert second["non_dealer_strategy"] == "greedy"
    for record in (first, second):
        assert record["box"] == box
        assert record["points"]["dealer"] == -record["points"]["non_dealer"]
        assert record["turns"][0]["player"] == "dealer"
    assert "52 cards" in short["error"]
    assert "unknown strategy 'genius'" in unknown["error"]


def test_a_subcommand_is_one_registration():
    register(Subcommand("echo", "answer each line with itself",
                        lambda line, args, rules: {**line, "limit": rules.knock_limit}))
    try:
        out = io.StringIO()
        assert main(["echo", "--knock-limit", "7"], io.StringIO('{"a": 1}\n'), out) == 0
        assert json.loads(out.getvalue()) == {"a": 1, "limit": 7}
    finally:
        del SUBCOMMANDS["echo"]


def test_deals_re_creates_a_block_of_extra_hands_or_reserve_deals():
    from scoring.deals import DealPlace, make_deal

    key = bytes(range(32))
    code, answers, _ = run("deals", "--key", key.hex(), "--stage", "2", "--round", "1",
                           "--sets", "5-6", "--hands", "9-10", "--reserve", "1")
    assert code == 0
    assert [(a["set"], a["hand"], a["reserve"]) for a in answers] == [
        (5, 9, 1), (5, 10, 1), (6, 9, 1), (6, 10, 1)]
    expected = make_deal(key, DealPlace(2, 1, 6, 10, reserve=1))
    assert answers[-1]["dealer"] == [str(card) for card in expected.dealer]


@pytest.mark.parametrize("options", [["--hands", "4-2"], ["--sets", "x"], ["--reserve", "-1"],
                                     ["--stage", "0"]])
def test_deals_refuses_bad_ranges_with_a_message(options):
    code, answers, stderr = run("deals", "--key", "00" * 32, "--round", "1", *options)
    assert code == 2 and answers == []
    assert "error:" in stderr


# --- standings ----------------------------------------------------------------------------

def standings_run(document, *options):
    done = subprocess.run([sys.executable, "-m", "scoring", "standings", *options],
                          input=json.dumps(document), capture_output=True, text=True,
                          timeout=60, check=False)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def knock(declarer, mine, theirs):
    return {"outcome": "knock", "declarer": declarer, "declarer_deadwood": mine,
            "opponent_deadwood": theirs}


EVENT = {
    "teams": ["W", "X", "Y", "Z"],
    "rounds": [
        [{"home": "W", "away": "X", "tables": [[knock("home", 4, 12)],
                                               [{"outcome": "gin", "declarer": "away",
                                                 "opponent_deadwood": 20}]]},
         {"home": "Y", "away": "Z", "forfeit": "Z"}],
        [{"home": "W", "away": "Y", "tables": [[knock("home", 7, 7)], [knock("away", 2, 9)]]},
         {"home": "X", "away": "Z", "tables": [[{"outcome": "draw"}], [knock("home", 1, 30)]]}],
    ],
    "byes": [],
    "penalties": [{"team": "X", "kind": "small_points", "amount": 5}],
}


def test_standings_ranks_a_document_and_names_what_separated_each_team():
    code, lines = standings_run(EVENT)
    # Round 1: W−X table 1 +23 for W, table 2 gin 25 + 20 = 45 for X: X +22. Z forfeits to
    # Y (3 : 0). Round 2: W−Y: W's knock 7 vs 7 is undercut (+25 to Y), Y's knock 2 vs 9
    # gives Y +22: Y +47. X−Z: draw, X's knock 1 vs 30 gives +44. X's penalty: −5.
    assert code == 0
    assert lines == [
        {"rank": 1, "team": "X", "match_points": 6, "small_points": 61, "wins": 2,
         "gins": 1, "separated_by": "small_points"},
        {"rank": 2, "team": "Y", "match_points": 6, "small_points": 47, "wins": 2,
         "gins": 0, "separated_by": "match_points"},
        {"rank": 3, "team": "W", "match_points": 2, "small_points": -69, "wins": 0,
         "gins": 0, "separated_by": "match_points"},
        {"rank": 4, "team": "Z", "match_points": 1, "small_points": -44, "wins": 0,
         "gins": 0, "separated_by": None},
    ]


def test_standings_document_rules_win_over_flags_and_withdrawn_teams_vanish():
    document = {**EVENT, "rules": {"match_points_win": 5, "match_points_tie": 3,
                                   "match_points_loss": 2, "tiebreaks": ["wins"]},
                "withdrawn": ["Z"]}
    code, lines = standings_run(document, "--knock-bonus", "10")
    assert code == 0
    # Z's matches are cleared. With knock bonus 10: W−X is W +18 at table 1 and X +45 at
    # table 2 (X +27, then −5 of penalty); W−Y is Y's undercut +25 and Y's knock 2 vs 9 +17.
    assert [line["team"] for line in lines] == ["Y", "X", "W"]
    assert [(line["match_points"], line["small_points"]) for line in lines] == [
        (5, 42), (5, 22), (4, -69)]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["rounds"][1][0]["tables"][1][0].update(outcome="knok"),
     "rounds[1][0].tables[1][0].outcome: must be"),
    (lambda d: d["rounds"][0][0].update(home="Q"), "rounds[0][0].home: 'Q' is not one of"),
    (lambda d: d["penalties"][0].update(kind="gins"), "penalties[0].kind: must be"),
    (lambda d: d.update(rules={"knock_limit": 0}), "rules: knock limit must be 1 to 99"),
    (lambda d: d.update(colour="blue"), "unknown key 'colour'"),
    (lambda d: d["rounds"][0][1].update(forfeit="W"), "rounds[0][1].forfeit: names the team"),
])
def test_standings_names_the_path_of_a_mistake(change, message):
    document = json.loads(json.dumps(EVENT))
    change(document)
    code, lines = standings_run(document)
    assert code == 2 and len(lines) == 1 and lines[0]["error"].startswith(message)


def test_standings_refuses_what_is_not_json():
    done = subprocess.run([sys.executable, "-m", "scoring", "standings"], input="{teams",
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and json.loads(done.stdout)["error"].startswith("not JSON")
