"""What quickstart answers while it sets up (tournament/starting.py, issue 27): the
"starting" page in the reader's language, then the same socket handed to the server, with
no request refused in between."""

import socket
import threading
import urllib.error
import urllib.request
from wsgiref.simple_server import WSGIRequestHandler

import pytest
from django.core.management.base import CommandError

from tournament.starting import StartingServer, address, language


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url, **headers):
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_the_address_is_read_as_runserver_reads_it():
    assert address("8000") == ("127.0.0.1", 8000, False)
    assert address("0.0.0.0:8080") == ("0.0.0.0", 8080, False)
    assert address("[::1]:8000") == ("::1", 8000, True)
    assert address("localhost:8000") == ("localhost", 8000, False)
    with pytest.raises(CommandError, match="not a valid port number"):
        address("eight")


def test_the_language_is_the_cookie_then_the_browser_then_the_default():
    assert language("zh-CN,zh;q=0.9,en;q=0.5", "") == "zh-hans"
    assert language("fr-FR, de;q=0.8", "") == "en"
    assert language("zh-CN", "django_language=en") == "en"
    assert language("", "django_language=zh-hans; other=1") == "zh-hans"
    assert language("", "broken=\\x00;;") == "en"


def test_the_starting_page_then_the_server_on_the_same_socket():
    port = free_port()
    starting = StartingServer(f"127.0.0.1:{port}")
    try:
        status, headers, page = fetch(f"http://127.0.0.1:{port}/t/demo/")
        assert status == 503
        assert headers["Retry-After"] == "2" and headers["Refresh"] == "2"
        assert headers["Cache-Control"] == "no-store"
        assert headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert '<html lang="en">' in page and "Duplicate Gin is starting" in page
        status, headers, page = fetch(f"http://127.0.0.1:{port}/",
                                      **{"Accept-Language": "zh-CN,zh;q=0.9"})
        assert status == 503 and '<html lang="zh-hans">' in page
        assert headers["Content-Language"] == "zh-hans"
        assert '<link rel="stylesheet" href="/starting/site.css">' in page
        status, headers, css = fetch(f"http://127.0.0.1:{port}/starting/site.css")
        assert status == 200 and headers["Content-Type"].startswith("text/css")
        assert "--felt" in css  # the site's own stylesheet, not yet collected
        # The address is taken: a second server cannot have it.
        with pytest.raises(CommandError, match="Cannot listen on"):
            StartingServer(f"127.0.0.1:{port}")

        server_class = starting.hand_over()

        def app(environ, start_response):
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"the site"]

        # A request made between the two is kept waiting, then answered by the server.
        waiting = {}
        asker = threading.Thread(target=lambda: waiting.update(
            answer=fetch(f"http://127.0.0.1:{port}/")))
        asker.start()
        httpd = server_class(("127.0.0.1", port), WSGIRequestHandler)
        httpd.set_app(app)
        serving = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1})
        serving.start()
        try:
            asker.join(timeout=10)
            assert waiting["answer"][0] == 200 and waiting["answer"][2] == "the site"
            assert fetch(f"http://127.0.0.1:{port}/")[2] == "the site"
            assert httpd.server_port == port
        finally:
            httpd.shutdown()
            serving.join()
    finally:
        starting.close()


def nodelay(connection: socket.socket) -> bool:
    return bool(connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))


def test_both_servers_send_each_answer_at_once():
    """TCP_NODELAY on every connection, the starting page's and the application's:
    runserver writes a response's status line, its headers and its body apart, and with
    Nagle's algorithm a browser keeping the connection open waited some 40 ms a page for
    the last of them (48 ms against 4–5 ms a page of the demo, docs/benchmarks.md)."""
    port = free_port()
    starting = StartingServer(f"127.0.0.1:{port}")
    try:
        starting.stop()  # its thread accepts no more: the next connection is ours to take
        with socket.create_connection(("127.0.0.1", port)):
            connection, _ = starting.httpd.get_request()
            with connection:
                assert nodelay(connection)

        httpd = starting.hand_over()(("127.0.0.1", port), WSGIRequestHandler)
        try:
            with socket.create_connection(("127.0.0.1", port)):
                connection, _ = httpd.get_request()
                with connection:
                    assert nodelay(connection)
        finally:
            httpd.server_close()
    finally:
        starting.close()
