"""An event played through the services for the public pages' tests: a Swiss stage whose
rounds are dealt, entered hand by hand, approved, signed, signed off and closed, and a round
in play with chosen results at chosen tables."""

from __future__ import annotations

import html
import itertools
import re
import uuid
from dataclasses import dataclass, field

import pytest

from tournament.models import (
    Deal,
    HandResult,
    Match,
    Penalty,
    Round,
    Stage,
    Team,
    Tournament,
)
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams

HANDS = 4  # hands per match: enough for every kind of result, quick to enter


def entry_for(table: int, hand: int) -> HandEntry:
    """A varied, valid result for a table and hand (knocks, undercuts, gins, Big Gins,
    draws), different from table to table, and within the counts ten cards can leave (at
    most 98) whatever the table's number."""
    seat = 1 + (table + hand) % 2
    kind = (table * 7 + hand * 3) % 5
    if kind == 0:
        return HandEntry("knock", seat, 1 + table % 9, 11 + (hand + table) % 80)
    if kind == 1:
        return HandEntry("gin", seat, None, 5 + (table + hand) % 90)
    if kind == 2:
        return HandEntry("knock", seat, 8, 6)  # an undercut
    if kind == 3:
        return HandEntry("draw")
    return HandEntry("big_gin", seat, None, 20 + hand)


def enter(actor, table, hand, entry, *, approve=True) -> HandResult:
    result = record_hand_result(actor, table, hand, entry, seen_version=0,
                                request_token=uuid.uuid4())
    if approve:
        for seat in (1, 2):
            approve_hand(actor, result, seat)
    return result


def start(actor, round_: Round) -> Round:
    generate_deals(actor, round_)
    publish_round(actor, round_)
    return start_round(actor, round_)


def play_round(actor, round_: Round) -> Round:
    """Every hand at every table entered and approved, tables signed, matches signed off,
    the round closed."""
    start(actor, round_)
    for match in round_.matches.order_by("number"):
        for table in match.tables.order_by("position"):
            for hand in range(1, match.hands + 1):
                enter(actor, table, hand, entry_for(table.number, hand))
            for seat in (1, 2):
                sign_table(actor, table, seat)
        sign_off_match(actor, Match.objects.get(pk=match.pk))
    return close_round(actor, Round.objects.get(pk=round_.pk))


@dataclass
class Event:
    stage: Stage
    teams: list[Team]
    closed: list[Round]
    open: Round | None = None
    kept_back: list[str] = field(default_factory=list)  # explanations not finished yet
    finished: list[str] = field(default_factory=list)  # explanations of finished boxes

    @property
    def tournament(self) -> Tournament:
        return self.stage.tournament

    def read_again(self) -> Event:
        """The same event freshly read from the database: a test that changes its objects
        (in the database or in memory) leaves the next test an unchanged copy."""
        rounds = Round.objects.select_related("stage__tournament").in_bulk(
            [r.pk for r in self.closed] + ([self.open.pk] if self.open else []))
        teams = Team.objects.in_bulk([t.pk for t in self.teams])
        return Event(stage=Stage.objects.select_related("tournament").get(pk=self.stage.pk),
                     teams=[teams[t.pk] for t in self.teams],
                     closed=[rounds[r.pk] for r in self.closed],
                     open=rounds[self.open.pk] if self.open else None,
                     kept_back=list(self.kept_back), finished=list(self.finished))


def one_event_per_module(*, tournament_fields=None, **options):
    """Fixtures for a test module whose tests read one event: ``event`` (built by
    ``build_event(**options)`` once for the module, inside ``module_db``'s transaction)
    and ``tournament``, its tournament. Each test gets them freshly read
    and runs in its own savepoint, so what it changes is gone for the next test. A test that
    needs a tournament of its own asks for ``make_tournament``.

    ``tournament_fields`` are the tournament's settings other than the defaults.
    Use: ``built_event, event, tournament = one_event_per_module()`` at the module's top."""

    @pytest.fixture(scope="module", name="built_event")
    def built_event(module_db):
        from tests.conftest import new_staff, new_team, new_tournament
        from tournament.services import Actor

        tournament = new_tournament(name="World Cup", slug="world-cup", venue="Shanghai",
                                    **(tournament_fields or {}))
        director = new_staff(tournament, "director", "event-director")
        numbers = itertools.count(1)

        def make_team(tournament, **fields):  # as the suite's make_team names them
            return new_team(tournament, next(numbers), **fields)

        return build_event(Actor(user=director, ip="10.0.0.7"), tournament, make_team,
                           **options)

    @pytest.fixture(name="event")
    def event(built_event, db):
        return built_event.read_again()

    @pytest.fixture(name="tournament")
    def tournament(event):
        return event.tournament

    return built_event, event, tournament


