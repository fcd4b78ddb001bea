"""One word a state (issue 56, item 3; ``tournament.states``): a match taken through every
state by the services, its word read at each step on the staff round page, the progress
page, the staff match page, the public round and match pages, the round's CSV, the API and
the bulletin PDF, and the round's word beside it. Where the public must not see something
(a draft; a score while the round is in play under the default live-results rule), that
it is hidden.

A group of four, one hand a match, so that one event holds every state: round 1's match A
is drawn, published, started, played hand by hand, approved, signed, signed off and closed
with its round, and voided when one of its teams defaults in round 2 (that match:
forfeited); round 1's match B is corrected after the close."""

import csv
import io
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tournament import states
from tournament.api.schemas import MatchStatus
from tournament.models import Round, Stage
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.hands import HandEntry
from tournament.services.penalties import record_penalty
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import allot_groups, create_stage


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


class Doors:
    """Each door's state word for one match, and its round's word."""

    def __init__(self, client, anonymous, tournament, round_, match):
        self.client, self.anonymous = client, anonymous
        self.slug, self.round, self.match = tournament.slug, round_, match

    def get(self, client, name, *args, **headers) -> str:
        response = client.get(reverse(name, args=[self.slug, *args]), **headers)
        assert response.status_code == 200, (name, response.status_code)
        return response.content.decode()

    def staff_round(self) -> tuple[str, str, str]:
        """(round word, match's state code, its words) on the staff round page."""
        page = self.get(self.client, "director:round_detail", self.round.pk)
        link = reverse("director:match_page", args=[self.slug, self.match.pk])
        code, words = re.search(rf'<li class="state-([a-z_]+)">\s*<a href="{link}">.*?'
                                r'<span class="state">(.*?)</span>', page, re.S).groups()
        return _round_badge(page), code, _text(words)

    def progress(self) -> tuple[str, str, str]:
        page = self.get(self.client, "director:round_progress", self.round.pk)
        link = reverse("director:match_page", args=[self.slug, self.match.pk])
        code, words = re.search(rf'<tr class="state-([a-z_]+)">\s*<td class="num match-no">'
                                rf'<a href="{link}".*?<td class="state">(.*?)</td>',
                                page, re.S).groups()
        return _round_badge(page), code, _text(words)

    def staff_match(self) -> tuple[str, str]:
        page = self.get(self.client, "director:match_page", self.match.pk)
        code, words = re.search(r'<span class="badge[^"]*" data-state="([a-z_]+)" '
                                r'title="[^"]*">(.*?)</span>', page).groups()
        return code, _text(words)

    def public_round(self, language="en") -> tuple[str, str, str, str]:
        """(round word, code, words, the score cell) on the public round page."""
        with translation.override(language):
            address = reverse("public:round", args=[self.slug, self.round.pk])
            link = reverse("public:match", args=[self.slug, self.match.pk])
        response = self.anonymous.get(address)
        assert response.status_code == 200
        page = response.content.decode()
        row = next(row for row in page.split('<tr class="state-')[1:] if f'"{link}"' in row)
        code, words = re.search(r'<span class="state state-([a-z_]+)">(.*?)</span>\s*</td>',
                                row, re.S).groups()
        score = re.search(r'<td class="score">(.*?)</td>', row, re.S).group(1)
        return _round_badge(page), code, _text(words), _text(score)

    def public_match(self) -> tuple[str, str]:
        page = self.get(self.anonymous, "public:match", self.match.pk)
        code, words = re.search(r'<span class="state state-([a-z_]+)" title="[^"]+">(.*?)'
                                r'</span>', page, re.S).groups()
        return code, _text(words)

    def api(self, language="en") -> tuple[dict, dict]:
        """(the round's answer, the match's line)."""
        response = self.anonymous.get(
            f"/api/tournaments/{self.slug}/rounds/{self.round.pk}",
            HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        answer = response.json()
        return answer, next(m for m in answer["matches"] if m["id"] == self.match.pk)

    def csv(self) -> str:
        """The round's CSV: the match's "Status"."""
        content = self.get(self.anonymous, "public:round_export", self.round.pk, "csv")
        rows = list(csv.DictReader(io.StringIO(content.lstrip("\ufeff"))))
        return next(r for r in rows if r["Match"] == str(self.match.number))["Status"]


def _round_badge(page: str) -> str:
    return re.search(r'<h1>.*?<span class="badge badge-[a-z_]+">(.*?)</span>', page,
                     re.S).group(1)


def shown_as(code: str, match) -> str:
    """What a staff page shows for the state: its word, or for a forfeit the sentence with
    the team that defaulted ("forfeited by T3"; in Chinese "T3 判负")."""
    if code == states.FORFEITED:
        return f"forfeited by {match.forfeited_by.code}"
    return states.word(code)


def check(doors: Doors, code: str, round_status: str, *, public: bool = True,
          entered: int = 0) -> None:
    """Every door says the same word for the match's state ``code`` (and its round's)."""
    match = doors.match
    match.refresh_from_db()
    word, round_word = states.word(code), str(Round.Status(round_status).label)
    shown = shown_as(code, match)
    assert doors.staff_round() == (round_word, code, shown)
    assert doors.progress() == (round_word, code, shown)
    assert doors.staff_match() == (code, shown)
    if not public:
        return
    badge, public_code, words, score = doors.public_round()
    assert (badge, public_code) == (round_word, code)
    if code == states.PLAYING:  # the count after the word
        assert words == f"{word}: {entered} of 2 results entered"
    elif code == states.VOID:
        assert words == f"{word}: a team withdrew from the stage"
    else:
        assert words == shown
    assert doors.public_match()[0] == code and doors.public_match()[1] == words
    answer, line = doors.api()
    assert (answer["status"], answer["status_word"]) == (round_status, round_word)
    assert (line["status"], line["status_word"]) == (code, word)
    # The first version's state, kept: the three steps after every hand was one.
    assert line["state"] == states.FIRST_API_STATE.get(code, code)
    assert doors.csv().startswith(word)
    if round_status == Round.Status.IN_PLAY:
        # The default live-results rule: nothing of a score until the round is closed.
        assert "shown once the round is closed" in score or score == "—"
        assert line["home_total"] is None and line["home_match_points"] is None


@pytest.fixture
def event(tournament, director_actor, teams):
    tournament.hands_per_match = 1
    tournament.save()
    stage = create_stage(director_actor, tournament, name="Groups", kind=Stage.Kind.GROUPS)
    allot_groups(director_actor, stage, [teams(4)])
    return stage


def play(actor, table):
    """The table's one hand: the home team knocks 4 against 12 (it holds seat 1 at table 1,
    seat 2 at table 2), +23."""
    return record_hand_result(actor, table, 1, HandEntry("knock", table.position, 4, 12),
                              seen_version=0, request_token=uuid.uuid4())


def finish(actor, match):
    """Both tables played, approved and signed, the match signed off."""
    for table in match.tables.order_by("position"):
        result = play(actor, table)
        for seat in (1, 2):
            approve_hand(actor, result, seat)
        for seat in (1, 2):
            sign_table(actor, table, seat)
    sign_off_match(actor, match)


def test_one_word_for_each_state_on_every_door(client, tournament, staff_user,
                                               director_actor, event):
    client.force_login(staff_user(tournament, "director", username="lin"))
    anonymous = Client()
    one = generate_round(director_actor, event)
    match_a, match_b = one.matches.order_by("number")
    doors = Doors(client, anonymous, tournament, one, match_a)
    tables = list(match_a.tables.order_by("position"))

    # Drawn: the staff see it; the public and the API do not know the round exists.
    check(doors, states.WAITING, Round.Status.DRAFT, public=False)
    assert anonymous.get(reverse("public:round", args=[tournament.slug, one.pk])
                         ).status_code == 404
    assert anonymous.get(reverse("public:match", args=[tournament.slug, match_a.pk])
                         ).status_code == 404
    assert anonymous.get(f"/api/tournaments/{tournament.slug}/rounds/{one.pk}"
                         ).status_code == 404
    assert anonymous.get(f"/api/tournaments/{tournament.slug}/rounds").json()["items"] == []

    publish_round(director_actor, one)
    check(doors, states.WAITING, Round.Status.PUBLISHED)
    start_round(director_actor, one)
    check(doors, states.WAITING, Round.Status.IN_PLAY)  # was "provisional", "playing"

    first = play(director_actor, tables[0])
    check(doors, states.PLAYING, Round.Status.IN_PLAY, entered=1)
    second = play(director_actor, tables[1])
    check(doors, states.AWAITING_APPROVAL, Round.Status.IN_PLAY)
    for result in (first, second):
        for seat in (1, 2):
            approve_hand(director_actor, result, seat)
    check(doors, states.AWAITING_SIGNATURES, Round.Status.IN_PLAY)
    for table in tables:
        for seat in (1, 2):
            sign_table(director_actor, table, seat)
    check(doors, states.AWAITING_SIGN_OFF, Round.Status.IN_PLAY)
    sign_off_match(director_actor, match_a)
    check(doors, states.OFFICIAL, Round.Status.IN_PLAY)  # its score still held back

    finish(director_actor, match_b)
    close_round(director_actor, one)
    check(doors, states.OFFICIAL, Round.Status.CLOSED)
    assert doors.public_round()[3].startswith("+")  # the score, now the round is closed

    # Match B corrected after the close.
    correct = Doors(client, anonymous, tournament, one, match_b)
    record_hand_result(director_actor, match_b.tables.get(position=1), 1, HandEntry("draw"),
                       seen_version=1, request_token=uuid.uuid4(), reason="lay-off missed")
    check(correct, states.CORRECTING, Round.Status.CLOSED)

    # Round 2: a team of match A defaults; its match there is forfeited, and match A of
    # round 1 is void (a group stage: the team is withdrawn, its results cleared).
    two = generate_round(director_actor, event)
    publish_round(director_actor, two, override_reason="match B is being corrected")
    start_round(director_actor, two)
    team = match_a.home
    defaulted = two.matches.get(**({"home": team} if two.matches.filter(home=team).exists()
                                   else {"away": team}))
    record_penalty(director_actor, team=team, round=two, kind="default", match=defaulted,
                   reason="did not come")
    check(doors, states.VOID, Round.Status.CLOSED)
    check(Doors(client, anonymous, tournament, two, defaulted), states.FORFEITED,
          Round.Status.IN_PLAY)
    # The bulletin (closed rounds only) says the word beside the score, or instead of it.
    bulletin = anonymous.get(reverse("public:bulletin", args=[tournament.slug]))
    words = " ".join(" ".join(page.extract_text().split())
                     for page in PdfReader(io.BytesIO(bulletin.content)).pages)
    assert "void: a team withdrew from the stage" in words
    assert "· being corrected" in words


def test_the_api_and_the_public_page_say_the_word_in_chinese(client, tournament,
                                                             director_actor, event):
    one = generate_round(director_actor, event)
    publish_round(director_actor, one)
    start_round(director_actor, one)
    match = one.matches.order_by("number").first()
    for table in match.tables.all():
        play(director_actor, table)
    doors = Doors(client, client, tournament, one, match)
    with translation.override("zh-hans"):
        word = states.word(states.AWAITING_APPROVAL)
        round_word = str(Round.Status.IN_PLAY.label)
    assert word == "等待确认" and round_word == "进行中"
    answer, line = doors.api("zh-hans")
    assert (answer["status_word"], line["status_word"]) == (round_word, word)
    badge, code, words, _score = doors.public_round("zh-hans")
    assert (badge, code, words) == (round_word, states.AWAITING_APPROVAL, word)


def test_the_api_names_every_state_of_the_vocabulary():
    """The document's enumeration is the vocabulary's, and its first version's states are
    still all there (no client of it meets a value it does not know)."""
    assert list(MatchStatus.__args__) == list(states.MATCH_STATES)
    first = {states.FIRST_API_STATE.get(code, code) for code in states.MATCH_STATES}
    assert first == {"waiting", "playing", "complete", "official", "correcting",
                     "forfeited", "void"}
