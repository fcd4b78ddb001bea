"""The cache of the public site: whole responses, invalidated by the services, not by time.

Every public page (and API response) an anonymous reader gets is kept in the shared cache
under its address and language, with the *generation* of its tournament at the time it was
built. A state change of a tournament (every service call writes an audit entry:
``services.base.audit`` raises ``public_data_changed`` once its transaction commits) gives
the tournament, and the site, a new generation; an entry of an older generation is never
served again once it is built anew. Generations are random tokens, not counters, so an
evicted generation can never make an old entry current again. The time limit
(``PUBLIC_CACHE_SECONDS``) is only a safety net.

A round's own pages (its draw and results, its matches, its boxes) are kept under finer
generations: a hand saved, approved or signed for at one match makes stale that match's
page, its round's pages that show every match, and the tournament's summing-up pages
(standings, overview, players), never another round's page nor, unless a box's results
show only once finished everywhere, another match's; any other change makes stale every
page of the tournament (``_names``).

While results stream in, every save is a change: rather than have a hall of readers wait
for pages built again and again, every reader of an out-of-date page gets the copy before
it, and a page is built at most once per ``PUBLIC_CACHE_GRACE_SECONDS`` (1 s): a public
page is at most that long behind the database, plus the time it takes to build. What the
copy shows was public when it was built. The reader who finds the copy out of date (one
at a time: a lock in the cache) is answered with it too when it was built less than twice
the grace ago, and the page is built again once that answer has gone, before the process
takes its next request (``KeptPage.close``, which the WSGI or ASGI server calls after
sending the last byte): while results stream in nobody waits for a page built again, as
with a shared cache's ``stale-while-revalidate`` and nginx's
``proxy_cache_background_update``. An older copy (a page nobody read for a while) is built
again while that reader waits, and so is every page with no grace (0): no reader is given
a page more than twice the grace behind the database. A page whose address no longer
shows it (hidden by a switch, a round put back in set-up) drops its copy when built.

``PublicCacheMiddleware`` sits first in the middleware, so a cached answer is given before
sessions, authentication, CSRF and the rest run. Only readers without a session (and without
a message waiting for them) are served from it, and only responses that a public view marked
cacheable (``cache_public``) and that set no cookie are stored. With several application
processes the cache must be shared (``CACHE_URL`` pointing to Redis); the local-memory
default serves a single process.

A page is compressed once, when it is built, and the gzip copy kept beside the plain one: a
phone that asks for gzip (every browser does) gets 17 KiB instead of the 241 KiB of a
512-team standings page, and no process compresses it again per request. Nothing kept is personal
(no session, no CSRF token), so compression reveals nothing a reader could not read.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import logging
import secrets
import threading
import time
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import DisallowedHost
from django.dispatch import receiver
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from tournament import first_start
from tournament.kept_pages import COMPRESS_FROM, SCOPE_MARK, answer, last_modified
from tournament.services.events import public_data_changed

logger = logging.getLogger(__name__)

SITE = "site"  # the generation of pages that show every tournament (the list of them)
API_PREFIX = "/api/"
_ROUND = "_public_cache_round"


def cache():
    return caches[getattr(settings, "PUBLIC_CACHE_ALIAS", "default")]


def seconds() -> int:
    return getattr(settings, "PUBLIC_CACHE_SECONDS", 300)


def grace() -> float:
    """How long an out-of-date page may still be served after it was built."""
    return getattr(settings, "PUBLIC_CACHE_GRACE_SECONDS", 1.0)


BUILD_SECONDS = 10  # a reader building a page again holds it this long at most


def _generation_key(scope: str) -> str:
    # Hashed: the scope is a short name taken from the address as typed, which may be
    # longer than a cache key may be (memcached: 250 characters, no spaces).
    return "public:generation:" + hashlib.sha256(scope.encode()).hexdigest()[:32]


def generation(scope: str) -> str:
    """The current generation of a tournament (by slug) or of the site."""
    return generations([scope])[scope]


def generations(scopes: list[str]) -> dict[str, str]:
    """The current generations of these scopes, in one round trip to the cache (and one
    more for each that has none yet)."""
    store = cache()
    keys = {_generation_key(scope): scope for scope in scopes}
    found = store.get_many(list(keys))
    for key in keys.keys() - found.keys():
        store.add(key, secrets.token_hex(8), timeout=None)
        found[key] = store.get(key)
    return {scope: found[key] for key, scope in keys.items()}


# A round's own pages (its draw, its matches, its boxes' travellers, its hand records) show
# that round alone: a hand saved in round 5 leaves round 4's pages as they were, and a hand
# saved at match 3 leaves the page of match 4 as it was, unless the public sees a box's
# results only once every table has it approved (``finished_boxes``: one approval can show
# a box on every match page of the round). Such pages are kept under generations of their
# own instead of the tournament's one:
# - ``#general``: every change but a round's results (a team renamed, a round closed, ...);
# - ``#round:R``: a change of round R's results that any page of the round may show;
# - ``#lines:R``: any change of round R's results (the round's page, its travellers);
# - ``#match:M``: a change of match M's results.
# The round's page and its travellers follow general, round and lines; a match's page
# general, round and match. The tournament's other pages (standings, the overview, the
# players) follow the tournament's own generation, which every change renews.
def _names(slug: str, round_pk: int, match_pk: int | None) -> list[str]:
    """The generations a page of this round (and match) is kept under."""
    last = f"{slug}#lines:{round_pk}" if match_pk is None else f"{slug}#match:{match_pk}"
    return [f"{slug}#general", f"{slug}#round:{round_pk}", last]


def _joined(found: dict[str, str], names: list[str]) -> str:
    return "+".join(found[name] for name in names)


def invalidate(slug: str | None, round_pk: int | None = None,
               match_pk: int | None = None) -> None:
    """A tournament's public data changed: its pages and the site's are built again. With
    ``round_pk``, a change of that round's results alone: of the rounds' own pages, only
    that round's; with ``match_pk`` too, of the round's match pages only that match's."""
    scopes = [SITE]
    if slug:
        scopes.append(slug)
        if round_pk is None:
            scopes.append(f"{slug}#general")
        elif match_pk is None:
            scopes.append(f"{slug}#round:{round_pk}")
        else:
            scopes += [f"{slug}#lines:{round_pk}", f"{slug}#match:{match_pk}"]
    cache().set_many({_generation_key(scope): secrets.token_hex(8) for scope in scopes},
                     timeout=None)


