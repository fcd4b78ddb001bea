"""The score of one hand from its recorded result (RULES.md §6–7).

This is the entry point for results a scorer types in: the outcome, the declarer's
deadwood and the opponent's deadwood after lay-offs, and a false knock if there was one.
Scoring from the actual cards (lay-offs worked out by the engine) is ``showdown.settle``,
which ends here too.

Entry decisions, so that a slip at the table is caught rather than scored:

- the declaration is ``knock``, ``gin``, ``big_gin`` or ``draw``; ``undercut`` is accepted
  as a knock whose deadwoods must make it one;
- ``gin`` and ``big_gin`` need deadwood 0 (or none given). A claimed gin with deadwood
  within the knock limit is entered as the knock it is; above the limit it is a false knock;
- a knock needs deadwood 1 to the knock limit; above the limit it must be recorded as a
  false knock, and then only the opponent may declare later, or the hand is a draw;
- a draw takes no deadwood.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any

from scoring.errors import Phrase, RuleError, gettext_noop
from scoring.explain import explain
from scoring.rules import DEFAULT_RULES, DrawRule, Rules

# No arrangement leaves three cards of one rank unmelded, so at most two of each rank are
# deadwood: two each of 10 J Q K and two nines.
MAX_DEADWOOD = 2 * (10 + 10 + 10 + 10 + 9)


class Outcome(enum.StrEnum):
    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DRAW = "draw"

    @property
    def label(self) -> str:
        return {"big_gin": "Big Gin"}.get(self.value, self.value.capitalize())


class Addend(enum.StrEnum):
    """What a hand's winner gets on top of the outcome's bonus (RULES.md §6)."""

    DIFFERENCE = "difference"  # the difference of the two deadwoods (knock, undercut)
    OPPONENT_DEADWOOD = "opponent_deadwood"  # the loser's deadwood (gin, Big Gin)
    NOTHING = "nothing"  # a draw scores nothing


@dataclass(frozen=True, slots=True)
class Formula:
    """How an outcome scores under a tournament's rules: the one statement of §6 that the
    score (``score_hand``) and the scorecard's legend both follow."""

    outcome: Outcome
    bonus: int
    plus: Addend

    def points(self, declarer_deadwood: int, opponent_deadwood: int) -> int:
        """The winner's points, from the two deadwoods (after lay-offs)."""
        if self.plus is Addend.DIFFERENCE:
            return self.bonus + abs(opponent_deadwood - declarer_deadwood)
        if self.plus is Addend.OPPONENT_DEADWOOD:
            return self.bonus + opponent_deadwood
        return self.bonus


def formula(outcome: Outcome | str, rules: Rules = DEFAULT_RULES) -> Formula:
    # Only the outcome's own formula is made: every hand scored asks for one.
    outcome = Outcome(outcome)
    if outcome is Outcome.KNOCK:
        return Formula(outcome, rules.knock_bonus, Addend.DIFFERENCE)
    if outcome is Outcome.UNDERCUT:
        return Formula(outcome, rules.undercut_bonus, Addend.DIFFERENCE)
    if outcome is Outcome.GIN:
        return Formula(outcome, rules.gin_bonus, Addend.OPPONENT_DEADWOOD)
    if outcome is Outcome.BIG_GIN:
        return Formula(outcome, rules.big_gin_bonus, Addend.OPPONENT_DEADWOOD)
    return Formula(outcome, 0, Addend.NOTHING)


def formulas(rules: Rules = DEFAULT_RULES) -> tuple[Formula, ...]:
    """Every outcome's formula, in the order of ``Outcome``."""
    return tuple(formula(outcome, rules) for outcome in Outcome)


class Party(enum.StrEnum):
    """The two players of a hand as the score sees them."""

    DECLARER = "declarer"
    OPPONENT = "opponent"

    @property
    def other(self) -> Party:
        return Party.OPPONENT if self is Party.DECLARER else Party.DECLARER


@dataclass(frozen=True, slots=True)
class FalseKnock:
    """A knock above the knock limit, with the deadwood the referee recorded (§7)."""

    by: Party
    deadwood: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "by",
                           _choice(Party, self.by, Phrase(gettext_noop("false knocker")),
                                   "false_knock_seat"))


