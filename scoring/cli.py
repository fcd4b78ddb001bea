"""``python -m scoring``: the rules engine on the command line (DESIGN.md, "The CLI contract").

Every subcommand reads JSON lines on stdin and writes one JSON line per input line on
stdout, in order. A line that cannot be answered gets ``{"error": "..."}`` and the rest go
on; blank lines are skipped. Rule settings come as options (``--knock-limit`` …).

Adding a subcommand is one ``register(Subcommand(...))`` call: a name, a help line, a
function that adds its options, and a function that answers one JSON object.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from scoring.deals import DealBlock, deal_record, deals_of_block, parse_key, parse_span
from scoring.errors import RuleError
from scoring.hand import FalseKnock, score_hand
from scoring.melds import analyze_eleven, arrange
from scoring.ratings import DEFAULT_PARAMETERS, RatedHand, rate, with_parameters
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
    # A subcommand that reads every JSON line first, then prints its answer (``ratings``):
    # ``read()`` makes a reader that turns one line into an item (RuleError for a bad one,
    # answered at once with its line number), ``conclude`` turns the items into JSON lines.
    read: Callable[[], Callable[[Mapping[str, Any]], Any]] | None = None
    conclude: Callable[[list[Any], argparse.Namespace], Iterable[dict[str, Any]]] | None = None


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


# --- ratings ---------------------------------------------------------------------------

_RATING_OPTIONS = ("base", "scale", "initial_sd", "hand_sd", "drift_per_day",
                   "provisional_hands")


def _ratings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--as-of", type=_iso_date, default=None, metavar="DATE",
                        help="rate with the hands up to this date (YYYY-MM-DD); "
                             "the deviations are as on that date")
    group = parser.add_argument_group("rating parameters (docs/ratings.md)")
    for name in _RATING_OPTIONS:
        default = getattr(DEFAULT_PARAMETERS, name)
        group.add_argument("--" + name.replace("_", "-"), type=type(default), default=default,
                           dest="rating_" + name, help=f"default {default:g}")


def _iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date as YYYY-MM-DD") from None


def _rated_hand(line: Mapping[str, Any]) -> RatedHand:
    missing = [key for key in _HAND_KEYS if key not in line]
    if missing:
        raise RuleError(f"missing {', '.join(missing)}")
    texts = {}
    for key in ("event", "box", "dealer", "non_dealer"):
        value = line[key]
        if not isinstance(value, str) or not value.strip():
            raise RuleError(f"{key} must be a non-empty string, not {value!r}")
        texts[key] = value
    date = line["date"]
    try:
        date = dt.date.fromisoformat(date) if isinstance(date, str) else None
    except ValueError:
        date = None
    if date is None or len(line["date"]) != 10:
        raise RuleError(f"date must be a date as YYYY-MM-DD, not {line['date']!r}")
    points = line["dealer_points"]
    if isinstance(points, bool) or not isinstance(points, int):
        raise RuleError(f"dealer_points must be a whole number, not {points!r}")
    return RatedHand(date, texts["event"], texts["box"], texts["dealer"], texts["non_dealer"],
                     points)


_HAND_KEYS = ("event", "date", "box", "dealer", "non_dealer", "dealer_points")


class _RatingReader:
    """Reads hand lines; a player in one box twice on one date is a bad line."""

    def __init__(self) -> None:
        self.seen: set[tuple[dt.date, str, str]] = set()

    def __call__(self, line: Mapping[str, Any]) -> RatedHand:
        hand = _rated_hand(line)
        for player in (hand.dealer, hand.non_dealer):
            if (hand.date, hand.box, player) in self.seen:
                raise RuleError(f"{player} already played box {hand.box} on {hand.date}")
        self.seen.update({(hand.date, hand.box, hand.dealer),
                          (hand.date, hand.box, hand.non_dealer)})
        return hand


def _ratings(hands: list[RatedHand], args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    parameters = with_parameters(**{name: getattr(args, "rating_" + name)
                                    for name in _RATING_OPTIONS})
    for row in rate(hands, as_of=args.as_of, parameters=parameters):
        yield row.to_dict()


register(Subcommand("ratings", "rate players against the field from hand lines "
                    "(docs/ratings.md)", None, _ratings_arguments,
                    read=_RatingReader, conclude=_ratings))


# --- the driver ------------------------------------------------------------------------

def answer_lines(answer: Callable[[Mapping[str, Any]], dict[str, Any]], lines: TextIO,
                 out: TextIO) -> int:
    """Answer JSON lines one by one; returns how many lines got an error."""
    errors = 0
    for _, reply in _replies(answer, lines):
        errors += "error" in reply
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()  # callers may hold a pipe open and wait for each answer
    return errors


def _replies(answer: Callable[[Mapping[str, Any]], Any], lines: TextIO,
             ) -> Iterable[tuple[int, Any]]:
    """(line number, answer or {"error": ...}) for each non-blank line."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            if not isinstance(line, dict):
                raise RuleError("each line must be a JSON object")
            yield number, answer(line)
        except json.JSONDecodeError as error:
            yield number, {"error": f"not JSON: {error}"}
        except (RuleError, ValueError, TypeError) as error:
            # RuleError is the expected case; the others only guard "the rest goes on".
            yield number, {"error": str(error)}


def _answer_gathered(subcommand: Subcommand, args: argparse.Namespace, stdin: TextIO,
                     out: TextIO) -> int:
    """Every line read first (a bad one answered at once, naming its line), then the answer."""
    items = []
    for number, item in _replies(subcommand.read(), stdin):
        if isinstance(item, dict) and "error" in item:
            out.write(json.dumps({"error": f"line {number}: {item['error']}"},
                                 ensure_ascii=False) + "\n")
        else:
            items.append(item)
    for line in subcommand.conclude(items, args):
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0  # as for the line-by-line subcommands: the errors are in the answer


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
    if subcommand.read is not None:
        return _answer_gathered(subcommand, args, stdin or sys.stdin, out)
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
