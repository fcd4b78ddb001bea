"""Desk entry (issue 24) through the test client: rows checked and saved as the table's enter
command, refusals, the paper signatures, permissions and pinned query counts."""

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.shorthand import parse
from tournament.models import Approval, AuditEntry, HandResult, TableSignature, TeamResult
from tournament.services import ServiceError, commands
from tournament.services.desk import approve_on_paper
from tournament.services.locking import shown_revision

# A scorecard of four hands: (table position, hand) → shorthand, as a director types them.
CARD = {(1, 1): "K1 4 15", (1, 2): "g2 30", (1, 3): "B1 22", (1, 4): "D",
        (2, 1): "F1 14 K2 3 14", (2, 2): "K2 9 5", (2, 3): "G1 0", (2, 4): "f2 12 d"}


def url(name, *args):
    return reverse(f"director:{name}", args=args)


@pytest.fixture
def round_(round_in_play):
    return round_in_play(4, hands=4)


@pytest.fixture
def director(client, tournament, staff_user):
    client.force_login(staff_user(tournament, "director", username="dora"))
    return client


def row(client, tournament, table, hand, typed, *, check=False, version=0, token=None,
        json=True):
    data = {"table": table.pk, "hand": hand, "typed": typed, "seen_version": version,
            "request_token": token or str(uuid.uuid4())}
    if check:
        data["check"] = "1"
    headers = {"HTTP_ACCEPT": "application/json"} if json else {}
    return client.post(url("desk_row", tournament.slug), data, **headers)


def type_match(client, tournament, match):
    for (position, hand), typed in CARD.items():
        response = row(client, tournament, match.tables.get(position=position), hand, typed)
        assert response.status_code == 200, response.content
        assert response.json()["ok"]


def at_the_table(client, tournament, match):
    """The same hands through the scorer's page, field by field."""
    for (position, hand), typed in CARD.items():
        table = match.tables.get(position=position)
        page = client.get(url("table_entry", tournament.slug, table.pk)).content.decode()
        data = dict(re.findall(rf'name="(h{hand}-(?:seen_version|request_token))" '
                               r'value="([^"]*)"', page))
        hand_ = parse(typed)
        values = {"outcome": hand_.outcome, "declarer_seat": hand_.declarer_seat or "",
                  "declarer_deadwood": hand_.declarer_deadwood,
                  "opponent_deadwood": hand_.opponent_deadwood,
                  "false_knock_seat": hand_.false_knock_seat or "",
                  "false_knock_deadwood": hand_.false_knock_deadwood}
        data.update({f"h{hand}-{k}": "" if v is None else v for k, v in values.items()})
        response = client.post(url("hand_save", tournament.slug, table.pk, hand), data)
        assert response.status_code == 302, response.content.decode()[:2000]


def stored(match) -> list[tuple]:
    return [(r.table.position, r.hand, r.outcome, r.seat1_points, r.declarer_seat,
             r.declarer_deadwood, r.opponent_deadwood, r.false_knock_seat,
             r.false_knock_deadwood, r.explanation, r.version, r.entered_by_id)
            for r in HandResult.objects.filter(table__match=match, is_current=True)
            .select_related("table").order_by("table__position", "hand")]


def test_a_match_typed_at_the_desk_is_stored_and_counts_as_at_the_table(
        director, tournament, round_, director_actor):
    desk, table_page = round_.matches.order_by("number")
    type_match(director, tournament, desk)
    at_the_table(director, tournament, table_page)
    assert stored(desk) == stored(table_page)
    assert len(stored(desk)) == 8
    # The paper signatures, then the sign-off as any match.
    page = director.get(url("desk_match", tournament.slug, desk.pk)).content.decode()
    revision = re.search(r'name="revision" value="(\d+)"', page).group(1)
    response = director.post(url("desk_on_paper", tournament.slug, desk.pk),
                             {"revision": revision})
    assert response.status_code == 302
    assert Approval.objects.filter(result__table__match=desk, method="paper").count() == 16
    assert TableSignature.objects.filter(table__match=desk, method="paper").count() == 4
    entry = AuditEntry.objects.get(action="match.approve_on_paper")
    assert entry.data == {"match": desk.pk, "approvals": 16, "signatures": 4,
                          "match_name": {"number": desk.number, "home": desk.home.code,
                                         "away": desk.away.code}}
    desk.refresh_from_db()
    commands.sign_off(director_actor, desk.pk, revision=shown_revision(
        desk, list(desk.tables.all())), request_token=uuid.uuid4())
    approve_on_paper(director_actor, table_page)
    table_page.refresh_from_db()
    commands.sign_off(director_actor, table_page.pk, revision=shown_revision(
        table_page, list(table_page.tables.all())), request_token=uuid.uuid4())
    desk.refresh_from_db()
    table_page.refresh_from_db()
    assert (desk.home_total, desk.away_total) == (table_page.home_total,
                                                  table_page.away_total)
    points = {m.pk: sorted(TeamResult.objects.filter(match=m).values_list(
        "small_points", "match_points")) for m in (desk, table_page)}
    assert points[desk.pk] == points[table_page.pk]


