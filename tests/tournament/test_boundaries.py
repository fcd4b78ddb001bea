"""Boundaries between events (issue 48): one tournament's staff never reach another's
accounts or devices, by any door: the pages, the API, the tournament file, a restore.

Two tournaments share a server, each with a round in play, its staff and its table devices.
The director of the second tries every write a director can make against the first's
accounts; the first's accounts (passwords, activity, log-in locks, device tokens, roles,
bindings) must be exactly as they were, and each attempt says why it is refused."""

from __future__ import annotations

import io
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import PASSWORD, new_staff, new_tournament, seeded_teams
from tournament.exchange.backups import list_backups
from tournament.exchange.export import export_text
from tournament.models import (
    AuditEntry,
    DeviceToken,
    Role,
    StaffRole,
    Stage,
    TableBinding,
    TableDevice,
    Tournament,
)
from tournament.services import Actor, ServiceError
from tournament.services.accounts import unlock_account
from tournament.services.devices import create_table_devices
from tournament.services.draw import generate_round
from tournament.services.rounds import publish_round, start_round
from tournament.services.staff import assign_role
from tournament.services.stages import create_stage, enter_teams

User = get_user_model()


def url(name, *args):
    return reverse(f"director:{name}", args=args)


def round_in_play(tournament, director):
    actor = Actor(user=director)
    stage = create_stage(actor, tournament, name="Swiss", kind=Stage.Kind.SWISS,
                         swiss_rounds=3)
    enter_teams(actor, stage, seeded_teams(tournament, 4))
    round_ = generate_round(actor, stage)
    publish_round(actor, round_, override_reason="test")
    return start_round(actor, round_)


def slips_of(response) -> dict[int, tuple[str, str, str]]:
    """Table number → (user name, password, API token) read off the slips' PDF."""
    text = " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(io.BytesIO(response.content)).pages)
    found = {}
    for number, name, password, token in re.findall(
            r"Table (\d+) · scoring device .*? User name (\S+) Password (\S+) .*?API token "
            r"(\S+)", text):
        found[int(number)] = (name, password, token)
    return found


def make_devices(client, tournament, round_, **data):
    return client.post(url("round_devices", tournament.slug, round_.pk), data)


@pytest.fixture
def two_events(db, client):
    """wc-a with its round in play and its devices made; wc-b with its own director."""
    a = new_tournament(1, name="World Cup A", slug="wc-a")
    b = new_tournament(2, name="World Cup B", slug="wc-b")
    boss_a = new_staff(a, Role.DIRECTOR, "boss-a")
    boss_b = new_staff(b, Role.DIRECTOR, "boss-b")
    referee_a = new_staff(a, Role.REFEREE, "ref-a")
    round_a = round_in_play(a, boss_a)
    round_b = round_in_play(b, boss_b)
    client.force_login(boss_a)
    slips = slips_of(make_devices(client, a, round_a))
    client.logout()
    assert sorted(slips) == [1, 2, 3, 4]
    return {"a": a, "b": b, "boss_a": boss_a, "boss_b": boss_b, "referee_a": referee_a,
            "round_a": round_a, "round_b": round_b, "slips_a": slips}


def accounts_of(tournament) -> dict:
    """Everything about a tournament's accounts that another's staff must never change."""
    users = User.objects.filter(staff_roles__tournament=tournament).order_by("pk")
    return {user.username: {
        "password": user.password, "active": user.is_active, "superuser": user.is_superuser,
        "token": DeviceToken.objects.filter(user=user).values_list("digest", flat=True).first(),
        "roles": sorted(StaffRole.objects.filter(user=user).values_list(
            "tournament__slug", "role")),
        "bindings": sorted(TableBinding.objects.filter(user=user).values_list(
            "table_id", flat=True)),
        "device": TableDevice.objects.filter(user=user).values_list(
            "tournament__slug", "number", "issued_at").first(),
        "failures": AccessAttempt.objects.filter(username=user.username).count(),
    } for user in users}


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


