"""What every endpoint shares: the tournament of the address (never one in set-up, and a
404 while the switch of the part asked for is off, like ``views.public.base.public_page``),
pagination, and the references the answers are made of."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any

from django.db.models import QuerySet
from django.http import Http404
from ninja import Path, Schema
from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from scoring.seating import Side
from tournament import names, states
from tournament.models import HandResult, Player, Round, Stage, Team, Tournament
from tournament.selectors.public import MatchLine

MAX_ID = 2_147_483_647
_DIGITS = re.compile(r"0|[1-9][0-9]*")


def plain_number(largest: int) -> BeforeValidator:
    """A number of the address as strict as a number of a body: plain ASCII digits, no
    sign, leading zero, space, underscore or fraction (``+1``, ``01``, ``1_0``, `` 1``,
    ``1.0`` are refused, which pydantic's lax integers take), and no more digits than
    ``largest`` has (refused before Python reads them); the range is the field's."""

    def check(value):
        if isinstance(value, str):
            if not _DIGITS.fullmatch(value):
                raise PydanticCustomError(
                    "int_plain_digits", "Input should be a whole number in plain digits 0-9, "
                    "without a sign, a leading zero, spaces, underscores or a fraction")
            if len(value) > len(str(largest)):
                raise PydanticCustomError("less_than_equal",
                                          "Input should be less than or equal to {le}",
                                          {"le": largest})
        return value

    return BeforeValidator(check)


Slug = Annotated[str, Path(pattern=r"^[-a-zA-Z0-9_]+$", max_length=50)]
Id = Annotated[int, plain_number(MAX_ID), Path(ge=1, le=MAX_ID)]

# The switch of each part of a tournament's public data (``Tournament.public_*``).
STANDINGS, RESULTS, PLAYERS, PENALTIES = ("public_standings", "public_results",
                                          "public_players", "public_penalties")


def public_tournament(slug: str, switch: str | None = None) -> Tournament:
    """The tournament of the address as anyone sees it: 404 in set-up (the API has no
    staff preview) and while ``switch`` is off."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not tournament.is_public:
        raise Http404("no such tournament")
    if switch is not None and not getattr(tournament, switch):
        raise Http404(f"not public in this tournament ({switch.replace('_', ' ')} is off)")
    return tournament


class PageIn(Schema):
    limit: int = Field(100, ge=1, le=500, description="items per page (1–500)")
    offset: int = Field(0, ge=0, le=1_000_000, description="items skipped")


def page(items: QuerySet | Sequence, params: PageIn) -> dict[str, Any]:
    """One page of a list in a stable order: a queryset is counted and sliced in the
    database (two queries), a list in Python."""
    count = items.count() if isinstance(items, QuerySet) else len(items)
    chunk = items[params.offset:params.offset + params.limit] if params.offset < count else []
    return {"count": count, "limit": params.limit, "offset": params.offset,
            "items": list(chunk)}


# References ---------------------------------------------------------------------------------

def names_out(thing: Team | Stage | Tournament) -> dict:
    """``name``, ``other_name`` and ``display_name`` (the one the reader's language shows
    first: tournament.names)."""
    return {"name": thing.name, "other_name": thing.other_name,
            "display_name": names.shown_name(thing)}


def team_ref(team: Team) -> dict:
    return {"id": team.pk, "code": team.code, **names_out(team)}


def player_ref(player: Player, team: Team | None = None) -> dict:
    return {"id": player.pk, "name": player.name, "number": player.number,
            "team": team_ref(team or player.team)}


def player_out(player: Player) -> dict:
    return {"id": player.pk, "name": player.name, "number": player.number,
            "reserve": player.is_reserve}


def stage_ref(stage: Stage) -> dict:
    return {"id": stage.pk, **names_out(stage), "kind": stage.kind, "order": stage.order}


def round_ref(round_: Round) -> dict:
    return {"id": round_.pk, "stage": stage_ref(round_.stage), "number": round_.number,
            "status": round_.status, "status_word": str(round_.get_status_display())}


def match_line(line: MatchLine) -> dict:
    match = line.match
    forfeited = line.forfeited_by
    return {
        "id": match.pk, "round_id": match.round_id, "number": match.number,
        "group": {"id": match.group.pk, "name": match.group.name} if match.group else None,
        "home": team_ref(match.home), "away": team_ref(match.away),
        # The first version's state, kept; the pages' state and word (tournament.states).
        "state": states.FIRST_API_STATE.get(line.state, line.state),
        "status": line.state, "status_word": line.state_word,
        "entered": line.entered, "to_enter": line.to_enter, "shown": line.shown,
        "home_total": line.home_total, "away_total": line.away_total,
        "home_match_points": line.home_points, "away_match_points": line.away_points,
        "provisional": line.provisional,
        "winner": {Side.HOME: "home", Side.AWAY: "away"}.get(line.winner, ""),
        "forfeited_by": team_ref(forfeited) if forfeited is not None else None,
    }


def hand_result(result: HandResult | None) -> dict | None:
    """A result the public may see (never the cards of a cards-mode entry)."""
    if result is None:
        return None
    return {"outcome": result.outcome, "declarer_seat": result.declarer_seat,
            "declarer_deadwood": result.declarer_deadwood,
            "opponent_deadwood": result.opponent_deadwood,
            "false_knock_seat": result.false_knock_seat,
            "seat1_points": result.seat1_points, "seat2_points": result.seat2_points,
            "explanation": result.explanation}


def two_places(value) -> str | None:
    return None if value is None else str(value)
