"""What a shared cache in front may keep (issue 53; tournament/cache_headers.py): every kind
of public address of the demo, read anonymously, signed in and as a table device.

An anonymous reader's page, download or API answer is ``public`` with a short ``s-maxage``
and a ``stale-while-revalidate`` no longer than the grace, an ETag and a Last-Modified that
answer 304, and no ``Vary: Cookie``; what anyone signed in or a device is answered, and
every staff page, refusal or POST, is ``private, no-store``."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import URLPattern, reverse

from tournament import public_cache
from tournament import urls as site_urls
from tournament.models import Deal, Group, Match, Player, Round, Stage, Team
from tournament.selectors.bulletin import bulletin_days

pytestmark = pytest.mark.django_db


def public_addresses(tournament) -> dict[str, str]:
    """One address of every public route of the demo, by route name."""
    slug = tournament.slug
    closed = (Round.objects.filter(stage__tournament=tournament, status=Round.Status.CLOSED)
              .order_by("pk").first())
    stage = Stage.objects.filter(tournament=tournament).order_by("pk").first()
    group = Group.objects.filter(stage__tournament=tournament).select_related("stage").first()
    match = Match.objects.filter(round=closed).first()
    deal = Deal.objects.filter(round=closed).first()
    team = Team.objects.filter(tournament=tournament).first()
    player = Player.objects.filter(team=team).first()
    day = bulletin_days(tournament)[0].isoformat()
    args = {
        "home": [], "tournament": [slug], "rounds": [slug], "round": [slug, closed.pk],
        "hand_records": [slug, closed.pk], "travellers": [slug, closed.pk],
        "traveller": [slug, closed.pk, deal.pk], "field": [slug],
        "stage_field": [slug, stage.pk], "match": [slug, match.pk],
        "standings": [slug], "stage_standings": [slug, stage.pk],
        "group_standings": [slug, group.stage.pk, group.pk], "individual": [slug],
        "stage_individual": [slug, stage.pk], "teams": [slug], "team": [slug, team.pk],
        "player": [slug, player.pk], "penalties": [slug], "bulletin": [slug],
        "day_bulletin": [slug, day], "deal_check": [slug], "screen": [slug],
        "screen_fragment": [slug], "standings_export": [slug, "csv"],
        "final_ranking_export": [slug, "xlsx"],
        "stage_standings_export": [slug, stage.pk, "csv"],
        "group_standings_export": [slug, group.stage.pk, group.pk, "xlsx"],
        "individual_export": [slug, "csv"], "stage_individual_export": [slug, stage.pk, "csv"],
        "round_export": [slug, closed.pk, "csv"], "travellers_export": [slug, closed.pk, "csv"],
        "traveller_export": [slug, closed.pk, deal.pk, "xlsx"],
        "penalties_export": [slug, "csv"],
        # The persons across events (issue 55): the site's, not the tournament's.
        "persons": [], "person": [player.person_id], "master_points": [],
        "persons_export": ["csv"], "master_points_export": ["xlsx"],
    }
    return {name: reverse(f"public:{name}", args=values) for name, values in args.items()}


def api_addresses(tournament) -> list[str]:
    slug = tournament.slug
    closed = (Round.objects.filter(stage__tournament=tournament, status=Round.Status.CLOSED)
              .order_by("pk").first())
    stage = Stage.objects.filter(tournament=tournament).order_by("pk").first()
    return [
        "/api/tournaments", f"/api/tournaments/{slug}", f"/api/tournaments/{slug}/standings",
        f"/api/tournaments/{slug}/stages/{stage.pk}/standings",
        f"/api/tournaments/{slug}/rounds/{closed.pk}/boxes",
        f"/api/tournaments/{slug}/teams", f"/api/tournaments/{slug}/players",
        "/api/openapi.json", "/api/docs", "/api/persons", "/api/ratings",
    ]


def test_every_public_route_is_walked_here(live_demo):
    """A public route added later is added here too."""
    named = {pattern.name for pattern in site_urls.public_patterns
             if isinstance(pattern, URLPattern)}
    assert named - {"demo_build"} == set(public_addresses(live_demo))


def assert_public(response, address: str):
    assert response.status_code == 200, address
    control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"public", "max-age=0", "s-maxage=1", "stale-while-revalidate=1"} == control, \
        address
    assert response.has_header("ETag") and response.has_header("Last-Modified"), address
    assert "Cookie" not in response.get("Vary", ""), address
    assert "Accept-Encoding" in response["Vary"], address
    assert not response.cookies, address
    # nginx's own expiry, absolute: at most s-maxage, not a second more (cache_headers.py)
    expires = int(response["X-Accel-Expires"].removeprefix("@"))
    assert time.time() - 5 < expires <= time.time(), address


def assert_private(response, address: str):
    control = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    assert {"private", "no-store"} <= control and "public" not in control, \
        (address, response.status_code, control)
    assert not response.has_header("X-Accel-Expires"), address


@override_settings(PUBLIC_CACHE_SECONDS=300)  # as shipped: the application keeps pages
def test_an_anonymous_reader_gets_answers_a_shared_cache_may_keep(live_demo):
    public_cache.invalidate(live_demo.slug)  # nothing kept by another test's demo
    client = Client()
    for address in public_addresses(live_demo).values():
        response = client.get(address)
        assert_public(response, address)
        assert "Accept-Language" not in response["Vary"], address  # the address says it
        again = client.get(address, HTTP_IF_NONE_MATCH=response["ETag"])
        assert again.status_code == 304 and again["ETag"] == response["ETag"], address
        assert "public" in again["Cache-Control"], address
        since = client.get(address, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
        assert since.status_code == 304, address
    for address in api_addresses(live_demo):
        response = client.get(address)
        assert_public(response, address)
        assert "Accept-Language" in response["Vary"], address  # the API's language


def test_a_page_older_than_the_reader_asks_is_sent_whole(live_demo):
    address = reverse("public:standings", args=[live_demo.slug])
    response = Client().get(address, HTTP_IF_MODIFIED_SINCE="Sat, 01 Jan 2000 00:00:00 GMT")
    assert response.status_code == 200
    # Not kept by the application (PUBLIC_CACHE_SECONDS=0): built now, so modified now, and
    # no If-Modified-Since is answered 304 by it (it may have changed within the second).
    assert_public(response, address)
    again = Client().get(address, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
    assert again.status_code == 200
    stale = Client().get(address, HTTP_IF_NONE_MATCH='"not-this-one"',
                         HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
    assert stale.status_code == 200  # If-None-Match decides when it is sent (RFC 9110)


@override_settings(PUBLIC_CACHE_SECONDS=300)
def test_a_kept_page_carries_the_same_headers(live_demo):
    client = Client()
    address = reverse("public:standings", args=[live_demo.slug])
    first = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    kept = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert kept["X-Public-Cache"] == "hit"
    for response in (first, kept):
        assert_public(response, address)
        assert response["Vary"] == "Accept-Encoding"
    since = client.get(address, HTTP_IF_MODIFIED_SINCE=kept["Last-Modified"])
    assert since.status_code == 304 and since["ETag"] == first["ETag"].removeprefix("W/")


def test_what_a_signed_in_person_sees_is_kept_by_no_one(live_demo):
    director = get_user_model().objects.create_superuser("headers-root", "", "x" * 12)
    client = Client()
    client.force_login(director)
    addresses = [*public_addresses(live_demo).values(), *api_addresses(live_demo),
                 reverse("director:dashboard", args=[live_demo.slug]),
                 reverse("director:final_ranking", args=[live_demo.slug])]
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200, address
        assert_private(response, address)


def test_staff_addresses_refusals_and_posts_are_private_for_anyone(live_demo):
    client = Client()
    for address in (reverse("director:dashboard", args=[live_demo.slug]),
                    reverse("director:home"), reverse("login"), "/admin/",
                    "/t/no-such-event/", reverse("public:standings", args=["no-such"]),
                    "/api/tournaments/no-such", "/api/tables/1"):
        assert_private(client.get(address), address)
    assert_private(client.post(reverse("login"), {"username": "x", "password": "y"}),
                   "login POST")
    # A table device authenticates with a header: whatever it reads is its own.
    device = client.get(f"/api/tournaments/{live_demo.slug}",
                        HTTP_AUTHORIZATION="Bearer not-a-token")
    assert_private(device, "device")
    # A message waiting for an anonymous reader makes their page their own.
    client.cookies["messages"] = "anything"
    assert_private(client.get(reverse("public:standings", args=[live_demo.slug])),
                   "messages")


def test_static_files_are_answered_before_the_public_site_does_any_work():
    from django.conf import settings

    order = settings.MIDDLEWARE
    static = order.index("whitenoise.middleware.WhiteNoiseMiddleware")
    for later in ("tournament.public_cache.PublicCacheMiddleware",
                  "tournament.cache_headers.SharedCacheHeadersMiddleware",
                  "tournament.compression.AnonymousGZipMiddleware"):
        assert static < order.index(later), later
    assert order[0] == "django.middleware.security.SecurityMiddleware"
