"""Swiss pairing: equal match points meet, nobody meets the same team twice (§11).

The field is paired score group by score group, from the top. A bracket is the score
group plus any teams that floated down from above. Inside a bracket the idea is the FIDE
Dutch system's: floaters from above meet the best residents, then the top half meets the
bottom half (1 v n/2+1, 2 v n/2+2, …); when that is a rematch the nearest alternative is
tried, and the fewest possible teams, the lowest-ranked if it can be, float on down.

Before committing a pair the search asks a perfect-matching oracle (``matching``) whether
everyone still unpaired can still meet someone new. So a legal pairing is found whenever
one exists, the last bracket never backtracks, and the search in a bracket only backtracks
over the bracket's own choices (bounded; past the bound one more team floats).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from scoring.errors import RuleError
from scoring.pairing.matching import MatchingOracle

# Options tried in one bracket before allowing two more floaters. Generous: real brackets
# settle within a few dozen, and the oracle has already ruled out every global dead end.
SEARCH_BUDGET = 20_000
# The first, pickier search (floaters must be able to meet someone in the next group)
# gives up sooner: it only chooses between equally short answers.
LOOKAHEAD_BUDGET = 2_000


@dataclass(frozen=True)
class SwissTeam:
    id: int
    points: int  # match points so far
    rank: int  # 1 = best: the current order, small points included
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    home_count: int = 0  # matches as the home team (listed first)


@dataclass(frozen=True)
class SwissPairing:
    pairs: tuple[tuple[int, int], ...]  # (home id, away id), strongest pairs first
    bye: int | None = None


def swiss_pairing(teams: Sequence[SwissTeam]) -> SwissPairing:
    field_ = _pairing_order(teams)
    barred = _barred(field_)
    oracle = MatchingOracle(barred, range(len(field_)))
    bye = _choose_bye(field_, oracle) if len(field_) % 2 else None
    if oracle.unmatched:
        raise RuleError(
            f"no pairing without a rematch exists for these {len(field_)} teams: "
            "too many of them have already met"
        )
    playing = [i for i in range(len(field_)) if i != bye]
    pairs = _pair_brackets(field_, playing, barred, oracle)
    pairs.sort(key=lambda pair: _board_key(field_, pair))
    return SwissPairing(
        pairs=tuple(_home_first(field_, a, b) for a, b in pairs),
        bye=None if bye is None else field_[bye].id,
    )


# The field ----------------------------------------------------------------------------

def _pairing_order(teams: Sequence[SwissTeam]) -> list[SwissTeam]:
    """Best first. Match points lead even if a caller's rank disagrees."""
    if len(teams) < 2:
        raise RuleError(f"a Swiss round needs at least 2 teams, not {len(teams)}")
    ids = [team.id for team in teams]
    if len(set(ids)) != len(ids):
        raise RuleError("a team appears twice in the Swiss field")
    return sorted(teams, key=lambda team: (-team.points, team.rank, team.id))


def _barred(field_: list[SwissTeam]) -> list[frozenset[int]]:
    """For each team (by position), the positions of the teams it has met.

    Opponents no longer in the field are ignored; a meeting recorded on one side only
    still counts for both.
    """
    position = {team.id: i for i, team in enumerate(field_)}
    met: list[set[int]] = [set() for _ in field_]
    for i, team in enumerate(field_):
        for opponent in team.opponents:
            j = position.get(opponent)
            if j is not None and j != i:
                met[i].add(j)
                met[j].add(i)
    return [frozenset(opponents) for opponents in met]


def _choose_bye(field_: list[SwissTeam], oracle: MatchingOracle) -> int | None:
    """The lowest-ranked team among those with the fewest byes whose absence leaves a
    legal pairing of the rest; failing all of those, the next-fewest byes, and so on."""
    candidates = sorted(range(len(field_)), key=lambda i: (field_[i].byes, -i))
    return next((i for i in candidates if oracle.take_single(i)), None)


# Brackets -----------------------------------------------------------------------------

def _pair_brackets(field_: list[SwissTeam], playing: list[int], barred: list[frozenset[int]],
                   oracle: MatchingOracle) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    groups = [list(group) for _points, group in groupby(playing, key=lambda i: field_[i].points)]
    for residents, below in zip(groups, [*groups[1:], []], strict=True):
        bracket = _Bracket(floaters, residents, below, barred, oracle)
        floaters = bracket.pair()
        pairs += bracket.pairs
    return pairs


