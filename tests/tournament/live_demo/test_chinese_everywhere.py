"""Every page and printout of the demo, read in Chinese, holds no English sentence of the
catalogue (issue 27): a message that is translated yet shows in English was never marked
for translation where it is used, was put together outside the reader's language (an
f-string, a sentence stored in the database), or sits where ``makemessages`` does not look.

The walk starts at the public home page and the director's dashboard and follows every
link, as a director and as a spectator, taking one page of each address (two for a match
and a round, whose pages differ with their state); PDFs are read back with pypdf, CSV and
XLSX downloads cell by cell. Names typed by people (teams, players, stages) are taken out
of the text first: a team called "Ace Knights" is not a message."""

from __future__ import annotations

import csv
import io
import re
import zoneinfo
from collections import Counter, deque
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from tournament.demo import SLUG
from tournament.models import Group, Penalty, Player, Stage, Team, Tournament

PO = (Path(__file__).resolve().parents[3] / "tournament" / "locale" / "zh_Hans"
      / "LC_MESSAGES" / "django.po")
# The public site in Chinese is at its Chinese addresses (/zh-hans/…); the staff area
# speaks the language of the cookie the language menu sets, else the browser's.
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
# Addresses not walked: Django's own admin (its catalogue is Django's), the JSON API (keys
# and values for programs; its schema page is tested by the axe tests), the language switch.
NOT_WALKED = ("/admin/", "/api/", "/static/", "/i18n/")
PAGES_PER_ADDRESS = Counter({"public:match": 2, "public:round": 2, "director:round_detail": 2,
                             "director:match_page": 2, "public:standings_export": 2})
# Messages whose Chinese keeps English words of their own (a format's name, a code).
# A word: two letters or more (a single letter is a card's rank, a suit, a seat, a code).
WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]+")
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sd]|\{\w*\}|%%")


# The catalogue ------------------------------------------------------------------------------

def catalogue() -> list[tuple[str, str]]:
    """(English message, its Chinese) of every translated entry of the .po file, each
    plural form's English apart."""
    entries, current, key = [], {}, None
    for line in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if current.get("msgid"):
                chinese = current.get("msgstr") or current.get("msgstr[0]", "")
                for english in (current["msgid"], current.get("msgid_plural")):
                    if english and chinese:
                        entries.append((english, chinese))
            current, key = {}, None
        elif line.startswith("#"):
            continue
        elif line.startswith('"') and key:
            current[key] += _unquote(line)
        else:
            key, _, rest = line.partition(" ")
            current[key] = _unquote(rest)
    return entries


def _unquote(text: str) -> str:
    return text.strip()[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


class EnglishFinder:
    """Finds the catalogue's English in a text: a whole text (a button's "Save") that is a
    message, or three words or more in a row taken from one."""

    RUN = 3

    def __init__(self, entries: list[tuple[str, str]]):
        self.whole: dict[str, str] = {}
        self.templates: list[tuple[re.Pattern, str]] = []
        self.runs: dict[tuple[str, ...], str] = {}
        for english, chinese in entries:
            if not WORD.search(english) or english.strip() in chinese:
                continue  # no words, or the Chinese keeps the English ("CSV", "PIN")
            kept = set(_runs(chinese, self.RUN))  # English the Chinese keeps ("manage.py")
            literal = PLACEHOLDER.split(_squash(english))
            if len(literal) == 1:
                self.whole[_squash(english)] = english
            elif sum(len(WORD.findall(part)) for part in literal) >= 2:
                # Spaces kept: "{n} win" is not found in "Darwin".
                pattern = r".+?".join(re.escape(part) for part in literal)
                self.templates.append((re.compile(pattern, re.S), english))
            for part in literal:
                for run in _runs(part, self.RUN):
                    if run not in kept:
                        self.runs[run] = english

    def find(self, text: str) -> str | None:
        """The message of the catalogue found in English in ``text``, or None."""
        text = _squash(text)
        if not WORD.search(text):
            return None
        if text in self.whole:
            return self.whole[text]
        if len(text) < 400:
            for template, english in self.templates:
                if template.fullmatch(text):
                    return english
        for run in _runs(text, self.RUN):
            if run in self.runs:
                return self.runs[run]
        return None


def _squash(text: str) -> str:
    return " ".join(text.split())


def _runs(text: str, length: int) -> list[tuple[str, ...]]:
    """Every ``length`` words in a row of the text, in lower case."""
    words = [word.lower() for word in WORD.findall(text)]
    return [tuple(words[start:start + length]) for start in range(len(words) - length + 1)]


# Reading what the site sends ------------------------------------------------------------

class PageText(HTMLParser):
    """The texts a reader meets on a page (each text between tags, and the attributes read
    aloud or shown: title, alt, placeholder, aria-label, a button's value), and its links."""

    SHOWN = ("title", "alt", "placeholder", "aria-label", "aria-description", "data-label")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style", "template"):
            self._hidden += 1
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        for name in ("hx-get", "data-hx-get"):
            if attrs.get(name):
                self.links.append(attrs[name])
        for name in self.SHOWN:
            if attrs.get(name):
                self.texts.append(attrs[name])
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.texts.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.texts.append(data)


def texts_of(response) -> tuple[list[str], list[str]]:
    """(texts, links) of a response by its kind."""
    kind = response["Content-Type"].split(";")[0]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if kind == "text/html":
        parser = PageText()
        parser.feed(body.decode())
        return parser.texts, parser.links
    if kind == "application/pdf":
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(body))
        return [line for page in reader.pages for line in page.extract_text().splitlines()], []
    if kind == "text/csv":
        return [cell for row in csv.reader(io.StringIO(body.decode("utf-8-sig")))
                for cell in row], []
    if "spreadsheet" in kind:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(body), read_only=True)
        return [str(cell) for sheet in book.worksheets
                for row in sheet.iter_rows(values_only=True) for cell in row
                if isinstance(cell, str)], []
    return [], []


