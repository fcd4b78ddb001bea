"""English and Simplified Chinese are prepared from the start."""

import gettext
import re
from pathlib import Path

from django.urls import reverse
from django.utils import translation

LOCALE = Path(__file__).resolve().parents[2] / "tournament" / "locale"


def test_pages_speak_chinese_at_the_chinese_address(client, tournament):
    with translation.override("zh-hans"):
        home = reverse("public:home")
    assert home == "/zh-hans/"
    response = client.get(home)
    html = response.content.decode()
    assert '<html lang="zh-hans">' in html
    assert "赛事" in html and "登录" in html


def test_english_is_the_default(client, tournament):
    html = client.get(reverse("public:home")).content.decode()
    assert '<html lang="en">' in html and "Log in" in html


def test_compiled_catalogue_matches_its_source():
    po = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
    with open(po.with_suffix(".mo"), "rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog
    source_ids = set(re.findall(r'^msgid "(.+)"$', po.read_text(), re.M))
    # A message with a context is compiled as "context\x04message"; a plural as (id, n).
    compiled_ids = {(key[0] if isinstance(key, tuple) else key).split("\x04")[-1]
                    for key in compiled}
    missing = source_ids - compiled_ids
    assert not missing, f"run: python manage.py compilemessages ({sorted(missing)[:3]} ...)"


def test_every_message_is_translated():
    """No message shows in English on a Chinese page: none empty, none fuzzy (a guess of
    makemessages that nobody checked)."""
    po = (LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po").read_text()
    entries = po.split("\n\n")[1:]  # the first is the header
    fuzzy = [entry for entry in entries if "#, fuzzy" in entry and not entry.startswith("#~")]
    empty = [entry for entry in entries
             if re.search(r'^msgstr(\[0\])? ""\n?$', entry.strip().split("\n")[-1] + "\n", re.M)
             and not re.search(r'^"', entry.strip().split("\n")[-1])]
    assert not fuzzy, fuzzy[:3]
    assert not empty, empty[:3]
