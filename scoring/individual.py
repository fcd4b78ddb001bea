"""Individual standings (issue 11): each player's hands, totalled and counted by kind, as
dealer and as non-dealer. They inform; they never change a team's ranking (RULES.md §12).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring import seating
from scoring.errors import RuleError, gettext_noop

PlayerId = Hashable
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "draw")
_OUTCOMES = frozenset(OUTCOMES)


@dataclass(slots=True)
class PlayerHand:
    """One hand as one player played it: the player's points (the seat's), whether the
    player held the dealer's cards, the hand's outcome, and whether the player declared or
    false-knocked in it. (Not frozen: a frozen dataclass is four times slower to make, and
    an event of 512 teams makes 122,880 of them.)"""

    player: PlayerId
    points: int
    dealer: bool
    outcome: str
    declared: bool = False
    false_knock: bool = False
    provisional: bool = False  # from a match not signed off yet

    def __post_init__(self) -> None:
        if self.outcome not in _OUTCOMES:
            raise RuleError(
                gettext_noop("unknown outcome {outcome!r}; expected one of {choices}"),
                outcome=self.outcome, choices=", ".join(OUTCOMES))
        if self.outcome == "draw" and self.declared:
            raise RuleError(gettext_noop("nobody declares in a draw"))


def table_hands(table_position: int, hand: int, seat_points: tuple[int, int], outcome: str,
                declarer_seat: int | None, false_knock_seat: int | None,
                lineups: Mapping[str, Sequence[PlayerId]], *,
                provisional: bool = False) -> tuple[PlayerHand, PlayerHand]:
    """One hand at a match's table 1 or 2 as its two players played it: seat 1's, then
    seat 2's. ``lineups[side]`` is each side's (first player, second player) of the round
    (``scoring.seating``: who sits where); the seat holding the dealer's cards is
    ``dealer_seat(hand)``; an undercut names the knocker as its declarer."""
    dealing = seating.dealer_seat(hand)
    return (PlayerHand(seating.player_in_seat(table_position, 1, lineups), seat_points[0],
                       dealing == 1, outcome, declarer_seat == 1, false_knock_seat == 1,
                       provisional),
            PlayerHand(seating.player_in_seat(table_position, 2, lineups), seat_points[1],
                       dealing == 2, outcome, declarer_seat == 2, false_knock_seat == 2,
                       provisional))


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
    provisional: bool = False  # counts a hand of a match not signed off yet
    rank: int = 0

    @property
    def per_hand(self) -> Fraction:
        """Points per hand played, exactly (0 before the first hand)."""
        return Fraction(self.points, self.hands) if self.hands else Fraction(0)


def individual_standings(hands: Iterable[PlayerHand], *, minimum_hands: int = 0,
                         ) -> list[PlayerLine]:
    """Every player with at least ``minimum_hands`` hands, by total points, then points
    per hand; players level on both share a rank (and keep the order of their first hand
    given). A line is provisional when one of its hands is."""
    lines: dict[PlayerId, PlayerLine] = {}
    for hand in hands:
        _count(lines, hand.player, 1, hand.points, hand.dealer, hand.outcome, hand.declared,
               hand.false_knock, hand.provisional)
    return rank_lines(lines.values(), minimum_hands=minimum_hands)


def table_lines(hands: Iterable[tuple], seats: Mapping[Hashable, Sequence[PlayerId]]
                ) -> dict[PlayerId, PlayerLine]:
    """Every player's line (not ranked yet: ``rank_lines``) from hands as a table stores
    them: each hand is (table, hand number, seat 1's points, seat 2's points, outcome,
    declarer's seat, false knocker's seat, provisional), and ``seats[table]`` the players
    in its seats 1 and 2 (as stored: ``TableSeat``). The same lines as
    ``individual_standings`` of ``table_hands`` of each hand, made without a ``PlayerHand``
    per player and hand: hands alike for a player (dealer or not, outcome, declared, false
    knock, provisional) are counted together first. A 512-team event has 122,880 of them.
    Lines keep the order of each player's first hand."""
    alike: dict[tuple, list[int]] = {}
    dealers: dict[int, int] = {}  # hand number → seating.dealer_seat, asked once a number
    for table, number, one, two, outcome, declarer, false_knock, provisional in hands:
        players = seats[table]
        dealing = dealers.get(number)
        if dealing is None:
            dealing = dealers[number] = seating.dealer_seat(number)
        for seat, player, points in ((1, players[0], one), (2, players[1], two)):
            key = (player, dealing == seat, outcome, declarer == seat, false_knock == seat,
                   provisional)
            count = alike.get(key)
            if count is None:
                alike[key] = [1, points]
            else:
                count[0] += 1
                count[1] += points
    lines: dict[PlayerId, PlayerLine] = {}
    for (player, dealer, outcome, declared, false_knocked, provisional), (hands_, points) \
            in alike.items():
        _check(outcome, declared)
        _count(lines, player, hands_, points, dealer, outcome, declared, false_knocked,
               provisional)
    return lines