def walk(client: Client, starts: list[str]) -> dict[str, tuple[str, list[str]]]:
    """Each address reached by links from ``starts``: {url: (route, texts)}."""
    queue, seen, taken, read = deque(starts), set(starts), Counter(), {}
    while queue:
        url = queue.popleft()
        path = urlsplit(url).path
        if path.startswith(NOT_WALKED):
            continue
        try:
            with translation.override("zh-hans"):  # a public address is read in Chinese
                route = resolve(path).view_name
        except Resolver404:
            continue  # (an English public address, as the language switch links to)
        if taken[route] >= max(1, PAGES_PER_ADDRESS[route]):
            continue
        taken[route] += 1
        response = client.get(url, **CHINESE)
        if response.status_code != 200:
            continue
        texts, links = texts_of(response)
        read[url] = (route, texts)
        for link in links:
            target = urljoin(url, link.split("#")[0])
            if urlsplit(target).netloc in ("", "testserver") and target not in seen:
                seen.add(target)
                queue.append(urlsplit(target).path + (
                    "?" + urlsplit(target).query if urlsplit(target).query else ""))
    return read


# The walk -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def walked(live_demo, django_db_blocker):
    """{url: (route, texts)} of every address a director and a spectator reach, in Chinese."""
    with django_db_blocker.unblock(), transaction.atomic():
        director = Client()
        director.cookies["django_language"] = "zh-hans"
        director.force_login(get_user_model().objects.create_superuser(
            "reader", "reader@example.org", "a-Long-pass-123"))
        knockout = live_demo.stages.get(kind=Stage.Kind.KNOCKOUT)
        groups = live_demo.stages.get(kind=Stage.Kind.GROUPS)
        penalize_in_match_points(groups)
        # Pages no link leads to from the walk's start (a bookmark, a printout); the
        # group stage's standings, whose penalties column has match and small points.
        with translation.override("zh-hans"):
            unlinked = [reverse(name, args=args) for name, args in (
                ("director:standings", [SLUG]), ("director:standings_check", [SLUG]),
                ("director:bracket_pdf", [SLUG, knockout.pk]),
                ("director:stage_standings", [SLUG, groups.pk]),
                ("director:standings_download", [SLUG, groups.pk, "pdf"]),
                ("public:stage_standings", [SLUG, groups.pk]),
                ("public:stage_standings_export", [SLUG, groups.pk, "xlsx"]),
                ("public:standings_export", [SLUG, "csv"]),
                ("public:standings_export", [SLUG, "xlsx"]))]
            home, event = reverse("public:home"), reverse("public:tournament", args=[SLUG])
        read = walk(director, [home, f"/manage/{SLUG}/", "/manage/", *unlinked])
        read.update(walk(Client(), [home, event, "/accounts/login/"]))
        names = typed_names(live_demo)
        transaction.set_rollback(True)
    return read, names


