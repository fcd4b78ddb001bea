"""No card before its time (issue 49, item 2): a referee who saves made-up hands and reads
every page after each save learns nothing of a box in play.

Two tournaments, alike but for their boxes, are the two worlds the referee cannot tell
apart: the same referee's search (a made-up gin holding two candidate cards, saved at the
same table and hand) runs in both, and after each save every page a referee can open must
read the same in both worlds, once ids, numbers, hex digests and card codes are masked.
The candidates are the cards no play can bring into a hand in one world (the last two of
the stock under the draw rule "two cards left") and not in the other: before issue 49 the
progress page's "Cards that contradict the box" told them apart in one save."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scoring.box import Box, never_in_play
from tests.conftest import new_staff, new_tournament, seeded_teams
from tests.tournament.views.public_event import page_text
from tests.tournament.views.routes import all_routes, fill
from tests.tournament.views.test_deal_secrecy import start_dealt_round
from tournament.models import Deal, HandResult, Role, Stage
from tournament.services import Actor
from tournament.services.stages import create_stage, enter_teams

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def world(n: int, draw_rule: str):
    tournament = new_tournament(n, name=f"World {n}", slug=f"world-{n}", draw_rule=draw_rule)
    director = Actor(user=new_staff(tournament, Role.DIRECTOR, f"boss-{n}"))
    referee = new_staff(tournament, Role.REFEREE, f"ref-{n}")
    stage = create_stage(director, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    field = seeded_teams(tournament, 4)
    enter_teams(director, stage, field)
    round_, values = start_dealt_round(director, tournament, stage, field)
    values["hand"], values["seat"] = [1], [1]
    client = Client()
    client.force_login(referee)
    return {"tournament": tournament, "round": round_, "values": values, "client": client,
            "table": round_.tables.order_by("number").first()}


def box_of(w) -> Deal:
    """The box the world's first table plays as hand 1."""
    from tournament.services.entry import played_deal

    return played_deal(w["table"], 1, None)


def hidden_cards(w) -> tuple[str, ...]:
    """The cards of that box that no play brings into a player's hand."""
    return tuple(str(card) for card in never_in_play(
        Box.from_order(box_of(w).cards.split()), w["round"].rules))


def made_up_gin(candidates: tuple[str, ...], avoid: set[str]) -> tuple[str, str]:
    """A gin of cards outside ``avoid`` (a set of four and two sets of three), the
    opponent holding the candidates and eight more such cards."""
    free = [r + s for r in RANKS for s in SUITS if r + s not in avoid and r + s not in
            candidates]
    full = [r for r in RANKS if all(r + s in free for s in SUITS)]
    declarer = [full[0] + s for s in SUITS] + [full[1] + s for s in SUITS[:3]] + [
        full[2] + s for s in SUITS[:3]]
    rest = [card for card in free if card not in declarer]
    return " ".join(declarer), " ".join([*candidates, *rest[:10 - len(candidates)]])


def save(w, candidates, avoid):
    table = w["table"]
    current = HandResult.objects.filter(table=table, hand=1, is_current=True).first()
    gin, opponent = made_up_gin(candidates, avoid)
    response = w["client"].post(
        reverse("director:hand_save", args=[w["tournament"].slug, table.pk, 1]),
        {"h1-outcome": "gin", "h1-declarer_seat": "1", "h1-declarer_cards": gin,
         "h1-opponent_cards": opponent, "h1-seen_version": current.version if current else 0,
         "h1-request_token": str(uuid.uuid4())})
    assert response.status_code in (200, 302)
    saved = HandResult.objects.get(table=table, hand=1, is_current=True)
    assert saved.version == (current.version + 1 if current else 1)
    return saved


HEX = re.compile(r"\b[0-9a-f]{6,}\b")  # digests, commitments, lots
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])\s?([♠♥♦♣]|[SHDC](?![a-z]))")


def masked(text: str) -> str:
    text = HEX.sub("#", re.sub(r"\blot [0-9a-f]+", "lot #", text))
    text = CARD_CODE.sub("?", text)
    return re.sub(r"\d+", "#", text)


def observation(w) -> dict[str, str]:
    """Every page the referee can open, as read, masked; by its address (masked too)."""
    seen = {}
    for route in all_routes():
        if route.startswith("admin/"):
            continue
        for url in fill(route, w["values"]):
            response = w["client"].get(url)
            assert response.status_code < 500, url
            if response.status_code != 200 or response.streaming or not response.get(
                    "Content-Type", "").startswith("text/html"):
                continue
            seen[masked(url)] = masked(page_text(response.content.decode()))
    return seen


def differences(one: dict[str, str], other: dict[str, str]) -> list[str]:
    found = []
    for url in sorted(set(one) | set(other)):
        a, b = one.get(url, ""), other.get(url, "")
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                      min(len(a), len(b)))
            found.append(f"{url}: …{a[max(0, at - 80):at + 80]}… / …{b[max(0, at - 80):at + 80]}…")
    return found


@pytest.mark.parametrize("draw_rule", ["two_cards_left", "stock_exhausted"])
def test_a_referees_search_with_made_up_hands_learns_nothing_of_a_box_in_play(db, draw_rule):
    worlds = [world(1, draw_rule), world(2, draw_rule)]
    hidden = [hidden_cards(w) for w in worlds]
    # Candidates hidden in one world and not in the other (under "stock exhausted" no card
    # is hidden anywhere: the search is run all the same, with the first world's stock).
    stock = box_of(worlds[0]).cards.split()[-2:]
    searches = [tuple(h) for h in hidden if h and set(h).isdisjoint(set(hidden[0]) & set(
        hidden[1]))] or [tuple(stock)]
    if draw_rule == "two_cards_left":
        assert hidden[0] != hidden[1] and all(hidden)
    for candidates in searches:
        observed = []
        for w in worlds:
            saved = save(w, candidates, set(hidden[0]) | set(hidden[1]))
            in_box = bool(saved.box_conflict)
            assert in_box == bool(set(candidates) & set(hidden_cards(w)))
            observed.append(observation(w))
        assert len(observed[0]) > 30  # the pages were read
        found = differences(*observed)
        assert not found, "a referee tells the worlds apart:\n" + "\n".join(found[:5])
