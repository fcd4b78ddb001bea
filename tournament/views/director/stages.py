"""Stages of a tournament: create them, put teams into them, draw their rounds."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from scoring.pairing import snake_groups
from tournament.forms import (
    ManualGroupsForm,
    SeededTeamsForm,
    SnakeGroupsForm,
    StageForm,
    StageNamesForm,
)
from tournament.models import Stage
from tournament.permissions import Perm
from tournament.selectors.bracket import read_bracket
from tournament.selectors.placings import qualification
from tournament.selectors.rounds import stage_entries, stage_rounds, stages_with_rounds
from tournament.services import Actor, ServiceError
from tournament.services.draw import generate_round, next_round_number
from tournament.services.stages import (
    allot_groups,
    create_stage,
    enter_teams,
    rename_stage,
    teams_in_seed_order,
)
from tournament.views.access import staff_view
from tournament.wording import rule_message


@staff_view(Perm.MANAGE_ROUNDS)
def stage_list(request, tournament):
    form = StageForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            stage = create_stage(Actor.from_request(request), tournament, **form.cleaned_data)
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Stage %(name)s created.") % {"name": stage.shown_name})
            return redirect("director:stage_detail", tournament.slug, stage.pk)
    stages = stages_with_rounds(tournament)
    return render(request, "director/stage_list.html", {
        "tournament": tournament, "stages": stages, "form": form,
    })


def _stage_context(request, tournament, stage, **forms):
    entries = stage_entries(stage)
    groups: dict = {}
    for entry in entries:
        groups.setdefault(entry.group, []).append(entry)
    next_number = next_round_number(stage)
    context = {
        "tournament": tournament, "stage": stage, "groups": groups,
        "entry_count": len(entries),
        "rounds": stage_rounds(stage),
        "next_number": next_number,
        "every_round_drawn": stage.is_last_round(next_number - 1),
        # The count of groups as allotted last (2 before any allotment).
        "snake_form": forms.get("snake_form") or SnakeGroupsForm(initial={
            "group_count": sum(1 for group in groups if group is not None) or 2}),
        # Groups by hand start from the groups as they are now.
        "manual_form": forms.get("manual_form") or ManualGroupsForm(
            tournament=tournament, initial={"groups": _groups_text(groups)}),
        "seeded_form": forms.get("seeded_form") or SeededTeamsForm(tournament=tournament),
        "names_form": forms.get("names_form") or StageNamesForm(
            initial={"name": stage.name, "other_name": stage.other_name}),
    }
    if stage.kind == Stage.Kind.KNOCKOUT:
        stage.tournament = tournament
        # Its bracket as the staff see it (every official result), and, when it is seeded
        # from the standings of an earlier stage and has no teams yet, where the seeding
        # stands (not the form for seeds typed by hand).
        context["bracket"] = read_bracket(stage) if entries else None
        if stage.qualify_from_id is not None and not entries:
            context["qualification"] = qualification(stage)
    return render(request, "director/stage_detail.html", context)


def _groups_text(groups: dict) -> str:
    """The groups as "Groups by hand" reads them: "A: CHN, ITA" a line, in number order."""
    return "\n".join(f"{group.name}: {', '.join(entry.team.code for entry in entries)}"
                     for group, entries in groups.items() if group is not None)


@staff_view(Perm.MANAGE_ROUNDS)
def stage_detail(request, tournament, pk):
    stage = get_object_or_404(tournament.stages, pk=pk)
    return _stage_context(request, tournament, stage)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def stage_groups(request, tournament, pk):
    """Allot the teams of a group stage: by seed in snake order, or as typed by hand."""
    stage = get_object_or_404(tournament.stages, pk=pk)
    actor = Actor.from_request(request)
    if "group_count" in request.POST:
        form = SnakeGroupsForm(request.POST)
        if form.is_valid():
            try:
                groups = snake_groups(teams_in_seed_order(tournament),
                                      form.cleaned_data["group_count"])
                allot_groups(actor, stage, groups)
            except RuleError as error:
                form.add_error("group_count", rule_message(error))
            except ServiceError as error:
                form.add_service_error(error)
            else:
                messages.success(request, _("Groups allotted by seed."))
                return redirect("director:stage_detail", tournament.slug, stage.pk)
        return _stage_context(request, tournament, stage, snake_form=form)
    form = ManualGroupsForm(request.POST, tournament=tournament)
    if form.is_valid():
        names = [name for name, _teams in form.cleaned_data["groups"]]
        teams = [teams for _name, teams in form.cleaned_data["groups"]]
        try:
            allot_groups(actor, stage, teams, names=names)
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Groups saved."))
            return redirect("director:stage_detail", tournament.slug, stage.pk)
    return _stage_context(request, tournament, stage, manual_form=form)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def stage_names(request, tournament, pk):
    """Rename a stage: its name and its name in the other script."""
    stage = get_object_or_404(tournament.stages, pk=pk)
    form = StageNamesForm(request.POST)
    if form.is_valid():
        try:
            rename_stage(Actor.from_request(request), stage, **form.cleaned_data)
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Names saved."))
            return redirect("director:stage_detail", tournament.slug, stage.pk)
    return _stage_context(request, tournament, stage, names_form=form)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def stage_teams(request, tournament, pk):
    """Enter the teams of a Swiss or knockout stage in seed order."""
    stage = get_object_or_404(tournament.stages, pk=pk)
    form = SeededTeamsForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            enter_teams(Actor.from_request(request), stage, form.cleaned_data["teams"])
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("Teams entered."))
            return redirect("director:stage_detail", tournament.slug, stage.pk)
    return _stage_context(request, tournament, stage, seeded_form=form)


@staff_view(Perm.MANAGE_ROUNDS)
@require_POST
def round_generate(request, tournament, pk):
    stage = get_object_or_404(tournament.stages, pk=pk)
    try:
        expected = int(request.POST.get("expected_number", ""))
    except ValueError:
        messages.error(request, _("The page was out of date; please try again."))
        return redirect("director:stage_detail", tournament.slug, stage.pk)
    try:
        round_ = generate_round(Actor.from_request(request), stage, expected_number=expected)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("director:stage_detail", tournament.slug, stage.pk)
    messages.success(request, _("%(round)s drawn. Review it, then publish.") % {
        "round": round_.label})
    return redirect("director:round_detail", tournament.slug, round_.pk)

