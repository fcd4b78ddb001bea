"""Can the teams still to be paired all meet someone new? A perfect-matching oracle.

A field can be paired without a rematch exactly when the graph of "may still meet" has a
perfect matching. The Swiss pairing asks before it commits to each pair, so it never walks
into a dead end and needs no blind backtracking across score groups. The oracle keeps one
maximum matching of the teams still in play and repairs it locally after each commit: in
a large field the two teams left without partners may usually meet each other, so a
commit costs O(1); otherwise one augmenting-path search (Edmonds' blossoms, needed because
the graph is not bipartite) settles it in O(n²).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

FREE = -1


class MatchingOracle:
    """A maximum matching of the teams in play, numbered 0..n-1 in pairing order."""

    def __init__(self, barred: Sequence[frozenset[int]], in_play: Iterable[int]) -> None:
        self._barred = barred  # barred[t]: the teams t has met
        self._in_play = [False] * len(barred)
        self._mate = [FREE] * len(barred)
        for team in in_play:
            self._in_play[team] = True
        self._unmatched = sum(self._in_play)
        self.effort = 0  # work done so far, in steps of a loop: what callers budget by
        self._match_greedily()
        for team in range(len(barred)):
            if self._in_play[team] and self._mate[team] == FREE and self._augment(team):
                self._unmatched -= 2

    @property
    def unmatched(self) -> int:
        """Teams in play that no maximum matching can pair (0: a legal pairing exists)."""
        return self._unmatched

    def spend(self, effort: int) -> None:
        """Book a caller's own work, so that one budget covers the whole pairing."""
        self.effort += effort

    def may_meet(self, a: int, b: int) -> bool:
        return a != b and b not in self._barred[a]

    def partner(self, team: int) -> int | None:
        mate = self._mate[team]
        return None if mate == FREE else mate

    def take_pair(self, a: int, b: int) -> bool:
        """Commit a v b if the rest can still all be paired; otherwise change nothing."""
        self.effort += 1
        if self._unmatched or not self.may_meet(a, b):
            return False
        old_a, old_b = self._mate[a], self._mate[b]
        self._leave(a)
        self._leave(b)
        if old_a == b or self._rematch(old_a, old_b):
            return True
        self._rejoin(a, old_a)
        self._rejoin(b, old_b)
        return False

    def give_back_pair(self, a: int, b: int) -> None:
        """Undo take_pair: the rest's perfect matching plus a v b is perfect again."""
        self._in_play[a] = self._in_play[b] = True
        self._mate[a], self._mate[b] = b, a

    def take_single(self, team: int) -> bool:
        """Take a team out (the bye) if all the others can still be paired."""
        if self._unmatched != 1:
            return False
        old = self._mate[team]
        self._leave(team)
        if old == FREE:
            self._unmatched = 0
            return True
        lonely = next(t for t, mate in enumerate(self._mate)
                      if self._in_play[t] and mate == FREE and t != old)
        if self._rematch(old, lonely):
            self._unmatched = 0
            return True
        self._rejoin(team, old)
        return False

    # Internals -----------------------------------------------------------------------

    def _leave(self, team: int) -> None:
        self._in_play[team] = False
        mate = self._mate[team]
        if mate != FREE:
            self._mate[mate] = FREE
        self._mate[team] = FREE

    def _rejoin(self, team: int, mate: int) -> None:
        self._in_play[team] = True
        self._mate[team] = mate
        if mate != FREE:
            self._mate[mate] = team

    def _rematch(self, a: int, b: int) -> bool:
        """Pair the two teams left without partners, directly or along an augmenting path."""
        if self.may_meet(a, b):
            self._mate[a], self._mate[b] = b, a
            return True
        return self._augment(a)

    def _neighbours(self, team: int) -> Iterable[int]:
        barred = self._barred[team]
        in_play = self._in_play
        return (t for t in range(len(in_play)) if in_play[t] and t != team and t not in barred)

    def _match_greedily(self) -> None:
        mate, in_play = self._mate, self._in_play
        for team in range(len(mate)):
            if not in_play[team] or mate[team] != FREE:
                continue
            for other in range(team + 1, len(mate)):
                if in_play[other] and mate[other] == FREE and self.may_meet(team, other):
                    mate[team], mate[other] = other, team
                    self._unmatched -= 2
                    break

    def _augment(self, root: int) -> bool:
        """Edmonds' search for an augmenting path from a free root; flips it if found."""
        size = len(self._mate)
        mate = self._mate
        base = list(range(size))
        parent = [FREE] * size
        outer = [False] * size
        outer[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            self.effort += size
            for to in self._neighbours(v):
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != FREE and parent[mate[to]] != FREE):
                    # An odd cycle: shrink it into its base and search on from all of it.
                    stem = self._common_base(base, parent, v, to)
                    in_blossom = [False] * size
                    self._mark_path(base, parent, in_blossom, v, stem, to)
                    self._mark_path(base, parent, in_blossom, to, stem, v)
                    for t in range(size):
                        if self._in_play[t] and in_blossom[base[t]]:
                            base[t] = stem
                            if not outer[t]:
                                outer[t] = True
                                queue.append(t)
                elif parent[to] == FREE:
                    parent[to] = v
                    if mate[to] == FREE:
                        self._flip(parent, to)
                        return True
                    outer[mate[to]] = True
                    queue.append(mate[to])
        return False

    def _common_base(self, base: list[int], parent: list[int], a: int, b: int) -> int:
        mate = self._mate
        seen = set()
        while True:
            a = base[a]
            seen.add(a)
            if mate[a] == FREE:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if b in seen:
                return b
            b = parent[mate[b]]

    def _mark_path(self, base: list[int], parent: list[int], in_blossom: list[bool],
                   v: int, stem: int, child: int) -> None:
        mate = self._mate
        while base[v] != stem:
            in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def _flip(self, parent: list[int], end: int) -> None:
        mate = self._mate
        v = end
        while v != FREE:
            previous = parent[v]
            further = mate[previous]
            mate[v], mate[previous] = previous, v
            v = further
