"""The Nu HTML Checker on every page of the demo (issue 56, item 5): no error, in English
and in Chinese.

The pages are those a director, the device of a table, the demo's scorer and a spectator
reach by links (tests/tournament/views/site_walk.py) from the public home page, the staff's
list of tournaments and the pages no link leads to (a bookmark), each in both languages:
the public ones at their address in the language (/zh-hans/…), the staff's by the language
cookie the site's menu sets; the API's docs page and an error page beside them. All are
checked in one run of the checker (its Java machine starts once)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.nu import nu_errors, vnu_jar
from tests.tournament.views.site_walk import Page, staff_only, swiss_event, walk
from tournament.demo import SLUG
from tournament.demo_accounts import DIRECTOR, SCORER
from tournament.models import Round, Stage, Tournament
from tournament.services import Actor
from tournament.services.devices import create_table_devices

LANGUAGES = ("en", "zh-hans")
PASSWORD = "a-Long-pass-123"


def reader(language: str, user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


def posted(client: Client, url: str, data: dict, route: str, language: str,
           headers: dict) -> Page:
    """The page a form's post answers (a refusal, a confirmation, a report), followed to
    where it leads."""
    response = client.post(url, data, follow=True, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return Page(url, route, response.content.decode(), language)


def every_page(demo: Tournament, swiss: Tournament, language: str) -> list[Page]:
    """The pages of the site in ``language`` as each of its readers reaches them."""
    User = get_user_model()
    in_play = Round.objects.get(stage__tournament=demo, status=Round.Status.IN_PLAY)
    # The devices of the round in play, bound to their tables (table 1's logs in).
    slips = create_table_devices(Actor(user=User.objects.get(username=DIRECTOR)), in_play,
                                 replace=True)
    director = User.objects.filter(username="nu-director").first() or \
        User.objects.create_superuser("nu-director", "nu@example.org", PASSWORD)
    knockout = demo.stages.get(kind=Stage.Kind.KNOCKOUT)
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    with translation.override(language):
        home = reverse("public:home")
        public = [home, *(reverse("public:tournament", args=[t.slug]) for t in (demo, swiss))]
        # Pages no link leads to (a bookmark), or only once a round may close.
        unlinked = [reverse(name, args=args) for name, args in (
            ("director:standings", [SLUG]), ("director:stage_seeding", [SLUG, knockout.pk]),
            ("director:round_close", [SLUG, in_play.pk]))]
    staff = ["/manage/", f"/manage/{SLUG}/"]
    by_director = reader(language, director)
    pages = walk(by_director, [home, *staff, *unlinked], language, **headers)
    pages += walk(by_director, [f"/manage/{swiss.slug}/"], language, keep=staff_only,
                  **headers)
    device = User.objects.get(username=slips[0].username)
    # The table terminal (/device/): a device's table, an account with none, the sign-in.
    for user in (device, User.objects.get(username=SCORER)):
        pages += walk(reader(language, user), [*staff, "/device/"], language,
                      keep=staff_only, **headers)
    pages += walk(reader(language), [*public, "/accounts/login/", "/api/docs", "/device/"],
                  language, **headers)
    # Answers to forms: refusals, a confirmation, a report, an import's preview.
    final = in_play.matches.order_by("number").first()
    forms = [
        (reverse("director:tournament_create"), {}, "director:tournament_create"),
        (reverse("director:team_create", args=[SLUG]), {"code": ""}, "director:team_create"),
        (reverse("director:penalty_create", args=[SLUG]),
         {"round": in_play.pk, "team": final.home_id, "kind": "default",
          "reason": "did not come back"}, "director:penalty_confirm"),
        (reverse("director:standings_check", args=[SLUG]), {}, "director:standings_check"),
        (reverse("login"), {"username": "nobody", "password": "wrong"}, "login"),
    ]
    pages += [posted(by_director, url, data, route, language, headers)
              for url, data, route in forms]
    exported = by_director.post(reverse("director:tournament_export", args=[swiss.slug]))
    pages.append(posted(by_director, reverse("director:import_upload"), {"file": (
        SimpleUploadedFile("swiss.json", exported.content, "application/json"))},
        "director:import_preview", language, headers))
    missing = reader(language).get(public[1] + "nowhere/", **headers)
    assert missing.status_code == 404
    pages.append(Page(public[1] + "nowhere/", "404", missing.content.decode(), language))
    return pages


@pytest.fixture(scope="module")
def pages(live_demo, django_db_blocker) -> list[Page]:
    vnu_jar()  # before the walk: skip (or fail in CI) at once
    with django_db_blocker.unblock(), transaction.atomic():
        swiss = swiss_event()
        found = [page for language in LANGUAGES
                 for page in every_page(live_demo, swiss, language)]
        transaction.set_rollback(True)
    return found


@pytest.mark.django_db
def test_the_walk_reads_every_kind_of_page(pages):
    routes = {page.route for page in pages}
    for route in ("public:home", "public:tournament", "public:standings", "public:match",
                  "public:round", "public:traveller", "public:team", "public:player",
                  "public:screen", "public:penalties", "public:group_standings",
                  "director:home", "director:dashboard", "director:round_detail",
                  "director:round_progress", "director:table_entry", "director:match_page",
                  "director:desk_match", "director:audit", "director:tournament_edit",
                  "director:tournament_create", "director:staff", "director:team_pins",
                  "director:team_edit", "director:team_create", "director:stage_detail",
                  "director:stage_seeding", "director:penalty_list", "director:backups",
                  "director:import_upload", "director:team_import", "api:openapi-view",
                  "director:round_close", "director:penalty_confirm",
                  "director:standings_check", "director:import_preview", "terminal", "login",
                  "404"):
        assert route in routes, (route, sorted(routes))
    # Both languages, the public pages at their Chinese addresses.
    assert any(page.url.startswith("/zh-hans/t/") for page in pages)
    documents = [page for page in pages if not page.fragment]
    for page in documents:
        assert f'<html lang="{page.language}"' in page.html, page.url


def document(page: Page) -> str:
    """The page, or a fragment in the smallest document that holds it."""
    if not page.fragment:
        return page.html
    return (f'<!DOCTYPE html><html lang="{page.language}"><head><meta charset="utf-8">'
            f"<title>{page.route}</title></head><body>{page.html}</body></html>")


@pytest.mark.django_db
def test_every_page_is_valid_html(pages, tmp_path):
    files = {}
    for number, page in enumerate(pages):
        name = f"{number:03d}-{page.route.replace(':', '-')}-{page.language}.html"
        (tmp_path / name).write_text(document(page), encoding="utf-8")
        files[name] = page.url
    errors = nu_errors(sorted(tmp_path.iterdir()))
    where = {line.split(":", 1)[0] for line in errors}
    assert not errors, "the Nu HTML Checker finds:\n" + "\n".join(errors) + "\n\nat:\n" + \
        "\n".join(f"{name}: {files[name]}" for name in sorted(where))