@dataclass
class _Bracket:
    """One score group plus the teams floating into it from above, in pairing order."""

    downfloaters: list[int]
    residents: list[int]
    below: list[int]  # the next score group's teams; none for the last bracket
    barred: list[frozenset[int]]
    oracle: MatchingOracle
    pairs: list[tuple[int, int]] = field(default_factory=list)

    def pair(self) -> list[int]:
        """Pair the bracket with the fewest floaters; returns the teams floating on."""
        order = self.downfloaters + self.residents
        if not self.below:
            # Nothing can float out of the last bracket, and nothing needs to: the oracle
            # leads the search straight to a complete pairing, without backtracking.
            counts = [0]
        else:
            fewest = len(order) - 2 * self._most_pairs_inside(order)
            counts = list(range(fewest, len(order) + 1, 2))
        for count in counts:
            for can_float, budget in ((self._can_meet_below, LOOKAHEAD_BUDGET),
                                      (_anyone, SEARCH_BUDGET)):
                search = _Search(order, set(self.downfloaters), count, can_float, self.oracle)
                found = search.run(budget)
                if found is not None:
                    self.pairs, floaters = found
                    return floaters
        raise AssertionError("the oracle promised a complete pairing")

    def _can_meet_below(self, team: int) -> bool:
        return any(self.oracle.may_meet(team, other) for other in self.below)

    def _most_pairs_inside(self, order: list[int]) -> int:
        """How many pairs the bracket could make by itself, whatever happens below it.

        Fewer floaters than this bound allows cannot work, so the search skips them
        instead of exhausting its budget on them.
        """
        position = {team: i for i, team in enumerate(order)}
        barred_inside = [
            frozenset(position[other] for other in self.barred[team] if other in position)
            for team in order
        ]
        inside = MatchingOracle(barred_inside, range(len(order)))
        return (len(order) - inside.unmatched) // 2


def _anyone(_team: int) -> bool:
    return True


FLOATS = None  # the option of floating down instead of taking a partner
UNDECIDED = -1


@dataclass
class _Frame:
    top: int  # the best team still unpaired in the bracket
    options: list[int | None]  # its partners to try in turn, or FLOATS
    tried: int = 0
    chosen: int | None = UNDECIDED


class _Search:
    """Depth-first over the bracket's choices, in order of preference."""

    def __init__(self, order: list[int], downfloaters: set[int], floats: int,
                 can_float: Callable[[int], bool], oracle: MatchingOracle) -> None:
        self.order = order
        self.downfloaters = downfloaters
        self.floats_left = floats
        self.can_float = can_float
        self.oracle = oracle
        self.done: set[int] = set()
        self.pairs: list[tuple[int, int]] = []
        self.floaters: list[int] = []
        self.budget = 0

    def run(self, budget: int) -> tuple[list[tuple[int, int]], list[int]] | None:
        """The first pairing of the bracket with exactly the planned number of floaters."""
        self.budget = budget
        frames: list[_Frame] = []
        while True:
            remaining = [team for team in self.order if team not in self.done]
            if not remaining:
                return self.pairs, self.floaters
            frames.append(_Frame(remaining[0], self._options(remaining)))
            while not self._advance(frames[-1]):
                frames.pop()
                if not frames or self.budget <= 0:
                    self._unwind(frames)
                    return None
                self._undo(frames[-1])

    def _options(self, remaining: list[int]) -> list[int | None]:
        top, rest = remaining[0], remaining[1:]
        if top in self.downfloaters:
            # A floater meets the best residents first, other floaters after them.
            residents = [t for t in rest if t not in self.downfloaters]
            candidates = residents + [t for t in rest if t in self.downfloaters]
        else:
            # Only residents are left: top half v bottom half, then upwards from the middle.
            half = len(remaining) // 2
            candidates = remaining[half:] + remaining[half - 1:0:-1]
        options: list[int | None] = []
        if len(remaining) > self.floats_left:  # a pair still leaves room for the floaters
            options += [t for t in candidates if self.oracle.may_meet(top, t)]
        if self.floats_left and self.can_float(top):
            options.append(FLOATS)
        return options

    def _advance(self, frame: _Frame) -> bool:
        top = frame.top
        while frame.tried < len(frame.options) and self.budget > 0:
            partner = frame.options[frame.tried]
            frame.tried += 1
            self.budget -= 1
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


# Board order and colours ------------------------------------------------------------------

def _board_key(field_: list[SwissTeam], pair: tuple[int, int]) -> tuple[int, int, int]:
    a, b = field_[pair[0]], field_[pair[1]]
    return (-max(a.points, b.points), -min(a.points, b.points), min(pair))


def _home_first(field_: list[SwissTeam], a: int, b: int) -> tuple[int, int]:
    """Home to the team that has been home less often; on a tie, to the better-ranked."""
    home, away = sorted((a, b), key=lambda i: (field_[i].home_count, i))
    return (field_[home].id, field_[away].id)