def penalize_in_match_points(groups: Stage) -> None:
    """A match-points penalty beside the demo's small-points one (GER, −20): the standings'
    penalties column then holds both units."""
    from tournament.services import Actor
    from tournament.services.penalties import record_penalty

    referee = get_user_model().objects.get(username="reader")
    team = groups.tournament.teams.get(code="GER")
    round_ = groups.rounds.order_by("number").last()
    record_penalty(Actor(user=referee, ip="10.0.0.1"), team=team, round=round_,
                   kind="match_points", amount=1, reason="A late scorecard.")


def typed_names(tournament: Tournament) -> re.Pattern:
    """What people typed and the pages show as they typed it (and the time zones' names),
    as one pattern of whole words, longest first."""
    names = {tournament.name, tournament.venue, *get_user_model().objects.values_list(
        "username", flat=True)}
    for model, fields in ((Team, ("name", "other_name", "country")), (Player, ("name",)),
                          (Stage, ("name", "other_name")), (Group, ("name",)),
                          (Penalty, ("reason",))):
        for values in model.objects.values_list(*fields):
            names.update(values)
    for zone in zoneinfo.available_timezones():
        names.update(zone.replace("_", " ").split("/"))
    names = sorted((name for name in names if name), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")


@pytest.mark.django_db
def test_the_walk_reads_the_site(walked):
    """The walk meets the pages the browser tests walk: public, staff, entry, printouts."""
    read, _names = walked
    routes = {route for route, _texts in read.values()}
    for route in ("public:tournament", "public:standings", "public:match", "public:traveller",
                  "public:screen", "public:bulletin", "director:dashboard", "director:round_detail",
                  "director:round_deals_pdf", "director:round_scorecards", "director:table_entry",
                  "director:match_page", "director:desk_match", "director:audit",
                  "director:tournament_edit", "public:standings_export", "director:bracket_pdf"):
        assert route in routes, (route, sorted(routes))


@pytest.mark.django_db
def test_no_english_message_in_chinese(walked):
    read, names = walked
    finder = EnglishFinder(catalogue())
    found = {}
    for url, (_route, texts) in read.items():
        for text in texts:
            english = finder.find(names.sub(" ", text))
            if english:
                found.setdefault(url, []).append((text[:80], english))
    assert not found, "\n".join(f"{url}: {texts[:5]}" for url, texts in found.items())


# Units, abbreviations and the time zones (issue 56) -------------------------------------

# Latin words a Chinese page keeps: the names of formats and the language switch's own.
KEPT_LATIN = {"PDF", "CSV", "XLSX", "English", "PIN", "IANA", "UTC"}
LATIN_WORD = re.compile(r"(?<![\w/])[A-Za-z][A-Za-z'\u2019-]+")


@pytest.mark.django_db
def test_the_standings_with_penalties_hold_no_latin_word(walked):
    """The standings of the group stage (GER: −1 mp, −20 sp), on the page, printed and
    downloaded, in Chinese: every unit in Chinese, no Latin word but a typed name, a
    team's code or a format's name."""
    read, names = walked
    codes = re.compile("|".join(map(re.escape, sorted(
        Team.objects.values_list("code", flat=True), key=len, reverse=True))))
    groups = Stage.objects.get(kind=Stage.Kind.GROUPS)
    standings = {url: texts for url, (route, texts) in read.items()
                 if f"/stages/{groups.pk}/" in url
                 and route in ("public:stage_standings", "director:stage_standings",
                               "director:standings_download",
                               "public:stage_standings_export")}
    assert {read[url][0] for url in standings} == {
        "public:stage_standings", "director:stage_standings", "director:standings_download",
        "public:stage_standings_export"}, sorted(standings)
    for url, texts in standings.items():
        if read[url][0] != "public:stage_standings_export":  # a download: numbers
            text = "\n".join(texts)
            assert re.search(r"[−-]1 积分", text) and re.search(r"[−-]20 小分", text), url
        words = {word.strip("-'\u2019") for t in texts
                 for word in LATIN_WORD.findall(names.sub(" ", codes.sub(" ", t)))}
        latin = words - KEPT_LATIN
        assert not latin, (url, sorted(latin))


@pytest.mark.django_db
def test_the_time_zones_are_named_in_chinese(walked):
    """The time zone field of the settings in Chinese: a zone whose place CLDR names in
    Chinese shows that name (its IANA place beside it, as the finder reads it), never the
    place alone in English."""
    read, _names = walked
    [texts] = [texts for route, texts in read.values() if route == "director:tournament_edit"]
    options = set(texts)
    assert {"上海\uff08Shanghai\uff09", "巴黎\uff08Paris\uff09", "纽约\uff08New York\uff09"
            } <= options
    assert not {"Shanghai", "Paris", "New York", "Buenos Aires"} & options
