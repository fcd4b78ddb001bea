"""The backups page (issues 25 and 50; services.backups, services.exchange): for the site's
administrators alone, since every backup holds every secret of its tournament. It lists the
tournament files and the database snapshots, says when the last backup was taken and what
it could not do, takes one now, and downloads or restores a tournament file (through the
import preview)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournament.exchange.backups import backup_dir, list_backups
from tournament.exchange.problems import ImportRefused
from tournament.exchange.snapshot import list_snapshots
from tournament.selectors.backups import backup_status
from tournament.selectors.tournaments import taken_slugs
from tournament.services import Actor, ServiceError
from tournament.services import exchange as service
from tournament.services.backups import back_up_now, report_lines
from tournament.views.director.exchange import file_response


def _superuser(request) -> None:
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only an administrator of the site may see the backups."))


@never_cache
@login_required
def backup_list(request):
    _superuser(request)
    backups = list_backups()
    here = taken_slugs(b.slug for b in backups)
    return render(request, "director/backups.html", {
        "backups": [(backup, backup.slug in here) for backup in backups],
        "snapshots": list_snapshots(backup_dir()), "status": backup_status(),
        "folder": backup_dir()})


@login_required
@require_POST
def backup_now(request):
    """"Back up now": every tournament and the database, at once."""
    _superuser(request)
    report = back_up_now(Actor.from_request(request))
    for level, line in report_lines(report):
        {"info": messages.success, "warning": messages.warning,
         "error": messages.error}[level](request, line)
    return redirect("director:backups")


@never_cache
@login_required
def backup_download(request, name):
    try:
        data = service.download_backup(Actor.from_request(request), name)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("director:backups")
    return file_response(data, name)


@login_required
@require_POST
def backup_restore(request, name):
    try:
        pending = service.restore_backup(Actor.from_request(request), name)
    except (ServiceError, ImportRefused) as error:
        messages.error(request, error.message if isinstance(error, ServiceError)
                       else _("%(name)s cannot be restored: %(reason)s")
                       % {"name": name, "reason": error.messages[0]})
        return redirect("director:backups")
    return redirect("director:import_preview", pending.pk)
