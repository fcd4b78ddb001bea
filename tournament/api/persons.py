"""Persons across events (issue 55): ``/api/persons`` (by name), ``/api/persons/{id}`` (a
profile) and ``/api/ratings`` (the rating list). What the public sees of a person and of
each event is ``selectors.persons``' rule, as on the pages: a hidden person is 404 and on
no list."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Query, Router
from pydantic import Field

from tournament import names
from tournament.api.base import Id, PageIn, page
from tournament.api.person_schemas import PersonDetail, PersonPage, RatingPage
from tournament.api.schemas import Error, ValidationErrors
from tournament.models import Person
from tournament.selectors.persons import person_profile, rating_list, shown_persons

router = Router(tags=["persons and ratings"])
HUNDREDTH = Decimal("0.01")  # a sum's places are the database's: always two here


class ListFilters(PageIn):
    # No NUL byte: PostgreSQL refuses it in a query, and no name holds one.
    country: str = Field("", max_length=100, pattern=r"^[^\x00]*$",
                         description="only this country (any case)")
    federation: str = Field("", max_length=20, pattern=r"^[^\x00]*$",
                            description="only this federation (any case)")


def _rating(rating) -> dict | None:
    if rating is None:
        return None
    return {"rating": round(rating.rating, 1), "deviation": round(rating.deviation, 1),
            "hands": rating.hands, "provisional": rating.provisional}


def person_out(person: Person, rating, points: Decimal | None) -> dict:
    return {"id": person.pk, "name": person.name, "other_name": person.other_name,
            "display_name": names.shown_name(person), "country": person.country,
            "federation": person.federation, "rating": _rating(rating),
            "master_points": (points or Decimal(0)).quantize(HUNDREDTH)}


@router.get("/persons", response={200: PersonPage, 422: ValidationErrors})
def person_list(request, params: Query[ListFilters]):
    """Every person the public may see, by name."""
    persons = shown_persons().select_related("rating").annotate(
        points=Sum("master_points__points")).order_by("name", "pk")
    if params.country:
        persons = persons.filter(country__iexact=params.country)
    if params.federation:
        persons = persons.filter(federation__iexact=params.federation)
    result = page(persons, params)
    result["items"] = [person_out(p, getattr(p, "rating", None), p.points)
                       for p in result["items"]]
    return result


@router.get("/ratings", response={200: RatingPage, 422: ValidationErrors})
def ratings(request, params: Query[ListFilters]):
    """The rating list, best first: every rated person the public may see."""
    rows = rating_list(country=params.country, federation=params.federation)
    result = page(rows, params)
    result["items"] = [{"rank": row.rank, **person_out(row.person, row.rating,
                                                        row.master_points)}
                       for row in result["items"]]
    return result


@router.get("/persons/{person_id}", response={200: PersonDetail, 404: Error,
                                              422: ValidationErrors})
def person_detail(request, person_id: Id):
    """A person's events (as each event's public pages show them), rating and master
    points."""
    person = get_object_or_404(Person, pk=person_id)
    profile = person_profile(person)
    if profile is None:
        raise Http404("no such person")
    return {
        **person_out(person, profile.rating, profile.master_points),
        "events": [{
            "tournament": line.tournament.slug, "tournament_name": names.shown_name(
                line.tournament), "ends_on": line.tournament.ends_on,
            "team_code": line.player.team.code,
            "team_name": names.shown_name(line.player.team), "player_id": line.player.pk,
            "place": line.place, "teams": line.places, "hands": line.hands,
            "points": line.points, "per_hand": line.per_hand,
            "against_field": line.against_field, "rating_after": _rating(line.rating),
            "master_points": line.master_points,  # a stored Decimal(8, 2)
        } for line in profile.events],
    }