@dataclass(frozen=True, slots=True)
class HandScore:
    """The result of a hand; the points are zero-sum."""

    outcome: Outcome  # knock, undercut, gin, big_gin or draw: what actually happened
    winner: Party | None
    declarer_points: int
    opponent_points: int
    declarer_deadwood: int | None
    opponent_deadwood: int | None
    false_knock: FalseKnock | None = None
    draw_rule: DrawRule | None = None  # a draw's: its line says which draw it was

    @property
    def explanation(self) -> str:
        """One line for the scorecard: "Knock 4 vs 12: 15 + 8 = 23" (``scoring.explain``).
        Worked out when asked for: a whole event's standings score every hand and read no
        line (``python -m scoring standings``)."""
        return explain(self.outcome, self.declarer_deadwood, self.opponent_deadwood,
                       self.declarer_points,
                       draw_rule=self.draw_rule or DrawRule.STOCK_EXHAUSTED,
                       false_knock_deadwood=self.false_knock.deadwood if self.false_knock
                       else None)

    def points(self, party: Party | str) -> int:
        party = Party(party)
        return self.declarer_points if party is Party.DECLARER else self.opponent_points

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "winner": self.winner,
                "declarer_points": self.declarer_points,
                "opponent_points": self.opponent_points,
                "declarer_deadwood": self.declarer_deadwood,
                "opponent_deadwood": self.opponent_deadwood,
                "explanation": self.explanation,
                "false_knock": None if self.false_knock is None else asdict(self.false_knock)}


def score_hand(outcome: Outcome | str,
               declarer_deadwood: int | None = None,
               opponent_deadwood: int | None = None,
               *,
               rules: Rules = DEFAULT_RULES,
               false_knock: FalseKnock | None = None) -> HandScore:
    """Score a hand from the declaration and the two deadwood counts.

    ``opponent_deadwood`` is after lay-offs (none against gin or Big Gin). If the opponent
    false-knocked earlier, pass ``false_knock`` and leave ``opponent_deadwood`` out (or
    give the same value): his deadwood is the one the referee recorded.
    """
    outcome = _choice(Outcome, outcome, Phrase(gettext_noop("outcome")), "outcome")
    if false_knock is not None:
        opponent_deadwood = _apply_false_knock(false_knock, outcome, opponent_deadwood, rules)
    if outcome is Outcome.DRAW:
        if declarer_deadwood is not None or opponent_deadwood is not None:
            raise RuleError(gettext_noop("a draw records no deadwood; leave both counts empty")
                            ).about("declarer_deadwood" if declarer_deadwood is not None
                                    else "opponent_deadwood")
        return HandScore(Outcome.DRAW, None, 0, 0, None, None, false_knock,
                         DrawRule(rules.draw_rule))
    if opponent_deadwood is None:
        raise RuleError(gettext_noop("the opponent's deadwood is missing")
                        ).about("opponent_deadwood")
    opponent_deadwood = _deadwood(opponent_deadwood,
                                  Phrase(gettext_noop("the opponent's deadwood")),
                                  "opponent_deadwood")
    if outcome in (Outcome.GIN, Outcome.BIG_GIN):
        declarer_deadwood = _gin_deadwood(outcome, declarer_deadwood, rules)
        points = formula(outcome, rules).points(declarer_deadwood, opponent_deadwood)
        return _won(outcome, Party.DECLARER, points, declarer_deadwood, opponent_deadwood,
                    false_knock)
    return _knock(outcome, declarer_deadwood, opponent_deadwood, rules, false_knock)