def test_a_row_is_explained_as_typed_and_nothing_is_saved(director, tournament, round_):
    table = round_.matches.first().tables.get(position=1)
    answer = row(director, tournament, table, 1, "k1 4 12", check=True).json()
    assert answer == {"ok": True,
                      "explained": "Knock 4 vs 12: 15 + 8 = 23 · seat 1 +23, seat 2 -23"}
    assert not HandResult.objects.exists()


@pytest.mark.parametrize(("typed", "says"), [
    ("K1 30 5", "knock"),  # over the knock limit: the engine's rule
    ("G1 0 5", "one part too many"),
    ("X", "“X” is not a result"),
    ("", "type the result"),
    ("K3 4 15", "seats 1 and 2, not 3"),
    ("G1 200", "0 to 98"),  # read, then refused by the engine's rule
])
def test_a_wrong_row_is_refused_with_its_reason(director, tournament, round_, typed, says):
    table = round_.matches.first().tables.get(position=1)
    response = row(director, tournament, table, 1, typed).json()
    assert not response["ok"] and says in response["error"]
    assert not HandResult.objects.exists()


def test_a_hand_outside_the_match_or_a_table_elsewhere_is_refused(
        director, tournament, round_, make_tournament):
    table = round_.matches.first().tables.get(position=1)
    response = row(director, tournament, table, 9, "D").json()
    assert not response["ok"] and "hands 1 to 4" in response["error"]
    other = make_tournament(name="Other", slug="other")
    response = director.post(url("desk_row", other.slug), {"table": table.pk, "hand": 1})
    assert response.status_code in (403, 404)
    response = director.post(url("desk_row", tournament.slug), {"table": "x", "hand": 1})
    assert response.status_code == 404


def test_a_row_typed_over_a_changed_hand_is_refused_and_a_resend_saves_once(
        director, tournament, round_):
    table = round_.matches.first().tables.get(position=1)
    token = str(uuid.uuid4())
    assert row(director, tournament, table, 1, "D", token=token).json()["version"] == 1
    again = row(director, tournament, table, 1, "D", token=token).json()
    assert again["ok"] and again["version"] == 1
    assert HandResult.objects.filter(table=table, hand=1).count() == 1
    stale = row(director, tournament, table, 1, "G1 10", version=0).json()
    assert not stale["ok"] and "version 1" in stale["error"]
    newer = row(director, tournament, table, 1, "G1 10", version=1).json()
    assert newer["version"] == 2 and newer["typed"] == "G1 10"


def test_without_javascript_a_row_saves_and_the_page_comes_back(director, tournament,
                                                               round_):
    match = round_.matches.first()
    table = match.tables.get(position=2)
    response = row(director, tournament, table, 3, "G2 7", json=False)
    back = url("desk_match", tournament.slug, match.pk)
    assert response.status_code == 302 and response["Location"] == back
    page = director.get(back).content.decode()
    assert f"Table {table.number}, hand 3 saved: Gin vs 7: 25 + 7 = 32" in page
    assert 'value="G2 7"' in page
    response = row(director, tournament, table, 4, "K1 99 1", json=False)
    page = director.get(response["Location"]).content.decode()
    assert f"Table {table.number}, hand 4:" in page


