"""No card before its time (issue 49, item 1): extra hands dealt after a correction stay
secret until they are played.

A knockout final is played, signed off and its round closed (its boxes public); a referee
corrects it into a tie and plays on, while another stage's round is in play beside it. The
two new boxes and the other round's, searched for by the runs of their cards that no played
box holds in any order a page could write, must show on no page, printout, download or API
answer to anyone but the tournament's directors (the walk takes every address for every
role: anonymous, scorer, table device, referee, chief referee, the director of another
tournament; the players have no account and read what anyone reads) until their hands are
played and the match is signed off again; then the round closes by itself and the cards
appear like any closed box's. The walk is checked to find a planted card where one is
shown: on the pages of the director and of a superuser (a director of every tournament)."""

from __future__ import annotations

import io
import uuid
import zipfile

import pytest
from django.test import Client
from pypdf import PdfReader

from tests.conftest import new_team
from tests.tournament.views.public_event import cards_in, page_text
from tests.tournament.views.routes import all_routes, fill
from tournament.models import AuditEntry, Deal, DeviceToken, Player, Round, Stage
from tournament.services.approvals import approve_hand, sign_table
from tournament.services.commands import sign_off
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.entry import record_hand_result
from tournament.services.extra_hands import add_extra_hands
from tournament.services.hands import HandEntry
from tournament.services.locking import shown_revision
from tournament.services.rounds import close_round, publish_round, start_round
from tournament.services.signoff import sign_off_match
from tournament.services.stages import create_stage, enter_teams

KNOCK = HandEntry("knock", declarer_seat=1, declarer_deadwood=4, opponent_deadwood=12)
DRAW = HandEntry("draw")
RANKS = "A23456789TJQK"


def runs_of(tokens: list[str]) -> set[tuple[str, ...]]:
    """Runs of three cards of a box as a page could write them: in the box's order, or each
    part of it (dealer, non-dealer, stock) sorted by suit or by rank."""
    parts = [tokens, tokens[:11], tokens[11:21], tokens[21:]]
    for part in list(parts[1:]):
        parts.append(sorted(part, key=lambda c: ("SHDC".index(c[1]), RANKS.index(c[0]))))
        parts.append(sorted(part, key=lambda c: (RANKS.index(c[0]), "SHDC".index(c[1]))))
    return {tuple(part[i:i + 3]) for part in parts for i in range(len(part) - 2)}


def secret_runs(deals: list[Deal], others: list[Deal]) -> set[tuple[str, ...]]:
    """The runs of the boxes that no other box of the round has: what a page may write of
    those boxes alone (a run the closed boxes share proves nothing)."""
    taken = set().union(*(runs_of(d.cards.split()) for d in others))
    return set().union(*(runs_of(d.cards.split()) for d in deals)) - taken


def text_of(response) -> str:
    kind = response.get("Content-Type", "")
    body = b"".join(response) if response.streaming else response.content
    if kind.startswith("application/pdf"):
        return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    if body[:2] == b"PK":  # XLSX: its sheets' XML
        with zipfile.ZipFile(io.BytesIO(body)) as book:
            return " ".join(book.read(name).decode(errors="replace")
                            for name in book.namelist() if name.endswith(".xml"))
    text = body.decode(errors="replace")
    return page_text(text) if "html" in kind else text


# The cards field's help gives this example whatever the box (tournament/forms.py).
CARDS_EXAMPLE = "AS 2S 3S 7H 7D 7C"


