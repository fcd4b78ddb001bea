"""The duplicate rating: a player's skill measured against the field on the same cards.

docs/ratings.md gives the method with its formulas, parameters and reasons; in short:

- A player's **skill** ``θ`` is in points per hand: what the player is expected to score on
  a hand above an average player, against an average opponent, on average cards. The
  published rating is ``BASE + SCALE·θ``, its deviation ``SCALE·sd`` (sd: the square root
  of the variance).
- The hands are taken **one date at a time** (a rating period), so the order of events on
  one date never matters. Before a date, each player's skill is known as a mean and a
  variance (a newcomer's is ``0`` with ``INITIAL_SD²``); the variance grows with the days
  since the player last played, never beyond a newcomer's.
- On a date, each box's **datum** is the dealer seat's result at the field's tables
  (docs/rules.md §12: the mean, without the single highest and lowest result from 8
  tables on), **adjusted for who sat there**: the datum minus the mean skill difference of
  the dealers and non-dealers at those tables. A hand then says
  ``points − adjusted datum ≈ θ(player) − θ(opponent) + noise(HAND_SD)``.
- The skills of the date are the best fit of those equations with each player's prior
  (a ridge least-squares fit; Gauss–Seidel, the adjusted datums and the skills in turn,
  until nothing moves by ``TOLERANCE``). The variance after the date is the prior's
  combined with the hands' information; a hand on a box that k tables played carries
  ``1 − 1/k`` of a hand's information (a box one table played alone tells nothing: there is
  no field to compare with).

Pure and deterministic: the hands are sorted before use, so the same hands give the same
list whatever their order. Nothing here knows of Django.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from scoring.errors import RuleError
from scoring.field import TRIM_FROM


@dataclass(frozen=True, slots=True)
class Parameters:
    base: float = 1500.0  # the rating of an average player
    scale: float = 10.0  # rating points per point a hand of skill
    initial_sd: float = 5.0  # points a hand: the spread of skill among newcomers
    hand_sd: float = 30.0  # points: the noise of one hand's result against the datum
    drift_per_day: float = 0.1  # points a hand: how fast an absent player's skill is unknown
    provisional_hands: int = 100  # fewer hands than this: provisional
    tolerance: float = 1e-6  # points a hand: the fit stops when no skill moves by more
    max_sweeps: int = 200


DEFAULT_PARAMETERS = Parameters()


@dataclass(frozen=True, slots=True, order=True)
class RatedHand:
    """One hand as the rating sees it: who held which cards and what the dealer scored."""

    date: dt.date
    event: str
    box: str  # hands with the same box (on the same date) were played on the same cards
    dealer: str
    non_dealer: str
    dealer_points: int  # the non-dealer scored the negative; a draw is 0

    def __post_init__(self) -> None:
        if self.dealer == self.non_dealer:
            raise RuleError(f"{self.dealer!r} cannot play against themselves")


@dataclass(frozen=True, slots=True)
class Skill:
    """What is known of one player after some dates: the state the next date starts from."""

    mean: float  # points a hand
    variance: float  # points² a hand
    hands: int
    last_played: dt.date


@dataclass(frozen=True, slots=True)
class Rating:
    player: str
    rating: float
    deviation: float
    hands: int
    provisional: bool
    last_played: dt.date

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "rating": round(self.rating, 1),
                "deviation": round(self.deviation, 1), "hands": self.hands,
                "provisional": self.provisional}


def rate(hands: Iterable[RatedHand], *, as_of: dt.date | None = None,
         start: Mapping[str, Skill] | None = None,
         parameters: Parameters = DEFAULT_PARAMETERS) -> list[Rating]:
    """Every player's rating from the hands up to ``as_of`` (all when None), best first.

    ``start`` is what was known before the first of these hands (``skills_by_date``'s state
    at an earlier date), so a caller may rate only the dates after it.
    """
    skills, last_date = dict(start or {}), None
    for last_date, after in skills_by_date(hands, as_of=as_of, start=start,  # noqa: B007
                                           parameters=parameters):
        skills = after
    on = as_of or last_date or max((s.last_played for s in skills.values()), default=None)
    return ratings_of(skills, on, parameters) if on is not None else []


def skills_by_date(hands: Iterable[RatedHand], *, as_of: dt.date | None = None,
                   start: Mapping[str, Skill] | None = None,
                   parameters: Parameters = DEFAULT_PARAMETERS,
                   ) -> Iterable[tuple[dt.date, dict[str, Skill]]]:
    """The skills after each date, in date order: one (date, every player's skill so far)."""
    skills = dict(start or {})
    by_date: dict[dt.date, list[RatedHand]] = defaultdict(list)
    for hand in hands:
        if as_of is None or hand.date <= as_of:
            by_date[hand.date].append(hand)
    for date in sorted(by_date):
        skills = {**skills, **_rate_date(date, sorted(by_date[date]), skills, parameters)}
        yield date, skills


def ratings_of(skills: Mapping[str, Skill], on: dt.date,
               parameters: Parameters = DEFAULT_PARAMETERS) -> list[Rating]:
    """The published list on a date, best first (ties by player, for a stable order)."""
    rows = [
        Rating(player, parameters.base + parameters.scale * skill.mean,
               parameters.scale * math.sqrt(_variance_on(skill, on, parameters)),
               skill.hands, skill.hands < parameters.provisional_hands, skill.last_played)
        for player, skill in skills.items()
    ]
    rows.sort(key=lambda row: (-round(row.rating, 6), row.player))
    return rows


def _variance_on(skill: Skill, date: dt.date, parameters: Parameters) -> float:
    """The variance grows with the days away, up to a newcomer's."""
    days = max((date - skill.last_played).days, 0)
    return min(skill.variance + parameters.drift_per_day ** 2 * days,
               max(parameters.initial_sd ** 2, skill.variance))


def _rate_date(date: dt.date, hands: list[RatedHand], skills: Mapping[str, Skill],
               parameters: Parameters) -> dict[str, Skill]:
    """The skills of the players of one date after its hands (the fit of the docstring)."""
    players = sorted({hand.dealer for hand in hands} | {hand.non_dealer for hand in hands})
    index = {player: number for number, player in enumerate(players)}
    prior_mean, prior_precision = [], []
    for player in players:
        known = skills.get(player)
        if known is None:
            prior_mean.append(0.0)
            prior_precision.append(1 / parameters.initial_sd ** 2)
        else:
            prior_mean.append(known.mean)
            prior_precision.append(1 / _variance_on(known, date, parameters))

    boxes = _boxes(hands, index)
    noise_precision = 1 / parameters.hand_sd ** 2
    # A player's hands: (box number, +1 as dealer or −1 as non-dealer, points, opponent).
    played: list[list[tuple[int, int, int, int]]] = [[] for _ in players]
    information = [0.0] * len(players)
    for number, box in enumerate(boxes):
        weight = 1 - 1 / len(box.kept)
        for dealer, non_dealer, points in box.tables:
            played[dealer].append((number, 1, points, non_dealer))
            played[non_dealer].append((number, -1, -points, dealer))
            information[dealer] += weight
            information[non_dealer] += weight

    theta = list(prior_mean)
    for _ in range(parameters.max_sweeps):
        adjusted = [box.datum - sum(theta[d] - theta[n] for d, n, _ in box.kept) / len(box.kept)
                    for box in boxes]
        moved = 0.0
        for player, hands_played in enumerate(played):
            # y = points − the seat's adjusted datum + the opponent's skill, per hand.
            total = sum(points - sign * adjusted[number] + theta[opponent]
                        for number, sign, points, opponent in hands_played)
            precision = prior_precision[player] + len(hands_played) * noise_precision
            new = (prior_precision[player] * prior_mean[player]
                   + total * noise_precision) / precision
            moved = max(moved, abs(new - theta[player]))
            theta[player] = new
        if moved < parameters.tolerance:
            break

    counts = defaultdict(int)
    for hand in hands:
        counts[hand.dealer] += 1
        counts[hand.non_dealer] += 1
    result = {}
    for player, number in index.items():
        known = skills.get(player)
        variance = 1 / (prior_precision[number] + information[number] * noise_precision)
        result[player] = Skill(theta[number], variance,
                               (known.hands if known else 0) + counts[player], date)
    return result


@dataclass(frozen=True, slots=True)
class _Box:
    datum: float  # the dealer seat's datum (docs/rules.md §12)
    tables: list[tuple[int, int, int]]  # (dealer, non-dealer, dealer's points), every table
    kept: list[tuple[int, int, int]]  # the tables the datum counts


def _boxes(hands: list[RatedHand], index: Mapping[str, int]) -> list[_Box]:
    tables: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for hand in hands:
        tables[hand.box].append((index[hand.dealer], index[hand.non_dealer],
                                 hand.dealer_points))
    boxes = []
    for box in sorted(tables):
        played = tables[box]
        kept = played
        if len(played) >= TRIM_FROM:
            # The single highest and the single lowest result are left out (as the datum).
            by_points = sorted(played, key=lambda table: table[2])
            kept = by_points[1:-1]
        boxes.append(_Box(sum(table[2] for table in kept) / len(kept), played, kept))
    return boxes


def with_parameters(**changes: float) -> Parameters:
    """The default parameters with some changed (the command line's options)."""
    return replace(DEFAULT_PARAMETERS, **changes)