def _knock(claimed: Outcome, declarer_deadwood: int | None, opponent_deadwood: int,
           rules: Rules, false_knock: FalseKnock | None) -> HandScore:
    if declarer_deadwood is None:
        raise RuleError(gettext_noop("the knocker's deadwood is missing")
                        ).about("declarer_deadwood")
    declarer_deadwood = _deadwood(declarer_deadwood, Phrase(gettext_noop("the knocker's deadwood")),
                                  "declarer_deadwood")
    if declarer_deadwood == 0:
        raise RuleError(gettext_noop("a knock with deadwood 0 is gin; enter it as gin")
                        ).about("declarer_deadwood")
    if declarer_deadwood > rules.knock_limit:
        raise RuleError(
            gettext_noop("a knock with deadwood {declarer_deadwood} is above the knock limit "
                         "{limit}: record it as a false knock"),
            declarer_deadwood=declarer_deadwood, limit=rules.knock_limit
        ).about("declarer_deadwood")
    if declarer_deadwood < opponent_deadwood:
        if claimed is Outcome.UNDERCUT:
            raise RuleError(
                gettext_noop("knock {declarer_deadwood} vs {opponent_deadwood} is not an undercut: "
                             "the knocker has less deadwood"),
                declarer_deadwood=declarer_deadwood, opponent_deadwood=opponent_deadwood
            ).about("outcome")
        points = formula(Outcome.KNOCK, rules).points(declarer_deadwood, opponent_deadwood)
        return _won(Outcome.KNOCK, Party.DECLARER, points, declarer_deadwood,
                    opponent_deadwood, false_knock)
    points = formula(Outcome.UNDERCUT, rules).points(declarer_deadwood, opponent_deadwood)
    return _won(Outcome.UNDERCUT, Party.OPPONENT, points, declarer_deadwood,
                opponent_deadwood, false_knock)


def _won(outcome: Outcome, winner: Party, points: int, declarer_deadwood: int,
         opponent_deadwood: int, false_knock: FalseKnock | None) -> HandScore:
    declarer_points = points if winner is Party.DECLARER else -points
    return HandScore(outcome, winner, declarer_points, -declarer_points,
                     declarer_deadwood, opponent_deadwood, false_knock)


def _gin_deadwood(outcome: Outcome, deadwood: int | None, rules: Rules) -> int:
    if deadwood is None:
        return 0
    deadwood = _deadwood(deadwood, Phrase(gettext_noop("the declarer's deadwood")),
                         "declarer_deadwood")
    if deadwood == 0:
        return 0
    if outcome is Outcome.BIG_GIN:
        raise RuleError(
            gettext_noop("Big Gin has no deadwood, not {deadwood}; all eleven cards must meld"),
            deadwood=deadwood).about("declarer_deadwood")
    if deadwood <= rules.knock_limit:
        raise RuleError(
            gettext_noop("gin has no deadwood; with {deadwood} (within the knock limit {limit}) "
                         "it is a knock: enter it as a knock"),
            deadwood=deadwood, limit=rules.knock_limit).about("declarer_deadwood")
    raise RuleError(
        gettext_noop("gin has no deadwood; with {deadwood} (above the knock limit {limit}) it is "
                     "a false knock"),
        deadwood=deadwood, limit=rules.knock_limit).about("declarer_deadwood")


def _apply_false_knock(false_knock: FalseKnock, outcome: Outcome, opponent_deadwood: int | None,
                       rules: Rules) -> int | None:
    recorded = _deadwood(false_knock.deadwood,
                         Phrase(gettext_noop("the false knock's recorded deadwood")),
                         "false_knock_deadwood")
    if recorded <= rules.knock_limit:
        raise RuleError(
            gettext_noop("a knock with deadwood {recorded} is within the knock limit {limit}: it "
                         "is not a false knock"),
            recorded=recorded, limit=rules.knock_limit).about("false_knock_deadwood")
    if outcome is Outcome.DRAW:
        return opponent_deadwood
    if false_knock.by is Party.DECLARER:
        raise RuleError(
            gettext_noop("the player who false-knocked may not declare later in the same hand")
        ).about("declarer_seat")
    if opponent_deadwood is not None and opponent_deadwood != recorded:
        raise RuleError(
            gettext_noop("the opponent's deadwood is fixed at {recorded}, recorded at his false "
                         "knock, not {opponent_deadwood}"),
            recorded=recorded, opponent_deadwood=opponent_deadwood).about("opponent_deadwood")
    return recorded


def _deadwood(value: object, what: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            gettext_noop("{what} must be a whole number, not {value!r}"),
            what=what, value=value).about(field)
    if not 0 <= value <= MAX_DEADWOOD:
        raise RuleError(
            gettext_noop("{what} must be 0 to {most} (the most ten cards can leave), not "
                         "{value}"),
            what=what, most=MAX_DEADWOOD, value=value).about(field)
    return value


def _choice(kind: type[enum.StrEnum], value: object, what: str, field: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise RuleError(
            gettext_noop("unknown {what} {value!r}; expected one of: {choices}"),
            what=what, value=value, choices=choices).about(field) from None