def shown(text: str, secret: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
    cards = cards_in(text.replace(CARDS_EXAMPLE, ""))
    return [tuple(cards[i:i + 3]) for i in range(len(cards) - 2)
            if tuple(cards[i:i + 3]) in secret]


def walk(client, values, secret, *, headers=None) -> dict[str, list]:
    """Every address, as this client reads it: the ones that show a planted run."""
    found = {}
    for route in all_routes():
        if route.startswith("admin/"):
            continue
        for url in fill(route, values):
            response = client.get(url, **(headers or {}))
            assert response.status_code < 500, f"{url} fails with {response.status_code}"
            if response.status_code == 200:
                runs = shown(text_of(response), secret)
                if runs:
                    found[url] = runs
    return found


def play(actor, table, hands, entry):
    for hand in hands:
        current = table.results.filter(hand=hand, is_current=True).first()
        result = record_hand_result(actor, table, hand, entry,
                                    seen_version=current.version if current else 0,
                                    request_token=uuid.uuid4(),
                                    reason="the scorer swapped the tables" if current else "")
        approve_hand(actor, result, 1)
        approve_hand(actor, result, 2)


@pytest.fixture
def final_played_on(tournament, director_actor, teams, staff_user, actor, make_tournament):
    """The final closed, corrected into a tie and played on: its round in play again."""
    referee = actor(staff_user(tournament, "referee", username="ref"))
    scorer = actor(staff_user(tournament, "scorer", username="scorer-li"))
    field = teams(2)
    stage = create_stage(director_actor, tournament, name="Final", kind=Stage.Kind.KNOCKOUT)
    enter_teams(director_actor, stage, field)
    final = generate_round(director_actor, stage)
    generate_deals(director_actor, final)
    publish_round(director_actor, final)
    start_round(director_actor, final)
    match = final.matches.get()
    tables = {t.position: t for t in match.tables.all()}
    play(scorer, tables[1], range(1, match.hands + 1), KNOCK)
    play(scorer, tables[2], range(1, match.hands + 1), DRAW)
    for table in tables.values():
        sign_table(scorer, table, 1)
        sign_table(scorer, table, 2)
    sign_off_match(referee, match)
    close_round(director_actor, final)
    play(referee, tables[1], range(1, match.hands + 1), DRAW)  # the correction: level
    match = add_extra_hands(referee, match)
    final.refresh_from_db()
    extra = list(Deal.objects.filter(round=final, hand__gt=8).order_by("hand"))
    assert [d.hand for d in extra] == [9, 10]
    # Another stage's round in play beside it, none of its boxes played yet.
    plate = create_stage(director_actor, tournament, name="Plate", kind=Stage.Kind.SWISS,
                         swiss_rounds=1)
    enter_teams(director_actor, plate, [new_team(tournament, n) for n in (3, 4)] + field)
    swiss = generate_round(director_actor, plate)
    generate_deals(director_actor, swiss)
    publish_round(director_actor, swiss)
    start_round(director_actor, swiss)
    unplayed = extra + list(Deal.objects.filter(round=swiss))
    secret = secret_runs(unplayed, list(Deal.objects.filter(round=final, hand__lte=8)))
    assert len(secret) > 500
    swiss_table = swiss.tables.order_by("number").first()
    boxes = [d.pk for d in extra] + [Deal.objects.filter(round=swiss).first().pk]
    values = {
        "slug": [tournament.slug], "rounds": [final.pk, swiss.pk],
        "stages": [stage.pk, plate.pk], "teams": [field[0].pk], "team_pk": [field[0].pk],
        "matches": [match.pk, swiss_table.match_id],
        "tables": [t.pk for t in tables.values()] + [swiss_table.pk],
        "boxes": boxes, "deal_pk": boxes,
        "players": list(Player.objects.filter(team=field[0]).values_list("pk", flat=True)),
        "hand": [9, 10, 1], "seat": [1], "pk": [final.pk, stage.pk, field[0].pk],
        "round_id": [final.pk, swiss.pk], "match_id": [match.pk, swiss_table.match_id],
        "table_id": [t.pk for t in tables.values()] + [swiss_table.pk],
        "box_id": boxes, "stage_id": [stage.pk, plate.pk], "team_id": [field[0].pk],
    }
    return {"final": final, "match": match, "tables": tables, "secret": secret,
            "extra": secret_runs(extra, list(Deal.objects.filter(round=final, hand__lte=8))
                                 + list(Deal.objects.filter(round=swiss))),
            "values": values, "referee": referee, "scorer": scorer}


def test_extra_hands_after_a_correction_stay_secret_until_played(
        client, tournament, staff_user, make_tournament, make_user, final_played_on):
    f = final_played_on
    assert f["final"].status == Round.Status.IN_PLAY  # re-opened for the extra hands
    entry = AuditEntry.objects.get(action="match.extra_hands")
    assert "is in play again until the match is signed off" in entry.summary
    secret, values = f["secret"], f["values"]
    # The walk finds a planted card where one is shown: the director's deal pages, and a
    # superuser's (a director of every tournament).
    client.force_login(staff_user(tournament, "director", username="boss"))
    assert walk(client, values, secret), "the walk finds no planted card: it proves nothing"
    client.force_login(make_user("root", superuser=True))
    assert walk(client, values, secret)
    # Nobody else sees one: anonymous (and the players, who have no account), a scorer,
    # a referee, the chief referee, the director of another tournament.
    other = make_tournament(name="Other Open", slug="other-open")
    viewers = {"anonymous": None, "scorer": f["scorer"].user, "referee": f["referee"].user,
               "chief referee": staff_user(tournament, "referee", chief=True,
                                           username="chief"),
               "another director": staff_user(other, "director", username="other-boss")}
    for who, user in viewers.items():
        reader = Client()
        if user is not None:
            reader.force_login(user)
        assert walk(reader, values, secret) == {}, who
    # A table device through the API, with its token.
    token = DeviceToken.new_token()
    DeviceToken.objects.create(user=f["scorer"].user, digest=DeviceToken.digest_of(token))
    assert walk(Client(), values, secret,
                headers={"HTTP_AUTHORIZATION": f"Bearer {token}"}) == {}
    # The extra hands are played, the match is signed off: the round closes by itself and
    # the planted cards show like any closed box's.
    tables = f["tables"]
    play(f["scorer"], tables[1], (9, 10), KNOCK)
    play(f["scorer"], tables[2], (9, 10), DRAW)
    for table in tables.values():
        sign_table(f["scorer"], table, 1)
        sign_table(f["scorer"], table, 2)
    match = f["match"]
    match.refresh_from_db()
    sign_off(f["referee"], match.pk, revision=shown_revision(
        match, list(match.tables.all())), request_token=uuid.uuid4())
    f["final"].refresh_from_db()
    assert f["final"].status == Round.Status.CLOSED
    closing = AuditEntry.objects.filter(action="round.close").first()
    assert closing.summary.startswith("Final, Final closed again")
    public = walk(Client(), values, f["extra"])
    assert public, "the played boxes' cards are public now"
    assert walk(Client(), values, secret).keys() == public.keys()  # not the Plate's
