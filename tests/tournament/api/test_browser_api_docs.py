"""The API's docs in a real browser: the page of the OpenAPI document (tournament/api/docs.py)
shows every operation, its contents jump to them, nothing comes from elsewhere and the
Content-Security-Policy holds (every browser test fails on a violation or a console error:
tests/conftest.py). axe-core checks it in tests/tournament/views/test_browser_axe.py."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_docs_show_every_operation_from_our_own_files(page, live_server,
                                                          browser_problems):
    elsewhere = []
    page.on("request", lambda request: elsewhere.append(request.url)
            if not request.url.startswith(live_server.url) else None)
    response = page.goto(live_server.url + "/api/docs")
    assert response.ok
    assert "script-src 'self'" in response.headers["content-security-policy"]
    operations = page.locator("section.api-operation")
    assert operations.count() >= 20
    assert page.locator("section.api-operation .api-get").count() >= 15
    page.locator(".api-contents a", has_text="/api/tables/{table_id}").first.click()
    target = page.locator("section.api-operation", has_text="/api/tables/{table_id}").first
    expect(target).to_be_in_viewport()
    page.locator("#op-tournament_api_tables_read_table a[href^='#schema-']").first.click()
    expect(page.locator("section.api-schema:target")).to_be_in_viewport()
    page.evaluate("0")
    assert elsewhere == [] and browser_problems == []
