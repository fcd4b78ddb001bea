"""The tournament file in the staff area (issue 25; services.exchange): a director
downloads it from the settings page; whoever may create tournaments uploads one, reads the
preview and confirms (a backup restored from the backups page, ``views.director.backups``,
comes through the same preview)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournament.exchange.problems import ImportRefused
from tournament.exchange.read import max_bytes, too_large
from tournament.forms import ImportChoicesForm, TournamentFileForm
from tournament.models import PendingImport, Role, Round, Stage, Tournament
from tournament.models.tournament import slug_taken
from tournament.permissions import Perm, can_create_tournament
from tournament.services import Actor, ServiceError
from tournament.services import exchange as service
from tournament.views.access import staff_view


def file_response(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@staff_view(Perm.EDIT_TOURNAMENT)
@require_POST
def tournament_export(request, tournament):
    exported = service.export_file(Actor.from_request(request), tournament,
                                   secrets=request.POST.get("secrets") == "1")
    return file_response(exported.data, exported.name)


@never_cache
@login_required
def import_upload(request):
    if not can_create_tournament(request.user):
        raise PermissionDenied(_("You are not allowed to create tournaments."))
    form = TournamentFileForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > max_bytes():
                raise too_large(upload.size)
            pending = service.upload(Actor.from_request(request), upload.name, upload.read())
        except ImportRefused as refused:
            problems = refused.messages
        else:
            return redirect("director:import_preview", pending.pk)
    return render(request, "director/import_upload.html", {
        "form": form, "problems": problems, "file_name": request.FILES.get("file"),
        "max_bytes": max_bytes()})


@never_cache
@login_required
def import_preview(request, pk):
    actor = Actor.from_request(request)
    try:
        pending = service.pending(actor, pk)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("director:import_upload")
    slug_in_file, people = service.file_people(pending)
    initial, accounts = {}, {}
    data = request.POST or None
    if pending.source == PendingImport.Source.BACKUP or (data and "same_names" in data):
        # Each person the account of the same name (a table device excepted: it stays its
        # tournament's own and becomes a new account).
        accounts = service.restored_accounts(people)
    if pending.source == PendingImport.Source.BACKUP:
        # A backup of this site: its people are this site's accounts, and its tournament
        # may still be here under its short name.
        initial = {f"account_{index}": accounts[name] for index, name in enumerate(people)}
        if slug_in_file and slug_taken(slug_in_file):
            initial["slug"] = service.free_slug(slug_in_file)
    if data is not None and "same_names" in data:
        # One click for a file of this site (a copy, a backup): every person becomes the
        # account of the same name; the preview still shows what each one becomes.
        data = data.copy()
        for index, name in enumerate(people):
            data[f"account_{index}"] = accounts[name]
    form = ImportChoicesForm(data, people=people, initial=initial)
    if request.method != "POST":
        return _preview_page(request, pending, form, service.preview(
            pending, slug=initial.get("slug"), map_users=accounts if initial else {}))
    if not form.is_valid():
        return _preview_page(request, pending, form, None)
    slug, mapping = form.choices()
    if "import" in request.POST:
        try:
            tournament = service.confirm(actor, pending.pk, slug=slug, map_users=mapping)
        except ImportRefused:
            pass  # the preview below shows every problem, as the check found them
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("director:import_upload")
        else:
            messages.success(request, _("Tournament imported: %(name)s.")
                             % {"name": tournament.shown_name})
            return redirect("director:dashboard", tournament.slug)
    return _preview_page(request, pending, form,
                         service.preview(pending, slug=slug, map_users=mapping))


def _preview_page(request, pending, form, preview):
    people = []
    if preview is None:  # the choices themselves are wrong: the form says where
        preview = service.preview(pending, slug=None, map_users={})
    if preview.summary:
        for index, person in enumerate(preview.summary.people):
            people.append((person, form.account_field(index),
                           preview.accounts.get(person.username),
                           dict(Role.choices).get(person.role, person.role)))
    summary = preview.summary
    kinds, statuses = dict(Stage.Kind.choices), dict(Round.Status.choices)
    return render(request, "director/import_preview.html", {
        "pending": pending, "form": form, "preview": preview, "people": people,
        "becomes_director": not request.user.is_superuser,
        "status": summary and dict(Tournament.Status.choices).get(summary.status,
                                                                   summary.status),
        "stages": [(line, kinds.get(line.kind, line.kind)) for line in summary.stages]
        if summary else [],
        "rounds": [(line, statuses.get(line.status, line.status)) for line in summary.rounds]
        if summary else [],
        "roles": dict(Role.choices)})

