"""What ``quickstart`` answers while it sets up (issue 27, item 1).

On a fresh data folder the migrations alone take 6–8 s of a quiet machine's time, and five
times that on a busy one. So ``quickstart`` takes the server's address first thing and, until
the application is ready, answers every request with a short page: "Duplicate Gin is
starting", in the reader's language, which loads itself again every two seconds (the
``Refresh`` header: no script, nothing for the Content-Security-Policy to refuse). When
everything is set up the same listening socket is handed to ``runserver`` (``hand_over``):
a browser that asked meanwhile is answered by the application, and nobody ever sees
"connection refused" between the two.

The page is a 503 with ``Retry-After``: nothing caches it, and a script asking for a page
knows to ask again. It reveals nothing (no Host check is needed: it says the same to all).
"""

from __future__ import annotations

import re
import socket
import threading
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management.base import CommandError
from django.core.management.commands.runserver import Command as Runserver
from django.core.management.commands.runserver import naiveip_re
from django.core.servers.basehttp import WSGIServer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

RELOAD_SECONDS = 2
# The site's stylesheet, read from the application's own static folder (the collected
# copy may not exist yet), at an address of its own.
STYLESHEET_URL = "/starting/site.css"
STYLESHEET = "tournament/site.css"
HEADERS = {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Retry-After": str(RELOAD_SECONDS),
    "Refresh": str(RELOAD_SECONDS),
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def address(addrport: str) -> tuple[str, int, bool]:
    """(host, port, IPv6) as ``runserver`` reads ADDR:PORT or PORT."""
    match = re.match(naiveip_re, addrport)
    if match is None:
        raise CommandError(f'"{addrport}" is not a valid port number or address:port pair.')
    host, _ipv4, ipv6, _fqdn, port = match.groups()
    if not port.isdigit():
        raise CommandError(f"{port!r} is not a valid port number.")
    if host and ipv6:
        return host[1:-1], int(port), True
    return host or Runserver.default_addr, int(port), False


def language(accept_language: str, cookie: str) -> str:
    """The reader's language as the site chooses it: the language cookie, then the
    browser's languages, then the default."""
    chosen = []
    try:
        morsel = SimpleCookie(cookie).get(settings.LANGUAGE_COOKIE_NAME)
    except CookieError:
        morsel = None
    if morsel is not None:
        chosen.append(morsel.value)
    chosen += [code for code, _ in parse_accept_lang_header(accept_language) if code != "*"]
    for code in chosen:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class _Handler(BaseHTTPRequestHandler):
    server_version = "DuplicateGin"
    sys_version = ""

    def do_GET(self):
        if self.path == STYLESHEET_URL:
            self.stylesheet()
        else:
            self.answer(body=True)

    def stylesheet(self) -> None:
        content = Path(finders.find(STYLESHEET)).read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "text/css; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(content)

    do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_GET

    def do_HEAD(self):
        self.answer(body=False)

    def answer(self, *, body: bool) -> None:
        code = language(self.headers.get("Accept-Language", ""),
                        self.headers.get("Cookie", ""))
        with translation.override(code):
            page = render_to_string("starting.html", {"LANGUAGE_CODE": code,
                                                      "stylesheet": STYLESHEET_URL})
        content = page.encode()
        self.send_response(503)
        for name, value in HEADERS.items():
            self.send_header(name, value)
        self.send_header("Content-Language", code)
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Connection", "close")
        self.end_headers()
        if body:
            self.wfile.write(content)

    def log_message(self, format, *args):  # the terminal is for quickstart's own lines
        pass


class SendsAtOnce:
    """A server mixin: TCP_NODELAY on each connection it accepts. Python's servers write a
    response's status line, its headers and its body apart, and with Nagle's algorithm on
    the last write waits for the browser's delayed acknowledgement of the first, some 40 ms
    an answer over a connection the browser keeps (a demo page 48 ms, 4–5 ms without;
    ``bench/quickstart.py``). gunicorn, the production server, sets it itself."""

    def get_request(self):
        connection, client = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, client


class _StartingPageServer(SendsAtOnce, ThreadingHTTPServer):
    pass


class StartingServer:
    """Listens on ``addrport`` from now on and answers with the "starting" page in a thread
    of its own, until ``hand_over``."""

    def __init__(self, addrport: str):
        host, port, ipv6 = address(addrport)
        listening = socket.socket(socket.AF_INET6 if ipv6 else socket.AF_INET,
                                  socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listening.bind((host, port))
        except OSError as error:
            listening.close()
            raise CommandError(f"Cannot listen on {addrport}: {error.strerror}.") from None
        listening.listen(64)
        self.socket = listening
        self.httpd = _StartingPageServer((host, port), _Handler, bind_and_activate=False)
        self.httpd.socket.close()
        self.httpd.socket = listening
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.1}, daemon=True,
                                       name="quickstart: starting page")
        self.thread.start()

    def stop(self) -> None:
        """No more starting pages; connections not yet accepted stay queued."""
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.thread.join()

    def close(self) -> None:
        self.stop()
        self.socket.close()

    def hand_over(self) -> type[WSGIServer]:
        """Stop answering and give the listening socket to ``runserver``: the server class
        to give it (``Runserver.server_cls``)."""
        self.stop()
        listening = self.socket

        class Adopting(SendsAtOnce, WSGIServer):
            def server_bind(self):
                self.socket.close()  # the one made for it: ours is bound and listening
                self.socket = listening
                self.server_address = listening.getsockname()
                host, port = self.server_address[:2]
                self.server_name = socket.getfqdn(host)
                self.server_port = port
                self.setup_environ()

        return Adopting
