"""The write API for table devices (issue 21; docs/api.md, "Table devices"): read a table,
enter a hand (by its figures or its cards), approve it, sign the table, sign a match off.

Each endpoint is an adapter of a few lines over ``services.commands``, with the same
permissions and the same table binding as the pages (``services.devices``): a scorer
account works at its one table of the round. Devices authenticate with their token
(``Authorization: Bearer …``, made with the device's account on the staff page and printed
on its slip); every command is idempotent by its request token, which is one command's
(its kind, account and target: reused for another, a 409); a refusal is JSON naming the
field it concerns. Numbers are JSON numbers: a string, even "3", is refused, as are "٣",
"1_0" and "+5" (the pages refuse them too), and a fraction (3.5; 3.0 is the integer 3, as
JSON Schema counts it); the numbers of the address are plain digits ("01", "+1", "1_0",
"1.0" are a 422). A table or match of a draft round is a 404, as one that does not exist.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import timezone
from django.views.decorators.cache import never_cache
from ninja import Router, Schema, Status
from ninja.decorators import decorate_view
from ninja.security import HttpBearer
from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from tournament import states
from tournament.api.base import Id, plain_number
from tournament.api.schemas import MatchStatus, ValidationErrors
from tournament.models import DeviceToken, HandResult, Match, Round, Table
from tournament.permissions import Perm, has_perm
from tournament.selectors.match_states import state_of_table
from tournament.selectors.results import match_as_saved, table_revisions, table_sheet
from tournament.selectors.visibility import result_view
from tournament.services import ServiceError, commands
from tournament.services.base import Actor, Stale
from tournament.services.cards import CardsEntry
from tournament.services.devices import check_table_for
from tournament.services.hands import HandEntry
from tournament.services.locking import shown_revision


class DeviceAuth(HttpBearer):
    """A table device's token: the account it belongs to, if active."""

    def authenticate(self, request, token):
        found = (DeviceToken.objects.select_related("user")
                 .filter(digest=DeviceToken.digest_of(token)).first())
        if found is None or not found.user.is_active:
            return None
        now = timezone.now()
        if found.last_used_at is None or (now - found.last_used_at).total_seconds() > 60:
            DeviceToken.objects.filter(pk=found.pk).update(last_used_at=now)
        request.user = found.user
        return found.user


router = Router(tags=["table devices"], auth=DeviceAuth())


