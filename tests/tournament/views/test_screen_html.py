"""The big screen (and the API's docs page) checked by the Nu HTML Checker, the W3C's own
validator (issue 27): no error, in English and in Chinese (tests/nu.py). Every other page
is checked on the demo (tests/tournament/live_demo/test_nu_checker.py)."""

from django.urls import reverse
from django.utils import translation

from tests.nu import nu_errors, vnu_jar
from tests.tournament.views.public_event import build_event
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round

LANGUAGES = ("en", "zh-hans")


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
