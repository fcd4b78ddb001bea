"""Every route of the project, and its parameters filled with ids of the kind its path names,
for the tests that walk every address (deal secrecy, results kept back, bad input).

A route says what its ids are: ``rounds/<int:pk>/`` takes a round, ``matches/<int:pk>/`` a
match, ``boxes/<int:deal_pk>/`` a deal. Filling each parameter from the candidates of its
kind, rather than every id from every kind, walks the same pages with a fraction of the
requests (most of the others only answered 404), and reaches pages such as a match's that a
round's id never opened.
"""

import re

from django.urls import URLPattern, URLResolver, get_resolver

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def all_routes(resolver=None, prefix=""):
    """Every URL pattern of the project as a route string with <converter:name> parts."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from all_routes(pattern, route)
        elif isinstance(pattern, URLPattern):
            yield route


def printout_kinds(route: str) -> list[str] | None:
    """The kinds a route's ``<slug:kind>`` takes, from the views' own lists, so that a new
    printout or download is walked without changing the tests."""
    from tournament.views.director import deals, rounds
    from tournament.views.director.individual import DOWNLOADS as INDIVIDUAL
    from tournament.views.director.placings import DOWNLOADS as RANKING
    from tournament.views.director.standings import DOWNLOADS as STANDINGS
    from tournament.views.public.exports import KINDS

    if route.endswith("deals/<slug:kind>.pdf"):
        return list(deals.PRINTOUTS)
    if route.endswith("cards/<slug:kind>.pdf"):
        return ["scorecards", "blank-scorecard", "result-slips"]
    if route.endswith("<slug:kind>.pdf"):
        return list(rounds.PRINTOUTS)
    if not route.endswith(".<slug:kind>"):
        return None
    if route.startswith("t/"):
        return list(KINDS)
    if "final-ranking" in route:
        return list(RANKING)
    return list(INDIVIDUAL if "individual" in route else STANDINGS)


def segment_before(route: str, start: int) -> str:
    """The path word just before a parameter: ``rounds`` for ``…rounds/<int:pk>/``."""
    words = re.findall(r"[\w-]+", PARAMETER.sub("", route[:start]))
    return words[-1] if words else ""


def fill(route, values):
    """Every way to fill a route's parameters from ``values``.

    ``values`` maps either the path word before a parameter (``"rounds"``, ``"matches"``,
    ``"tables"``, ``"boxes"``, ``"lineup"``…) or the parameter's name (``"pk"``,
    ``"hand"``) to candidates; the path word wins. ``kind`` comes from ``values`` when
    given, else from the view's own list of printouts or downloads; anything else is 1.
    """
    urls = [route]
    for match in PARAMETER.finditer(route):
        name = match.group(2)
        segment = segment_before(route, match.start())
        if name == "kind":
            candidates = values.get("kind") or printout_kinds(route) or ["1"]
        elif segment in values:
            candidates = values[segment]
        elif name in values:
            candidates = values[name]
        else:
            candidates = ["1"]
        urls = [url.replace(match.group(0), str(c), 1) for url in urls for c in candidates]
    return ["/" + url.lstrip("^").rstrip("$").replace("\\Z", "") for url in urls]
