"""The confirmation of a penalty that forfeits matches (issue 51): what the plan of
``services.penalties.plan_penalty`` does, in words, with the rules that say so.

Every line the page shows is made here, and the page sends them back with the plan's
fingerprint: when the service refuses the confirmation because the plan has changed
meanwhile (``PlanChanged``), the page says which lines are no longer true and which are
new (``what_changed``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import render
from django.utils.translation import gettext as _

from tournament.models import Penalty, Stage
from tournament.services.penalty_plan import Effect, PenaltyPlan

Kind = Penalty.Kind
# Where the rules say it: docs/rules.md, section by section (quoted on the page).
RULE_SECTIONS = {"lateness": 11, "default_groups": 11, "default_knockout": 11,
                 "default_swiss": 11, "disqualification": 11, "forfeit": 8, "sitting_out": 16}


@dataclass(frozen=True)
class Line:
    where: str
    now: str
    then: str

    def __str__(self) -> str:
        return f"{self.where}: {self.now} → {self.then}"


def _rule_text(key: str, plan: PenaltyPlan) -> tuple[str, str]:
    """A rule's title and text, as docs/rules.md words it."""
    rules = plan.round.rules
    return {
        "lateness": (_("Lateness"), _(
            "a team whose player is more than the lateness limit (this round: %(limit)d "
            "minutes) late without a valid reason defaults that match. Lateness over the "
            "limit is recorded together with a default of the match.")
            % {"limit": rules.lateness_limit_minutes}),
        "default_groups": (_("Default in a group stage"), _(
            "the team is withdrawn from the stage, every result of a match it played in "
            "that stage is cancelled, for its opponents too, and it is left out of the "
            "stage's later pairings.")),
        "default_knockout": (_("Default in a knockout match"), _(
            "the team that defaults loses that match; the other team goes on in the "
            "bracket.")),
        "default_swiss": (_("Default in a Swiss round"), _(
            "the match is lost by forfeit (section 8); the team is paired again in the "
            "next round.")),
        "disqualification": (_("Disqualification"), _(
            "a team's disqualification is a default of every one of its matches from the "
            "penalty's round on, in that stage and every later one. In a group stage it is "
            "withdrawn; in a Swiss stage it is paired no more (no match, no bye); in a "
            "knockout it is still drawn and each of its matches is forfeited when it is "
            "drawn.")),
        "forfeit": (_("Forfeit"), _(
            "a team whose opponent forfeits the match gets the forfeit win's worth (this "
            "round: %(win)d match points and %(small)d small points); the team that "
            "forfeits gets the forfeit loss (%(loss)d match points) and minus the winner's "
            "small points. A forfeit is never a 0–0 tie.")
            % {"win": rules.match_points_forfeit_win, "small": rules.small_points_forfeit,
               "loss": rules.match_points_forfeit_loss}),
        "sitting_out": (_("Sitting out"), _(
            "a team withdrawn from a group stage is left out of the rounds drawn after it; "
            "the team scheduled to meet it in such a round sits out: no match, no bye, no "
            "points (every result against the withdrawn team is void anyway). Matches of "
            "the team already drawn in later rounds are forfeited.")),
    }[key]


def _score(effect: Effect, rows: dict[int, dict]) -> str:
    """A result as its rows hold it: "T3 23 – T1 -23, 3–1 match points (provisional)",
    "bye: 2 match points, 0 small points", "… · cleared" when it counts no more."""
    if effect.match is None:
        row = next(iter(rows.values()))
        text = _("bye: %(mp)d match points, %(sp)d small points") % {
            "mp": row["match_points"], "sp": row["small_points"]}
    else:
        home, away = rows[effect.match.home_id], rows[effect.match.away_id]
        values = {"home": effect.match.home.code, "away": effect.match.away.code,
                  "home_sp": home["small_points"], "away_sp": away["small_points"],
                  "home_mp": home["match_points"], "away_mp": away["match_points"],
                  "state": _("provisional") if home["provisional"] else _("official")}
        text = (_("%(home)s %(home_sp)d – %(away)s %(away_sp)d, %(home_mp)d–%(away_mp)d match "
                  "points") if home["forfeit"] else
                _("%(home)s %(home_sp)d – %(away)s %(away_sp)d, %(home_mp)d–%(away_mp)d match "
                  "points (%(state)s)")) % values
    if any(row["void"] for row in rows.values()):
        text += " · " + _("cleared")
    return text


