"""Pairing one Swiss bracket: a score group plus the teams floating into it from above.

Inside a bracket the idea is the FIDE Dutch system's: floaters from above meet the best
residents, then the top half meets the bottom half (1 v n/2+1, 2 v n/2+2, …); when that
is a rematch the nearest alternative is tried, and the fewest possible teams, the
lowest-ranked if it can be, float on down to the next bracket.

Every pair is committed through the matching oracle, which refuses any pair that would
leave the teams still unpaired (in this bracket and below) without a legal pairing. So
the search only ever backtracks over the bracket's own goal (how few floaters), and that
search has a budget: past it, the bracket is paired greedily, which always succeeds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.pairing.matching import MatchingOracle

# Budgets in the oracle's units of effort (one unit: one step of an inner loop; a few
# million take well under a second). Ordinary rounds spend a few thousand in all; only
# fields where most teams have met most others come near these.
BRACKET_EFFORT = 300_000
LOOKAHEAD_EFFORT = 30_000  # the pickier first try: floaters able to meet the next group
TOTAL_EFFORT = 3_000_000  # past this, every remaining bracket is paired greedily
# Greedy pairing tries this many preferred partners, then the oracle's own choice.
GREEDY_TRIES = 3

FLOATS = None  # the option of floating down instead of taking a partner
UNDECIDED = -1

Pairs = list[tuple[int, int]]


@dataclass
class Bracket:
    downfloaters: list[int]  # positions in pairing order, best first
    residents: list[int]
    below: list[int]  # the next score group; empty for the last bracket
    barred: list[frozenset[int]]  # barred[t]: the teams t has met
    oracle: MatchingOracle

    def pair(self) -> tuple[Pairs, list[int]]:
        """The bracket's pairs, and the teams that float on to the next bracket."""
        order = self.downfloaters + self.residents
        if self.below and self.oracle.effort < TOTAL_EFFORT:
            found = self._search(order)
            if found is not None:
                return found
        # The last bracket needs no search: nothing may float out of it, and the oracle
        # leads straight to a complete pairing.
        return _greedy(order, set(self.downfloaters), self.oracle, may_float=bool(self.below))

    def _search(self, order: list[int]) -> tuple[Pairs, list[int]] | None:
        """Fewest floaters first; for each count, floaters that can meet the next group."""
        oracle = self.oracle
        stop = min(oracle.effort + BRACKET_EFFORT, TOTAL_EFFORT)
        fewest = len(order) - 2 * self._most_pairs_inside(order)
        for count in range(fewest, len(order) + 1, 2):
            for can_float, limit in ((self._can_meet_below, LOOKAHEAD_EFFORT),
                                     (_anyone, BRACKET_EFFORT)):
                search = _Search(order, set(self.downfloaters), count, can_float, oracle)
                found = search.run(stop=min(stop, oracle.effort + limit))
                if found is not None:
                    return found
                if oracle.effort >= stop:
                    return None
        return None

    def _most_pairs_inside(self, order: list[int]) -> int:
        """How many pairs the bracket could make by itself, whatever happens below it.

        Fewer floaters than this allows cannot work, so the search skips those counts
        instead of exhausting its budget on them.
        """
        position = {team: i for i, team in enumerate(order)}
        barred_inside = [
            frozenset(position[other] for other in self.barred[team] if other in position)
            for team in order
        ]
        inside = MatchingOracle(barred_inside, range(len(order)))
        self.oracle.spend(inside.effort + len(order))
        return (len(order) - inside.unmatched) // 2

    def _can_meet_below(self, team: int) -> bool:
        return any(self.oracle.may_meet(team, other) for other in self.below)


def preferences(top: int, remaining: list[int], downfloaters: set[int]) -> list[int]:
    """The partners ``top`` (remaining[0]) should meet, best first."""
    rest = remaining[1:]
    if top in downfloaters:
        # A floater meets the best residents first, other floaters after them.
        return [t for t in rest if t not in downfloaters] + [t for t in rest if t in downfloaters]
    # Only residents are left: top half v bottom half, then upwards from the middle.
    half = len(remaining) // 2
    return remaining[half:] + remaining[half - 1:0:-1]


