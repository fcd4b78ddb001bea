"""Compression of what anonymous readers are sent (docs/deploy.md, *Compression*).

HTML, JSON and CSV built for a reader without an account are gzipped when the reader asks
for it. Such a response holds nothing secret: the public pages never show a deal before its
round is closed, nor a PIN, and hold no token (no form: the language switch is a link), and
Django's gzip adds random bytes to each compressed response all the same (the "Heal the
BREACH" mitigation). So an attacker who makes a page reflect text
they choose learns nothing from its compressed length.

A signed-in reader's responses are sent as built: staff pages show deals, PINs and keys
beside text other people typed (team names, reasons), the very mix a BREACH-style attack
needs. So are a table device's (it authenticates with a header) and every file that is
compressed already (PDF, XLSX) or that a cached answer compressed once
(``tournament.public_cache``).
"""

from django.middleware.gzip import GZipMiddleware

from tournament.kept_pages import COMPRESS_FROM

COMPRESSIBLE = frozenset({"text/html", "application/json", "text/csv", "text/plain"})


def may_compress(request, response) -> bool:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return False
    if "HTTP_AUTHORIZATION" in request.META:
        return False
    if not response.streaming and len(response.content) < COMPRESS_FROM:
        return False  # not worth it (as the public cache's copies)
    kind = response.get("Content-Type", "").split(";")[0].strip().lower()
    return kind in COMPRESSIBLE


class AnonymousGZipMiddleware(GZipMiddleware):
    """Django's gzip, for the responses ``may_compress`` allows (placed first, so a public
    cache's own gzip copy passes through untouched)."""

    def process_response(self, request, response):
        if not may_compress(request, response):
            return response
        return super().process_response(request, response)