def effect_line(effect: Effect) -> Line:
    round_ = effect.round
    where = f"{round_.stage.shown_name}, {round_.label} · " + (
        _("match %(n)d (%(home)s – %(away)s)") % {
            "n": effect.match.number, "home": effect.match.home.code,
            "away": effect.match.away.code}
        if effect.match is not None else _("%(team)s's bye") % {"team": effect.team.code})
    if effect.before is not None:
        now = _score(effect, effect.before)
    elif effect.after is None:
        now = _("drawn, not started")
    else:
        now = _("no result yet")
    then = []
    after = effect.after
    if after is not None and effect.cleared:  # said once, below
        after = {team: {**row, "void": False} for team, row in after.items()}
    if effect.forfeited_by is not None:
        if after is not None:
            then.append(_("forfeited by %(team)s: %(result)s") % {
                "team": effect.forfeited_by.code, "result": _score(effect, after)})
        else:
            then.append(_("forfeited by %(team)s (its result rows come with the start of "
                          "play)") % {"team": effect.forfeited_by.code})
        if effect.before is not None and not next(iter(effect.before.values()))["forfeit"]:
            then.append(_("the hands entered are kept, and count again if the default is "
                          "undone"))
    if effect.cleared:
        then.append(_("cleared: it counts for neither team"))
    elif effect.forfeited_by is None and after is not None:
        then.append(_score(effect, after))
    return Line(where=where, now=now, then="; ".join(then))


def later_lines(plan: PenaltyPlan) -> list[str]:
    """The later rounds: who sits out, which byes are dropped, what the other stages do."""
    team = plan.team.code
    lines = []
    for stage in plan.forfeits.withdrawn_from():
        sitting = [s for s in plan.sitting_out if s.stage.pk == stage.pk]
        lines.append(_("%(team)s is withdrawn from %(stage)s: it is left out of every round "
                       "of the stage drawn from now on.") % {
                           "team": team, "stage": stage.shown_name}
                     if sitting else
                     _("%(team)s is withdrawn from %(stage)s; no round of the stage is left to "
                       "draw.") % {"team": team, "stage": stage.shown_name})
        for out in sitting:
            values = {"stage": stage.shown_name, "n": out.number, "team": team,
                      "other": out.team.code if out.team else ""}
            lines.append(
                _("%(stage)s, Round %(n)d: %(other)s sits out (its scheduled opponent %(team)s "
                  "is withdrawn): no match, no bye, no points.") % values
                if out.team is not None else
                _("%(stage)s, Round %(n)d: %(team)s's scheduled bye is dropped.") % values)
    words = {
        "swiss_again": _("%(stage)s: %(team)s is paired again in the next round."),
        "swiss_out": _("%(stage)s: %(team)s is paired no more (no match, no bye)."),
        "knockout_on": _("%(stage)s: %(other)s goes on in the bracket."),
        "knockout_drawn": _("%(stage)s: %(team)s is still drawn, so that the bracket keeps its "
                            "shape, and each of its matches is forfeited as it is drawn."),
    }
    for stage, what in plan.later:
        other = ""
        if plan.match is not None:
            other = (plan.match.away if plan.match.home_id == plan.team.pk
                     else plan.match.home).code
        lines.append(words[what] % {"stage": stage.shown_name, "team": team, "other": other})
    return lines


def plan_lines(plan: PenaltyPlan) -> list[str]:
    """Everything the page says the penalty does, one line each (sent back with the
    confirmation)."""
    return [str(effect_line(e)) for e in plan.effects] + later_lines(plan)


def what_changed(shown: list[str], plan: PenaltyPlan) -> list[str]:
    """The lines the page showed that are no longer true, and the new ones."""
    now = plan_lines(plan)
    gone = [line for line in shown if line not in now]
    new = [line for line in now if line not in shown]
    return ([_("No longer: %(line)s") % {"line": line} for line in gone]
            + [_("Now: %(line)s") % {"line": line} for line in new])


def heading(plan: PenaltyPlan) -> str:
    team = plan.team.code
    if plan.team_wide:
        return _("Disqualification of %(team)s") % {"team": team}
    values = {"team": team, "n": plan.match.number, "home": plan.match.home.code,
              "away": plan.match.away.code, "minutes": plan.minutes or 0,
              "limit": plan.limit}
    if plan.kind == Kind.LATENESS:
        return _("Lateness of %(minutes)d minutes by %(team)s, over the limit of %(limit)d "
                 "minutes: a default of match %(n)d (%(home)s – %(away)s)") % values
    return _("Default by %(team)s of match %(n)d (%(home)s – %(away)s)") % values


def confirm_page(request, tournament, form, plan: PenaltyPlan, *, match=None,
                 changed: list[str] | None = None):
    """The confirmation page of a penalty that forfeits matches."""
    return render(request, "director/penalty_confirm.html", {
        "tournament": tournament, "form": form, "plan": plan, "match": match,
        "heading": heading(plan), "effects": [effect_line(e) for e in plan.effects],
        "later": later_lines(plan), "lines": plan_lines(plan), "changed": changed,
        "rules": [(RULE_SECTIONS[key], *_rule_text(key, plan)) for key in plan.rules],
        "group_stage": any(s.kind == Stage.Kind.GROUPS for s in plan.forfeits.stages),
    })
