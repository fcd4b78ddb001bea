"""When the database does not answer: "not saved, try again", never a server error page.

A database restarted (or a network cable pulled) in the middle of play makes the next
query raise ``OperationalError`` (or ``InterfaceError`` on a connection already closed).
Nothing of that request's transaction was committed — unless the connection died after
the COMMIT left, and then the form's request token makes saving again harmless
(``services.entry.record_hand_result`` returns the first save). So the scorer is told, in
their language, that the hand was not saved and to try again: a 503 with the hand's form
kept as it was typed (an htmx request gets a fragment that ``site.js`` puts at the top of
the hand's row), or a page for a plain request. Django closes the broken connection at the
end of the request (its health check, ``CONN_HEALTH_CHECKS``, and the error flag), so the
next request connects again: nothing needs restarting once the database is back.

``DatabaseUnavailableMiddleware`` answers for an error raised in a view;
``server_error`` (``handler500``) for one raised in a middleware (a session read or
written while the database is away), and otherwise renders the usual 500 page.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template import loader
from django.views.defaults import server_error as default_server_error

DATABASE_DOWN = (OperationalError, InterfaceError)
HEADER = "X-Not-Saved"  # site.js shows a 503 fragment that carries it

logger = logging.getLogger("tournament.database")


def unavailable_response(request, error: BaseException | None = None) -> HttpResponse:
    """The 503 a scorer sees: a fragment for htmx, a page otherwise. Rendered without the
    database (no user, no session: the context processors are not run)."""
    logger.warning("the database did not answer (%s %s): %s", request.method,
                   request.path, error)
    htmx = request.headers.get("HX-Request") == "true"
    template = "entry/not_saved.html" if htmx else "503.html"
    response = HttpResponse(loader.render_to_string(template, {"path": request.path}),
                            status=503)
    response[HEADER] = "database"
    response["Retry-After"] = "5"
    response["Cache-Control"] = "no-store"
    if htmx:
        # Put the message above the hand's form, which stays as typed (same token).
        response["HX-Reswap"] = "afterbegin"
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_DOWN):
            return unavailable_response(request, exception)
        return None


def server_error(request, template_name="500.html"):
    """handler500: the database's absence is a 503 to try again, anything else a 500."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_DOWN):
        return unavailable_response(request, error)
    return default_server_error(request, template_name)
