"""The tournament file from the web pages (issue 25): the download is the command's bytes,
an upload imports through a preview with a user mapping and round-trips, a refused file
shows the command line's messages, and backups written by ``manage.py backup`` are listed,
downloaded and restored as a new tournament."""

import html
import io
import json
import os
import stat

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.tournament.test_exchange import same_people
from tests.tournament.test_exchange_refusals import BROKEN, _broken
from tests.tournament.views.public_event import one_event_per_module
from tournament.exchange.backups import list_backups
from tournament.exchange.common import EXPORT_ACTION, IMPORT_ACTION, dump
from tournament.exchange.export import export_text
from tournament.models import AuditEntry, PendingImport, Role, StaffRole, Tournament

User = get_user_model()


built_event, event, tournament = one_event_per_module(teams=4)


def command_export(slug, tmp_path, *secrets) -> bytes:
    path = tmp_path / f"{slug}-{len(secrets)}.json"
    call_command("export_tournament", slug, *secrets, "-o", str(path), stderr=io.StringIO())
    return path.read_bytes()


def command_refusal(data: bytes, tmp_path, people=()) -> list[str]:
    """The messages ``manage.py import_tournament`` gives for the file (``people`` mapped
    to their own accounts)."""
    path = tmp_path / "refused.json"
    path.write_bytes(data)
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), "--slug", "refused",
                     *(f"--map-user={name}={name}" for name in people))
    lines = str(refused.value).splitlines()
    if len(lines) == 1:  # not a tournament file at all: "FILE: nothing was imported: …"
        return [lines[0].split(": nothing was imported: ", 1)[1]]
    return [line.strip() for line in lines[1:]]


def upload(client, data: bytes, name="event.json"):
    return client.post(reverse("director:import_upload"),
                       {"file": SimpleUploadedFile(name, data, "application/json")})


def importer(make_user, *, superuser=False):
    user = make_user("importer", superuser=superuser)
    if not superuser:
        user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return User.objects.get(pk=user.pk)


def choices(response, **accounts) -> dict:
    """The preview form's fields, with ``accounts`` (file name → account) filled in."""
    form = response.context["form"]
    data = {"slug": ""}
    for index, name in enumerate(form.people):
        data[f"account_{index}"] = accounts.get(name, "")
    return data


# Export ------------------------------------------------------------------------------------

def test_the_download_is_the_commands_bytes_and_is_audited(client, event, tournament,
                                                         director_actor, tmp_path):
    client.force_login(director_actor.user)
    url = reverse("director:tournament_export", args=[tournament.slug])
    public = client.post(url)
    assert public.status_code == 200
    assert public["Content-Disposition"].startswith(f'attachment; filename="{tournament.slug}-')
    assert "no-store" in public["Cache-Control"]
    assert public.content == command_export(tournament.slug, tmp_path)
    secret = client.post(url, {"secrets": "1"})
    assert secret.content == command_export(tournament.slug, tmp_path, "--include-secrets")
    assert secret.content != public.content
    assert "with-secrets" in secret["Content-Disposition"]
    # Audited, and the entries are not in the file: the next download is the same bytes.
    entries = AuditEntry.objects.filter(tournament=tournament, action=EXPORT_ACTION)
    assert [e.data["secrets"] for e in entries.order_by("id")] == [False, True]
    assert entries.first().actor == director_actor.user
    assert client.post(url, {"secrets": "1"}).content == secret.content
    # The settings page offers both downloads.
    page = client.get(reverse("director:tournament_edit", args=[tournament.slug]))
    assert url in page.content.decode() and "Download with secrets" in page.content.decode()


def test_only_a_director_downloads_the_file(client, tournament, staff_user):
    url = reverse("director:tournament_export", args=[tournament.slug])
    for role in ("referee", "scorer"):
        client.force_login(staff_user(tournament, role))
        assert client.post(url, {"secrets": "1"}).status_code == 403
        assert client.post(url).status_code == 403
    client.logout()
    assert client.post(url).status_code == 302  # to the log-in page
    assert not AuditEntry.objects.filter(action=EXPORT_ACTION).exists()


# Import ------------------------------------------------------------------------------------