def test_the_paper_signatures_need_every_hand_and_a_referee(
        director, tournament, round_, director_actor, staff_user, actor):
    match = round_.matches.first()
    type_match(director, tournament, match)
    HandResult.objects.filter(table__match=match, hand=4, table__position=2).delete()
    with pytest.raises(ServiceError, match="hand 4 has no result"):
        approve_on_paper(director_actor, match)
    row(director, tournament, match.tables.get(position=2), 4, "D")
    scorer = actor(staff_user(tournament, "scorer", username="sc"))
    with pytest.raises(PermissionDenied):
        approve_on_paper(scorer, match)
    stale = shown_revision(match, list(match.tables.all())) - 1
    with pytest.raises(ServiceError, match="changed since"):
        approve_on_paper(director_actor, match, revision=stale)
    # A seat that approved at the table keeps its tap; only the rest is recorded on paper.
    first = HandResult.objects.get(table__match=match, table__position=1, hand=1,
                                   is_current=True)
    commands.approve(director_actor, first.table_id, 1, 2, version=first.version,
                     request_token=uuid.uuid4())
    done = approve_on_paper(director_actor, match)
    assert (done.approvals, done.signatures) == (15, 4)
    assert Approval.objects.get(result=first, seat=2).method == "tap"
    with pytest.raises(ServiceError, match="signed already; sign it off"):
        approve_on_paper(director_actor, match)
    assert Approval.objects.filter(result__table__match=match).count() == 16


def test_desk_pages_are_for_referees_and_directors(client, tournament, round_, staff_user):
    match = round_.matches.first()
    pages = [url("desk_round", tournament.slug, round_.pk),
             url("desk_match", tournament.slug, match.pk),
             url("desk_box", tournament.slug, round_.pk, 1, 1)]
    for page in pages:
        assert client.get(page).status_code == 302  # to the login
    client.force_login(staff_user(tournament, "scorer", username="sc"))
    for page in pages:
        assert client.get(page).status_code == 403
    assert client.post(url("desk_row", tournament.slug), {}).status_code == 403
    client.force_login(staff_user(tournament, "referee", username="ref"))
    for page in pages:
        assert client.get(page).status_code == 200


def test_the_round_page_finds_a_match_or_a_box_by_its_number(director, tournament, round_):
    page = url("desk_round", tournament.slug, round_.pk)
    match = round_.matches.get(number=2)
    assert director.get(page, {"match": "2"})["Location"] == url("desk_match",
                                                                 tournament.slug, match.pk)
    assert director.get(page, {"hand": "3"})["Location"] == url("desk_box", tournament.slug,
                                                                round_.pk, 1, 3)
    response = director.get(page, {"match": "9"})
    assert response.status_code == 200 and "has no match 9" in response.content.decode()


def test_a_box_across_the_field_lists_every_table_in_table_order(director, tournament,
                                                                round_):
    page = director.get(url("desk_box", tournament.slug, round_.pk, 1, 2)).content.decode()
    tables = [int(n) for n in re.findall(r'<th scope="row" class="num">(\d+)</th>', page)]
    assert tables == sorted(t.number for t in round_.tables.all())
    assert director.get(url("desk_box", tournament.slug, round_.pk, 2, 2)).status_code == 404
    assert director.get(url("desk_box", tournament.slug, round_.pk, 1, 5)).status_code == 404


def test_each_row_of_a_box_has_its_own_form_and_says_what_was_saved(
        director, tournament, round_, staff_user, actor):
    """The rows written in one pass (templatetags/desk.py, issue 59): each with a request
    token of its own, the dealer marked, what was saved explained with its approvals, and
    every name escaped."""
    tables = list(round_.tables.order_by("number"))
    first, second = tables[0], tables[1]
    player = first.seats.get(seat=1).player
    player.name = "Ann <b>& Co</b>"
    player.save()
    row(director, tournament, first, 1, "K1 4 15")
    row(director, tournament, second, 1, "D")
    scorer = actor(staff_user(tournament, "scorer", username="tablet"))
    commands.approve(scorer, second.pk, 1, 1, version=1, request_token=uuid.uuid4())
    page = director.get(url("desk_box", tournament.slug, round_.pk, 1, 1)).content.decode()
    rows = re.findall(r'<tr id="t(\d+)h1" class="desk-row( saved)?">(.*?)</tr>', page, re.S)
    assert [int(table) for table, _saved, _cells in rows] == [t.pk for t in tables]
    assert [bool(saved) for _table, saved, _cells in rows] == [True, True] + [False] * (
        len(tables) - 2)
    tokens = re.findall(r'name="request_token" value="([0-9a-f-]{36})"', page)
    assert len(tokens) == len(set(tokens)) == len(tables)
    cells = {int(table): text for table, _saved, text in rows}
    assert "Ann &lt;b&gt;&amp; Co&lt;/b&gt;" in cells[first.pk]
    assert cells[first.pk].count('class="desk-seat dealer"') == 1  # seat 1 deals hand 1
    assert '<abbr title="dealer">D</abbr>' in cells[first.pk]
    assert 'value="K1 4 15" data-saved="K1 4 15"' in cells[first.pk]
    assert "(v1)</span></output>" in cells[first.pk]
    assert "(v1, 1 approval)</span></output>" in cells[second.pk]
    third = cells[tables[2].pk]
    assert 'name="seen_version" value="0"' in third and 'value="" data-saved=""' in third
    assert 'aria-live="polite"></output>' in third and " disabled>" not in third


