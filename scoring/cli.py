"""``python -m scoring``: the rules engine on the command line (DESIGN.md, "The CLI contract").

Every subcommand reads JSON lines on stdin and writes one JSON line per input line on
stdout, in order. A line that cannot be answered gets ``{"error": "..."}`` and the rest go
on; blank lines are skipped. Rule settings come as options (``--knock-limit`` …).

Adding a subcommand is one ``register(Subcommand(...))`` call: a name, a help line, a
function that adds its options, and a function that answers one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from scoring.deals import DealBlock, deal_record, deals_of_block, parse_key, parse_span
from scoring.errors import RuleError
from scoring.hand import FalseKnock, score_hand
from scoring.melds import analyze_eleven, arrange
from scoring.rules import DEFAULT_RULES, DrawRule, Rules
from scoring.showdown import arrangement_dict, settle
from scoring.simulate import play_box
from scoring.standings_document import read_event

Answer = Callable[[Mapping[str, Any], argparse.Namespace, Rules], dict[str, Any]]


@dataclass(frozen=True)
class Subcommand:
    name: str
    help: str
    answer: Answer | None  # one JSON object in, one out; raise RuleError for a bad line
    add_arguments: Callable[[argparse.ArgumentParser], None] = field(default=lambda parser: None)
    # A subcommand that reads nothing and prints JSON lines from its options (``deals``).
    produce: Callable[[argparse.Namespace], Iterable[dict[str, Any]]] | None = None
    # A subcommand that reads one JSON document and prints JSON lines (``standings``).
    document: Callable[[Any, argparse.Namespace, Rules], Iterable[dict[str, Any]]] | None = None


SUBCOMMANDS: dict[str, Subcommand] = {}


def register(subcommand: Subcommand) -> Subcommand:
    SUBCOMMANDS[subcommand.name] = subcommand
    return subcommand


# --- rule settings as options ----------------------------------------------------------

_RULE_OPTIONS = ("knock_limit", "knock_bonus", "gin_bonus", "undercut_bonus", "big_gin_bonus")


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rule settings (RULES.md; defaults are the FCG's)")
    for name in _RULE_OPTIONS:
        group.add_argument("--" + name.replace("_", "-"), type=int, dest=name,
                           default=getattr(DEFAULT_RULES, name),
                           help=f"default {getattr(DEFAULT_RULES, name)}")
    group.add_argument("--draw-rule", choices=[rule.value for rule in DrawRule],
                       default=DEFAULT_RULES.draw_rule.value)


def _rules_from(args: argparse.Namespace) -> Rules:
    return DEFAULT_RULES.replace(draw_rule=args.draw_rule,
                                 **{name: getattr(args, name) for name in _RULE_OPTIONS})


# --- analyze ---------------------------------------------------------------------------

def _analyze(line: Mapping[str, Any], args: argparse.Namespace, rules: Rules) -> dict[str, Any]:
    keys = set(line)
    if keys == {"hand"}:
        return _analyze_hand(line["hand"])
    if keys in ({"knocker", "opponent"}, {"knocker", "opponent", "knocker_melds"}):
        return _analyze_knock(line, rules)
    if keys == {"score"}:
        return _analyze_score(line["score"], rules)
    raise RuleError('expected {"hand": [...]}, {"knocker": [...], "opponent": [...]} '
                    f'or {{"score": {{...}}}}, not the keys {sorted(keys)}')


def _analyze_hand(cards: Any) -> dict[str, Any]:
    cards = _card_list(cards, "hand")
    if len(cards) != 11:
        return arrangement_dict(arrange(cards))
    eleven = analyze_eleven(cards)
    return {**arrangement_dict(eleven.arrangement), "big_gin": eleven.big_gin,
            "best_discard": str(eleven.best_discard),
            "deadwood_after_discard": eleven.deadwood_after_discard}


def _analyze_knock(line: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    melds = line.get("knocker_melds")
    if melds is not None:
        if not isinstance(melds, list):
            raise RuleError("knocker_melds must be a list of card lists")
        melds = [_card_list(meld, "a meld") for meld in melds]
    showdown = settle(_card_list(line["knocker"], "knocker"),
                      _card_list(line["opponent"], "opponent"),
                      declarer_melds=melds, rules=rules)
    score = showdown.score
    return {
        "knocker_deadwood": showdown.declarer.deadwood,
        "knocker_melds": [[str(c) for c in meld.cards] for meld in showdown.declarer.melds],
        "knocker_deadwood_cards": [str(c) for c in showdown.declarer.deadwood_cards],
        "opponent_deadwood": showdown.opponent.deadwood,
        "opponent_melds": [[str(c) for c in meld.cards]
                           for meld in showdown.opponent.arrangement.melds],
        "opponent_deadwood_cards": [str(c) for c in showdown.opponent.arrangement.deadwood_cards],
        "layoffs": [{"card": str(layoff.card), "meld": [str(c) for c in layoff.meld.cards]}
                    for layoff in showdown.opponent.layoffs],
        "outcome": score.outcome.value,
        "points": {"knocker": score.declarer_points, "opponent": score.opponent_points},
        "explanation": score.explanation,
    }


_SCORE_KEYS = {"outcome", "declarer_deadwood", "opponent_deadwood", "false_knock"}


def _analyze_score(entry: Any, rules: Rules) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise RuleError('"score" must be an object such as {"outcome": "knock", ...}')
    unknown = set(entry) - _SCORE_KEYS
    if unknown:
        raise RuleError(f"unknown score fields {sorted(unknown)}; "
                        f"expected some of {sorted(_SCORE_KEYS)}")
    if "outcome" not in entry:
        raise RuleError("the score needs an outcome")
    false_knock = entry.get("false_knock")
    if false_knock is not None:
        if not isinstance(false_knock, dict) or set(false_knock) != {"by", "deadwood"}:
            raise RuleError('false_knock must be {"by": "opponent", "deadwood": n}')
        false_knock = FalseKnock(false_knock["by"], false_knock["deadwood"])
    score = score_hand(entry["outcome"], entry.get("declarer_deadwood"),
                       entry.get("opponent_deadwood"), rules=rules, false_knock=false_knock)
    return {
        "winner": None if score.winner is None else score.winner.value,
        "points": {"declarer": score.declarer_points, "opponent": score.opponent_points},
        "outcome": score.outcome.value,
        "explanation": score.explanation,
    }


def _card_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list):
        raise RuleError(f"{what} must be a list of cards such as [\"AS\", \"TD\"]")
    return value


# --- simulate --------------------------------------------------------------------------

def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dealer", default="greedy", help="dealer's strategy if a line has none")
    parser.add_argument("--non-dealer", default="greedy",
                        help="non-dealer's strategy if a line has none")


def _simulate(line: Mapping[str, Any], args: argparse.Namespace, rules: Rules) -> dict[str, Any]:
    unknown = set(line) - {"box", "dealer", "non_dealer"}
    if unknown or "box" not in line:
        raise RuleError('expected {"box": [52 cards], "dealer": ..., "non_dealer": ...}')
    record = play_box(_card_list(line["box"], "box"), line.get("dealer", args.dealer),
                      line.get("non_dealer", args.non_dealer), rules)
    return record.to_dict()


register(Subcommand("analyze", "deadwood, melds, best discard, lay-offs and hand scores",
                    _analyze))


# --- deals -----------------------------------------------------------------------------

def _deals_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--key", required=True, help="the revealed tournament key, 64 hex digits")
    parser.add_argument("--stage", type=int, default=1, help="the stage's order (default 1)")
    parser.add_argument("--round", type=int, required=True, help="the round in the stage")
    parser.add_argument("--hands", default=str(DEFAULT_RULES.hands_per_match),
                        help="hands 1 to N (default 8), or a range such as 9-10")
    parser.add_argument("--sets", default="1",
                        help="deal sets 1 to N (1 for the whole field, or the number of "
                             "matches), or a range such as 5-5")
    parser.add_argument("--reserve", type=int, default=0,
                        help="0 for the original deals (default), 1, 2, … for reserve deals")
    parser.add_argument("--public-value", default="",
                        help="the public value mixed into the deals, if there was one")


def _deals(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    key = parse_key(args.key)
    if args.stage < 1 or args.round < 1 or args.reserve < 0:
        raise RuleError("--stage and --round are numbered from 1, --reserve from 0")
    block = DealBlock(args.stage, args.round, args.reserve, parse_span(args.sets, "sets"),
                      parse_span(args.hands, "hands"))
    for place, deal in deals_of_block(key, block, public_value=args.public_value):
        yield deal_record(place, deal)


register(Subcommand("deals", "re-create every deal of a round from the revealed key "
                    "(docs/deals.md)", None, _deals_arguments, produce=_deals))
register(Subcommand("simulate", "play boxes between two bots and print every turn",
                    _simulate, _simulate_arguments))


# --- standings -------------------------------------------------------------------------

def _standings(document: Any, args: argparse.Namespace, rules: Rules,
               ) -> Iterable[dict[str, Any]]:
    event = read_event(document, rules)
    for row in event.standings():
        yield {"rank": row.rank, "team": row.team, "match_points": row.match_points,
               "small_points": row.small_points, "wins": row.totals.wins,
               "gins": row.totals.gins, "separated_by": row.separated_by}


register(Subcommand("standings", "rank teams from one JSON document of results "
                    "(docs/engine.md)", None, document=_standings))


# --- the driver ------------------------------------------------------------------------

def answer_lines(answer: Callable[[Mapping[str, Any]], dict[str, Any]], lines: TextIO,
                 out: TextIO) -> int:
    """Answer JSON lines one by one; returns how many lines got an error."""
    errors = 0
    for text in lines:
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            if not isinstance(line, dict):
                raise RuleError("each line must be a JSON object")
            reply = answer(line)
        except json.JSONDecodeError as error:
            reply, errors = {"error": f"not JSON: {error}"}, errors + 1
        except (RuleError, ValueError, TypeError) as error:
            # RuleError is the expected case; the others only guard "the rest goes on".
            reply, errors = {"error": str(error)}, errors + 1
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()  # callers may hold a pipe open and wait for each answer
    return errors


def _answer_document(subcommand: Subcommand, args: argparse.Namespace, rules: Rules,
                     stdin: TextIO, out: TextIO) -> int:
    """One JSON document in, JSON lines out; a mistake gives one error line and exit 2."""
    try:
        document = json.loads(stdin.read())
        lines = list(subcommand.document(document, args, rules))
    except json.JSONDecodeError as error:
        out.write(json.dumps({"error": f"not JSON: {error}"}) + "\n")
        return 2
    except RuleError as error:
        out.write(json.dumps({"error": str(error)}, ensure_ascii=False) + "\n")
        return 2
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="The Duplicate Gin rules engine: JSON lines in, JSON lines out.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for subcommand in SUBCOMMANDS.values():
        sub = subparsers.add_parser(subcommand.name, help=subcommand.help,
                                    description=subcommand.help)
        sub.set_defaults(subparser=sub)
        _add_rule_options(sub)
        subcommand.add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = _rules_from(args)
    except RuleError as error:
        args.subparser.error(str(error))
    subcommand = SUBCOMMANDS[args.command]
    out = stdout or sys.stdout
    if subcommand.document is not None:
        return _answer_document(subcommand, args, rules, stdin or sys.stdin, out)
    if subcommand.produce is not None:
        try:
            for record in subcommand.produce(args):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        except RuleError as error:
            args.subparser.error(str(error))
        return 0
    answer_lines(lambda line: subcommand.answer(line, args, rules),
                 stdin or sys.stdin, stdout or sys.stdout)
    return 0