def json_integer(value):
    """A JSON integer: ``12``, or ``12.0``, the same number in JSON (JSON Schema 2020-12,
    which the OpenAPI document speaks, calls both an integer, and a client checked against
    the document may send either); never a fraction, a string or a boolean."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise PydanticCustomError("int_type", "Input should be a valid integer")


# The range on the integer itself, the JSON integer read before it (a range after the
# reading would leave the document's integer without its minimum and maximum).
Seat = Annotated[int, Field(ge=1, le=2), BeforeValidator(json_integer)]
Count = Annotated[int, Field(ge=0, le=98), BeforeValidator(json_integer)]
Number = Annotated[int, Field(ge=0, le=2_147_483_647), BeforeValidator(json_integer)]
HandNumber = Annotated[int, Field(ge=1, le=32_767), plain_number(32_767)]


class Refusal(Schema):
    detail: str  # the reason, in the reader's language (Accept-Language)
    field: str | None = None  # the input it is about, when it is about one
    errors: dict[str, list[str]] = {}  # every input with its messages


class Figures(Schema):
    outcome: Literal["knock", "gin", "big_gin", "draw"]
    declarer_seat: Seat | None = None
    declarer_deadwood: Count | None = None
    opponent_deadwood: Count | None = None
    false_knock_seat: Seat | None = None
    false_knock_deadwood: Count | None = None


class Cards(Schema):
    outcome: Literal["knock", "gin", "big_gin"] | None = None  # checked against the cards
    declarer_seat: Seat
    declarer_cards: str = Field(max_length=120)
    opponent_cards: str = Field(max_length=120)
    declarer_melds: str = Field("", max_length=120)


def one_of_figures_or_cards(schema: dict) -> None:
    """EnterIn in the OpenAPI document: its fields, and ``oneOf`` its two kinds of body,
    EnterFigures and EnterCards, each with its one required way of giving the hand (the
    other absent or null) and the fields they share: a body with both or neither is
    invalid, and a generated client gets a model for each kind (a branch naming only what
    is required, without the fields, gave it none)."""
    properties, required = schema["properties"], schema.get("required", [])
    shared = {name: value for name, value in properties.items()
              if name not in ("figures", "cards")}
    schema["oneOf"] = [
        {"type": "object", "title": title, "required": [name, *required],
         "properties": {name: next(part for part in properties[name]["anyOf"]
                                   if part.get("type") != "null"), **shared}}
        for name, title in (("figures", "EnterFigures"), ("cards", "EnterCards"))]


class EnterIn(Schema):
    """Exactly one of ``figures`` and ``cards`` (the other absent or null)."""

    model_config = {"json_schema_extra": one_of_figures_or_cards}

    figures: Figures | None = None
    cards: Cards | None = None
    seen_version: Number  # the version the device showed; 0 for none
    request_token: uuid.UUID
    reason: str = Field("", max_length=500)  # a referee's correction after sign-off


class ApproveIn(Schema):
    seat: Seat
    version: Number
    request_token: uuid.UUID
    pin: str | None = Field(None, max_length=20)


class SignIn(Schema):
    seat: Seat
    revision: Number  # the table's revision the device showed
    request_token: uuid.UUID
    pin: str | None = Field(None, max_length=20)


class SignOffIn(Schema):
    revision: Number  # the match's revision the referee saw
    request_token: uuid.UUID


class DeviceResultOut(Schema):
    version: int
    outcome: str
    declarer_seat: int | None
    declarer_deadwood: int | None
    opponent_deadwood: int | None
    false_knock_seat: int | None
    false_knock_deadwood: int | None
    seat1_points: int
    seat2_points: int
    explanation: str
    approved_by: list[int]


class DeviceHandOut(Schema):
    hand: int
    dealer_seat: int
    entered: bool
    result: DeviceResultOut | None  # None: not entered, or not for this device's eyes yet


class DeviceTableOut(Schema):
    id: int
    number: int
    round: int
    match: int
    revision: int  # what a signature names
    match_revision: int  # what a sign-off names
    hands: list[DeviceHandOut]
    signed: list[int]
    ready_to_sign: bool
    signed_off: bool
    status: MatchStatus  # the table's state (docs/results.md, "States")
    status_word: str  # its word, in the reader's language


class DeviceMatchOut(Schema):
    id: int
    number: int
    revision: int
    signed_off: bool
    home_total: int | None
    away_total: int | None


REFUSED = {400: Refusal, 401: Refusal, 403: Refusal, 404: Refusal, 409: Refusal,
           422: ValidationErrors}


def _refusal(error: Exception, status: int = 400) -> Status:
    message = getattr(error, "message", None) or str(error)
    errors = {name: [str(m) for m in messages]
              for name, messages in getattr(error, "field_errors", {}).items()}
    return Status(status, {"detail": str(message), "field": next(iter(errors), None),
                           "errors": errors})


def _run(command):
    """A command's answer, or its refusal as JSON (409 when what the device showed has
    moved on)."""
    try:
        return command()
    except Stale as error:
        return _refusal(error, 409)
    except PermissionDenied as error:
        return _refusal(error, 403)
    except ServiceError as error:
        return _refusal(error, 400)


def _actor(request) -> Actor:
    return Actor.from_request(request)


def _table(request, table_id: int) -> Table:
    """The table, as one that does not exist when it is another tournament's or its round
    is a draft (never read, never bound, nothing named: the API has no staff preview)."""
    table = (Table.objects.select_related("match__round__stage__tournament", "match__home",
                                          "match__away").filter(pk=table_id).first())
    if table is None or not _may_see(request, table.match.round):
        raise Http404("no such table")
    return table


def _may_see(request, round_: Round) -> bool:
    return round_.status != Round.Status.DRAFT and has_perm(
        request.user, round_.stage.tournament, Perm.ENTER_RESULTS)


def _result_out(result: HandResult, approved: set[int]) -> dict:
    return {"version": result.version, "outcome": result.outcome,
            "declarer_seat": result.declarer_seat,
            "declarer_deadwood": result.declarer_deadwood,
            "opponent_deadwood": result.opponent_deadwood,
            "false_knock_seat": result.false_knock_seat,
            "false_knock_deadwood": result.false_knock_deadwood,
            "seat1_points": result.seat1_points, "seat2_points": result.seat2_points,
            "explanation": result.explanation, "approved_by": sorted(approved)}


def _table_out(request, table: Table) -> dict:
    table.refresh_from_db(fields=["revision"])
    match, tables = match_as_saved(table.match_id)
    view = result_view(request.user, table.match.round, own_table=table.pk)
    sheet = table_sheet(table, view)
    match.round = table.match.round  # read with the table
    status = state_of_table(match, sheet)
    return {"id": table.pk, "number": table.number, "round": table.round_id,
            "match": table.match_id, "revision": table.revision,
            "match_revision": shown_revision(match, tables),
            "hands": [{"hand": row.hand, "dealer_seat": row.dealer_seat,
                       "entered": row.result is not None or row.hidden,
                       "result": _result_out(row.result, row.approved) if row.result
                       else None} for row in sheet.rows],
            "signed": sorted(sheet.signed), "ready_to_sign": sheet.ready_to_sign,
            "signed_off": match.signed_off_at is not None,
            "status": status, "status_word": states.word(status)}


def _at_table(request, table: Table, command) -> Status:
    """A command at a table, answered with the table as it is now (201), or its refusal."""
    answer = _run(lambda: command(_actor(request)))
    if isinstance(answer, Status):
        return answer
    return Status(201, _table_out(request, table))


@router.get("/tables/{table_id}", response={200: DeviceTableOut, **REFUSED})
@decorate_view(never_cache)  # a device's answer, never the public cache's
def read_table(request, table_id: Id):
    """The table as this device may see it: each hand's current result (its version, the
    seats that approved it), the signatures, the table's and the match's revisions. A
    scorer account's first table of the round becomes its table."""
    table = _table(request, table_id)
    try:
        check_table_for(_actor(request), table)
    except PermissionDenied as error:
        return _refusal(error, 403)
    return _table_out(request, table)


