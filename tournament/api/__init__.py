"""The read-only JSON API of the public data (issue 13, item 2; docs/api.md).

Mounted at ``/api/``: the OpenAPI document at ``/api/openapi.json``, the browsable docs at
``/api/docs``: that document written server-side into a page of the site (``docs.py``), in
the reader's language, without script. Every endpoint reads what the public pages read,
through the same selectors, under the same switches and live-results setting.
"""

from __future__ import annotations

import copy

from django.http import Http404
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, ValidationError

from tournament.api import persons, rounds, standings, tables, teams, tournaments, travellers
from tournament.api.docs import OperationsPage

DESCRIPTION = """Public data of Duplicate Gin tournaments, to read; and, for table devices
with a token (`Authorization: Bearer …`), the table's commands: enter a hand, approve it,
sign the table, sign a match off.

What a round in play shows follows each tournament's live-results setting, exactly as on
the public pages; a tournament in set-up, a part switched off and a draft round are 404.
Lists take `limit` (1–500, default 100) and `offset`. Decimal figures are strings with two
decimals. Integers are strict: in a body a JSON integer (`12`, or `12.0`, the same number
in JSON), never `12.5`, `"12"` or `true`; in an address plain digits, never `012` or
`12.0`. Every public answer has an `ETag` and a `Last-Modified`: send them back
(`If-None-Match`, `If-Modified-Since`) and an unchanged answer is a 304 with no body. See
docs/api.md."""

NOT_MODIFIED = {"description": "Not modified: the `ETag` in `If-None-Match` (or the date "
                               "in `If-Modified-Since`) still holds; no body"}


def with_not_modified(document) -> dict:
    """The document with the 304 every public read may answer (tournament/cache_headers.py;
    a device's reads never do)."""
    document = dict(document)
    for operations in document.get("paths", {}).values():
        read = operations.get("get")
        if read is not None and not read.get("security"):
            read.setdefault("responses", {})[304] = NOT_MODIFIED
    return document


class PublicAPI(NinjaAPI):
    """The OpenAPI document is built once per process and path: it follows from the routes
    and schemas, fixed when the process starts, and building it takes a tenth of a second
    (``/api/openapi.json`` and ``/api/docs`` each built it for every request)."""

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        if path_prefix is None:
            path_prefix = self.get_root_path(path_params or {})
        documents = self.__dict__.setdefault("_documents", {})
        if path_prefix not in documents:
            built = with_not_modified(super().get_openapi_schema(path_prefix=path_prefix))
            documents[path_prefix] = built  # the document, without the API it was read off
        # A copy: whoever reads it may change it without changing the next reader's.
        return copy.deepcopy(documents[path_prefix])


api = PublicAPI(
    title="Duplicate Gin public API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
    # The OpenAPI document as a page of the site, in the reader's language (api/docs.py).
    docs=OperationsPage(),
)


@api.exception_handler(Http404)
def not_found(request, exc):
    message = str(exc) if exc.args and str(exc) else "not found"
    return api.create_response(request, {"detail": message}, status=404)


@api.exception_handler(AuthenticationError)
def unauthenticated(request, exc):
    """401 says how to authenticate (RFC 9110 §11.6.1): a table device's bearer token."""
    response = api.create_response(request, {"detail": "no valid device token"}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="table devices"'
    return response


@api.exception_handler(ValidationError)
def invalid(request, exc):
    return api.create_response(request, {"detail": [
        {"type": str(error.get("type", "")), "loc": [str(part) if not isinstance(part, int)
                                                     else part for part in error["loc"]],
         "msg": str(error.get("msg", ""))} for error in exc.errors]}, status=422)


for module in (tournaments, rounds, standings, teams, travellers, persons, tables):
    api.add_router("/", module.router)
