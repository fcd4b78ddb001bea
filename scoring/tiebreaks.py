"""The criteria that order teams (RULES.md §9): each one class, registered once.

A criterion carries everything the rest of the software says or does with it: its key (what
the tournament's tiebreak order and the command line name), its name in the standings and
its label in the settings form (both marked for translation), its abbreviation, its
direction, how it words one of the two values it compared, and how it computes each tied
team's value. Match points and small points always come first; the tiebreaks are the
classes registered with ``@tiebreak``, and the director orders them. ``Rules`` accepts,
the settings form offers, the standings word and the command line accepts exactly the
registered keys: adding a tiebreak is adding one class here (or anywhere, before use).

Words come in the reader's language through ``words``, an object with ``gettext``,
``ngettext`` and ``pgettext`` (``django.utils.translation`` in the application); without
it, in English (``ENGLISH``), as the command line prints them.
"""

from __future__ import annotations

import abc
import hashlib
import hmac
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

from scoring.errors import Phrase, RuleError, gettext_noop

TeamId = Hashable


class Field(Protocol):
    """What a criterion computes from (``scoring.standings.Field``): each team's totals,
    the matches counted and the seed of the drawing of lots."""

    totals: Mapping[TeamId, Any]
    matches: Sequence[Any]
    lots_seed: bytes

    def matches_among(self, group: Iterable[TeamId]) -> Sequence[Any]:
        """The matches between two teams of the group, in no particular order."""


class Words(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, number: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


class _English:
    """The messages as written (English), for the command line and the engine's own text."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, number: int) -> str:
        return singular if number == 1 else plural

    @staticmethod
    def pgettext(context: str, message: str) -> str:
        return message


ENGLISH: Words = _English()


class Criterion(abc.ABC):
    """A way to order tied teams. ``values`` gives each team of a tied group its value, or
    None when the criterion does not apply to that group (the next one decides)."""

    key: ClassVar[str]
    name: ClassVar[str]  # in the standings: "head-to-head: 5 mp vs 3 mp" (marked message)
    label: ClassVar[str] = ""  # the settings form's choice (marked message)
    abbreviation: ClassVar[str]
    higher_is_better: ClassVar[bool] = True

    @abc.abstractmethod
    def values(self, group: Sequence[TeamId], field_: Field) -> dict[TeamId, Any] | None:
        """Each team of the tied group's value, or None when the criterion passes."""

    def describe(self, value: Any, words: Words = ENGLISH) -> str:
        """One side of a comparison: "5 mp", "+21", "2 wins"."""
        return str(value)


TIEBREAKS: dict[str, type[Criterion]] = {}


def tiebreak(cls: type[Criterion]) -> type[Criterion]:
    """Register a tiebreak: the director may put its key in the tournament's order."""
    if not cls.label:
        raise TypeError(f"tiebreak {cls.__name__} needs a label for the settings form")
    TIEBREAKS[cls.key] = cls
    return cls


def _unknown(key: object) -> RuleError:
    return RuleError(gettext_noop("unknown {what} {value!r}; expected one of: {choices}"),
                     what=Phrase(gettext_noop("tiebreak")), value=key,
                     choices=", ".join(TIEBREAKS))


def tiebreak_key(key: object) -> str:
    """The key of a registered tiebreak (a string, or anything whose ``value`` is one)."""
    text = str(getattr(key, "value", key))
    if text not in TIEBREAKS:
        raise _unknown(key)
    return text


def check_keys(keys: Iterable[object]) -> tuple[str, ...]:
    """The keys of a tiebreak order, each a registered tiebreak at most once."""
    checked = tuple(tiebreak_key(key) for key in keys)
    if len(set(checked)) != len(checked):
        raise RuleError(gettext_noop("a tiebreak may appear only once in the order"))
    return checked


def criterion(key: str) -> Criterion:
    """Any criterion of the standings by its key (match points and small points too)."""
    kind = _FIRST.get(key) or TIEBREAKS.get(key)
    if kind is None:
        raise _unknown(key)
    return kind()


def chain(keys: Iterable[object]) -> list[Criterion]:
    """The criteria in order: match points, small points, then the tiebreaks named."""
    return [MatchPoints(), SmallPoints(), *(TIEBREAKS[key]() for key in check_keys(keys))]


def _mp(value: int, words: Words) -> str:
    return words.pgettext("match points", "{n} mp").format(n=value)


class MatchPoints(Criterion):
    key, abbreviation = "match_points", "MP"
    name = gettext_noop("match points")

    def values(self, group, field_):
        return {team: field_.totals[team].match_points for team in group}

    def describe(self, value, words=ENGLISH):
        return _mp(value, words)


class SmallPoints(Criterion):
    key, abbreviation = "small_points", "SP"
    name = gettext_noop("small points")

    def values(self, group, field_):
        return {team: field_.totals[team].small_points for team in group}

    def describe(self, value, words=ENGLISH):
        return f"{value:+d}" if value else "0"


_FIRST: dict[str, type[Criterion]] = {MatchPoints.key: MatchPoints, SmallPoints.key: SmallPoints}


@tiebreak
class HeadToHead(Criterion):
    """A mini-table of the tied teams' mutual matches (match points, then small points);
    only when every pair of them has met."""

    key, abbreviation = "head_to_head", "H2H"
    name = gettext_noop("head-to-head")
    label = gettext_noop("Head-to-head among the tied teams")

    def values(self, group, field_):
        mutual = field_.matches_among(group)
        met = {frozenset((m.home, m.away)) for m in mutual}
        if any(frozenset((a, b)) not in met for i, a in enumerate(group) for b in group[i + 1:]):
            return None  # not every pair has met: the next tiebreak decides
        table = {team: [0, 0] for team in group}
        for match in mutual:
            for team in (match.home, match.away):
                small, points = match.of(team)
                table[team][0] += points
                table[team][1] += small
        return {team: tuple(value) for team, value in table.items()}

    def describe(self, value, words=ENGLISH):
        points, small = value
        return f"{_mp(points, words)} {small:+d}" if small else _mp(points, words)


@tiebreak
class Wins(Criterion):
    key, abbreviation = "wins", "W"
    name = gettext_noop("match wins")
    label = gettext_noop("Number of match wins")

    def values(self, group, field_):
        return {team: field_.totals[team].wins for team in group}

    def describe(self, value, words=ENGLISH):
        return words.ngettext("{n} win", "{n} wins", value).format(n=value)


@tiebreak
class Gins(Criterion):
    key, abbreviation = "gins", "G"
    name = gettext_noop("gins and Big Gins")
    label = gettext_noop("Number of gins and Big Gins")

    def values(self, group, field_):
        return {team: field_.totals[team].gins for team in group}

    def describe(self, value, words=ENGLISH):
        return words.ngettext("{n} gin", "{n} gins", value).format(n=value)


@tiebreak
class Lots(Criterion):
    key, abbreviation = "lots", "Lot"
    name = gettext_noop("drawing of lots")
    label = gettext_noop("Drawing of lots")

    def values(self, group, field_):
        return {team: lot(field_.lots_seed, team) for team in group}

    def describe(self, value, words=ENGLISH):
        return words.gettext("lot {n}").format(n=f"{value:08x}"[:8])


LOTS = Lots.key


def lot(seed: bytes, team: TeamId) -> int:
    """A team's draw: the same seed and team always give the same number."""
    digest = hmac.digest(seed, f"duplicate-gin/lots|{team}".encode(), hashlib.sha256)
    return int.from_bytes(digest[:8], "big")
