"""The language of a request: on the public site the address carries it (issue 53).

A shared cache in front of the site (nginx, Varnish, a CDN) keeps one copy per address.
So a public page or download is in the language of its address's prefix (``/zh-hans/t/demo/``
in Chinese, ``/t/demo/`` in English, the default), never in the language of a cookie or
of the browser's ``Accept-Language``: the same address is the same answer for every reader,
and the answer needs no ``Vary`` on either. The JSON API has no prefix; it follows
``Accept-Language`` alone (with ``Vary: Accept-Language``), never the cookie. The staff
area, the table terminal (``/device/``), the log-in page and the admin are private and
keep the reader's choice: the ``django_language`` cookie (set by the language form), then
``Accept-Language``.

``LanguageMiddleware`` takes the place of Django's ``LocaleMiddleware``. It needs no
session (the cookie is a plain one), so it can sit before the public cache and the
sessions. Whether an address is public is decided from its path alone: ``resolve()`` of a
prefixed address works only while its language is active, and it is this middleware that
activates it.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.conf import settings
from django.urls import Resolver404, resolve, reverse, translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers

API_PREFIX = "/api/"
# Addresses outside the public site (with or without a language prefix): everything else,
# the home page included, is a public address whose language is its prefix's.
# (The site has no media files; its static files are answered before this runs.)
NOT_PUBLIC = ("/manage/", API_PREFIX, "/accounts/", "/admin/", "/i18n/", "/static/",
              "/device/")  # the table terminal: a device's, in its reader's language


def prefix_language(path: str) -> str | None:
    """The language named by the address's first segment (``/zh-hans/…``), if any."""
    return translation.get_language_from_path(path)


def without_prefix(path: str) -> str:
    """The address without its language prefix, if it has one: ``/zh-hans/t/demo/`` →
    ``/t/demo/``."""
    if prefix_language(path) is None:
        return path
    rest = path[1:].partition("/")[2]
    return "/" + rest


def is_public(path: str) -> bool:
    """Whether the address belongs to the public site, whose language is its prefix's."""
    path = without_prefix(path)
    return not (path + "/").startswith(NOT_PUBLIC)


def _accept_language_only(request) -> str:
    """The browser's language (``Accept-Language``) as Django chooses it, the cookie
    left out."""
    asked = SimpleNamespace(COOKIES={}, META={
        "HTTP_ACCEPT_LANGUAGE": request.META.get("HTTP_ACCEPT_LANGUAGE", "")})
    return translation.get_language_from_request(asked, check_path=False)


def language_of(request) -> str:
    """The language a request is answered in (see the module's description)."""
    path = request.path_info
    if path.startswith(API_PREFIX):
        return _accept_language_only(request)
    if is_public(path):
        return prefix_language(path) or settings.LANGUAGE_CODE
    return translation.get_language_from_request(request, check_path=False)


class LanguageMiddleware:
    """Activates the request's language (``language_of``) for the view, sets
    ``request.LANGUAGE_CODE`` and the response's ``Content-Language``; ``Vary:
    Accept-Language`` on everything but the public site's addresses."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        translation.activate(language_of(request))
        request.LANGUAGE_CODE = translation.get_language()
        try:
            response = self.get_response(request)
            if not is_public(request.path_info):
                patch_vary_headers(response, ("Accept-Language",))
            response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
            return response
        finally:
            translation.deactivate()


def language_addresses(request) -> list[dict]:
    """For the language switch of a public page: each language with the address of the
    same page in it (the query string kept), and whether it is the page's own. An address
    that names no page (a 404) offers each language's home page instead."""
    current = translation.get_language()
    path = request.get_full_path()
    try:
        resolve(request.path_info)
        found = True
    except Resolver404:
        found = False
    choices = []
    for code, _name in settings.LANGUAGES:
        if found:
            url = translate_url(path, code)
        else:
            with translation.override(code):
                url = reverse("public:home")
        info = translation.get_language_info(code)
        choices.append({"code": code, "name_local": info["name_local"], "url": url,
                        "current": code == current,
                        "default": code == settings.LANGUAGE_CODE})
    return choices