@dataclass(frozen=True, slots=True)
class Tally:
    """What one seat of a table made of its hands, in the figures of a player's line: the
    individual standings add up the tallies of a player's seats instead of reading every
    hand again (a 512-team event has 61,440 hands; its tallies are 15,360)."""

    hands: int = 0
    points: int = 0
    dealer_hands: int = 0
    dealer_points: int = 0
    gins: int = 0
    big_gins: int = 0
    knocks: int = 0
    undercuts_won: int = 0
    undercuts_suffered: int = 0
    false_knocks: int = 0
    draws: int = 0

    @classmethod
    def of(cls, line: PlayerLine) -> Tally:
        return cls(line.hands, line.points, line.as_dealer.hands, line.as_dealer.points,
                   line.gins, line.big_gins, line.knocks, line.undercuts_won,
                   line.undercuts_suffered, line.false_knocks, line.draws)


def seat_tallies(hands: Iterable[tuple[int, int, int, str, int | None, int | None]],
                 ) -> tuple[Tally, Tally]:
    """Seat 1's and seat 2's tallies of a table's hands, each hand (hand number, seat 1's
    points, seat 2's points, outcome, declarer's seat, false knocker's seat): counted as
    ``table_lines`` counts a hand for the players in those seats."""
    lines: dict[PlayerId, PlayerLine] = {}
    for number, one, two, outcome, declarer, false_knock in hands:
        _check(outcome, declarer is not None)
        dealing = seating.dealer_seat(number)
        for seat, points in ((1, one), (2, two)):
            _count(lines, seat, 1, points, dealing == seat, outcome, declarer == seat,
                   false_knock == seat, False)
    return (Tally.of(lines.get(1) or PlayerLine(1)), Tally.of(lines.get(2) or PlayerLine(2)))


def tally_lines(tallies: Iterable[tuple[PlayerId, Tally, bool]]) -> dict[PlayerId, PlayerLine]:
    """Every player's line (not ranked yet: ``rank_lines``) from the tallies of the seats
    the player sat in, each (player, tally, provisional): the lines ``table_lines`` makes of
    the same hands. A tally of no hands makes no line."""
    lines: dict[PlayerId, PlayerLine] = {}
    for player, tally, provisional in tallies:
        if not tally.hands:
            continue
        line = lines.get(player)
        if line is None:
            line = lines[player] = PlayerLine(player)
        line.hands += tally.hands
        line.points += tally.points
        line.as_dealer.hands += tally.dealer_hands
        line.as_dealer.points += tally.dealer_points
        line.as_non_dealer.hands += tally.hands - tally.dealer_hands
        line.as_non_dealer.points += tally.points - tally.dealer_points
        line.gins += tally.gins
        line.big_gins += tally.big_gins
        line.knocks += tally.knocks
        line.undercuts_won += tally.undercuts_won
        line.undercuts_suffered += tally.undercuts_suffered
        line.false_knocks += tally.false_knocks
        line.draws += tally.draws
        line.provisional = line.provisional or provisional
    return lines


def _check(outcome: str, declared: bool) -> None:
    if outcome not in _OUTCOMES:
        raise RuleError(
            gettext_noop("unknown outcome {outcome!r}; expected one of {choices}"),
            outcome=outcome, choices=", ".join(OUTCOMES))
    if outcome == "draw" and declared:
        raise RuleError(gettext_noop("nobody declares in a draw"))


def _count(lines: dict[PlayerId, PlayerLine], player: PlayerId, hands: int, points: int,
           dealer: bool, outcome: str, declared: bool, false_knock: bool,
           provisional: bool) -> None:
    """Count ``hands`` hands alike, worth ``points`` in all, into the player's line."""
    line = lines.get(player)
    if line is None:
        line = lines[player] = PlayerLine(player)
    line.hands += hands
    line.points += points
    side = line.as_dealer if dealer else line.as_non_dealer
    side.hands += hands
    side.points += points
    if false_knock:
        line.false_knocks += hands
    if provisional:
        line.provisional = True
    if outcome == "draw":
        line.draws += hands
    elif declared:
        if outcome == "knock":
            line.knocks += hands
        elif outcome == "gin":
            line.gins += hands
        elif outcome == "big_gin":
            line.big_gins += hands
        else:
            line.undercuts_suffered += hands
    elif outcome == "undercut":
        line.undercuts_won += hands


def rank_lines(lines: Iterable[PlayerLine], *, minimum_hands: int = 0) -> list[PlayerLine]:
    """The lines of players with at least ``minimum_hands`` hands, by total points, then
    points per hand; players level on both share a rank and keep their order."""
    ranked = sorted((line for line in lines if line.hands >= minimum_hands), key=_order)
    previous = None
    for position, line in enumerate(ranked, 1):
        key = _order(line)
        line.rank = previous[1] if previous and previous[0] == key else position
        previous = (key, line.rank)
    return ranked


def _order(line: PlayerLine) -> tuple[int, int]:
    """Points, then points per hand, exactly and without a fraction: among equal points,
    fewer hands are more per hand when the points are positive, more hands when they are
    negative, and no difference at 0 (no Fraction per player: a large event ranks
    thousands of players)."""
    points = line.points
    return -points, (line.hands if points > 0 else -line.hands if points < 0 else 0)
