"""Per-tournament rule settings (RULES.md: every value marked "setting").

A tournament's settings travel through the engine as one immutable ``Rules`` value, never
as globals. The defaults are the FCG defaults of RULES.md.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import TypeVar

from scoring.errors import Phrase, RuleError, gettext_noop
from scoring.tiebreaks import Gins, HeadToHead, Lots, Wins, tiebreak_key

E = TypeVar("E", bound=enum.StrEnum)


class DrawRule(enum.StrEnum):
    """When the stock is exhausted (RULES.md §4). Only the scorecard explanation differs."""

    STOCK_EXHAUSTED = "stock_exhausted"  # FCG: the last stock card may be drawn
    TWO_CARDS_LEFT = "two_cards_left"  # classic: the last two stock cards are never drawn


class DealScope(enum.StrEnum):
    """Which matches of a round play the same boxes (RULES.md §8)."""

    ROUND = "round"  # one deal set for the whole field (default)
    MATCH = "match"  # one deal set per match


# Tiebreaks after match points and small points, in a per-tournament order (§9): the keys
# of the tiebreaks registered in ``scoring.tiebreaks``.
DEFAULT_TIEBREAKS = (HeadToHead.key, Wins.key, Gins.key, Lots.key)

# The ranges a setting may take (the settings form and the database use the same).
HANDS_PER_MATCH_RANGE = (1, 64)
KNOCK_LIMIT_RANGE = (1, 99)
KNOCKOUT_TIEBREAK_HANDS_RANGE = (1, 16)
# What a setting's errors call it.
_DRAW_RULE = Phrase(gettext_noop("draw rule"))
_DEAL_SCOPE = Phrase(gettext_noop("deal scope"))
_SETTING_NAMES = {
    "knock_bonus": Phrase(gettext_noop("knock bonus")),
    "gin_bonus": Phrase(gettext_noop("gin bonus")),
    "undercut_bonus": Phrase(gettext_noop("undercut bonus")),
    "big_gin_bonus": Phrase(gettext_noop("big gin bonus")),
    "small_points_bye": Phrase(gettext_noop("small points bye")),
    "small_points_forfeit": Phrase(gettext_noop("small points forfeit")),
    "lateness_limit_minutes": Phrase(gettext_noop("lateness limit minutes")),
    "field_minimum_hands": Phrase(gettext_noop("field minimum hands")),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every rule value a tournament may set, with the RULES.md defaults."""

    hands_per_match: int = 8
    knock_limit: int = 10
    knock_bonus: int = 15
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int = 35
    draw_rule: DrawRule = DrawRule.STOCK_EXHAUSTED
    match_points_win: int = 3
    match_points_tie: int = 2
    match_points_loss: int = 1
    match_points_bye: int = 2
    small_points_bye: int = 0
    match_points_forfeit_win: int = 3
    match_points_forfeit_loss: int = 0
    small_points_forfeit: int = 0
    deal_scope: DealScope = DealScope.ROUND
    knockout_tiebreak_hands: int = 2
    lateness_limit_minutes: int = 15
    # Hands a player needs for the individual ranking against the field (RULES.md §12).
    field_minimum_hands: int = 8
    tiebreaks: tuple[str, ...] = field(default=DEFAULT_TIEBREAKS)

    def __post_init__(self) -> None:
        # Coerce plain values (from a form, JSON or a database row) into the enums.
        object.__setattr__(self, "draw_rule", _enum(DrawRule, self.draw_rule, _DRAW_RULE))
        object.__setattr__(self, "deal_scope", _enum(DealScope, self.deal_scope, _DEAL_SCOPE))
        tiebreaks = tuple(tiebreak_key(t) for t in self.tiebreaks)
        object.__setattr__(self, "tiebreaks", tiebreaks)
        self._check()

    def _check(self) -> None:
        low, high = HANDS_PER_MATCH_RANGE
        if not low <= self.hands_per_match <= high:
            raise RuleError(
                gettext_noop("hands per match must be {low} to {high}, not {hands_per_match}"),
                low=low, high=high, hands_per_match=self.hands_per_match)
        low, high = KNOCK_LIMIT_RANGE
        if not low <= self.knock_limit <= high:
            raise RuleError(
                gettext_noop("knock limit must be {low} to {high}, not {knock_limit}"),
                low=low, high=high, knock_limit=self.knock_limit)
        for name in ("knock_bonus", "gin_bonus", "undercut_bonus", "big_gin_bonus",
                     "small_points_bye", "small_points_forfeit", "lateness_limit_minutes",
                     "field_minimum_hands"):
            if getattr(self, name) < 0:
                raise RuleError(
                    gettext_noop("{what} cannot be negative"),
                    what=_SETTING_NAMES[name])
        if not (self.match_points_win > self.match_points_tie > self.match_points_loss >= 0):
            raise RuleError(gettext_noop("match points must rank win > tie > loss >= 0"))
        if self.match_points_bye < 0 or self.match_points_forfeit_loss < 0:
            raise RuleError(gettext_noop("match points for a bye or a forfeit cannot be negative"))
        if self.match_points_forfeit_win < self.match_points_forfeit_loss:
            raise RuleError(
                gettext_noop("a forfeit win cannot earn fewer match points than the loss"))
        low, high = KNOCKOUT_TIEBREAK_HANDS_RANGE
        if not low <= self.knockout_tiebreak_hands <= high:
            raise RuleError(
                gettext_noop("extra hands for a tied knockout match must be {low} to {high}"),
                low=low, high=high)
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise RuleError(gettext_noop("a tiebreak may appear only once in the order"))

    def replace(self, **changes: object) -> Rules:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, object]:
        """Every setting as plain JSON values (how a round keeps the rules it was drawn
        under)."""
        values: dict[str, object] = {}
        for setting in dataclasses.fields(self):
            value = getattr(self, setting.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            values[setting.name] = value
        return values

    @classmethod
    def from_dict(cls, values: dict[str, object]) -> Rules:
        """The rules back from ``to_dict``. A setting missing from an older record takes
        its default (what the software did before the setting existed); an unknown one is
        an error, never silently dropped."""
        if not isinstance(values, dict):
            raise RuleError(gettext_noop("rule settings must be an object of setting: value"))
        known = {setting.name for setting in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise RuleError(
                gettext_noop("unknown rule settings: {settings}"),
                settings=', '.join(unknown))
        values = dict(values)
        if "tiebreaks" in values:
            values["tiebreaks"] = tuple(values["tiebreaks"])  # type: ignore[arg-type]
        try:
            return cls(**values)  # type: ignore[arg-type]
        except TypeError as error:
            raise RuleError(
                gettext_noop("bad rule settings: {error}"),
                error=error) from None


def _enum(kind: type[E], value: object, what: str) -> E:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise RuleError(
            gettext_noop("unknown {what} {value!r}; expected one of: {choices}"),
            what=what, value=value, choices=choices) from None


DEFAULT_RULES = Rules()
