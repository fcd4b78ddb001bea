"""The language in the address (issue 53, item 1): a public page or download is in the
language of its address's prefix, never of a cookie or of the browser's languages, so that
a shared cache can keep one copy per address; the API follows Accept-Language alone; the
staff area keeps the reader's cookie (tournament/language.py)."""

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from tests.tournament.views.public_event import one_event_per_module
from tournament.language import is_public, language_of

built_event, event, tournament = one_event_per_module(open_round=False)

CHINESE_READER = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans,zh;q=0.9"}


@pytest.fixture
def chinese_client(client):
    """A reader whose cookie and browser both ask for Chinese."""
    client.cookies["django_language"] = "zh-hans"
    return client


def chinese(url: str) -> str:
    return "/zh-hans" + url


def vary(response) -> set[str]:
    return {word.strip().lower() for word in response.get("Vary", "").split(",") if word}


def csv_header(response) -> list[str]:
    return next(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_address_decides_who_is_public():
    assert is_public("/") and is_public("/zh-hans/") and is_public("/t/demo/standings.csv")
    assert is_public("/zh-hans/t/demo/screen/fragment/")
    for path in ("/manage/", "/manage", "/api/docs", "/accounts/login/", "/admin/",
                 "/i18n/setlang/", "/static/tournament/site.css", "/zh-hans/manage/demo/",
                 "/device/"):
        assert not is_public(path), path


def test_the_language_of_a_request_follows_its_kind_of_address():
    factory = RequestFactory()
    factory.cookies["django_language"] = "zh-hans"
    asks = {"HTTP_ACCEPT_LANGUAGE": "zh-CN"}
    assert language_of(factory.get("/t/demo/", **asks)) == "en"
    assert language_of(factory.get("/zh-hans/t/demo/")) == "zh-hans"
    assert language_of(factory.get("/api/tournaments")) == "en"  # the cookie is not asked
    assert language_of(factory.get("/api/tournaments", **asks)) == "zh-hans"
    assert language_of(factory.get("/manage/")) == "zh-hans"  # the staff's cookie
    assert language_of(RequestFactory().get("/manage/", **asks)) == "zh-hans"
    assert language_of(RequestFactory().get("/manage/")) == "en"


def test_a_chinese_cookie_or_browser_leaves_a_public_page_english(chinese_client,
                                                                  tournament):
    url = reverse("public:standings", args=[tournament.slug])
    response = chinese_client.get(url, **CHINESE_READER)
    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()
    assert response["Content-Language"] == "en"
    assert "accept-language" not in vary(response)


def test_the_chinese_address_is_chinese_whatever_the_reader_asks(client, tournament):
    url = chinese(reverse("public:standings", args=[tournament.slug]))
    client.cookies["django_language"] = "en"
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 200 and '<html lang="zh-hans">' in page
    assert response["Content-Language"] == "zh-hans"
    assert "accept-language" not in vary(response)
    # Its links lead on in Chinese: the downloads, the navigation.
    csv_url = chinese(reverse("public:standings_export", args=[tournament.slug, "csv"]))
    assert f'href="{csv_url}"' in page
    assert f'href="{chinese(reverse("public:teams", args=[tournament.slug]))}"' in page


def test_a_download_follows_its_address_alone(chinese_client, tournament):
    url = reverse("public:standings_export", args=[tournament.slug, "csv"])
    english = chinese_client.get(url, **CHINESE_READER)
    assert english.status_code == 200 and english["Content-Language"] == "en"
    assert "Team" in csv_header(english)
    assert "accept-language" not in vary(english)
    in_chinese = chinese_client.get(chinese(url), HTTP_ACCEPT_LANGUAGE="en")
    assert in_chinese.status_code == 200 and in_chinese["Content-Language"] == "zh-hans"
    assert "队伍" in csv_header(in_chinese) and "Team" not in csv_header(in_chinese)


def test_a_bulletin_and_the_big_screen_follow_their_address(chinese_client, tournament):
    for name in ("bulletin", "screen", "screen_fragment"):
        url = reverse(f"public:{name}", args=[tournament.slug])
        assert chinese_client.get(url, **CHINESE_READER)["Content-Language"] == "en", name
        assert chinese_client.get(chinese(url))["Content-Language"] == "zh-hans", name
    with translation.override("zh-hans"):
        fragment = reverse("public:screen_fragment", args=[tournament.slug])
    screen = chinese_client.get(chinese(reverse("public:screen", args=[tournament.slug])))
    assert f'data-hx-get="{fragment}"' in screen.content.decode()


def test_the_api_follows_the_browser_and_never_the_cookie(chinese_client, tournament):
    url = f"/api/tournaments/{tournament.slug}/standings"
    by_cookie = chinese_client.get(url)
    assert by_cookie.status_code == 200 and by_cookie["Content-Language"] == "en"
    assert "accept-language" in vary(by_cookie)
    by_browser = chinese_client.get(url, **CHINESE_READER)
    assert by_browser["Content-Language"] == "zh-hans"
    assert "accept-language" in vary(by_browser)
    docs = chinese_client.get("/api/docs", **CHINESE_READER).content.decode()
    assert '<html lang="zh-hans">' in docs
    assert 'id="language"' not in docs  # a menu setting a cookie would change nothing here


def test_the_staff_area_keeps_the_readers_cookie(chinese_client, tournament):
    chinese_client.force_login(get_user_model().objects.get(username="event-director"))
    response = chinese_client.get(reverse("director:dashboard", args=[tournament.slug]),
                                  HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert '<html lang="zh-hans">' in page and response["Content-Language"] == "zh-hans"
    assert "accept-language" in vary(response)
    # Its menu sets the cookie, and its links to the public pages are the Chinese ones.
    assert 'action="/i18n/setlang/"' in page and 'id="language"' in page
    assert f'href="{chinese(reverse("public:tournament", args=[tournament.slug]))}"' in page


def test_the_switch_of_a_public_page_links_to_its_other_address(client, tournament):
    url = reverse("public:standings", args=[tournament.slug])
    page = client.get(url + "?stage=1&x=%C3%A9").content.decode()
    other = f"{chinese(url)}?stage=1&amp;x=%C3%A9"
    assert f'<a href="{other}" hreflang="zh-hans" lang="zh-hans">简体中文</a>' in page
    assert f'<link rel="alternate" hreflang="zh-hans" href="{other}">' in page
    assert '<link rel="alternate" hreflang="x-default" href="' + url + '?stage=1' in page
    assert "set_language" not in page and "/i18n/setlang/" not in page
    assert "csrfmiddlewaretoken" not in page
    back = client.get(chinese(url)).content.decode()
    assert f'<a href="{url}" hreflang="en" lang="en">English</a>' in back


@pytest.mark.parametrize("path", ["/xx/t/{slug}/", "/zh/t/{slug}/", "/en/t/{slug}/",
                                  "/zh-hans/manage/{slug}/", "/zh-hans/api/tournaments",
                                  "/zh-hans/t/{slug}/nothing/", "/xx/"])
def test_an_address_with_a_prefix_it_cannot_have_is_not_found(client, tournament, path):
    response = client.get(path.format(slug=tournament.slug))
    assert response.status_code == 404
    assert "<footer" in response.content.decode()  # the site's own page, switch and all