@receiver(public_data_changed)
def _on_public_data_changed(sender, slug=None, round=None, match=None, **kwargs):
    invalidate(slug, round, match)


def mark_round(response, round_pk: int, match_pk: int | None = None) -> None:
    """The response is a page of this round (and match) alone (see ``_names``)."""
    setattr(response, _ROUND, (round_pk, match_pk))


def cache_public(scope_of=None):
    """Mark a view's successful responses as public and cacheable. ``scope_of(request,
    *args, **kwargs)`` names the tournament (its slug) they belong to; by default the
    ``slug`` argument of the URL, else the site."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            response = view(request, *args, **kwargs)
            scope = scope_of(request, *args, **kwargs) if scope_of else kwargs.get("slug")
            setattr(response, SCOPE_MARK, scope or SITE)
            return response

        return wrapper

    return decorate


def mark_public(response, scope: str | None) -> None:
    """The same mark for a response made elsewhere (the JSON API)."""
    setattr(response, SCOPE_MARK, scope or SITE)


_RELEASE_FILES = (".py", ".html", ".mo", ".css", ".js")


@functools.cache
def release() -> str:
    """A digest of the code, templates and translations that build the pages, worked out
    once per process: pages are kept under it, so after an upgrade (or on a server not yet
    upgraded) no page built by another release is served, without anyone clearing the
    cache."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder in ("tournament", "scoring", "templates"):
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in _RELEASE_FILES and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def is_marked_public(response) -> bool:
    """Whether a public view (or this cache, handing out a kept page) marked it."""
    return getattr(response, SCOPE_MARK, None) is not None


