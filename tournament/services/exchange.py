"""The tournament file from the web pages (issue 25): export, import with a preview, and
restoring a backup. The same functions as the command line (``exchange.export_text``,
``exchange.import_.import_tournament``), so a file means the same at every door; here they
are permission-checked and audited.

An upload waits in the database (``PendingImport``) while its director reads the preview:
one account sees only its own uploads, and an upload older than a day is deleted.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.exchange.backups import BackupMissing, read_backup, slug_of
from tournament.exchange.common import EXPORT_ACTION
from tournament.exchange.export import export_text
from tournament.exchange.import_ import import_tournament, review_import
from tournament.exchange.problems import Door, ImportRefused
from tournament.exchange.read import read_document
from tournament.exchange.summary import FileSummary, summarize
from tournament.models import PendingImport, TableDevice, Tournament
from tournament.models.tournament import slug_taken
from tournament.permissions import Perm, can_create_tournament, require
from tournament.services.base import Actor, ServiceError, audit

# The import page names its fields where the command line names its options.
PAGE = Door(slug="new short name",
            slug_hint="give the import another short name below",
            account="account for {name}",
            account_hint="say below which account {name} is (an existing account, or the "
                         "name of a new one), or press \u201cEveryone as this site's account "
                         "of the same name\u201d for a file of this site")
PENDING_HOURS = 24
PENDING_PER_ACCOUNT = 3


@dataclass(frozen=True)
class ExportedFile:
    name: str
    data: bytes


def export_file(actor: Actor, tournament: Tournament, *, secrets: bool) -> ExportedFile:
    """The tournament file a director downloads: the bytes of ``manage.py
    export_tournament [--include-secrets]``; audited (an export entry is not itself in the
    file, so two downloads of an unchanged tournament are the same bytes)."""
    require(actor.user, tournament, Perm.EDIT_TOURNAMENT)
    data = export_text(tournament, secrets=secrets).encode()
    stamp = timezone.now().strftime("%Y%m%d-%H%M")
    name = f"{tournament.slug}-{stamp}{'-with-secrets' if secrets else ''}.json"
    with transaction.atomic():
        audit(actor, tournament, EXPORT_ACTION, announce=False, secrets=secrets,
              size=len(data))
    return ExportedFile(name=name, data=data)


def _may_import(actor: Actor) -> None:
    if not can_create_tournament(actor.user):
        raise PermissionDenied(_("You are not allowed to create tournaments."))


def upload(actor: Actor, file_name: str, data: bytes, *,
           source: str = PendingImport.Source.UPLOAD) -> PendingImport:
    """Keep a file for its preview; ImportRefused at once when it is not a tournament file
    at all (too big, not UTF-8, not JSON, another format or version)."""
    _may_import(actor)
    read_document(data)
    with transaction.atomic():
        PendingImport.objects.filter(
            uploaded_at__lt=timezone.now() - dt.timedelta(hours=PENDING_HOURS)).delete()
        older = (PendingImport.objects.filter(user=actor.user)
                 .order_by("-uploaded_at").values_list("pk", flat=True)
                 [PENDING_PER_ACCOUNT - 1:])
        PendingImport.objects.filter(pk__in=list(older)).delete()
        return PendingImport.objects.create(
            user=actor.user, file_name=_shown_name(file_name), source=source,
            size=len(data), data=data)


def _shown_name(file_name: str) -> str:
    """The upload's name as the preview shows it: no control or invisible character (a
    NUL would not even be stored by PostgreSQL), at most 255 characters."""
    shown = "".join(c for c in file_name if c.isprintable())[:255].strip()
    return shown or "upload.json"


def pending(actor: Actor, pk) -> PendingImport:
    """The account's own upload (ServiceError when it is gone: imported, or expired)."""
    _may_import(actor)
    found = PendingImport.objects.filter(
        pk=pk, user=actor.user,
        uploaded_at__gte=timezone.now() - dt.timedelta(hours=PENDING_HOURS)).first()
    if found is None:
        raise ServiceError(_("This upload is gone: it was imported, or it was uploaded more "
                             "than a day ago. Upload the file again."))
    return found


