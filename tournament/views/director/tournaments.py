"""The staff area's start: your tournaments, a new one, its dashboard and settings."""


from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms import (
    TournamentForm,
)
from tournament.permissions import Perm, can_create_tournament, has_perm, staff_tournaments
from tournament.selectors.backups import backup_status
from tournament.selectors.bulletin import bulletin_days
from tournament.selectors.rounds import rounds_in_play
from tournament.selectors.rules import rules_in_use
from tournament.services import Actor, ServiceError
from tournament.services.tournaments import (
    create_tournament,
    delete_tournament,
    open_to_public,
    tournament_has_results,
    update_tournament,
)
from tournament.tables import TournamentTable
from tournament.views.access import staff_view
from tournament.views.director.next_steps import next_steps


@login_required
def home(request):
    table = TournamentTable(staff_tournaments(request.user))
    return render(request, "director/home.html", {
        "table": table, "can_create": can_create_tournament(request.user),
    })


@login_required
def tournament_create(request):
    if not can_create_tournament(request.user):
        raise PermissionDenied(_("You are not allowed to create tournaments."))
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = create_tournament(Actor.from_request(request), **form.service_values())
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Tournament created. Next: add the teams."))
            return redirect("director:dashboard", tournament.slug)
    return render(request, "director/tournament_form.html", {"form": form, "creating": True})


@staff_view(Perm.VIEW_STAFF_AREA)
def dashboard(request, tournament):
    counts = {
        "teams": tournament.teams.count(),
        "staff": tournament.staff.count(),
    }
    # Where scorers and referees work: the rounds being played, each with its matches.
    return render(request, "director/dashboard.html", {
        "tournament": tournament, "rounds_in_play": rounds_in_play(tournament), **counts,
        "bulletin_days": bulletin_days(tournament),
        # The site's backups: for whoever runs the event (the mirror's state to a
        # superuser alone: it names folders of the machine).
        "backups": backup_status() if has_perm(request.user, tournament,
                                                Perm.EDIT_TOURNAMENT) else None,
        "steps": next_steps(tournament, request.tournament_perms)})


@staff_view(Perm.EDIT_TOURNAMENT)
@require_POST
def tournament_open(request, tournament):
    """One click from Set-up to Running: the public pages open."""
    try:
        open_to_public(Actor.from_request(request), tournament)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The public pages are open: anyone can see the draws."))
    # Back to the page the button was on, if it is one of this tournament's staff pages.
    back = request.POST.get("next", "")
    prefix = reverse("director:dashboard", args=[tournament.slug])
    if back.startswith(prefix) and url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(back)
    return redirect("director:dashboard", tournament.slug)


@staff_view(Perm.EDIT_TOURNAMENT)
def tournament_edit(request, tournament):
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = update_tournament(
                Actor.from_request(request), tournament, **form.service_values()
            )
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("director:dashboard", tournament.slug)
    return render(request, "director/tournament_form.html", {
        "form": form, "tournament": tournament, "creating": False,
        "rules_in_use": rules_in_use(tournament),
    })


@staff_view(Perm.EDIT_TOURNAMENT)
def tournament_delete(request, tournament):
    """Delete a tournament with everything in it, after a confirmation; a real tournament
    with results asks for its name to be typed (the demo does not)."""
    from tournament.demo_accounts import is_demo

    demo = is_demo(tournament)
    needs_name = not demo and tournament_has_results(tournament)
    error = None
    if request.method == "POST":
        try:
            delete_tournament(Actor.from_request(request), tournament,
                              confirm_name=request.POST.get("confirm_name", ""))
        except ServiceError as failure:
            error = failure.message
        else:
            messages.success(request, _("Tournament %(name)s deleted.")
                             % {"name": tournament.shown_name})
            return redirect("director:home")
    return render(request, "director/tournament_delete.html", {
        "tournament": tournament, "demo": demo, "needs_name": needs_name, "error": error,
        "typed": request.POST.get("confirm_name", ""),
    })