@pytest.mark.parametrize("teams_", [4, 16])
def test_desk_pages_query_counts_do_not_grow_with_the_round(
        client, tournament, round_in_play, staff_user, django_assert_max_num_queries, teams_):
    round_ = round_in_play(teams_, hands=4)
    client.force_login(staff_user(tournament, "director", username="dora"))
    for table in round_.tables.all()[:3]:
        row(client, tournament, table, 1, "D")
    match = round_.matches.first()
    for page, most in ((url("desk_round", tournament.slug, round_.pk), 13),
                       (url("desk_match", tournament.slug, match.pk), 16),
                       (url("desk_box", tournament.slug, round_.pk, 1, 1), 16)):
        with django_assert_max_num_queries(most):
            assert client.get(page).status_code == 200



def test_a_match_approved_on_paper_travels_in_the_tournament_file(
        director, tournament, round_, director_actor):
    from tournament.exchange.export import export_text
    from tournament.exchange.import_ import import_tournament
    from tournament.exchange.read import read_document

    match = round_.matches.first()
    type_match(director, tournament, match)
    approve_on_paper(director_actor, match)
    text = export_text(tournament)
    document = read_document(text.encode())
    people = {p["username"]: p["username"] for p in document["people"]}
    copy = import_tournament(document, slug="copy", map_users=people)
    assert Approval.objects.filter(result__table__match__round__stage__tournament=copy,
                                   method="paper").count() == 16
    assert TableSignature.objects.filter(table__match__round__stage__tournament=copy,
                                         method="paper").count() == 4


def test_the_database_refuses_an_approval_made_otherwise(director, tournament, round_):
    from django.db import IntegrityError, transaction

    table = round_.matches.first().tables.get(position=1)
    row(director, tournament, table, 1, "D")
    result = HandResult.objects.get(table=table, hand=1)
    user = result.entered_by
    with pytest.raises(IntegrityError), transaction.atomic():
        Approval.objects.create(result=result, seat=1, method="fax", recorded_by=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSignature.objects.create(table=table, seat=1, method="fax", recorded_by=user)


def test_each_saved_line_says_how_it_moved_the_match_s_revision(
        director, tournament, round_, staff_user, actor):
    """Issue 51: every saved line answers the match's revision before and after it, so the
    page's buttons follow its own saves (desk.js); a line sent twice moves nothing, and a
    change made elsewhere in between breaks the chain."""
    match = round_.matches.order_by("number").first()
    page = director.get(url("desk_match", tournament.slug, match.pk)).content.decode()
    held = int(re.search(r'name="revision" value="(\d+)"', page).group(1))
    token = str(uuid.uuid4())
    first = match.tables.get(position=1)
    answer = row(director, tournament, first, 1, "K1 4 15", token=token).json()
    assert answer["revision"] == {"from": held, "to": held + 1}
    again = row(director, tournament, first, 1, "K1 4 15", token=token).json()
    assert again["revision"] == {"from": held + 1, "to": held + 1}  # saved once
    held += 1
    # Another device approves that hand meanwhile: the next line's move starts elsewhere.
    scorer = actor(staff_user(tournament, "scorer", username="tablet"))
    commands.approve(scorer, first.pk, 1, 1, version=1, request_token=uuid.uuid4())
    answer = row(director, tournament, first, 2, "G2 30").json()
    assert answer["revision"]["from"] == held + 1 != held
    # Refused, naming the other device's change rather than the desk's own later line.
    dora = actor(get_user_model().objects.get(username="dora"))
    with pytest.raises(ServiceError, match=r"changed since .*: seat 1 approved hand 1 at table"):
        approve_on_paper(dora, match, revision=held)