def build_event(actor, tournament, make_team, *, teams=4, closed=2, open_round=True,
                codes=None) -> Event:
    """``teams`` teams in a Swiss stage, ``closed`` rounds played to the end and closed (a
    penalty in the first), and a round in play where:

    - hand 1 is entered and approved at every table: finished everywhere;
    - hand 2 is entered and approved at every table but the last: not finished;
    - hand 3 is entered at every table, approved everywhere but at the last: not finished.

    Results entered on the unfinished boxes have unique deadwoods (``kept_back``)."""
    tournament.hands_per_match = HANDS
    tournament.save()
    names = codes or [(f"T{i}", f"Team {i:03d}") for i in range(1, teams + 1)]
    field_ = [make_team(tournament, code=code, name=name, seed=str(n))
              for n, (code, name) in enumerate(names, 1)]
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=closed + 1)
    enter_teams(actor, stage, field_)
    event = Event(stage=stage, teams=field_, closed=[])
    for number in range(closed):
        round_ = play_round(actor, generate_round(actor, stage))
        if number == 0:
            Penalty.objects.create(tournament=tournament, team=field_[0], round=round_,
                                   kind=Penalty.Kind.MATCH_POINTS, amount=1,
                                   reason="Late for the start", recorded_by=actor.user)
        event.closed.append(round_)
    if not open_round:
        return event
    round_ = start(actor, generate_round(actor, stage))
    event.open = round_
    tables = list(round_.tables.order_by("number"))
    for index, table in enumerate(tables):
        last = index == len(tables) - 1
        first = enter(actor, table, 1, HandEntry("knock", 1, 2, 31 + index))
        event.finished.append(first.explanation)
        if not last:
            second = enter(actor, table, 2, HandEntry("knock", 2, 3, 51 + index))
            event.kept_back.append(second.explanation)
        third = enter(actor, table, 3, HandEntry("gin", 1, None, 71 + index),
                      approve=not last)
        event.kept_back.append(third.explanation)
    return event


# A card in the code notation is not part of a longer word: "JSON" names no jack of spades.
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])\s?([♠♥♦♣]|[SHDC](?![A-Za-z]))")
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def page_text(content: str) -> str:
    """The text a reader sees: tags dropped (a card split by markup joins up again),
    entities decoded, white space collapsed."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", content, flags=re.S)
    text = re.sub(r"<[^>]+>", "", text)
    return " ".join(html.unescape(text).split())


def cards_in(text: str) -> list[str]:
    """Every card written on the page, in order, in the code notation (``TC``)."""
    return [("T" if rank == "10" else rank) + SUIT.get(suit, suit)
            for rank, suit in CARD.findall(text)]


def secret_runs(round_: Round) -> set[tuple[str, ...]]:
    """Runs of three cards of the round's deals as a page could list them: in the order
    of the box, or each part of it (dealer, non-dealer, stock) sorted by suit or by rank."""
    ranks = "A23456789TJQK"
    runs = set()
    for tokens in _deals(round_):
        parts = [tokens, tokens[:11], tokens[11:21], tokens[21:]]
        for part in list(parts[1:]):
            parts.append(sorted(part, key=lambda c: ("SHDC".index(c[1]), ranks.index(c[0]))))
            parts.append(sorted(part, key=lambda c: (ranks.index(c[0]), "SHDC".index(c[1]))))
        for part in parts:
            runs |= _runs(part, 3)
    return runs


def public_runs(rounds) -> set[tuple[str, ...]]:
    """Runs of four cards, in the order of the box, of deals the pages may show."""
    return {run for round_ in rounds for tokens in _deals(round_) for run in _runs(tokens, 4)}


def _deals(round_):
    return [cards.split() for cards in Deal.objects.filter(round=round_)
            .values_list("cards", flat=True)]


def _runs(cards, length):
    return {tuple(cards[i:i + length]) for i in range(len(cards) - length + 1)}


def leaked_runs(text: str, runs: set[tuple[str, ...]],
                shown: set[tuple[str, ...]] = frozenset()) -> list[tuple[str, ...]]:
    """The runs of ``runs`` the page writes, once the cards it may show (every card in a
    run of four of ``shown``: the hand records of a closed round) are set aside."""
    cards: list[str | None] = cards_in(text)
    legitimate = set()
    for i in range(len(cards) - 3):
        if tuple(cards[i:i + 4]) in shown:
            legitimate.update(range(i, i + 4))
    cards = [None if i in legitimate else card for i, card in enumerate(cards)]
    return [tuple(cards[i:i + 3]) for i in range(len(cards) - 2)
            if tuple(cards[i:i + 3]) in runs]