def _entry_key(request) -> str:
    # The language the language middleware chose (from the address, or for the API from
    # Accept-Language): before this middleware, so always set here.
    language = getattr(request, "LANGUAGE_CODE", None) or get_language()
    address = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    digest = hashlib.sha256(address.encode()).hexdigest()[:32]
    return f"public:page:{release()}:{language}:{digest}"


# The pages this process served last, by key: a hit then costs one small read of the
# generation from the shared cache instead of the whole page. Only ever served when its
# generation is the current one.
_recent: dict[str, dict] = {}
RECENT_PAGES = 64


_recent_lock = threading.Lock()  # a worker of threads (serve's default) serves several


def _remember(key: str, entry: dict) -> None:
    with _recent_lock:
        if key not in _recent and len(_recent) >= RECENT_PAGES:
            _recent.pop(next(iter(_recent)))  # the oldest remembered
        _recent[key] = entry


def _forget(key: str) -> None:
    cache().delete(key)
    with _recent_lock:
        _recent.pop(key, None)


def _scopes(request) -> list[str]:
    """The site, and the tournament the address names (its ``slug``), if any."""
    try:
        slug = resolve(request.path_info).kwargs.get("slug")
    except Resolver404:
        return [SITE]
    return [SITE, slug] if slug else [SITE]


def _current(scope: str, entry: dict | None) -> str:
    """The generation a kept page of this scope must have to be current: for a round's
    page (the entry names its round, and match), its own ones (``_names``)."""
    place = entry.get("place") if entry is not None and scope != SITE else None
    if place is None:
        return generation(scope)
    names = _names(scope, *place)
    return _joined(generations(names), names)


def anonymous_reader(request) -> bool:
    """Nobody signed in, no message waiting for them, no table device (it sends an
    Authorization header): what such a reader is answered may be shared."""
    return not (settings.SESSION_COOKIE_NAME in request.COOKIES
                or "messages" in request.COOKIES or "HTTP_AUTHORIZATION" in request.META)


def _servable(request) -> bool:
    """An anonymous GET that the rest of the stack would not turn away: a host the site
    serves (an unknown Host header goes on to be refused) and, when the site redirects to
    HTTPS, a secure request."""
    if request.method != "GET" or not anonymous_reader(request):
        return False
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        return False
    try:
        request.get_host()
    except DisallowedHost:
        return False
    return True


_demo_build_seen = False


def _demo_building() -> bool:
    """The first start's demo is being built (tournament/first_start.py). Once it is done,
    the pages this process kept before it began are built again."""
    global _demo_build_seen
    if first_start.building():
        _demo_build_seen = True
        return True
    if _demo_build_seen:
        from tournament.demo import SLUG

        _demo_build_seen = False
        invalidate(SLUG)
    return False


class PublicCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # While the first start's demo is built in a process of its own, whose changes
        # reach its own cache only, nothing is served from the cache or kept in it
        # (tournament/first_start.py).
        if seconds() <= 0 or not _servable(request) or _demo_building():
            return self.get_response(request)
        key = _entry_key(request)
        scope = _scopes(request)[-1]
        entry = _recent.get(key)
        current = _current(scope, entry)
        if entry is None or entry["generation"] != current:
            entry = cache().get(key)
            if entry is not None and entry.get("place") is not None:
                current = _current(scope, entry)
        building = None
        if entry is not None:
            if entry["scope"] == scope and entry["generation"] == current:
                _remember(key, entry)
                return answer(request, entry, "hit")
            # Out of date. One reader builds it again; the others are given the old copy
            # meanwhile, and so is everyone within the grace after it was built: a hall of
            # phones never waits in line behind a stream of saves, and every page is built
            # at most once per grace period however fast results come in.
            building = f"{key}:building"
            age = time.time() - entry["built"]
            if age < grace() or not cache().add(building, 1, timeout=BUILD_SECONDS):
                return answer(request, entry, "stale", past_grace=age >= grace())
            if age < 2 * grace():
                # This reader gets the copy as well (at most twice the grace old: as a
                # shared cache's stale-while-revalidate, an older copy is not handed out;
                # nor any with no grace), and the page is built once it is sent.
                copy = answer(request, entry, "stale", past_grace=True)
                copy.build_after = functools.partial(
                    self._build_after_answer, request, key, entry, building)
                return copy
        try:
            return self._build(request, key, entry)
        finally:
            if building:
                cache().delete(building)

    def _build_after_answer(self, request, key, previous: dict, building: str) -> None:
        """Build the page again for the next readers, this request's answer already sent
        (the copy before): in its language, the lock released whatever happens. A failure
        is logged, as nobody is waiting for an answer to show it to."""
        try:
            with translation.override(request.LANGUAGE_CODE):
                self._build(request, key, previous)
        except Exception:
            logger.exception("public cache: building %s again after answering with the "
                             "copy before failed", request.path)
        finally:
            cache().delete(building)

    def _build(self, request, key, previous: dict | None = None):
        # The generations are read before the page is built: a change made meanwhile makes
        # what is built now stale at once. A round's page names its round only once built:
        # the round of the copy before is read with them.
        scopes = _scopes(request)
        guess = previous.get("place") if previous is not None and len(scopes) > 1 else None
        before = generations(scopes + (_names(scopes[-1], *guess) if guess else []))
        response = self.get_response(request)
        scope = getattr(response, SCOPE_MARK, None)
        if (scope is None and request.path_info.startswith(API_PREFIX)
                and "private" not in response.get("Cache-Control", "")):
            scope = scopes[-1]  # the API's public reads (not a device's answers)
        if scope not in scopes or response.status_code != 200 or response.cookies \
                or response.streaming or response.has_header("Set-Cookie"):
            if previous is not None and response.status_code < 500:
                # The address is no longer that page (hidden, gone, moved): its copy is not
                # handed out again. A server error changes nothing the public may see.
                _forget(key)
            return response
        place = getattr(response, _ROUND, None) if scope != SITE else None
        if place is None:
            kept_as = before[scope]
        elif place == guess:
            kept_as = _joined(before, _names(scope, *place))
        else:
            # Its round's generations read now hold for what was built only if nothing of
            # the tournament changed meanwhile (every change gives it a new generation);
            # else it is kept as out of date: a copy for the grace, built again after it.
            names = _names(scope, *place)
            after = generations([scope, *names])
            kept_as = _joined(after, names) if after[scope] == before[scope] else ""
        built = time.time()
        content = response.content
        response["ETag"] = '"' + hashlib.sha256(content).hexdigest()[:24] + '"'
        response["Last-Modified"] = last_modified(response["ETag"], built, previous)
        patch_vary_headers(response, ("Accept-Encoding",))
        headers = [(name, value) for name, value in response.items()
                   if name.lower() not in ("content-length", "vary")]
        compress = len(content) >= COMPRESS_FROM and not response.has_header(
            "Content-Encoding")
        entry = {"scope": scope, "generation": kept_as, "place": place, "built": built,
                 "etag": response["ETag"], "last_modified": response["Last-Modified"],
                 "vary": response["Vary"], "status": response.status_code,
                 "headers": headers, "content": content,
                 "gzip": gzip.compress(content, compresslevel=6, mtime=0) if compress
                 else None}
        cache().set(key, entry, timeout=seconds())
        _remember(key, entry)
        return answer(request, entry, "miss")
