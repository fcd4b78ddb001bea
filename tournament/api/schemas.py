"""The shapes of the API's answers (docs/api.md). Every answer is built from what the
public pages read (``selectors.public``, ``selectors.field``, ``selectors.visibility``);
nothing here decides what is shown."""

from __future__ import annotations

import datetime
from typing import Literal

from ninja import Schema

RoundStatus = Literal["published", "in_play", "closed"]
# The first version's ``state`` of a match, kept for its clients (``complete``: every hand
# entered, not signed off); ``MatchStatus`` is the state the pages show (tournament.states).
MatchState = Literal["waiting", "playing", "complete", "official", "correcting", "forfeited",
                     "void"]
MatchStatus = Literal["waiting", "playing", "awaiting_approval", "awaiting_signatures",
                      "awaiting_sign_off", "official", "correcting", "forfeited", "void"]
Value = int | str  # a tiebreak's value: a whole number, else its exact text ("7/2")


class Error(Schema):
    detail: str


class FieldError(Schema):
    type: str
    loc: list[str | int]
    msg: str


class ValidationErrors(Schema):
    detail: list[FieldError]


class PageMeta(Schema):
    count: int  # items in the whole list
    limit: int
    offset: int


# References ---------------------------------------------------------------------------------

# A team's, a stage's and a tournament's names: ``name`` as stored, ``other_name`` the same
# name in the other script (Latin or Chinese; "" if none), ``display_name`` the one the
# pages show a reader of the answer's language (``Accept-Language``: a Chinese reader the
# one in Chinese characters).

class TeamRef(Schema):
    id: int
    code: str
    name: str
    other_name: str
    display_name: str


class PlayerRef(Schema):
    id: int
    name: str
    number: int  # in the team
    team: TeamRef


class StageRef(Schema):
    id: int
    name: str
    other_name: str
    display_name: str
    kind: Literal["groups", "swiss", "knockout"]
    order: int


class GroupRef(Schema):
    id: int
    name: str


class RoundRef(Schema):
    id: int
    stage: StageRef
    number: int
    status: RoundStatus
    status_word: str  # the status's word, in the reader's language


# Tournaments --------------------------------------------------------------------------------

class TournamentSummary(Schema):
    slug: str
    name: str
    other_name: str
    display_name: str
    starts_on: datetime.date
    ends_on: datetime.date
    venue: str
    status: Literal["running", "finished"]


class TournamentPage(PageMeta):
    items: list[TournamentSummary]


class Switches(Schema):
    standings: bool
    results: bool
    players: bool
    penalties: bool


class DealKeyOut(Schema):
    number: int
    commitment: str  # SHA-256 of the key, published before its deals
    revealed: bool
    key: str | None  # only once revealed
    verified: bool  # the revealed key hashes to the commitment


class TournamentDetail(TournamentSummary):
    time_zone: str
    live_results: Literal["closed", "finished_boxes", "live"]
    hands_per_match: int
    public: Switches
    stages: list[StageRef]
    deal_keys: list[DealKeyOut]


# Rounds and matches -------------------------------------------------------------------------

class RoundSummary(RoundRef):
    hands_per_match: int
    match_count: int


class RoundPage(PageMeta):
    items: list[RoundSummary]


class MatchLineOut(Schema):
    """A match's state and, as far as the public may see it, its score."""

    id: int
    round_id: int
    number: int
    group: GroupRef | None
    home: TeamRef
    away: TeamRef
    state: MatchState
    status: MatchStatus  # the state the pages show (docs/results.md, "States")
    status_word: str  # its word, in the reader's language
    entered: int  # results entered, both tables together
    to_enter: int
    shown: bool  # whether the public may see the score
    home_total: int | None
    away_total: int | None
    home_match_points: int | None
    away_match_points: int | None
    provisional: bool
    winner: Literal["home", "away", ""]
    forfeited_by: TeamRef | None


class RoundDetail(RoundSummary):
    provisional: bool  # results of the round in play shown as entered ("live")
    matches: list[MatchLineOut]
    byes: list[TeamRef]


class SeatOut(Schema):
    seat: int
    team: TeamRef
    player: PlayerRef | None


class TableOut(Schema):
    number: int
    position: int  # the match's table 1 or 2
    seats: list[SeatOut]


class HandResultOut(Schema):
    outcome: str
    declarer_seat: int | None
    declarer_deadwood: int | None
    opponent_deadwood: int | None
    false_knock_seat: int | None
    seat1_points: int
    seat2_points: int
    explanation: str


class TableHandOut(Schema):
    table: int
    dealer_seat: int  # who held the box's dealer cards
    entered: bool
    hidden: bool  # entered, but not for the public's eyes yet
    approved: bool
    box: int | None  # the deal played here (its traveller)
    home_points: int | None
    result: HandResultOut | None


class HandLineOut(Schema):
    hand: int
    swing: int | None  # the home team's net over both tables
    provisional: bool
    tables: list[TableHandOut]