def _anyone(_team: int) -> bool:
    return True


def _greedy(order: list[int], downfloaters: set[int], oracle: MatchingOracle, *,
            may_float: bool) -> tuple[Pairs, list[int]]:
    """Each team takes the first of a few preferred partners the oracle allows, else the
    partner the oracle's matching gives it here, else floats. Never fails, never loops."""
    pairs: Pairs = []
    floaters: list[int] = []
    done: set[int] = set()
    for top in order:
        if top in done:
            continue
        remaining = [t for t in order if t not in done]
        oracle.spend(len(remaining))
        wanted = [t for t in preferences(top, remaining, downfloaters) if oracle.may_meet(top, t)]
        partner = next((t for t in wanted[:GREEDY_TRIES] if oracle.take_pair(top, t)), None)
        if partner is None:
            fallback = oracle.partner(top)
            if fallback in remaining and oracle.take_pair(top, fallback):
                partner = fallback
        if partner is None:
            if not may_float:
                raise AssertionError("the oracle's matching pairs the last bracket")
            floaters.append(top)
            done.add(top)
        else:
            pairs.append((top, partner))
            done.update((top, partner))
    return pairs, floaters


@dataclass
class _Frame:
    top: int  # the best team still unpaired in the bracket
    options: list[int | None]  # its partners to try in turn, or FLOATS
    tried: int = 0
    chosen: int | None = UNDECIDED


class _Search:
    """Depth-first over the bracket's choices, in order of preference, for a pairing with
    exactly the planned number of floaters."""

    def __init__(self, order: list[int], downfloaters: set[int], floats: int,
                 can_float: Callable[[int], bool], oracle: MatchingOracle) -> None:
        self.order = order
        self.downfloaters = downfloaters
        self.floats_left = floats
        self.can_float = can_float
        self.oracle = oracle
        self.done: set[int] = set()
        self.pairs: Pairs = []
        self.floaters: list[int] = []

    def run(self, stop: int) -> tuple[Pairs, list[int]] | None:
        """The first such pairing in order of preference; None when there is none or the
        oracle's effort reaches ``stop`` first (then nothing stays committed)."""
        frames: list[_Frame] = []
        while True:
            remaining = [team for team in self.order if team not in self.done]
            if not remaining:
                return self.pairs, self.floaters
            self.oracle.spend(len(remaining))
            frames.append(_Frame(remaining[0], self._options(remaining)))
            while not self._advance(frames[-1], stop):
                frames.pop()
                if not frames or self.oracle.effort >= stop:
                    self._unwind(frames)
                    return None
                self._undo(frames[-1])

    def _options(self, remaining: list[int]) -> list[int | None]:
        top = remaining[0]
        options: list[int | None] = []
        if len(remaining) > self.floats_left:  # a pair still leaves room for the floaters
            candidates = preferences(top, remaining, self.downfloaters)
            options += [t for t in candidates if self.oracle.may_meet(top, t)]
        if self.floats_left and self.can_float(top):
            options.append(FLOATS)
        return options

    def _advance(self, frame: _Frame, stop: int) -> bool:
        top = frame.top
        while frame.tried < len(frame.options) and self.oracle.effort < stop:
            partner = frame.options[frame.tried]
            frame.tried += 1
            if partner is FLOATS:
                self.floats_left -= 1
                self.floaters.append(top)
                self.done.add(top)
            elif self.oracle.take_pair(top, partner):
                self.pairs.append((top, partner))
                self.done.update((top, partner))
            else:
                continue
            frame.chosen = partner
            return True
        return False

    def _undo(self, frame: _Frame) -> None:
        top, partner = frame.top, frame.chosen
        frame.chosen = UNDECIDED
        if partner is FLOATS:
            self.floats_left += 1
            self.floaters.pop()
            self.done.discard(top)
        else:
            self.oracle.give_back_pair(top, partner)
            self.pairs.pop()
            self.done.difference_update((top, partner))

    def _unwind(self, frames: list[_Frame]) -> None:
        for frame in reversed(frames):
            if frame.chosen != UNDECIDED:
                self._undo(frame)
