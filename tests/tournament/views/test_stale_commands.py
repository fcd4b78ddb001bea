"""A tap lands on what the person was shown, or on nothing (issue 21): through the real
pages, two screens at one table. An approval read from screen 1 for version 1 approves
nothing once screen 2 has saved version 2; a signature and a sign-off read before a change
are refused though the change was approved (and signed) again since."""

import html
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import Approval, Match, TableSignature


@pytest.fixture
def one_hand_match(round_in_play):
    return round_in_play(2, hands=1).matches.get()


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` on the page."""
    form = re.search(rf'<form[^>]*action="{re.escape(action)}".*?</form>', page, re.S)
    assert form, f"no form for {action}"
    return {name: html.unescape(value) for name, value in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group())}


def save(client, tournament, table, version, **fields):
    data = {"h1-seen_version": str(version), "h1-request_token": str(uuid.uuid4()), **{
        f"h1-{name}": str(value) for name, value in fields.items()}}
    response = client.post(reverse("director:hand_save", args=[tournament.slug, table.pk, 1]),
                           data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def approve_both(client, tournament, table):
    page = client.get(reverse("director:table_entry", args=[tournament.slug, table.pk]))
    for seat in (1, 2):
        action = reverse("director:hand_approve", args=[tournament.slug, table.pk, 1, seat])
        client.post(action, form_fields(page.content.decode(), action))


def sign_both(client, tournament, table):
    page = client.get(reverse("director:table_entry", args=[tournament.slug, table.pk]))
    for seat in (1, 2):
        action = reverse("director:table_sign", args=[tournament.slug, table.pk, seat])
        client.post(action, form_fields(page.content.decode(), action))


def test_stale_taps_do_nothing(tournament, staff_user, one_hand_match):
    match = one_hand_match
    table, other = match.tables.order_by("position")
    scorer = staff_user(tournament, "scorer", username="table-1")
    screen_1, screen_2 = Client(), Client()
    screen_1.force_login(scorer)
    screen_2.force_login(scorer)  # a second device of the same table's scorer
    entry = reverse("director:table_entry", args=[tournament.slug, table.pk])
    approve_1 = reverse("director:hand_approve", args=[tournament.slug, table.pk, 1, 1])

    save(screen_2, tournament, table, 0, outcome="knock", declarer_seat=1,
         declarer_deadwood=5, opponent_deadwood=20)
    shown = form_fields(screen_1.get(entry).content.decode(), approve_1)
    assert shown["version"] == "1"
    save(screen_2, tournament, table, 1, outcome="gin", declarer_seat=2, opponent_deadwood=30)
    page = screen_1.post(approve_1, shown, follow=True).content.decode()
    assert not Approval.objects.exists()  # the gin was approved by nobody
    assert "hand 1 was changed since: it now holds gin by seat 2 vs 30 (version 2" in \
        html.unescape(page)
    # Sent again (the same token), still nothing.
    screen_1.post(approve_1, shown)
    assert not Approval.objects.exists()

    # Version 2 approved by both seats on screen 2; screen 1 shows the table ready to sign.
    approve_both(screen_2, tournament, table)
    sign_1 = reverse("director:table_sign", args=[tournament.slug, table.pk, 1])
    shown = form_fields(screen_1.get(entry).content.decode(), sign_1)
    # Screen 2 changes the hand and has it approved again: ready to sign once more.
    save(screen_2, tournament, table, 2, outcome="knock", declarer_seat=1,
         declarer_deadwood=4, opponent_deadwood=12)
    approve_both(screen_2, tournament, table)
    page = screen_1.post(sign_1, shown, follow=True).content.decode()
    assert not TableSignature.objects.exists()
    assert f"table {table.number} changed since this screen was shown: seat 2 approved hand 1" \
        in html.unescape(page)

    # Both tables signed; the referee's page is read; then table 1 changes and is approved
    # and signed again: the sign-off the referee saw is refused.
    sign_both(screen_2, tournament, table)
    referee = Client()
    referee.force_login(staff_user(tournament, "referee", username="chen"))
    save(referee, tournament, other, 0, outcome="draw")
    approve_both(referee, tournament, other)
    sign_both(referee, tournament, other)
    sign_off = reverse("director:match_sign_off", args=[tournament.slug, match.pk])
    seen = form_fields(referee.get(reverse("director:match_page", args=[
        tournament.slug, match.pk])).content.decode(), sign_off)
    save(screen_2, tournament, table, 3, outcome="knock", declarer_seat=1,
         declarer_deadwood=3, opponent_deadwood=12)
    approve_both(screen_2, tournament, table)
    sign_both(screen_2, tournament, table)
    page = referee.post(sign_off, seen, follow=True).content.decode()
    assert Match.objects.get(pk=match.pk).signed_off_at is None
    assert f"match {match.number} changed since this page was shown" in html.unescape(page)
    # Read again, it signs off; the same form sent twice signs off once.
    seen = form_fields(referee.get(reverse("director:match_page", args=[
        tournament.slug, match.pk])).content.decode(), sign_off)
    referee.post(sign_off, seen)
    assert Match.objects.get(pk=match.pk).signed_off_at is not None
    page = referee.post(sign_off, seen, follow=True).content.decode()
    assert "signed off already" not in page
