"""The OpenAPI document is built once per process (tournament/api/__init__.py): what it
serves is what django-ninja builds, and no reader changes it for the next."""

import json

import pytest
from ninja.openapi.schema import get_schema

from tournament.api import api, with_not_modified


def test_the_kept_document_is_the_one_ninja_builds_and_each_reader_gets_a_copy():
    first = api.get_openapi_schema()
    built = with_not_modified(get_schema(api=api, path_prefix=api.get_root_path({})))
    assert json.dumps(first, sort_keys=True) == json.dumps(built, sort_keys=True)
    first["paths"].clear()
    first["info"]["title"] = "changed by a reader"
    again = api.get_openapi_schema()
    assert again["paths"] and again["info"]["title"] == "Duplicate Gin public API"


@pytest.mark.django_db
def test_the_json_and_the_docs_page_serve_it(client):
    served = client.get("/api/openapi.json").json()
    assert json.dumps(served, sort_keys=True) == json.dumps(
        with_not_modified(get_schema(api=api, path_prefix=api.get_root_path({}))),
        sort_keys=True)
    page = client.get("/api/docs").content.decode()
    assert "/api/tournaments" in page
