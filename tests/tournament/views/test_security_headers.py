"""Security headers: a Content-Security-Policy on every page, and no caching of staff pages,
which show cards and results before they are published."""

import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse

from tournament.models import Deal, Stage
from tournament.services.deals import generate_deals
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.stages import create_stage, enter_teams
from tournament.urls import director_patterns

ROOT = Path(__file__).resolve().parents[3]
POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
}


def policy_of(response) -> dict[str, list[str]]:
    directives = (part.split() for part in response["Content-Security-Policy"].split(";"))
    return {words[0]: words[1:] for words in directives if words}


def cache_control(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


@pytest.fixture
def round_in_play(director_actor, tournament, teams):
    stage = create_stage(director_actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(director_actor, stage, teams(4))
    round_ = generate_round(director_actor, stage)
    generate_deals(director_actor, round_)
    publish_round(director_actor, round_)
    start_round(director_actor, round_)
    return round_


@pytest.fixture
def director(client, director_actor):
    client.force_login(director_actor.user)
    return client


def public_urls(tournament, round_):
    return [reverse("public:home"),
            reverse("public:tournament", args=[tournament.slug]),
            reverse("public:round", args=[tournament.slug, round_.pk]),
            reverse("public:deal_check", args=[tournament.slug])]


def staff_urls(tournament, round_):
    match = round_.matches.order_by("number").first()
    table = match.tables.get(position=1)
    slug = tournament.slug
    return [reverse("director:dashboard", args=[slug]),
            reverse("director:table_entry", args=[slug, table.pk]),
            reverse("director:match_page", args=[slug, match.pk]),
            reverse("director:round_deals", args=[slug, round_.pk]),
            reverse("director:round_progress", args=[slug, round_.pk]),
            reverse("director:deal_key", args=[slug])]


def test_every_page_has_the_policy_public_or_staff(client, director, tournament, round_in_play):
    for url in [*public_urls(tournament, round_in_play), reverse("login")]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert policy_of(response) == POLICY, url
    for url in staff_urls(tournament, round_in_play):
        response = director.get(url)
        assert response.status_code == 200, url
        assert policy_of(response) == POLICY, url
    assert "unsafe-inline" not in client.get("/")["Content-Security-Policy"]


def test_staff_pages_are_private_and_never_stored(director, tournament, round_in_play):
    for url in staff_urls(tournament, round_in_play):
        response = director.get(url)
        assert response.status_code == 200, url
        assert {"private", "no-store"} <= cache_control(response), url


def test_staff_htmx_fragments_and_pdfs_are_never_stored(director, tournament, round_in_play):
    table = round_in_play.matches.order_by("number").first().tables.get(position=1)
    preview = director.post(reverse("director:hand_preview", args=[tournament.slug, table.pk, 1]),
                            {"h1-outcome": "gin", "h1-declarer_seat": "1",
                             "h1-opponent_deadwood": "30", "h1-seen_version": "0",
                             "h1-request_token": str(uuid.uuid4())}, HTTP_HX_REQUEST="true")
    assert preview.status_code == 200
    assert "Gin vs 30" in preview.content.decode()
    assert {"private", "no-store"} <= cache_control(preview)
    pdf = director.get(reverse("director:round_deals_pdf",
                               args=[tournament.slug, round_in_play.pk, "deal-sheet"]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert cache_control(pdf) == {"private", "no-store"}


def test_every_staff_page_a_director_can_open_is_never_stored(director, tournament,
                                                              round_in_play):
    """Every staff route, filled with this tournament's objects: whatever opens is no-store."""
    match = round_in_play.matches.order_by("number").first()
    values = {
        "slug": tournament.slug, "team_pk": tournament.teams.first().pk,
        "deal_pk": Deal.objects.filter(round=round_in_play).first().pk,
        "hand": 1, "seat": 1, "kind": "deal-sheet",
    }
    pks = {round_in_play.pk, round_in_play.stage_id, match.pk, match.tables.first().pk,
           tournament.teams.first().pk}
    opened = []
    for pattern in director_patterns:
        route = str(pattern.pattern)
        if not route.startswith("<slug:slug>/"):
            continue
        for pk in sorted(pks):
            url = "/manage/" + re.sub(r"<(?:\w+:)?(\w+)>",
                                      lambda m, pk=pk: str(values.get(m[1], pk)), route)
            response = director.get(url)
            if response.status_code == 200:
                opened.append(pattern.name)
                assert {"private", "no-store"} <= cache_control(response), url
    assert {"dashboard", "team_list", "staff", "audit", "stage_detail", "round_detail",
            "table_entry", "match_page", "round_deals", "round_progress"} <= set(opened)


def test_public_pages_may_be_cached(client, tournament, round_in_play):
    for url in public_urls(tournament, round_in_play):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" not in cache_control(response), url
        assert "private" not in cache_control(response), url


INLINE = re.compile(
    r"""\son[a-z]+\s*=          # an inline event handler: onchange=, onclick=, ...
      | \sstyle\s*=             # a style attribute
      | <style\b                # a style element
      | <script(?![^>]*\bsrc=)  # a script element without src
      | javascript:             # a javascript: URL
      | \shx-on                 # htmx's inline handlers (they need eval)
    """, re.IGNORECASE | re.VERBOSE)


def test_no_template_has_inline_code_the_policy_would_block():
    templates = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("tournament/**/templates/**/*.html")]
    assert len(templates) > 20
    found = [f"{path.relative_to(ROOT)}: {match[0].strip()}"
             for path in templates for match in INLINE.finditer(path.read_text())]
    assert found == []
