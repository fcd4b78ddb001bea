"""Every page of the site a reader reaches by its links, for the checks run on all of them
(the Nu HTML checker, axe-core; issue 56, item 5).

A walk starts at some addresses and follows every link (and every ``hx-get``) in the site,
as one reader (a Django test client with its login and language cookie), and keeps the HTML
pages (and the fragments that ``hx-get`` loads into them): downloads and printouts (a path
whose last word has a dot), Django's own admin, the JSON API (but its docs page) and the
language switch are not walked. It takes a few pages of each address (two of a match and of
a round, whose pages differ with their state), so that its cost follows the number of
kinds of page, not the size of the event."""

from __future__ import annotations

import itertools
from collections import Counter, deque
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.test import Client
from django.urls import Resolver404, resolve
from django.utils import translation

from tests.conftest import new_staff, new_team, new_tournament
from tests.tournament.views.public_event import build_event
from tournament.models import Tournament
from tournament.services import Actor
from tournament.services.draw import generate_round

NOT_WALKED = ("/admin/", "/api/", "/static/", "/i18n/")
PAGES_PER_ROUTE = Counter({"public:match": 2, "public:round": 2, "director:round_detail": 2,
                           "director:match_page": 2})


@dataclass
class Page:
    url: str
    route: str  # the view's name: "public:match"
    html: str
    language: str  # the language it was read in: "en", "zh-hans"

    @property
    def fragment(self) -> bool:
        """A part of a page (what ``hx-get`` loads), not a document."""
        return not self.html.lstrip()[:15].lower().startswith("<!doctype html")


class Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        for name in ("hx-get", "data-hx-get"):
            if attrs.get(name):
                self.links.append(attrs[name])


def links_of(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    return parser.links


def walked(path: str) -> bool:
    """Whether the walk reads the address: an HTML page of the site (the API's docs page is
    one)."""
    if path != "/api/docs" and path.startswith(NOT_WALKED):
        return False
    return "." not in path.rstrip("/").rsplit("/", 1)[-1]


def walk(client: Client, starts: list[str], language: str, *,
         per_route: Counter | None = None, keep=None, **headers) -> list[Page]:
    """The HTML pages reached from ``starts`` by links, read in ``language`` (a public
    address is reached in its language's form, /zh-hans/…; a staff page speaks the client's
    language cookie, which the caller sets); only the routes ``keep(route)`` says yes to,
    when given."""
    per_route = PAGES_PER_ROUTE if per_route is None else per_route
    queue, seen, taken, pages = deque(starts), set(starts), Counter(), []
    while queue:
        url = queue.popleft()
        path = urlsplit(url).path
        if not walked(path):
            continue
        try:
            with translation.override(language):
                route = resolve(path).view_name
        except Resolver404:
            continue  # a public address in the other language (the language switch)
        if taken[route] >= max(1, per_route[route]) or (keep and not keep(route)):
            continue
        taken[route] += 1
        response = client.get(url, **headers)
        if (response.status_code != 200
                or not response["Content-Type"].startswith("text/html")):
            continue
        html = response.content.decode()
        pages.append(Page(url, route, html, language))
        for link in links_of(html):
            target = urlsplit(urljoin(url, link.split("#")[0]))
            if target.netloc not in ("", "testserver"):
                continue
            address = target.path + (f"?{target.query}" if target.query else "")
            if address not in seen:
                seen.add(address)
                queue.append(address)
    return pages


def staff_only(route: str) -> bool:
    return not route.startswith("public:")


def swiss_event() -> Tournament:
    """A Swiss stage of five teams (a bye), a round closed and the next one drawn, a draft:
    the pages the demo's groups and knockout do not have."""
    tournament = new_tournament(name="Swiss Open", slug="swiss-open", venue="Graz")
    actor = Actor(user=new_staff(tournament, "director", "swiss-director"))
    numbers = itertools.count(1)
    event = build_event(actor, tournament, lambda t, **fields: new_team(t, next(numbers),
                                                                         **fields),
                        teams=5, closed=1, open_round=False)
    generate_round(actor, event.stage)
    return tournament
