"""The persons' answers (issue 55; api/persons.py): persons by their person id, never the
per-tournament player ids of ``/api/tournaments/{slug}/players/…``."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from ninja import Schema
from pydantic import Field

from tournament.api.schemas import PageMeta


class RatingOut(Schema):
    rating: float = Field(description="1500 is an average player; 100 points = 10 points "
                                      "a hand on the same cards (docs/ratings.md)")
    deviation: float = Field(description="the uncertainty, in rating points")
    hands: int
    provisional: bool = Field(description="fewer rated hands than the federation's minimum")


class PersonOut(Schema):
    id: int = Field(description="the person's id, the same at every event")
    name: str
    other_name: str
    display_name: str
    country: str
    federation: str
    rating: RatingOut | None
    master_points: Decimal = Field(description="master points earned, all events")


class PersonPage(PageMeta):
    items: list[PersonOut]


class RatedPersonOut(PersonOut):
    rank: int


class RatingPage(PageMeta):
    items: list[RatedPersonOut]


class ProfileEventOut(Schema):
    tournament: str = Field(description="the tournament's slug")
    tournament_name: str
    ends_on: dt.date
    team_code: str
    team_name: str
    player_id: int = Field(description="the player's id in that tournament")
    place: int | None = Field(description="the team's final place, while the standings "
                                          "are public and the place decided")
    teams: int
    hands: int
    points: int | None
    per_hand: Decimal | None
    against_field: Decimal | None = Field(description="a hand, on average")
    rating_after: RatingOut | None
    master_points: Decimal | None


class PersonDetail(PersonOut):
    events: list[ProfileEventOut]