class MatchDetail(MatchLineOut):
    round: RoundRef
    tables: list[TableOut]
    hands: list[HandLineOut]


# Standings ----------------------------------------------------------------------------------

class SeparationOut(Schema):
    key: str  # the criterion that separates the team from the next one
    above: Value
    below: Value
    text: str


class StandingsLineOut(Schema):
    rank: int
    team: TeamRef
    played: int
    wins: int
    match_points: int
    small_points: int
    gins: int
    byes: int
    penalty_match_points: int
    penalty_small_points: int
    provisional: bool
    tied_with_next: bool
    separated_by: SeparationOut | None


class StandingsTableOut(Schema):
    title: str
    group: GroupRef | None
    provisional: bool
    lines: list[StandingsLineOut]
    withdrawn: list[TeamRef]


class StandingsOut(Schema):
    stage: StageRef | None  # None: no round started yet
    after: int | None  # the round asked for; None: every round counted
    last_round: int | None
    rounds: list[int]  # the rounds counted, the "after" choices
    in_play: RoundRef | None
    live: bool
    partly: bool
    counted_in_play: int
    matches_in_play: int
    provisional: bool
    tiebreaks: list[str]
    groups: list[GroupRef]
    tables: list[StandingsTableOut]


DecidedBy = Literal["final_won", "final_lost", "third_place_won", "third_place_lost",
                    "out_in_round", "not_qualified", "still_playing", "withdrawn", "standings"]


class RankingItemOut(Schema):
    place: int | None  # None: not decided yet, or withdrawn (never ranked)
    team: TeamRef
    decided_by: DecidedBy
    round: int | None  # out_in_round: the knockout round it went out in (1 the first)
    label: str  # what decided it, in the reader's language


class FinalRankingOut(Schema):
    final: bool  # every place decided
    items: list[RankingItemOut]


class IndividualLineOut(Schema):
    rank: int
    player: PlayerRef
    hands: int
    points: int
    per_hand: str  # two decimals, half up
    gins: int
    big_gins: int
    knocks: int
    undercuts_won: int
    undercuts_suffered: int
    false_knocks: int
    draws: int
    provisional: bool


class IndividualOut(Schema):
    stage: StageRef | None  # None: every stage
    minimum_hands: int
    players: int  # players with a hand, before the minimum
    provisional: bool
    count: int
    limit: int
    offset: int
    items: list[IndividualLineOut]


# Teams and players --------------------------------------------------------------------------

class PlayerOut(Schema):
    id: int
    name: str
    number: int
    reserve: bool


class TeamOut(TeamRef):
    country: str
    players: list[PlayerOut]


class TeamPage(PageMeta):
    items: list[TeamOut]


class LineupOut(Schema):
    round: RoundRef
    bye: bool
    match_id: int | None
    players: list[PlayerOut]


class TeamDetail(TeamOut):
    rounds: list[LineupOut]
    matches: list[MatchLineOut]


class PlayerPage(PageMeta):
    items: list[PlayerRef]


class PlayedHandOut(Schema):
    hand: int
    dealer: bool
    entered: bool
    hidden: bool
    points: int | None
    result: HandResultOut | None


class PlayerMatchOut(Schema):
    match: MatchLineOut
    table: int | None
    seat: int
    opponent: PlayerRef | None
    points: int | None
    hands: list[PlayedHandOut]


class PlayerDetail(PlayerRef):
    reserve: bool
    standing: IndividualLineOut | None
    matches: list[PlayerMatchOut]


# Travellers ---------------------------------------------------------------------------------

class BoxRef(Schema):
    id: int
    deal_set: int
    hand: int
    reserve: int
    current: bool


class BoxSummaryOut(BoxRef):
    tables: int  # results counted
    balance: str | None  # the field's mean for the dealer cards
    dealer_datum: str | None
    provisional: bool
    favoured: Literal["dealer", "non_dealer"] | None


class BoxIndexOut(Schema):
    round: RoundRef
    boxes: list[BoxSummaryOut]


class HolderOut(Schema):
    team: TeamRef
    player: PlayerRef | None


class TravellerRowOut(Schema):
    table: int
    hand: int
    dealer: HolderOut | None
    non_dealer: HolderOut | None
    outcome: str
    dealer_points: int
    non_dealer_points: int
    explanation: str
    counted: bool  # False: a withdrawn team's table, left out of the field
    versus: str | None  # the dealer cards' points minus their datum
    provisional: bool


class CardsOut(Schema):
    dealer: list[str]
    non_dealer: list[str]
    stock: list[str]  # top card first


class TravellerOut(Schema):
    round: RoundRef
    box: BoxRef
    per_match: bool
    hidden: int  # results entered that the public may not see yet
    provisional: bool
    tables: int
    dealer_datum: str | None
    non_dealer_datum: str | None
    trimmed: bool
    outcomes: dict[str, int]
    points: dict[str, int]  # the dealer cards' points → tables
    rows: list[TravellerRowOut]
    cards: CardsOut | None  # only once the round is closed
