"""Swiss pairing: equal match points meet, nobody meets the same team twice (§11).

The field is paired score group by score group, from the top; how one bracket (a score
group plus the teams floating into it) is paired is ``brackets``' job. Before committing
a pair the search asks a perfect-matching oracle (``matching``) whether everyone still
unpaired can still meet someone new, so a legal pairing is found whenever one exists and
the search never has to undo the brackets above.

Odd fields: the bye goes to the lowest-ranked team among those with the fewest byes whose
absence still leaves a legal pairing. Home is the team that has been home less often.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from scoring.errors import RuleError, gettext_noop
from scoring.pairing.brackets import Bracket
from scoring.pairing.matching import MatchingOracle


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
    """The next round of a Swiss stage; RuleError when no pairing without a rematch exists.

    The same field, in any order, always gives the same pairing.
    """
    field_ = _pairing_order(teams)
    barred = _barred(field_)
    oracle = MatchingOracle(barred, range(len(field_)))
    bye = _choose_bye(field_, oracle) if len(field_) % 2 else None
    if oracle.unmatched:
        raise RuleError(
            gettext_noop("no pairing without a rematch exists for these {count} teams: too many "
                         "of them have already met"),
            count=len(field_))
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
        raise RuleError(
            gettext_noop("a Swiss round needs at least 2 teams, not {count}"),
            count=len(teams))
    ids = [team.id for team in teams]
    if len(set(ids)) != len(ids):
        raise RuleError(gettext_noop("a team appears twice in the Swiss field"))
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
        bracket_pairs, floaters = Bracket(floaters, residents, below, barred, oracle).pair()
        pairs += bracket_pairs
    return pairs


# Board order and colours ------------------------------------------------------------------

def _board_key(field_: list[SwissTeam], pair: tuple[int, int]) -> tuple[int, int, int]:
    a, b = field_[pair[0]], field_[pair[1]]
    return (-max(a.points, b.points), -min(a.points, b.points), min(pair))


def _home_first(field_: list[SwissTeam], a: int, b: int) -> tuple[int, int]:
    """Home to the team that has been home less often; on a tie, to the better-ranked."""
    home, away = sorted((a, b), key=lambda i: (field_[i].home_count, i))
    return (field_[home].id, field_[away].id)
