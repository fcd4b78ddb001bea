"""Round-robin schedules from the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Participants are numbered 1..n. The last participant sits at board 1 and alternates
colours (home/away) every round; the others stand on a circle that turns by n/2 places a
round, and board k pairs the participants k-1 places either side of the one facing the
last participant. This reproduces the published tables board for board, colours included.
With an odd count the table for n + 1 is used and meeting n + 1 is the bye.
"""

from __future__ import annotations

from scoring.errors import RuleError, gettext_noop

Board = tuple[int, int | None]


def berger_rounds(n: int) -> list[list[Board]]:
    """Every round's boards as (home, away) = (white, black); a bye is (participant, None)."""
    if n < 2:
        raise RuleError(
            gettext_noop("a round robin needs at least 2 participants, not {n}"),
            n=n)
    size = n + n % 2
    last = size
    circle = size - 1
    half = size // 2

    def on_circle(position: int) -> int:
        return position % circle + 1

    rounds: list[list[Board]] = []
    for index in range(size - 1):
        facing = index * half  # position of the participant meeting the last one
        boards = [
            (on_circle(facing), last) if index % 2 == 0 else (last, on_circle(facing))
        ]
        boards += [(on_circle(facing + k), on_circle(facing - k)) for k in range(1, half)]
        rounds.append([_with_bye(board, n) for board in boards])
    return rounds


def _with_bye(board: tuple[int, int], n: int) -> Board:
    home, away = board
    if home > n:
        return (away, None)
    if away > n:
        return (home, None)
    return board
