"""What a shared cache in front of the site may keep, said in every answer's headers
(issue 53; docs/deploy.md, *A shared cache in front*; docs/public.md, *How fresh*).

A world final is read by more people than one application server can answer; the standard
way to serve them is a shared cache in front (nginx's ``proxy_cache``, Varnish, a CDN) that
obeys the application's headers. So every answer says what it is:

- **A public answer** (a public page, download or API read that an anonymous reader asked
  for with GET or HEAD and got whole, 200 or 304): ``Cache-Control: public, max-age=0,
  s-maxage=S, stale-while-revalidate=G``. ``S`` (``PUBLIC_SHARED_CACHE_SECONDS``, 1 s) is how
  long a shared cache keeps it; ``G`` (the grace, ``PUBLIC_CACHE_GRACE_SECONDS``) how long it
  may hand out its old copy while it fetches the new one. Browsers keep nothing without
  asking (``max-age=0``) but ask cheaply: an ``ETag`` and a ``Last-Modified`` are on every
  public answer, and ``If-None-Match`` and ``If-Modified-Since`` are answered 304. It varies
  on ``Accept-Encoding`` (gzip or not), and an API answer on ``Accept-Language`` too; never
  on ``Cookie``: nothing a public answer holds depends on a cookie (the language is in the
  address, ``tournament/language.py``).
- **Everything else** is ``Cache-Control: private, no-store``: whatever a signed-in person
  (a session cookie or a message waiting for them) or a table device (an ``Authorization``
  header) is answered, every staff page, every refusal and error, every POST. A shared cache
  never keeps it and never hands it to anyone else, whatever its own configuration says
  about sessions.

Why a signed-off result still reaches a reader within 2 seconds: the application's own cache
(``tournament.public_cache``) hands out a page built before a change for at most the grace
after it was built, and the shared cache keeps what it was given for ``S`` more, then fetches
it again in the background: the page is at most ``G + S`` behind, plus the time to build it.
A copy the application hands out past its grace (while the page is built again) is public
but kept by no shared cache: ``Cache-Control: public, max-age=0, s-maxage=0`` and, for
nginx, ``X-Accel-Expires: 0``; the shared cache asks again and gets the page built.

Static files never reach this middleware: WhiteNoise, before it, answers them with headers
of its own (a year for the versioned names).
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.http import HttpResponseNotModified
from django.utils.cache import patch_cache_control
from django.utils.http import http_date

from tournament.kept_pages import PAST_GRACE, not_modified
from tournament.public_cache import API_PREFIX, anonymous_reader, is_marked_public

PUBLIC_STATUSES = (200, 304)


def shared_seconds() -> int:
    """How long a shared cache keeps a public answer (``s-maxage``)."""
    return max(0, int(getattr(settings, "PUBLIC_SHARED_CACHE_SECONDS", 1)))


def stale_seconds() -> int:
    """How long a shared cache may hand out its old copy while it fetches a new one: no
    longer than the application's own grace."""
    return max(0, math.floor(getattr(settings, "PUBLIC_CACHE_GRACE_SECONDS", 1.0)))


def is_public_answer(request, response) -> bool:
    """A whole answer for an anonymous reader, marked public by its view (or an API read)."""
    if request.method not in ("GET", "HEAD") or response.status_code not in PUBLIC_STATUSES:
        return False
    if not anonymous_reader(request) or response.cookies or response.has_header("Set-Cookie"):
        return False
    if "private" in response.get("Cache-Control", ""):
        return False  # a view that said so itself
    return is_marked_public(response) or request.path_info.startswith(API_PREFIX)


def _public_vary(request) -> str:
    if request.path_info.startswith(API_PREFIX):
        return "Accept-Encoding, Accept-Language"  # the API's language is Accept-Language
    return "Accept-Encoding"


def _tag(response) -> str | None:
    """The answer's entity tag, made from its body when its view gave none."""
    if response.has_header("ETag"):
        return response["ETag"]
    if response.streaming or response.status_code != 200:
        return None
    response["ETag"] = '"' + hashlib.sha256(response.content).hexdigest()[:24] + '"'
    return response["ETag"]


def make_public(request, response):
    etag = _tag(response)
    kept = response.get("Last-Modified")  # the public cache's: when this content was built
    if response.status_code == 200 and not kept:
        # As of now: built for this answer, and no earlier date is known, so no
        # If-Modified-Since is answered by it (content may have changed within this second).
        response["Last-Modified"] = http_date()
    if response.status_code == 200 and not_modified(request, etag, kept):
        answer = HttpResponseNotModified()
        for name in ("ETag", "Last-Modified", "Content-Language", "X-Public-Cache"):
            if response.has_header(name):
                answer[name] = response[name]
        response = answer
    if getattr(response, PAST_GRACE, False):
        # The application's copy past its grace (given while the page is built again):
        # public, but a shared cache keeps it not even a second (nginx: X-Accel-Expires 0),
        # or the page would be more than the grace plus a second behind.
        response["Cache-Control"] = "public, max-age=0, s-maxage=0"
        response["X-Accel-Expires"] = "0"
        response["Vary"] = _public_vary(request)
        return response
    keep = shared_seconds()
    response["Cache-Control"] = (
        f"public, max-age=0, s-maxage={keep}, stale-while-revalidate={stale_seconds()}")
    # nginx counts s-maxage from the start of the second it stored the copy and expires it
    # only once a whole second more has begun: s-maxage=1 keeps a copy up to 2 s (measured,
    # bench/audience.py). Its own header, with an absolute time, keeps it at most ``keep``
    # seconds: to the end of the second ``keep - 1`` seconds from now. nginx reads it in
    # place of Cache-Control and never passes it on; other caches ignore it.
    if keep:
        response["X-Accel-Expires"] = f"@{int(time.time()) + keep - 1}"
    response["Vary"] = _public_vary(request)
    return response


def make_private(response):
    # Added to what a view said (never_cache's no-cache, must-revalidate stay); ``private``
    # takes the place of any ``public``, and no-store keeps it out of every cache.
    patch_cache_control(response, private=True, no_store=True)
    return response


class SharedCacheHeadersMiddleware:
    """Cache-Control, ETag, Last-Modified and Vary on every answer (see the module's
    docstring); it sits outside the public cache, so kept pages get them too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if is_public_answer(request, response):
            return make_public(request, response)
        return make_private(response)