def test_a_web_import_round_trips(client, event, tournament, make_user, tmp_path):
    client.force_login(importer(make_user, superuser=True))
    original = export_text(tournament, secrets=True).encode()
    response = upload(client, original)
    pending = PendingImport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("director:import_preview", args=[pending.pk])
    preview = client.get(response["Location"])
    page = html.unescape(preview.content.decode())
    # The preview: the tournament, its stages, rounds and teams, and what stands in the way.
    assert "World Cup" in page and "Swiss" in page and "T1" in page
    assert ("tournament.slug: a tournament with the short name world-cup already exists; "
            "give the import another short name below") in page
    assert "is a user name of this database" in page
    # The way out is named: the one-click mapping below (issue 56).
    assert "or press \u201cEveryone as this site's account of the same name\u201d" in page
    assert 'name="same_names"' in page
    assert 'name="import"' not in page  # nothing to confirm while problems remain
    people = same_people(json.loads(original))
    data = {**choices(preview, **people), "slug": "world-cup-copy"}
    checked = client.post(preview.request["PATH_INFO"], {**data, "check": "1"})
    assert checked.status_code == 200 and not checked.context["preview"].problems
    assert 'name="import"' in checked.content.decode()
    assert not Tournament.objects.filter(slug="world-cup-copy").exists()  # a check writes nothing
    done = client.post(preview.request["PATH_INFO"], {**data, "import": "1"})
    assert done.status_code == 302
    assert done["Location"] == reverse("director:dashboard", args=["world-cup-copy"])
    again = command_export("world-cup-copy", tmp_path, "--include-secrets")
    assert again.replace(b'"slug": "world-cup-copy"', b'"slug": "world-cup"') == original
    entry = AuditEntry.objects.get(tournament__slug="world-cup-copy", action=IMPORT_ACTION)
    assert entry.actor.username == "importer"
    # The upload is gone: a second click imports nothing.
    assert not PendingImport.objects.exists()
    twice = client.post(preview.request["PATH_INFO"], {**data, "import": "1"}, follow=True)
    assert "This upload is gone" in twice.content.decode()
    assert Tournament.objects.filter(name="World Cup").count() == 2


def test_the_preview_shows_and_applies_a_user_mapping(client, event, tournament, make_user,
                                                      staff_user):
    staff_user(tournament, "referee", username="ref")
    user = importer(make_user)  # may create tournaments, is no superuser
    client.force_login(user)
    document = json.loads(export_text(tournament, secrets=True))
    upload(client, dump(document).encode())
    url = reverse("director:import_preview", args=[PendingImport.objects.get().pk])
    staff = {s["user"]: s["role"] for s in document["staff"]}
    director = next(name for name, role in staff.items() if role == "director")
    others = [p["username"] for p in document["people"] if p["username"] != director]
    # The director of the file becomes a new account; everyone else their own account.
    mapping = {**{name: name for name in others}, director: "director-from-file"}
    checked = client.post(url, {**choices(client.get(url), **mapping), "slug": "mapped",
                                "check": "1"})
    page = html.unescape(checked.content.decode())
    assert "a new inactive account director-from-file" in page
    assert f"the account {others[0]} of this site" in page
    assert "You become the director of the imported tournament." in page
    done = client.post(url, {**choices(checked, **mapping), "slug": "mapped", "import": "1"})
    assert done.status_code == 302
    copy_ = Tournament.objects.get(slug="mapped")
    new = User.objects.get(username="director-from-file")
    assert not new.is_active and not new.has_usable_password()
    roles = {r.user.username: r.role for r in copy_.staff.select_related("user")}
    assert roles["director-from-file"] == Role.DIRECTOR
    assert roles["importer"] == Role.DIRECTOR  # whoever imports can manage it
    assert not User.objects.filter(username=director).exclude(
        pk__in=StaffRole.objects.filter(tournament=tournament).values("user")).exists()
    entry = AuditEntry.objects.get(tournament=copy_, action=IMPORT_ACTION)
    assert entry.data["made_director"] and "became its director" in entry.summary
    assert client.get(reverse("director:dashboard", args=["mapped"])).status_code == 200


@pytest.fixture
def file_with_secrets(event, tournament):
    return json.loads(export_text(tournament, secrets=True))


REFUSED = [  # the bad files of the side-doors issue, and files that are no tournament file
    *[(path, value) for path, value, _message in BROKEN[:6]],
    (["tournament", "hands_per_match"], ...),
    (["teams", 0, "name"], "Good name\x1b[31m"),
    (["penalties", 0, "reason"], "two\nlines"),
]


@pytest.mark.parametrize(("path", "value"), REFUSED,
                         ids=[".".join(map(str, r[0])) for r in REFUSED])
