"""The numbers of an address are as strict as the numbers of a body or a form (issue 48):
plain digits 0-9, no sign, underscore, space, leading zero or fraction, within the range of
a key. The API refuses anything else with a 422 naming the parameter; the pages' addresses
(one converter, ``tournament.converters``) match nothing else: a 404."""

import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from tournament.converters import IdConverter
from tournament.models import DeviceToken, HandResult

THIRTY_DIGITS = "1" + "0" * 29
BAD_FORMS = ["+1", "01", "1_0", "%201", "1%20", "1.0", "1e0", "%D9%A1", "0x1", "-1"]


@pytest.fixture
def table(round_in_play):
    return round_in_play(4, hands=2).tables.get(number=1)


@pytest.fixture
def referee(tournament, staff_user) -> Client:
    key = DeviceToken.new_token()
    DeviceToken.objects.create(user=staff_user(tournament, "referee", username="chen"),
                               digest=DeviceToken.digest_of(key))
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}")


def entry(seen=0):
    return {"figures": {"outcome": "draw"}, "seen_version": seen,
            "request_token": str(uuid.uuid4())}


def refused(answer, name: str, says: str) -> bool:
    assert answer.status_code == 422, (answer.status_code, answer.content)
    [error] = answer.json()["detail"]
    return error["loc"] == ["path", name] and says in error["msg"]


# The API -------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand", BAD_FORMS)
def test_an_api_hand_number_is_plain_digits(referee, table, hand):
    for path in (f"/api/tables/{table.pk}/hands/{hand}",
                 f"/api/tables/{table.pk}/hands/{hand}/approvals"):
        body = entry() if path.endswith(hand) else {
            "seat": 1, "version": 1, "request_token": str(uuid.uuid4())}
        answer = referee.post(path, body, content_type="application/json")
        assert refused(answer, "hand", "plain digits"), answer.content
    assert not HandResult.objects.exists()
    # Written plainly, the same hand is taken.
    answer = referee.post(f"/api/tables/{table.pk}/hands/1", entry(),
                          content_type="application/json")
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize("form", ["0{}", "+{}", "{}_0", "%20{}", "{}.0"])
def test_an_api_id_is_plain_digits(referee, table, tournament, form):
    answer = referee.get(f"/api/tables/{form.format(table.pk)}")
    assert refused(answer, "table_id", "plain digits"), answer.content
    answer = referee.post(f"/api/matches/{form.format(table.match_id)}/sign-off",
                          {"revision": 0, "request_token": str(uuid.uuid4())},
                          content_type="application/json")
    assert refused(answer, "match_id", "plain digits"), answer.content
    public = Client().get(f"/api/tournaments/{tournament.slug}/rounds/"
                          f"{form.format(table.round_id)}")
    assert refused(public, "round_id", "plain digits"), public.content
    assert referee.get(f"/api/tables/{table.pk}").status_code == 200


def test_an_api_number_beyond_its_range_is_refused(referee, table, tournament):
    assert refused(referee.get(f"/api/tables/{THIRTY_DIGITS}"), "table_id",
                   "less than or equal to 2147483647")
    assert refused(referee.get("/api/tables/2147483648"), "table_id",
                   "less than or equal to 2147483647")
    assert referee.get("/api/tables/2147483647").status_code == 404
    assert refused(referee.post(f"/api/tables/{table.pk}/hands/{THIRTY_DIGITS}", entry(),
                                content_type="application/json"),
                   "hand", "less than or equal to 32767")
    assert refused(referee.post(f"/api/tables/{table.pk}/hands/0", entry(),
                                content_type="application/json"),
                   "hand", "greater than or equal to 1")
    assert refused(Client().get(f"/api/tournaments/{tournament.slug}/teams/{THIRTY_DIGITS}"),
                   "team_id", "less than or equal to 2147483647")
    assert not HandResult.objects.exists()


# The pages -----------------------------------------------------------------------------------

def test_a_page_address_takes_plain_digits_only(client, tournament, staff_user, table):
    client.force_login(staff_user(tournament, "referee", username="chen"))
    page = reverse("director:table_entry", args=[tournament.slug, table.pk])
    assert client.get(page).status_code == 200
    base = f"/manage/{tournament.slug}/tables/"
    for written in (f"0{table.pk}", f"+{table.pk}", f"{table.pk}_0", f"%20{table.pk}",
                    f"{table.pk}.0", "0", THIRTY_DIGITS, "2147483648"):
        assert client.get(f"{base}{written}/").status_code == 404, written
    hand = reverse("director:hand_save", args=[tournament.slug, table.pk, 1])
    for written in ("01", "+1", "1_0", THIRTY_DIGITS):
        response = client.post(hand.replace("/hands/1/", f"/hands/{written}/"),
                               {"h1-outcome": "draw", "h1-seen_version": "0",
                                "h1-request_token": str(uuid.uuid4())})
        assert response.status_code == 404, written
    assert not HandResult.objects.exists()
    public = reverse("public:round", args=[tournament.slug, table.round_id])
    assert Client().get(public).status_code == 200
    assert Client().get(public.replace(f"/{table.round_id}/",
                                       f"/0{table.round_id}/")).status_code == 404
    assert Client().get(f"/t/{tournament.slug}/teams/{THIRTY_DIGITS}/").status_code == 404


def test_every_number_of_a_page_address_is_the_strict_one():
    found = []

    def walk(patterns):
        for entry_ in patterns:
            if isinstance(entry_, URLResolver):
                found.extend(entry_.pattern.converters.values())
                walk(entry_.url_patterns)
            elif isinstance(entry_, URLPattern):
                found.extend(entry_.pattern.converters.values())

    walk(get_resolver().url_patterns)
    assert any(isinstance(converter, IdConverter) for converter in found)
    assert not [c for c in found if isinstance(c, IntConverter)]


def test_the_strict_converter_neither_reads_nor_writes_a_number_out_of_range():
    converter = IdConverter()
    assert converter.to_python("2147483647") == 2_147_483_647
    for bad in ("2147483648", "9999999999"):
        with pytest.raises(ValueError):
            converter.to_python(bad)
    for bad in (0, -1, 2_147_483_648):
        with pytest.raises(ValueError):
            converter.to_url(bad)
    assert converter.to_url(7) == "7"


def test_a_box_asked_by_a_number_no_address_has_is_not_found(client, tournament,
                                                              staff_user, table):
    client.force_login(staff_user(tournament, "referee", username="chen"))
    desk = reverse("director:desk_round", args=[tournament.slug, table.round_id])
    assert client.get(desk, {"hand": "1"}).status_code == 302
    for hand, deal_set in (("0", "1"), ("99999999999", "1"), ("1", "99999999999")):
        assert client.get(desk, {"hand": hand, "set": deal_set}).status_code == 404
