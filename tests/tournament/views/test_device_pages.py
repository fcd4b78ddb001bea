"""Table devices through the staff pages (issue 21): a director makes a scorer account per
table in one step and gets their slips (the only place the credentials appear); a referee
moves a scorer account to another table; scorers may do neither."""

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tournament.models import AuditEntry, DeviceToken, TableBinding


@pytest.fixture
def in_play(round_in_play):
    return round_in_play(4)


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def test_a_director_makes_the_devices_of_a_round_and_prints_their_slips(
        client, tournament, staff_user, in_play):
    client.force_login(staff_user(tournament, "director", username="boss"))
    page = client.get(url("round_detail", tournament.slug, in_play.pk)).content.decode()
    assert "Make the table devices and print their slips" in page
    response = client.post(url("round_devices", tournament.slug, in_play.pk))
    assert response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    text = " ".join(" ".join(p.extract_text().split())
                    for p in PdfReader(io.BytesIO(response.content)).pages)
    for number in (1, 2, 3, 4):
        assert f"Table {number} · scoring device" in text
        assert f"{tournament.slug}-table-{number}" in text
    assert "never show it to players" in text
    # Each slip's password and token let that device in, at its table only.
    password = re.search(rf"{tournament.slug}-table-1 Password (\S+)", text).group(1)
    device = Client()
    assert device.login(username=f"{tournament.slug}-table-1", password=password)
    tables = {t.number: t for t in in_play.tables.all()}
    assert device.get(url("table_entry", tournament.slug, tables[1].pk)).status_code == 200
    assert device.get(url("table_entry", tournament.slug, tables[2].pk)).status_code == 403
    token = re.search(r"API token (\S+)", text).group(1)
    assert DeviceToken.objects.filter(digest=DeviceToken.digest_of(token)).exists()
    assert token not in AuditEntry.objects.get(action="device.create").summary
    # Made again: the page asks first, since the old slips stop working.
    page = client.get(url("round_detail", tournament.slug, in_play.pk)).content.decode()
    assert "the 4 slips printed before for this round's tables stop working" in page
    refused = client.post(url("round_devices", tournament.slug, in_play.pk), follow=True)
    assert "Tables 1, 2, 3, 4 have devices already" in refused.content.decode()
    assert Client().login(username=f"{tournament.slug}-table-1", password=password)
    again = client.post(url("round_devices", tournament.slug, in_play.pk), {"replace": "on"})
    assert again["Content-Type"] == "application/pdf"
    assert not Client().login(username=f"{tournament.slug}-table-1", password=password)
    page = client.get(url("round_detail", tournament.slug, in_play.pk)).content.decode()
    assert f"Table 1: {tournament.slug}-table-1" in page


def test_a_referee_moves_a_scorer_to_another_table(client, tournament, staff_user, in_play):
    scorer = staff_user(tournament, "scorer", username="li")
    first, second = in_play.tables.order_by("number")[:2]
    device = Client()
    device.force_login(scorer)
    device.get(url("table_entry", tournament.slug, first.pk))
    client.force_login(staff_user(tournament, "referee", username="chen"))
    page = client.get(url("round_progress", tournament.slug, in_play.pk)).content.decode()
    assert f"Table {first.number}: li" in page and "Which account scores which table" in page
    client.post(url("binding_move", tournament.slug, in_play.pk),
                {"user": scorer.pk, "table": second.pk})
    assert TableBinding.objects.get(user=scorer).table == second
    assert device.get(url("table_entry", tournament.slug, second.pk)).status_code == 200


@pytest.mark.parametrize("role", ["scorer", "referee"])
def test_only_a_director_makes_devices_and_no_scorer_moves_one(client, tournament,
                                                               staff_user, in_play, role):
    client.force_login(staff_user(tournament, role, username=f"{role}-x"))
    assert client.post(url("round_devices", tournament.slug, in_play.pk)).status_code == 403
    table = in_play.tables.first()
    response = client.post(url("binding_move", tournament.slug, in_play.pk),
                           {"user": 1, "table": table.pk})
    assert response.status_code == (403 if role == "scorer" else 302)