def test_a_short_name_differing_only_by_case_is_refused_at_every_door(
        client, two_events, tmp_path):
    a, b, boss_b = two_events["a"], two_events["b"], two_events["boss_b"]
    client.force_login(boss_b)
    # The settings page: renaming wc-b WC-A.
    form = client.get(url("tournament_edit", b.slug)).context["form"]
    data = {field.name: "" if field.value() is None else field.value() for field in form}
    data["slug"] = "WC-A"
    response = client.post(url("tournament_edit", b.slug), data)
    assert response.status_code == 200
    assert "The short name WC-A is already taken (whatever its case" in \
        " ".join(response.context["form"].errors["slug"])
    assert Tournament.objects.get(pk=b.pk).slug == "wc-b"
    # Creating one.
    boss_b.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(User.objects.get(pk=boss_b.pk))
    response = client.post(url("tournament_create"), {**data, "slug": "Wc-A", "name": "X"})
    assert response.status_code == 200 and not Tournament.objects.filter(slug="Wc-A").exists()
    assert "already taken" in response.content.decode()
    # The import page: the first tournament's file under the short name WC-A.
    file = export_text(a).encode()
    upload = client.post(url("import_upload"),
                         {"file": SimpleUploadedFile("a.json", file, "application/json")})
    preview = client.get(upload["Location"])
    people = preview.context["form"].people
    fields = {"slug": "WC-A", "import": "1",
              **{f"account_{i}": f"new-{i}" for i in range(len(people))}}
    refused = client.post(upload["Location"], fields)
    assert refused.status_code == 200
    assert "a tournament with the short name WC-A already exists" in refused.content.decode()
    assert not Tournament.objects.filter(slug="WC-A").exists()
    # The command line.
    path = tmp_path / "a.json"
    path.write_bytes(file)
    with pytest.raises(Exception, match="short name WC-A already exists"):
        call_command("import_tournament", str(path), "--slug", "WC-A",
                     *(f"--map-user={name}=new-{i}" for i, name in enumerate(people)))
    # The database refuses it too, whatever the door.
    from django.db import IntegrityError, transaction
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=b.pk).update(slug="WC-A")


def test_making_devices_never_touches_an_account_found_by_name(client, two_events):
    """The director of wc-b makes its devices while wc-a's referee is named wc-b-table-1:
    wc-b's table 1 gets a new account under another name; the referee is untouched."""
    a, b = two_events["a"], two_events["b"]
    squatter = new_staff(a, Role.REFEREE, "WC-B-table-1")
    before = accounts_of(a)
    client.force_login(two_events["boss_b"])
    slips = slips_of(make_devices(client, b, two_events["round_b"]))
    assert slips[1][0] == "wc-b-table-1-2" and slips[2][0] == "wc-b-table-2"
    assert accounts_of(a) == before
    squatter.refresh_from_db()
    assert squatter.check_password(PASSWORD) and squatter.is_active
    # The name printed on each slip is the one that logs in, with that password.
    for name, password, _token in slips.values():
        assert Client().login(username=name, password=password)


