"""Teams of a tournament: list, add, edit, delete, and the CSV import."""

import base64
import binascii

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournament.forms import (
    TeamForm,
    TeamImportConfirmForm,
    TeamImportForm,
)
from tournament.models import Round
from tournament.permissions import Perm
from tournament.selectors.penalties import penalty_list
from tournament.selectors.people import teams_with_players
from tournament.selectors.rounds import first_round_entry, first_stage_name
from tournament.services import Actor, ServiceError
from tournament.services.team_import import import_teams
from tournament.services.teams import (
    create_team,
    delete_team,
    set_player_pin,
    team_entry_fields,
    update_team,
)
from tournament.tables import DirectorTeamTable
from tournament.views.access import staff_view
from tournament.views.listing import show_table

TEAM_PAGE_SIZE = 100


@staff_view(Perm.MANAGE_TEAMS)
def team_list(request, tournament):
    table = DirectorTeamTable(teams_with_players(tournament))
    show_table(request, table, per_page=TEAM_PAGE_SIZE)
    return render(request, "director/team_list.html", {"tournament": tournament, "table": table})


@staff_view(Perm.MANAGE_TEAMS)
def team_create(request, tournament):
    form = TeamForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            team = create_team(Actor.from_request(request), tournament, form.cleaned_data["entry"])
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Team %(name)s added.") % {"name": team.shown_name})
            if "add_another" in request.POST:
                return redirect("director:team_create", tournament.slug)
            return redirect("director:team_list", tournament.slug)
    return render(request, "director/team_form.html", {"tournament": tournament, "form": form})


@staff_view(Perm.MANAGE_TEAMS)
def team_edit(request, tournament, pk):
    team = get_object_or_404(tournament.teams.prefetch_related("players"), pk=pk)
    form = TeamForm(request.POST or None, initial=team_entry_fields(team))
    if request.method == "POST" and form.is_valid():
        try:
            update_team(Actor.from_request(request), team, form.cleaned_data["entry"])
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Team %(name)s saved.") % {"name": team.shown_name})
            return redirect("director:team_list", tournament.slug)
    return render(request, "director/team_form.html", {
        "tournament": tournament, "form": form, "team": team,
        "penalties": penalty_list(tournament, team=team),
    })


def _kept_because(team) -> str:
    """Why the team cannot be deleted ("" when it can): a team that has played, is in a
    draw or is entered in a stage stays, with its results."""
    entry = first_round_entry(team)
    if entry is not None:
        round_ = entry.round
        names = {"name": team.shown_name, "round": f"{round_.stage.shown_name}, {round_.label}"}
        if round_.status in (Round.Status.IN_PLAY, Round.Status.CLOSED):
            return _("%(name)s has played (%(round)s): its results stay, so it cannot be "
                     "deleted.") % names
        return _("%(name)s is in the draw of %(round)s, so it cannot be deleted. Undo that "
                 "round first.") % names
    stage = first_stage_name(team)
    if stage is not None:
        return _("%(name)s is entered in the stage %(stage)s, so it cannot be deleted. Take "
                 "it out of the stage first.") % {"name": team.shown_name, "stage": stage}
    return ""


@staff_view(Perm.MANAGE_TEAMS)
def team_delete(request, tournament, pk):
    team = get_object_or_404(tournament.teams, pk=pk)
    kept_because = _kept_because(team)
    if request.method == "POST" and kept_because:
        messages.error(request, kept_because)
        return redirect("director:team_edit", tournament.slug, team.pk)
    if request.method == "POST":
        try:
            delete_team(Actor.from_request(request), team)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Team %(name)s deleted.") % {"name": team.shown_name})
        return redirect("director:team_list", tournament.slug)
    return render(request, "director/team_delete.html", {
        "tournament": tournament, "team": team, "kept_because": kept_because})


@staff_view(Perm.MANAGE_TEAMS)
def team_import(request, tournament):
    """Upload → dry-run preview with every problem → confirm → import all or nothing."""
    upload = TeamImportForm()
    report = payload = None
    if request.method == "POST" and "payload" in request.POST:
        confirm = TeamImportConfirmForm(request.POST)
        data = _decode_payload(confirm.data.get("payload", "")) if confirm.is_valid() else None
        if data is None:
            messages.error(request, _("The upload was lost; please choose the file again."))
            return redirect("director:team_import", tournament.slug)
        report = import_teams(Actor.from_request(request), tournament, data, dry_run=False)
        if report.imported:
            messages.success(request, _("%(n)d teams imported.") % {"n": len(report.teams)})
            return redirect("director:team_list", tournament.slug)
    elif request.method == "POST":
        upload = TeamImportForm(request.POST, request.FILES)
        if upload.is_valid():
            file = upload.cleaned_data["file"]
            data = file.read()
            report = import_teams(
                Actor.from_request(request), tournament, data, dry_run=True, filename=file.name
            )
            if report.ok:
                payload = base64.b64encode(data).decode("ascii")
    return render(request, "director/team_import.html", {
        "tournament": tournament, "form": upload, "report": report, "payload": payload,
    })


def _decode_payload(payload: str) -> bytes | None:
    try:
        return base64.b64decode(payload.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None


@staff_view(Perm.MANAGE_TEAMS)
def team_pins(request, tournament, pk):
    """Set the players' PINs for approvals and signatures; only their hashes are kept."""
    team = get_object_or_404(tournament.teams.prefetch_related("players"), pk=pk)
    players = list(team.players.all())
    error = None
    if request.method == "POST":
        player = next((p for p in players if str(p.pk) == request.POST.get("player")), None)
        if player is None:
            error = _("Choose a player of this team.")
        else:
            try:
                set_player_pin(Actor.from_request(request), player, request.POST.get("pin", ""))
            except ServiceError as failure:
                error = failure.message
            else:
                messages.success(request, _("PIN of %(name)s saved.") % {"name": player.name})
                return redirect("director:team_pins", tournament.slug, team.pk)
    return render(request, "director/team_pins.html", {
        "tournament": tournament, "team": team, "players": players, "error": error,
    })
