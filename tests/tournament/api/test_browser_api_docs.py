"""The API's browsable docs in a real browser: Swagger UI from the site's own static files
renders every operation under the Content-Security-Policy, fetching nothing from elsewhere
(every browser test fails on a CSP violation or a console error: tests/conftest.py)."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_docs_render_every_operation_from_our_own_files(page, live_server,
                                                            browser_problems):
    elsewhere = []
    page.on("request", lambda request: elsewhere.append(request.url)
            if not request.url.startswith(live_server.url) else None)
    response = page.goto(live_server.url + "/api/docs")
    assert response.ok
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator(".opblock-summary-path").first).to_be_visible(timeout=15_000)
    assert page.locator(".opblock-get").count() >= 15
    page.evaluate("0")
    assert elsewhere == [] and browser_problems == []
