"""Purges sent to a shared cache in front of the site, when it can take them (issue 53;
docs/deploy.md, *Purging*). Off unless ``PUBLIC_CACHE_PURGE_URL`` is set.

Without purges a change reaches readers behind the shared cache within its ``s-maxage`` plus
the grace (``tournament/cache_headers.py``): that is the promise, and it holds with any
cache. A cache that can purge (nginx with the cache-purge module, Varnish, a CDN's purge
API behind a small relay) can drop the changed pages at once instead: after every change
that the services announce (``public_data_changed``, once its transaction committed) one
request per address pattern goes to ``PUBLIC_CACHE_PURGE_URL`` + the pattern, with the
method ``PUBLIC_CACHE_PURGE_METHOD`` (``PURGE``): the tournament's pages in every language
(``/t/<slug>/*``, ``/zh-hans/t/<slug>/*``), the home pages that list it, and the API (its
addresses name tournaments in their path or query, so all of it). A trailing ``*`` is a
prefix, as ngx_cache_purge and most CDNs read it.

Purges are sent from a thread of their own, each waiting a second at most, so a save never
waits for the cache; one that fails is logged and forgotten (the cache's own expiry still holds).
"""

from __future__ import annotations

import logging
import threading
import urllib.error
import urllib.request

from django.conf import settings
from django.dispatch import receiver
from django.urls import translate_url

from tournament.services.events import public_data_changed

log = logging.getLogger(__name__)
TIMEOUT = 1.0  # seconds for each purge request


def patterns(slug: str | None) -> list[str]:
    """The address patterns a change of this tournament (or of the site) makes stale."""
    found = []
    for code, _name in settings.LANGUAGES:
        home = translate_url("/", code)
        found.append(home)
        if slug:
            found.append(translate_url(f"/t/{slug}/", code) + "*")
    found.append("/api/*")
    return list(dict.fromkeys(found))


def send(paths: list[str], base: str | None = None, method: str | None = None
         ) -> list[tuple[str, int | str]]:
    """Send one purge per path to ``base`` (the setting by default); what each answered
    (a status, or why it failed)."""
    base = (settings.PUBLIC_CACHE_PURGE_URL if base is None else base).rstrip("/")
    method = method or settings.PUBLIC_CACHE_PURGE_METHOD
    answers = []
    for path in paths:
        request = urllib.request.Request(base + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                answers.append((path, answer.status))
        except urllib.error.HTTPError as error:  # 404: nothing kept under it, as expected
            answers.append((path, error.code))
        except (urllib.error.URLError, OSError) as error:
            log.warning("purge of %s at %s failed: %s", path, base, error)
            answers.append((path, str(error)))
    return answers


@receiver(public_data_changed)
def _on_public_data_changed(sender, slug=None, **kwargs):
    if not settings.PUBLIC_CACHE_PURGE_URL:
        return
    # The settings as they are now, not when the thread runs.
    threading.Thread(target=send, name="cache-purge", daemon=True,
                     args=(patterns(slug), settings.PUBLIC_CACHE_PURGE_URL,
                           settings.PUBLIC_CACHE_PURGE_METHOD)).start()
