"""How a page the public cache keeps is answered (``tournament.public_cache``): whole, or
gzipped when the reader accepts it (the copy compressed once, when the page was built), or
304 when the reader has it already; and, when the copy is out of date, the page built again
once the answer has gone (``KeptPage.close``).

``not_modified`` is the one reading of a reader's conditional request (RFC 9110 §13.2.2)
for the kept pages and for every other public answer (``tournament.cache_headers``).
"""

from __future__ import annotations

import math
import re

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import http_date, parse_etags, parse_http_date_safe

SCOPE_MARK = "_public_cache_scope"  # a response's attribute: the scope it is kept under
# A response's attribute: a copy handed out past its grace, which a shared cache in front
# must not keep (``cache_headers``): kept a second more there, it would be behind the
# database by more than the promised two seconds.
PAST_GRACE = "_public_cache_past_grace"

COMPRESS_FROM = 1024  # bytes: a smaller page is not worth compressing
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def accepts_gzip(request) -> bool:
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def not_modified(request, etag: str | None, last_modified: str | None) -> bool:
    """The reader has this content already (RFC 9110 §13.2.2): If-None-Match names its
    tag, in either encoding (a weak comparison: the gzip copy's tag is the weak form of the
    plain one's), or, when no If-None-Match is sent, If-Modified-Since is not before its
    Last-Modified."""
    if "HTTP_IF_NONE_MATCH" in request.META:
        tags = {tag.removeprefix("W/") for tag in
                parse_etags(request.META["HTTP_IF_NONE_MATCH"])}
        return etag is not None and (etag.removeprefix("W/") in tags or "*" in tags)
    since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
    modified = parse_http_date_safe(last_modified or "")
    return since is not None and modified is not None and modified <= since


class _BuildsAfter:
    """A kept page's answer that may build the page again once it has been sent."""

    build_after = None  # what to run once the answer is sent

    def close(self):
        build, self.build_after = self.build_after, None
        try:
            if build is not None:
                build()
        finally:
            super().close()


class KeptPage(_BuildsAfter, HttpResponse):
    pass


class KeptNotModified(_BuildsAfter, HttpResponseNotModified):
    pass


def answer(request, entry: dict, how: str, *, past_grace: bool = False) -> HttpResponse:
    """The kept response, compressed when the reader accepts gzip, or 304 when the reader
    has it already; ``how`` (hit, stale or miss) goes in the X-Public-Cache header;
    ``past_grace``: an out-of-date copy older than the grace, for no shared cache to keep."""
    compressed = entry.get("gzip") is not None and accepts_gzip(request)
    etag = f"W/{entry['etag']}" if compressed else entry["etag"]
    if not_modified(request, entry["etag"], entry["last_modified"]):
        response = KeptNotModified()
        response["ETag"] = etag
        response["Last-Modified"] = entry["last_modified"]
    else:
        body = entry["gzip"] if compressed else entry["content"]
        response = KeptPage(body, status=entry["status"])
        for name, value in entry["headers"]:
            response[name] = value
        response["Content-Length"] = str(len(body))
        if compressed:
            response["Content-Encoding"] = "gzip"
            response["ETag"] = etag
    response["Vary"] = entry["vary"]
    response["X-Public-Cache"] = how
    setattr(response, SCOPE_MARK, entry["scope"])
    setattr(response, PAST_GRACE, past_grace)
    return response


def last_modified(etag: str, built: float, previous: dict | None) -> str:
    """When this content was first built, in HTTP's whole seconds: the copy before's time
    when the content is the same, else the second it was built in, but never the second
    the copy before (other content) was given: If-Modified-Since answers 304 by these
    seconds (``cache_headers``), and two contents must not share one. With the grace of 1 s
    a page is built again a second later at the soonest, so this is the second it was
    built in but for a page evicted and built again at once."""
    if previous is not None and previous["etag"] == etag:
        return previous["last_modified"]
    second = math.floor(built)
    if previous is not None:
        before = parse_http_date_safe(previous["last_modified"])
        if before is not None:
            second = max(second, before + 1)
    return http_date(second)