def test_device_slips_of_the_first_tournament_keep_working(client, two_events):
    """Whatever the second tournament's director does, the first's slips go on working:
    their passwords log in and their tokens enter hands at the first's tables."""
    a = two_events["a"]
    before = accounts_of(a)
    _every_write_of_the_other_director(client, two_events)
    assert accounts_of(a) == before
    for number, (name, password, token) in two_events["slips_a"].items():
        assert Client().login(username=name, password=password)
        table = two_events["round_a"].tables.get(number=number)
        response = Client().get(f"/api/tables/{table.pk}",
                                HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 200


def _every_write_of_the_other_director(client, events) -> list[str]:
    """Every write the director of wc-b can make that names an account or a device, by
    every door, against wc-a's; returns what each answered (each must say why)."""
    a, b, boss_b = events["a"], events["b"], events["boss_b"]
    device_a = TableDevice.objects.get(tournament=a, number=1).user
    referee_a, boss_a = events["referee_a"], events["boss_a"]
    answers = []
    client.force_login(boss_b)
    # Staff page: give wc-a's device a role here (refused, with the reason on the form).
    for name, role in ((device_a.username, "scorer"), (device_a.username.upper(), "director")):
        response = client.post(url("staff", b.slug), {"username": name, "role": role})
        assert response.status_code == 200
        errors = " ".join(response.context["form"].errors.get("username", []))
        assert "is a table device of another tournament" in errors
        answers.append(errors)
    assert not StaffRole.objects.filter(tournament=b, user=device_a).exists()
    # Staff page: wc-a's referee and director may be added here (it grants nothing)...
    for user in (referee_a, boss_a):
        client.post(url("staff", b.slug), {"username": user.username, "role": "referee"})
        assert StaffRole.objects.filter(tournament=b, user=user).exists()
    # ... but not unlocked, nor can a superuser be.
    root = User.objects.create_superuser("root", "", "root-pass-123")
    client.post(url("staff", b.slug), {"username": "root", "role": "scorer"})
    fail = Client()
    for name in (referee_a.username, boss_a.username, "root"):
        for _ in range(5):
            fail.post(reverse("login"), {"username": name, "password": "wrong"},
                      REMOTE_ADDR="10.9.9.9")
    for name in (referee_a.username, boss_a.username, "root"):
        response = client.post(url("staff_unlock", b.slug), {"username": name}, follow=True)
        said = messages_of(response)
        assert ("has a role in another tournament" in said
                or "is an administrator of the site" in said), said
        assert AccessAttempt.objects.filter(username=name).exists()
        answers.append(said)
    AccessAttempt.objects.filter(username__in=[referee_a.username, boss_a.username]).delete()
    # Making and binding wc-b's devices, twice, with the box ticked.
    assert make_devices(client, b, events["round_b"])["Content-Type"] == "application/pdf"
    slips_b = slips_of(make_devices(client, b, events["round_b"], replace="on"))
    assert sorted(name for name, _p, _t in slips_b.values()) == [
        f"wc-b-table-{n}" for n in (1, 2, 3, 4)]
    client.post(url("round_devices_bind", b.slug, events["round_b"].pk))
    # Moving wc-a's device to a table of wc-b (refused: not a scorer here).
    table_b = events["round_b"].tables.first()
    response = client.post(url("binding_move", b.slug, events["round_b"].pk),
                           {"user": device_a.pk, "table": table_b.pk}, follow=True)
    assert "Choose a scorer account and a table of this round" in messages_of(response)
    answers.append(messages_of(response))
    # Removing wc-a's roles through wc-b's pages: no such role here.
    for role in StaffRole.objects.filter(tournament=a):
        assert client.post(url("staff_remove", b.slug, role.pk)).status_code == 404
    # Removing the roles wc-a's people were given here touches only wc-b.
    for role in StaffRole.objects.filter(tournament=b, user__in=[referee_a, boss_a, root]):
        client.post(url("staff_remove", b.slug, role.pk))
    # wc-a's pages are closed to wc-b's director.
    for name in ("round_devices", "round_devices_bind"):
        assert client.post(url(name, a.slug, events["round_a"].pk)).status_code == 403
    assert client.post(url("staff_unlock", a.slug), {"username": "ref-a"}).status_code == 403
    # The tournament file: a person mapped to wc-a's device is refused.
    boss_b.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(User.objects.get(pk=boss_b.pk))
    data = export_text(b).encode()
    upload = client.post(url("import_upload"),
                         {"file": SimpleUploadedFile("b.json", data, "application/json")})
    preview = client.get(upload["Location"])
    people = preview.context["form"].people
    fields = {"slug": "wc-b-copy", "import": "1",
              **{f"account_{i}": device_a.username if i == 0 else f"fresh-{i}"
                 for i in range(len(people))}}
    refused = client.post(upload["Location"], fields)
    page = refused.content.decode()
    assert "a table device of another tournament" in page
    assert not Tournament.objects.filter(slug="wc-b-copy").exists()
    answers.append("import refused")
    # The device API: wc-b's device tokens at wc-a's tables read and write nothing.
    for _name, _password, token_b in slips_b.values():
        for table_a in events["round_a"].tables.all():
            response = Client().get(f"/api/tables/{table_a.pk}",
                                    HTTP_AUTHORIZATION=f"Bearer {token_b}")
            assert response.status_code == 404
            response = Client().post(
                f"/api/tables/{table_a.pk}/hands/1", {
                    "figures": {"outcome": "gin", "declarer_seat": 1, "opponent_deadwood": 9},
                    "seen_version": 0,
                    "request_token": "0f7b5a62-1c1e-4a8e-9d55-6d2f0c1b2a3e"},
                content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token_b}")
            assert response.status_code == 404
    answers.append("API refused")
    # Deleting wc-b retires its own device accounts, never wc-a's people added to it.
    client.post(url("staff", b.slug), {"username": referee_a.username, "role": "referee"})
    client.post(url("tournament_delete", b.slug), {"confirm_name": b.name})
    assert not Tournament.objects.filter(pk=b.pk).exists()
    referee_a.refresh_from_db()
    assert referee_a.is_active and referee_a.check_password(PASSWORD)
    return answers


def test_every_write_of_the_other_director_is_refused_with_a_reason(client, two_events):
    before = accounts_of(two_events["a"])
    answers = _every_write_of_the_other_director(client, two_events)
    assert all(answers)
    assert accounts_of(two_events["a"]) == before


def test_the_services_refuse_the_other_tournaments_accounts(two_events):
    a, b = two_events["a"], two_events["b"]
    boss_b = Actor(user=two_events["boss_b"])
    device_a = TableDevice.objects.get(tournament=a, number=2).user
    with pytest.raises(ServiceError, match="is a table device of another tournament"):
        assign_role(boss_b, b, username=device_a.username, role=Role.SCORER)
    # In its own tournament a device is a scorer and nothing else.
    with pytest.raises(ServiceError, match="is the device of table 2"):
        assign_role(Actor(user=two_events["boss_a"]), a, username=device_a.username,
                    role=Role.DIRECTOR)
    assign_role(boss_b, b, username="ref-a", role=Role.REFEREE)
    with pytest.raises(ServiceError, match="has a role in another tournament"):
        unlock_account(boss_b, b, "ref-a")
    # wc-a's director unlocks neither: ref-a has a role in wc-b now.
    with pytest.raises(ServiceError, match="has a role in another tournament"):
        unlock_account(Actor(user=two_events["boss_a"]), a, "ref-a")
    # A superuser unlocks anyone.
    root = User.objects.create_superuser("root", "", "root-pass-123")
    assert unlock_account(Actor(user=root), b, "ref-a") == 0


def test_a_device_given_a_role_elsewhere_is_let_go_and_replaced(client, two_events):
    """An administrator gives wc-a's table 1 device a role in wc-b: it is no longer wc-a's
    alone, so making wc-a's devices again leaves it as it is and makes table 1 a new
    account; the old slip no longer scores in wc-a."""
    a, b = two_events["a"], two_events["b"]
    device = TableDevice.objects.get(tournament=a, number=1).user
    StaffRole.objects.create(tournament=b, user=device, role=Role.SCORER)
    old_password = User.objects.get(pk=device.pk).password
    client.force_login(two_events["boss_a"])
    slips = slips_of(make_devices(client, a, two_events["round_a"], replace="on"))
    assert slips[1][0] == "wc-a-table-1-2"
    device.refresh_from_db()
    assert device.password == old_password and device.is_active
    assert not StaffRole.objects.filter(tournament=a, user=device).exists()
    assert TableDevice.objects.get(tournament=a, number=1).user.username == "wc-a-table-1-2"


def test_making_devices_again_asks_first_and_a_double_click_gives_one_set_of_slips(
        client, two_events):
    a, round_a = two_events["a"], two_events["round_a"]
    client.force_login(two_events["boss_a"])
    refused = client.post(url("round_devices", a.slug, round_a.pk), follow=True)
    assert "the slips printed before stop working" in messages_of(refused)
    name, password, _token = two_events["slips_a"][1]
    assert Client().login(username=name, password=password)
    # A double click: the same form (its request token) twice answers the same slips.
    token = "5b3c1e0a-8f7d-4c2b-9a1e-3d4f5a6b7c8d"
    first = make_devices(client, a, round_a, replace="on", request_token=token)
    second = make_devices(client, a, round_a, replace="on", request_token=token)
    assert slips_of(first) == slips_of(second)
    for name, password, _token in slips_of(second).values():
        assert Client().login(username=name, password=password)
    assert AuditEntry.objects.filter(tournament=a, action="device.create").count() == 2
    entry = AuditEntry.objects.filter(tournament=a, action="device.create").first()
    assert "the slips printed before stop working" in entry.summary


def test_a_restore_suggests_new_accounts_for_the_devices_of_this_site(
        client, two_events, tmp_path, settings):
    a = two_events["a"]
    settings.BACKUP_DIR = tmp_path / "backups"
    call_command("backup", stdout=io.StringIO())
    backup = next(b for b in list_backups() if b.slug == "wc-a")
    # A director may not restore.
    client.force_login(two_events["boss_b"])
    assert client.post(url("backup_restore", backup.name)).status_code == 403
    before = accounts_of(a)
    root = User.objects.create_superuser("root", "", "root-pass-123")
    client.force_login(root)
    restore = client.post(url("backup_restore", backup.name))
    preview = client.get(restore["Location"])
    form = preview.context["form"]
    suggested = {name: form.initial[f"account_{i}"] for i, name in enumerate(form.people)}
    assert suggested["wc-a-table-1"] == "wc-a-table-1-restored"
    assert suggested["boss-a"] == "boss-a"
    assert not preview.context["preview"].problems
    done = client.post(restore["Location"], {"slug": form.initial["slug"], "import": "1",
                                             **{f"account_{i}": suggested[name]
                                                for i, name in enumerate(form.people)}})
    assert done.status_code == 302
    restored = Tournament.objects.get(slug=form.initial["slug"])
    # The restore gave wc-a's people roles in the copy (a superuser's choice, which
    # changes nothing of the accounts), never wc-a's devices.
    after = accounts_of(a)
    assert {name: {**values, "roles": None} for name, values in after.items()} == \
        {name: {**values, "roles": None} for name, values in before.items()}
    assert not StaffRole.objects.filter(tournament=restored,
                                        user__table_device__tournament=a).exists()
    # The restored tournament makes its own devices: new accounts, wc-a's untouched.
    slips = slips_of(make_devices(client, restored, restored_round(restored)))
    assert all(name.startswith(restored.slug) for name, _p, _t in slips.values())
    for name in (f"wc-a-table-{n}" for n in (1, 2, 3, 4)):
        user = User.objects.get(username=name)
        assert user.password == before[name]["password"]


def restored_round(tournament):
    from tournament.models import Round

    return Round.objects.get(stage__tournament=tournament, status=Round.Status.IN_PLAY)


def test_the_staff_service_boundaries_of_a_device_account_in_its_own_tournament(two_events):
    a = two_events["a"]
    device = TableDevice.objects.get(tournament=a, number=1)
    # A scorer again, as it is: accepted.
    assign_role(Actor(user=two_events["boss_a"]), a, username=device.user.username,
                role=Role.SCORER)
    with pytest.raises(ServiceError):
        create_table_devices(Actor(user=two_events["boss_a"]), two_events["round_a"])


def test_a_scorer_is_never_bound_to_a_table_of_a_draft_round(two_events):
    from django.core.exceptions import PermissionDenied

    from tournament.services.devices import check_table_for

    a, boss_a = two_events["a"], Actor(user=two_events["boss_a"])
    stage = create_stage(boss_a, a, name="Second", kind=Stage.Kind.SWISS, swiss_rounds=1)
    enter_teams(boss_a, stage, list(a.teams.all()))
    draft = generate_round(boss_a, stage)
    table = draft.tables.first()
    scorer = Actor(user=new_staff(a, Role.SCORER, "lily"))
    with pytest.raises(PermissionDenied) as refused:
        check_table_for(scorer, table)
    assert str(refused.value) == f"there is no table {table.pk}"
    assert draft.label not in str(refused.value)
    assert not TableBinding.objects.filter(round=draft).exists()
    check_table_for(boss_a, table)  # the director sees the draft


def test_the_staff_page_offers_to_unlock_only_what_this_director_may(client, two_events):
    b = two_events["b"]
    assign_role(Actor(user=two_events["boss_b"]), b, username="ref-a", role=Role.REFEREE)
    own = new_staff(b, Role.SCORER, "own-scorer")
    for name in ("ref-a", own.username):
        for _ in range(5):
            Client().post(reverse("login"), {"username": name, "password": "wrong"},
                          REMOTE_ADDR="10.7.7.7")
    client.force_login(two_events["boss_b"])
    page = client.get(url("staff", b.slug)).content.decode()
    assert page.count(">Unlock<") == 1
    assert "ref-a has a role in another tournament: only an administrator" in page