def test_a_refused_file_shows_the_command_lines_messages(client, file_with_secrets, make_user,
                                                         tmp_path, path, value):
    client.force_login(importer(make_user, superuser=True))
    data = dump(_broken(file_with_secrets, path, value)).encode()
    # The file was written in this database: its people are mapped to their accounts.
    people = same_people(file_with_secrets)
    expected = command_refusal(data, tmp_path, people)
    response = upload(client, data)
    url = response["Location"]
    form = {**choices(client.get(url), **people), "slug": "refused"}
    preview = client.post(url, {**form, "check": "1"})
    shown = preview.context["preview"].problems
    assert shown == expected
    page = html.unescape(preview.content.decode())
    assert all(message in page for message in expected)
    assert 'name="import"' not in page
    # Confirming anyway is refused with the same messages, and writes nothing.
    refused = client.post(url, {**form, "import": "1"})
    assert refused.status_code == 200
    assert refused.context["preview"].problems == expected
    assert not Tournament.objects.filter(slug="refused").exists()
    assert PendingImport.objects.exists()


@pytest.mark.parametrize("data", [b"{not json", b"[1, 2]", b"\xff\xfe",
                                  b'{"format": "duplicate-gin-tournament", "version": 99}',
                                  b"[" * 100 + b"]" * 100])
def test_what_is_no_tournament_file_is_refused_on_upload(client, db, make_user, tmp_path,
                                                         data):
    client.force_login(importer(make_user))
    expected = command_refusal(data, tmp_path)
    response = upload(client, data, name="bad.json")
    assert response.status_code == 200
    assert response.context["problems"] == expected
    assert expected[0] in html.unescape(response.content.decode())
    assert not PendingImport.objects.exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(client, db, make_user, settings):
    settings.IMPORT_MAX_BYTES = 1000
    client.force_login(importer(make_user))
    response = upload(client, b" " * 2000)
    assert response.context["problems"] == [
        "the file is 2,000 bytes; at most 1,000 are read (setting IMPORT_MAX_BYTES)"]


def test_an_upload_is_its_uploaders_alone(client, event, tournament, make_user):
    client.force_login(importer(make_user))
    upload(client, export_text(tournament).encode())
    url = reverse("director:import_preview", args=[PendingImport.objects.get().pk])
    other = make_user("other", superuser=True)
    client.force_login(other)
    response = client.get(url, follow=True)
    assert "This upload is gone" in response.content.decode()
    assert "World Cup" not in response.content.decode()
    client.force_login(make_user("nobody"))  # may not create tournaments
    assert client.get(reverse("director:import_upload")).status_code == 403
    assert client.get(url).status_code == 403


def test_a_staff_address_is_no_short_name(client, event, tournament, make_user, director_actor):
    client.force_login(importer(make_user, superuser=True))
    document = json.loads(export_text(tournament, secrets=True))
    upload(client, dump(document).encode())
    url = reverse("director:import_preview", args=[PendingImport.objects.get().pk])
    response = client.post(url, {**choices(client.get(url), **same_people(document)),
                                 "slug": "import", "check": "1"})
    assert any(p.startswith("new short name: import is the address of a page")
               for p in response.context["preview"].problems)
    from tournament.services import ServiceError
    from tournament.services.tournaments import update_tournament

    with pytest.raises(ServiceError):
        update_tournament(director_actor, tournament, slug="backups")


# Backups -----------------------------------------------------------------------------------