def file_people(upload_: PendingImport) -> tuple[str | None, list[str]]:
    """The short name and the user names the file gives (nothing checked yet), for the
    preview's form."""
    try:
        document = read_document(bytes(upload_.data))
    except ImportRefused:
        return None, []
    tournament, people = document.get("tournament"), document.get("people")
    slug = tournament.get("slug") if isinstance(tournament, dict) else None
    names = [person.get("username") for person in people
             if isinstance(person, dict)] if isinstance(people, list) else []
    return (slug if isinstance(slug, str) else None,
            [name for name in names if isinstance(name, str)])


@dataclass(frozen=True)
class Preview:
    """What the import would do: ``problems`` empty means it can be confirmed; ``notes``
    says what it changes of the file without refusing it (a PIN hash dropped)."""

    problems: list[str]
    summary: FileSummary | None  # None when the file breaks the schema
    accounts: dict[str, tuple[int | None, str]]  # person of the file → (account id, name)
    slug: str
    notes: tuple[str, ...] = ()


def preview(upload_: PendingImport, *, slug: str | None,
            map_users: dict[str, str]) -> Preview:
    """The import's every check, run without writing (the command line's messages)."""
    try:
        document = read_document(bytes(upload_.data))
    except ImportRefused as refused:
        return Preview(problems=refused.messages, summary=None, accounts={}, slug="")
    plan, problems = review_import(document, slug=slug, map_users=map_users, door=PAGE)
    if plan is None:
        return Preview(problems=problems, summary=None, accounts={}, slug="")
    return Preview(problems=problems, summary=summarize(document), accounts=plan.accounts,
                   slug=plan.slug, notes=tuple(plan.notes))


def confirm(actor: Actor, pk, *, slug: str | None, map_users: dict[str, str]) -> Tournament:
    """Import the upload as previewed (ImportRefused with every problem: nothing written).
    The upload is deleted in the same transaction: a second click finds it gone."""
    found = pending(actor, pk)
    document = read_document(bytes(found.data))
    with transaction.atomic():
        if not PendingImport.objects.filter(pk=found.pk).delete()[0]:
            raise ServiceError(_("This file was imported already."))
        return import_tournament(document, slug=slug, map_users=map_users, actor=actor,
                                 door=PAGE)


def restore_backup(actor: Actor, name: str) -> PendingImport:
    """A backup of the folder, ready for the import preview (as a new tournament)."""
    _require_superuser(actor)
    try:
        data = read_backup(name)
    except BackupMissing:
        raise ServiceError(_("There is no backup %(name)s.") % {"name": name}) from None
    return upload(actor, name, data, source=PendingImport.Source.BACKUP)


def download_backup(actor: Actor, name: str) -> bytes:
    """A backup's bytes for its download, audited in the tournament it was taken of (when
    a tournament has that short name now)."""
    _require_superuser(actor)
    try:
        data = read_backup(name)
    except BackupMissing:
        raise ServiceError(_("There is no backup %(name)s.") % {"name": name}) from None
    tournament = Tournament.objects.filter(slug=slug_of(name)).first()
    with transaction.atomic():
        audit(actor, tournament, EXPORT_ACTION, announce=False, secrets=True, size=len(data),
              backup=name)
    return data


def _require_superuser(actor: Actor) -> None:
    """Backups hold every tournament's secrets: the site's administrators alone see them
    (docs/roles.md)."""
    user = actor.user
    if not (user.is_authenticated and user.is_active and user.is_superuser):
        raise PermissionDenied(_("Only an administrator of the site may see the backups."))


def restored_accounts(people: list[str]) -> dict[str, str]:
    """The account each person of a backup becomes, as a restore suggests it: the account
    of the same name (a backup of this site), but for a table device, which belongs to its
    tournament (issue 48): a new account, under a name no account has."""
    User = get_user_model()
    devices = {name.lower() for name in TableDevice.objects.filter(
        user__username__in=people).values_list("user__username", flat=True)}
    suggested = {}
    for name in people:
        if name.lower() not in devices:
            suggested[name] = name
            continue
        base = f"{name[:130]}-restored"
        candidate, number = base, 1
        while (User.objects.filter(username__iexact=candidate).exists()
               or candidate in suggested.values()):
            number += 1
            candidate = f"{base}-{number}"
        suggested[name] = candidate
    return suggested


def free_slug(slug: str) -> str:
    """A short name no tournament has, from ``slug`` (a restore's suggestion)."""
    base = f"{slug[:40]}-restored"
    candidate, number = base, 1
    while slug_taken(candidate):
        number += 1
        candidate = f"{base}-{number}"
    return candidate
