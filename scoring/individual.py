"""Individual standings (issue 11): each player's hands, totalled and counted by kind, as
dealer and as non-dealer. They inform; they never change a team's ranking (RULES.md §12).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.errors import RuleError

PlayerId = Hashable
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "draw")


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One hand as one player played it: the player's points (the seat's), whether the
    player held the dealer's cards, the hand's outcome, and whether the player declared or
    false-knocked in it."""

    player: PlayerId
    points: int
    dealer: bool
    outcome: str
    declared: bool = False
    false_knock: bool = False

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise RuleError(f"unknown outcome {self.outcome!r}; expected one of "
                            + ", ".join(OUTCOMES))
        if self.outcome == "draw" and self.declared:
            raise RuleError("nobody declares in a draw")


@dataclass
class Side:
    """A player's hands with one seat's cards (dealer or non-dealer)."""

    hands: int = 0
    points: int = 0


@dataclass
class PlayerLine:
    player: PlayerId
    hands: int = 0
    points: int = 0
    gins: int = 0
    big_gins: int = 0
    knocks: int = 0  # knocks that won
    undercuts_won: int = 0  # the opponent knocked and was undercut
    undercuts_suffered: int = 0  # this player knocked and was undercut
    false_knocks: int = 0
    draws: int = 0
    as_dealer: Side = field(default_factory=Side)
    as_non_dealer: Side = field(default_factory=Side)
    rank: int = 0

    @property
    def per_hand(self) -> Fraction:
        """Points per hand played, exactly (0 before the first hand)."""
        return Fraction(self.points, self.hands) if self.hands else Fraction(0)


def individual_standings(hands: Iterable[PlayerHand], *, minimum_hands: int = 0,
                         ) -> list[PlayerLine]:
    """Every player with at least ``minimum_hands`` hands, by total points, then points
    per hand; players level on both share a rank."""
    lines: dict[PlayerId, PlayerLine] = {}
    for hand in hands:
        line = lines.setdefault(hand.player, PlayerLine(hand.player))
        line.hands += 1
        line.points += hand.points
        side = line.as_dealer if hand.dealer else line.as_non_dealer
        side.hands += 1
        side.points += hand.points
        line.false_knocks += hand.false_knock
        if hand.outcome == "draw":
            line.draws += 1
        elif hand.declared:
            line.gins += hand.outcome == "gin"
            line.big_gins += hand.outcome == "big_gin"
            line.knocks += hand.outcome == "knock"
            line.undercuts_suffered += hand.outcome == "undercut"
        else:
            line.undercuts_won += hand.outcome == "undercut"
    ranked = sorted((line for line in lines.values() if line.hands >= minimum_hands),
                    key=lambda line: (-line.points, -line.per_hand))
    previous = None
    for position, line in enumerate(ranked, 1):
        key = (line.points, line.per_hand)
        line.rank = previous[1] if previous and previous[0] == key else position
        previous = (key, line.rank)
    return ranked
