"""The purges sent to a shared cache that takes them (issue 53; tournament/cache_purge.py),
received by a small HTTP server standing in for nginx's purge module."""

from __future__ import annotations

import http.server
import threading
import time

import pytest
from django.test import override_settings

from tournament import cache_purge
from tournament.services.events import public_data_changed


class Purges(http.server.BaseHTTPRequestHandler):
    received: list[tuple[str, str]] = []

    def do_PURGE(self):  # the HTTP method PURGE
        Purges.received.append((self.command, self.path))
        self.send_response(200 if self.path.startswith("/t/") else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def purge_server():
    Purges.received = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Purges)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_change_purges_the_tournaments_addresses_in_every_language(purge_server):
    with override_settings(PUBLIC_CACHE_PURGE_URL=purge_server + "/"):
        public_data_changed.send(sender=None, slug="wc-a")
        deadline = time.monotonic() + 5
        while len(Purges.received) < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert sorted(path for _method, path in Purges.received) == sorted(
        ["/", "/zh-hans/", "/t/wc-a/*", "/zh-hans/t/wc-a/*", "/api/*"])
    assert {method for method, _path in Purges.received} == {"PURGE"}


def test_nothing_is_sent_unless_a_purge_address_is_set(purge_server):
    public_data_changed.send(sender=None, slug="wc-a")
    time.sleep(0.2)
    assert Purges.received == []


def test_a_cache_that_does_not_answer_costs_a_warning_and_nothing_else(caplog):
    with override_settings(PUBLIC_CACHE_PURGE_URL="http://127.0.0.1:9"):  # discard port
        answers = cache_purge.send(["/t/wc-a/*"])
    assert len(answers) == 1 and isinstance(answers[0][1], str)
    assert "purge of /t/wc-a/* at http://127.0.0.1:9 failed" in caplog.text


def test_a_change_of_the_site_purges_the_home_pages_and_the_api():
    assert cache_purge.patterns(None) == ["/", "/zh-hans/", "/api/*"]
