"""The knockout as a bracket (RULES.md §11; issue 20): ``read_bracket(stage, views)``,
every round of a knockout from the first to the final, each match (or bye) in bracket order
with its teams, its state and score as the reader may see them, and its winner once
decided: the rounds not drawn yet show the winners that will meet there as soon as they
are known. The event's ranking from it is ``selectors.event_ranking``.

The reader: ``views`` is the public's view of each round (``selectors.visibility.
public_views``), so that a match decides a place only once its result is official (signed
off, or decided by a default) *and* the public may see its total; nothing of a round in
play shows beyond what the live-results setting already shows. ``views=None`` is the
staff's reading: every official result.

Reads a fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.errors import RuleError
from scoring.match import knockout_winner
from scoring.pairing import bracket_rounds, round_slots, seeded_bracket
from scoring.placings import KnockoutMatch
from scoring.seating import Side
from tournament.models import Match, Round, Stage, Team
from tournament.selectors.public import MatchLine, match_lines
from tournament.selectors.visibility import PublicViews, ResultView
from tournament.wording import knockout_result, knockout_round_name, third_place_name

# How a knockout match was decided.
TOTAL = "total"
EXTRA_HANDS = "extra_hands"
DEFAULT = "default"


@dataclass(frozen=True)
class BracketMatch:
    """A match of the bracket, or a bye, or a meeting still to be drawn (then a team is
    None until the match that sends it here is decided)."""

    home: Team | None
    away: Team | None
    bye: bool = False
    line: MatchLine | None = None  # the match once drawn: its state and score as shown
    winner: Team | None = None  # once decided, as the reader may see it
    how: str | None = None  # TOTAL, EXTRA_HANDS or DEFAULT
    margin: int | None = None  # the winner's total (zero-sum: the loser has minus it)
    third_place: bool = False

    @property
    def match(self) -> Match | None:
        return self.line.match if self.line is not None else None

    @property
    def loser(self) -> Team | None:
        if self.winner is None or self.bye:
            return None
        return self.away if self.winner == self.home else self.home

    @property
    def winner_side(self) -> str:
        if self.winner is None:
            return ""
        return Side.HOME.value if self.winner == self.home else Side.AWAY.value

    @property
    def extra_hands(self) -> int:
        return self.match.extra_hands if self.match is not None else 0

    @property
    def sides(self) -> list[tuple[str, Team | None, int | None]]:
        """("home", team, total), ("away", team, total): the totals where the reader may
        see them."""
        line = self.line
        shown = line is not None and line.has_score
        return [(Side.HOME.value, self.home, line.home_total if shown else None),
                (Side.AWAY.value, self.away, line.away_total if shown else None)]

    @property
    def decided_text(self) -> str:
        """"CHN-R won by 11", "… after 2 extra hands", "… won by default"; "… went through"
        where the scores are not public."""
        if self.winner is None:
            return ""
        if self.how == DEFAULT:
            return knockout_result(self.winner.code, None, default=True)
        if self.line is None or not self.line.has_score:
            return _("%(team)s went through") % {"team": self.winner.code}
        return knockout_result(self.winner.code, self.margin, extra_hands=self.extra_hands)

    def result(self) -> KnockoutMatch | None:
        if self.bye:
            return KnockoutMatch(self.home.pk, None)
        if self.winner is None:
            return None
        return KnockoutMatch(self.winner.pk, self.loser.pk)


@dataclass(frozen=True)
class BracketRound:
    number: int
    slots: int  # the teams it is named by: 2 the final, 4 the semi-finals, …
    round: Round | None  # None: not drawn yet (or, for the public, a draft)
    matches: list[BracketMatch]
    third_place: BracketMatch | None = None

    @property
    def name(self) -> str:
        return knockout_round_name(self.slots)

    @property
    def third_place_name(self) -> str:
        return third_place_name()

    @property
    def byes(self) -> bool:
        return any(match.bye for match in self.matches)


@dataclass
class Bracket:
    stage: Stage
    teams: list[Team]  # by seed
    rounds: list[BracketRound]
    plays_third_place: bool

    @property
    def begun(self) -> bool:
        """A round of the knockout is drawn (and, for the public, published)."""
        return any(r.round is not None for r in self.rounds)

    @property
    def final(self) -> BracketMatch:
        return self.rounds[-1].matches[0]

    @property
    def champion(self) -> Team | None:
        return self.final.winner

    def results(self) -> tuple[list[list[KnockoutMatch]], KnockoutMatch | None]:
        """The decided matches of each round (byes included) and the decided third-place
        match, for ``scoring.placings.knockout_ranking``."""
        played = [[r for r in (m.result() for m in round_.matches) if r is not None]
                  for round_ in self.rounds]
        third = self.rounds[-1].third_place
        return played, third.result() if third is not None else None


def _everything(rounds) -> PublicViews:
    return PublicViews({round_.pk: ResultView(everything=True) for round_ in rounds})


def _decide(home: Team | None, away: Team | None, line: MatchLine | None, counts: bool,
            **extra) -> BracketMatch:
    if line is None:
        return BracketMatch(home, away, **extra)
    match = line.match
    home, away = match.home, match.away
    if not counts:
        return BracketMatch(home, away, line=line, **extra)
    if match.forfeited_by_id is not None:
        winner = away if match.forfeited_by_id == match.home_id else home
        return BracketMatch(home, away, line=line, winner=winner, how=DEFAULT, **extra)
    if match.signed_off_at is None or match.home_total is None:
        return BracketMatch(home, away, line=line, **extra)
    try:
        side = knockout_winner(match.home_total, match.away_total)
    except RuleError:  # tied: it goes on with extra hands
        return BracketMatch(home, away, line=line, **extra)
    winner = home if side is Side.HOME else away
    return BracketMatch(home, away, line=line, winner=winner,
                        how=EXTRA_HANDS if match.extra_hands else TOTAL,
                        margin=abs(match.home_total), **extra)


def read_bracket(stage: Stage, views: PublicViews | None = None) -> Bracket | None:
    """The knockout ``stage`` as a bracket (five queries), or None before it has two
    teams. ``views``: the public's view of its rounds; None for staff."""
    entries = list(stage.entries.select_related("team").order_by("position"))
    if len(entries) < 2:
        return None
    teams = {entry.team_id: entry.team for entry in entries}
    seeds = [entry.team_id for entry in entries]
    count = bracket_rounds(len(seeds))
    stored = stage.schedule.get("bracket") if isinstance(stage.schedule, dict) else None
    boards = ([tuple(board) for board in stored] if stored
              else seeded_bracket(seeds))
    rounds = {r.number: r for r in stage.rounds.order_by("number")
              if views is None or r.status != Round.Status.DRAFT}
    staff = views is None
    if staff:
        views = _everything(rounds.values())
    lines: dict[int, list[MatchLine]] = {}
    matches = Match.objects.filter(round__in=list(rounds.values()))
    for line in match_lines(matches, views, switch=not staff):
        lines.setdefault(line.match.round_id, []).append(line)

    def counts(line: MatchLine) -> bool:
        return views.shows_match(line.match.round_id, line.match.pk)

    plays_third = stage.third_place_match and len(seeds) >= 4
    bracket: list[BracketRound] = []
    previous: list[BracketMatch] = []
    for number in range(1, count + 1):
        round_ = rounds.get(number)
        drawn = sorted(lines.get(round_.pk, []) if round_ else [],
                       key=lambda line: line.match.number)
        if number == 1:
            pairs = [(teams.get(home), teams.get(away) if away is not None else None)
                     for home, away in boards]
            main, after = drawn, []
        else:
            pairs = [(upper.winner, lower.winner)
                     for upper, lower in zip(previous[::2], previous[1::2], strict=True)]
            main, after = drawn[:len(pairs)], drawn[len(pairs):]
        by_teams = {frozenset((line.match.home_id, line.match.away_id)): line
                    for line in main}
        current = []
        for index, (home, away) in enumerate(pairs):
            if number == 1 and away is None:
                current.append(BracketMatch(home, None, bye=True, winner=home))
                continue
            line = (by_teams.get(frozenset((home.pk, away.pk)))
                    if home is not None and away is not None else None)
            if line is None and number > 1 and len(main) == len(pairs):
                line = main[index]  # drawn: its teams, whoever the reader saw win before
            current.append(_decide(home, away, line, line is not None and counts(line)))
        third = None
        if number == count and plays_third:
            semis = previous
            line = after[0] if after else None
            losers = [m.loser for m in semis]
            third = _decide(losers[0] if len(losers) > 0 else None,
                            losers[1] if len(losers) > 1 else None, line,
                            line is not None and counts(line), third_place=True)
        bracket.append(BracketRound(number, round_slots(number, count), round_, current, third))
        previous = current
    return Bracket(stage=stage, teams=[teams[pk] for pk in seeds], rounds=bracket,
                   plays_third_place=plays_third)