@router.post("/tables/{table_id}/hands/{hand}", response={201: DeviceTableOut, **REFUSED})
@decorate_view(never_cache)  # a device's answer, never the public cache's
def enter_hand(request, table_id: Id, hand: HandNumber, body: EnterIn):
    """Enter a hand: ``figures`` (the counts) or ``cards`` (both final hands; the engine
    works out the counts by the rules alone), the version the device showed, a request
    token. The same token again answers the same; a stale ``seen_version`` is a 409 that
    says what the hand holds now."""
    table = _table(request, table_id)
    if (body.figures is None) == (body.cards is None):
        detail = ("give the hand's figures or its cards, not both" if body.figures
                  else "give the hand's figures or its cards")
        return Status(400, {"detail": detail, "field": "figures",
                            "errors": {"figures": ["figures or cards"]}})
    if body.figures is not None:
        value = HandEntry(**body.figures.dict())
    else:
        cards = body.cards
        value = CardsEntry(declarer_seat=cards.declarer_seat,
                           declarer_cards=cards.declarer_cards,
                           opponent_cards=cards.opponent_cards,
                           declarer_melds=cards.declarer_melds, claimed=cards.outcome)
    return _at_table(request, table, lambda actor: commands.enter(
        actor, table.pk, hand, value, seen_version=body.seen_version,
        request_token=body.request_token, reason=body.reason))


@router.post("/tables/{table_id}/hands/{hand}/approvals", response={201: DeviceTableOut, **REFUSED})
@decorate_view(never_cache)  # a device's answer, never the public cache's
def approve_hand(request, table_id: Id, hand: HandNumber, body: ApproveIn):
    """A player approves the version of the hand the device showed (409 when another
    version was saved since: nothing is approved)."""
    table = _table(request, table_id)
    return _at_table(request, table, lambda actor: commands.approve(
        actor, table.pk, hand, body.seat, version=body.version,
        request_token=body.request_token, pin=body.pin))


@router.post("/tables/{table_id}/signatures", response={201: DeviceTableOut, **REFUSED})
@decorate_view(never_cache)  # a device's answer, never the public cache's
def sign_table(request, table_id: Id, body: SignIn):
    """A player signs the table as the device showed it (its ``revision``)."""
    table = _table(request, table_id)
    return _at_table(request, table, lambda actor: commands.sign(
        actor, table.pk, body.seat, revision=body.revision,
        request_token=body.request_token, pin=body.pin))


@router.post("/matches/{match_id}/sign-off", response={200: DeviceMatchOut, **REFUSED})
@decorate_view(never_cache)  # a device's answer, never the public cache's
def sign_off(request, match_id: Id, body: SignOffIn):
    """The referee signs the match off as it was shown (its ``revision``)."""
    match = Match.objects.select_related("round__stage__tournament").filter(pk=match_id).first()
    if match is None or not _may_see(request, match.round):
        return Status(404, {"detail": "no such match", "field": None, "errors": {}})
    answer = _run(lambda: commands.sign_off(_actor(request), match.pk,
                                            revision=body.revision,
                                            request_token=body.request_token))
    if isinstance(answer, Status):
        return answer
    tables = table_revisions(answer)
    return Status(200, {"id": answer.pk, "number": answer.number,
                        "revision": shown_revision(answer, tables),
                 "signed_off": answer.signed_off_at is not None,
                 "home_total": answer.home_total, "away_total": answer.away_total})
