"""The dashboard's next steps, from the tournament's real state: what is done, what to do now.

Teams, staff, each stage's latest round (draw, publish, play, close, the next round) and
whether the public pages are open. A few queries, however large the tournament.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import DealKey, Role, Round, Stage, Tournament
from tournament.permissions import Perm
from tournament.selectors.rounds import stages_with_latest_rounds
from tournament.services.rounds import open_matches


@dataclass(frozen=True)
class Step:
    key: str  # what the step is about: teams, staff, settings, stage, round, public
    text: str
    url: str = ""
    link: str = ""  # the words of the link to ``url``
    done: bool = False
    open_public: bool = False  # the step is the button that opens the public pages


def next_steps(tournament: Tournament, perms) -> list[Step]:
    steps: list[Step] = []
    slug = tournament.slug

    def url(name: str, *args) -> str:
        return reverse(f"director:{name}", args=[slug, *args])

    if Perm.MANAGE_TEAMS in perms:
        teams = tournament.teams.count()
        if teams:
            steps.append(Step("teams", ngettext("%(n)d team entered.", "%(n)d teams entered.",
                                                teams) % {"n": teams},
                              url("team_list"), _("Teams"), done=True))
        else:
            steps.append(Step("teams", _("Add the teams one by one or import a CSV file."),
                              url("team_list"), _("Teams")))

    if Perm.MANAGE_STAFF in perms:
        roles = list(tournament.staff.values_list("role", flat=True))
        helpers = sum(1 for role in roles if role != Role.DIRECTOR)
        if helpers:
            steps.append(Step("staff", ngettext(
                "%(n)d referee or scorer has an account.",
                "%(n)d referees and scorers have accounts.", helpers) % {"n": helpers},
                url("staff"), _("Staff"), done=True))
        else:
            steps.append(Step("staff", _("Give referees and scorers their accounts."),
                              url("staff"), _("Staff")))

    stages, latest = stages_with_latest_rounds(tournament)

    if Perm.EDIT_TOURNAMENT in perms and not latest:
        steps.append(Step("settings", _("Check the rule settings before the first round: "
                                        "a round keeps the rules it is drawn under."),
                          url("tournament_edit"), _("Settings")))

    if Perm.MANAGE_ROUNDS in perms:
        if not stages:
            steps.append(Step("stage", _("Create the first stage: groups, Swiss or knockout."),
                              url("stage_list"), _("Stages and rounds")))
        for stage in stages:
            steps.append(_stage_step(stage, latest.get(stage.pk), url))

    complete = bool(stages) and all(
        (round_ := latest.get(stage.pk)) is not None and round_.status == Round.Status.CLOSED
        and stage.is_last_round(round_.number) for stage in stages)
    if complete and Perm.EDIT_TOURNAMENT in perms:
        steps += _end_of_event_steps(tournament, url)

    if tournament.status == Tournament.Status.SETUP:
        if Perm.EDIT_TOURNAMENT in perms:
            steps.append(Step("public", _("The public pages are hidden while the tournament "
                                          "is in Set-up. Open them when the draw may be seen."),
                              open_public=True))
        else:
            steps.append(Step("public", _("The public pages are hidden while the tournament "
                                          "is in Set-up.")))
    else:
        steps.append(Step("public", _("The public pages are open."),
                          tournament.get_absolute_url(), _("Public page"), done=True))
    return steps


def _end_of_event_steps(tournament: Tournament, url) -> list[Step]:
    """Every stage played to its end: the deal key revealed, the tournament finished."""
    dealt = DealKey.objects.filter(tournament=tournament, deals__isnull=False).distinct()
    steps = []
    if dealt.filter(revealed_at=None).exists():
        steps.append(Step("key", _("Reveal the deal key: anyone can then check every deal."),
                          url("deal_key"), _("Deal key")))
    elif dealt.exists():
        steps.append(Step("key", _("The deal keys are public: anyone can check every deal."),
                          url("deal_key"), _("Deal key"), done=True))
    if tournament.status != Tournament.Status.FINISHED:
        steps.append(Step("finished", _("Every stage is complete: mark the tournament "
                                        "finished (its status, in the settings)."),
                          url("tournament_edit"), _("Settings")))
    else:
        steps.append(Step("finished", _("The tournament is finished."), done=True))
    return steps


def _stage_step(stage: Stage, round_: Round | None, url) -> Step:
    names = {"stage": stage.shown_name}
    if round_ is None:
        if stage.teams < 2:
            return Step("stage", _("Enter the teams of %(stage)s.") % names,
                        url("stage_detail", stage.pk), stage.shown_name)
        return Step("stage", _("Draw round 1 of %(stage)s.") % names,
                    url("stage_detail", stage.pk), stage.shown_name)
    names["round"] = round_.label
    here = url("round_detail", round_.pk)
    if round_.status == Round.Status.DRAFT:
        return Step("round", _("Review and publish the draw of %(stage)s, %(round)s.") % names,
                    here, f"{stage.shown_name} · {round_.label}")
    if round_.status == Round.Status.PUBLISHED:
        return Step("round", _("%(stage)s, %(round)s is published: make the deals, print the "
                               "cards, then start play.") % names,
                    here, f"{stage.shown_name} · {round_.label}")
    if round_.status == Round.Status.IN_PLAY:
        still_open = len(open_matches(round_))
        if still_open:
            return Step("round", ngettext(
                "%(stage)s, %(round)s is being played: %(n)d match is not official yet.",
                "%(stage)s, %(round)s is being played: %(n)d matches are not official yet.",
                still_open) % {**names, "n": still_open},
                url("round_progress", round_.pk), _("Progress of play"))
        return Step("round", _("Every match of %(stage)s, %(round)s is official: close the "
                               "round.") % names,
                    url("round_close", round_.pk), _("Close %(round)s") % names)
    if stage.is_last_round(round_.number):
        return Step("stage", _("%(stage)s is complete.") % names,
                    url("stage_detail", stage.pk), stage.shown_name, done=True)
    return Step("stage", _("%(stage)s, %(round)s is closed: draw the next round.") % names,
                url("stage_detail", stage.pk), stage.shown_name)