def test_backup_keeps_the_last_n_of_each_tournament_with_a_round_in_play(
        event, tournament, make_tournament, tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"
    quiet = make_tournament(slug="quiet")  # no round in play: backed up the first time only
    names, said = [], []
    for _ in range(3):
        out = io.StringIO()
        call_command("backup", "--keep", "2", stdout=out)
        said.append(out.getvalue())
        names.append(next(b.name for b in list_backups() if b.slug == "world-cup"))
    assert "wrote quiet-" in said[0] and "wrote world-cup-" in said[0]
    for text in said[1:]:
        assert "wrote world-cup-" in text and "wrote quiet-" not in text
        assert ("left out quiet: no round in play and nothing recorded since the last "
                "backup") in text
    assert all("no mirror folder (the setting BACKUP_MIRROR_DIR)" in text for text in said)
    kept = [b for b in list_backups() if b.slug == "world-cup"]
    assert [b.name for b in kept] == [names[2], names[1]]  # the oldest was dropped
    assert {b.slug for b in list_backups()} == {"world-cup", "quiet"}
    assert stat.S_IMODE(os.stat(settings.BACKUP_DIR).st_mode) == 0o700
    for backup in kept:
        path = settings.BACKUP_DIR / backup.name
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert path.read_text() == export_text(tournament, secrets=True)
    # --all: every tournament; --dir: another folder.
    other = tmp_path / "elsewhere"
    call_command("backup", "--all", "--dir", str(other), stdout=io.StringIO())
    assert {b.slug for b in list_backups(other)} == {"world-cup", quiet.slug}
    with pytest.raises(CommandError) as wrong:
        call_command("backup", "--keep", "0")
    assert wrong.value.returncode == 1


def test_a_backup_is_restored_from_the_page_as_the_same_tournament(
        client, event, tournament, make_user, tmp_path, settings,
        django_assert_max_num_queries):
    settings.BACKUP_DIR = tmp_path / "backups"
    call_command("backup", stdout=io.StringIO())
    call_command("backup", stdout=io.StringIO())
    backup = list_backups()[0]
    client.force_login(importer(make_user, superuser=True))
    with django_assert_max_num_queries(8):
        listing = client.get(reverse("director:backups"))
    page = listing.content.decode()
    assert backup.name in page and page.count("Restore as a new tournament") == 2
    download = client.get(reverse("director:backup_download", args=[backup.name]))
    data = download.content
    assert data == (settings.BACKUP_DIR / backup.name).read_bytes()
    assert AuditEntry.objects.filter(tournament=tournament, action=EXPORT_ACTION,
                                     data__backup=backup.name).exists()
    restore = client.post(reverse("director:backup_restore", args=[backup.name]))
    preview = client.get(restore["Location"])
    form = preview.context["form"]
    # Prefilled: a free short name, and the people as this site's own accounts.
    assert form.initial["slug"] == "world-cup-restored"
    assert not preview.context["preview"].problems
    data_ = {"slug": "world-cup-restored", "import": "1",
             **{f"account_{i}": name for i, name in enumerate(form.people)}}
    done = client.post(preview.request["PATH_INFO"], data_)
    assert done.status_code == 302
    restored = export_text(Tournament.objects.get(slug="world-cup-restored"), secrets=True)
    assert restored.replace('"slug": "world-cup-restored"', '"slug": "world-cup"').encode() \
        == data


def test_backups_are_for_administrators_of_the_site(client, event, tournament, director_actor,
                                                    tmp_path, settings, admin_user):
    settings.BACKUP_DIR = tmp_path / "backups"
    call_command("backup", stdout=io.StringIO())
    name = list_backups()[0].name
    client.force_login(director_actor.user)  # directs the tournament, is no administrator
    assert client.get(reverse("director:backups")).status_code == 403
    assert client.get(reverse("director:backup_download", args=[name])).status_code == 403
    assert client.post(reverse("director:backup_restore", args=[name])).status_code == 403
    client.force_login(admin_user)
    for bad in ("..", "..%2Fsecret_key", "world-cup.json",
                "world-cup-20260101-000000-000000.json"):
        response = client.get(reverse("director:backups") + bad, follow=True)
        assert response.status_code in (200, 404)
        assert b"duplicate-gin-tournament" not in response.content


def test_the_name_of_an_upload_is_kept_printable(client, event, tournament, make_user):
    client.force_login(importer(make_user))
    response = upload(client, export_text(tournament).encode(), name="cup\x00\x1b[31m.json")
    assert response.status_code == 302
    assert PendingImport.objects.get().file_name == "cup[31m.json"


def test_one_click_maps_everyone_to_the_account_of_the_same_name(client, event, tournament,
                                                                 make_user):
    client.force_login(importer(make_user, superuser=True))
    document = json.loads(export_text(tournament, secrets=True))
    upload(client, dump(document).encode())
    url = reverse("director:import_preview", args=[PendingImport.objects.get().pk])
    response = client.post(url, {**choices(client.get(url)), "slug": "same",
                                 "same_names": "1"})
    assert response.context["preview"].problems == []
    names = {p["username"] for p in document["people"]}
    assert {name for name, (pk, _account) in response.context["preview"].accounts.items()
            if pk is not None} == names
    assert not Tournament.objects.filter(slug="same").exists()  # shown, not imported
