"""Referees' penalties: the list (filters by round and team), recording one with its reason
(one that forfeits matches after a confirmation of all it does, ``penalty_confirm``),
undoing one entered by mistake. Everything is decided by ``services.penalties``."""

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.forms import ServiceErrorsMixin, WholeNumberField
from tournament.models import Match, Penalty, Player, Round, Team
from tournament.permissions import Perm, has_perm
from tournament.selectors.penalties import penalty_choices
from tournament.selectors.penalties import penalty_list as penalties_of
from tournament.selectors.public import public_rounds
from tournament.services import Actor, ServiceError
from tournament.services.penalties import STRUCTURAL, plan_penalty, record_penalty, undo_penalty
from tournament.services.penalty_plan import PlanChanged
from tournament.views.access import staff_view
from tournament.views.director.penalty_confirm import confirm_page, what_changed
from tournament.views.listing import show_table

PENALTY_PAGE_SIZE = 100
Kind = Penalty.Kind


def _digits(value) -> int | None:
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() \
        and len(value) <= 12 else None


# The list --------------------------------------------------------------------------------

class PenaltyTable(tables.Table):
    caption = gettext_lazy("Penalties")
    caption_hidden = True
    stacked = True  # a card per row on a phone
    recorded_at = tables.Column(verbose_name=gettext_lazy("When"))
    round = tables.Column(verbose_name=gettext_lazy("Round"), accessor="round")
    team = tables.Column(verbose_name=gettext_lazy("Team"), accessor="team__code")
    kind = tables.Column(verbose_name=gettext_lazy("Penalty"))
    reason = tables.Column(verbose_name=gettext_lazy("Reason"))
    recorded_by = tables.Column(verbose_name=gettext_lazy("By"), accessor="recorded_by")
    state = tables.Column(verbose_name=gettext_lazy("State"), empty_values=(),
                          accessor="undone_at")

    class Meta:
        model = Penalty
        fields = ("recorded_at", "round", "team", "kind", "reason", "recorded_by", "state")
        orderable = False
        attrs = {"class": "stack penalty-table"}
        row_attrs = {"class": lambda record: "undone" if record.undone_at else ""}

    def __init__(self, *args, may_undo=frozenset(), slug="", **kwargs):
        super().__init__(*args, **kwargs)
        self.may_undo, self.slug = may_undo, slug

    def render_recorded_at(self, value):
        moment = timezone.localtime(value)
        return f"{date_format(moment)} {moment:%H:%M}"

    def render_round(self, record):
        return f"{record.round.stage.shown_name}, {record.round.label}"

    def render_kind(self, record):
        return penalty_words(record)

    def render_recorded_by(self, value):
        return value.get_full_name() or value.get_username()

    def render_state(self, record):
        if record.undone_at is not None:
            moment = timezone.localtime(record.undone_at)
            who = record.undone_by.get_full_name() or record.undone_by.get_username()
            return format_html('<span class="badge badge-undone">{}</span> {}',
                               _("undone"), _("%(when)s by %(who)s: %(reason)s") % {
                                   "when": f"{date_format(moment)} {moment:%H:%M}",
                                   "who": who, "reason": record.undo_reason})
        if record.kind in self.may_undo:
            url = reverse("director:penalty_undo", args=[self.slug, record.pk])
            return format_html('<span class="badge badge-active">{}</span> '
                               '<a href="{}">{}</a>', _("active"), url, _("Undo…"))
        return format_html('<span class="badge badge-active">{}</span>', _("active"))


def penalty_words(penalty: Penalty) -> str:
    """"match-point deduction of 2", "lateness of 20 minutes at match 3 (T1 – T4)"…"""
    kind = penalty.get_kind_display()
    if penalty.kind in (Kind.SMALL_POINTS, Kind.MATCH_POINTS):
        text = _("%(kind)s of %(n)d") % {"kind": kind, "n": penalty.amount}
    elif penalty.kind == Kind.LATENESS:
        text = _("%(kind)s of %(n)d minutes") % {"kind": kind, "n": penalty.minutes}
    else:
        text = str(kind)
    if penalty.player_id is not None:
        text += f" ({penalty.player.name})"
    if penalty.match_id is not None:
        match = penalty.match
        text += " · " + _("match %(n)d (%(home)s – %(away)s)") % {
            "n": match.number, "home": match.home.code, "away": match.away.code}
    return text


class PenaltyFilterForm(forms.Form):
    round = forms.ModelChoiceField(label=gettext_lazy("Round"), queryset=Round.objects.none(),
                                   required=False, empty_label=gettext_lazy("every round"))
    team = forms.ModelChoiceField(label=gettext_lazy("Team"), queryset=Team.objects.none(),
                                  required=False, empty_label=gettext_lazy("every team"))

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round"].queryset = public_rounds(tournament)
        self.fields["round"].label_from_instance = lambda r: f"{r.stage.shown_name}, {r.label}"
        self.fields["team"].queryset = tournament.teams.order_by("code")
        self.fields["team"].label_from_instance = lambda t: f"{t.code} · {t.shown_name}"
        for field in self.fields.values():
            field.widget.attrs["data-submit-on-change"] = ""


def _may_undo(user, tournament) -> frozenset[str]:
    kinds = set(Kind.values) if has_perm(user, tournament, Perm.RECORD_PENALTY) else set()
    if not has_perm(user, tournament, Perm.DISQUALIFY):
        kinds.discard(Kind.DISQUALIFICATION)
    return frozenset(kinds)


@staff_view(Perm.RECORD_PENALTY)
def penalty_list(request, tournament):
    """Every penalty of the tournament, undone ones marked, newest last."""
    filters = PenaltyFilterForm(request.GET or None, tournament=tournament)
    chosen = filters.cleaned_data if filters.is_valid() else {}
    rows = penalties_of(tournament, team=chosen.get("team"), round_=chosen.get("round"))
    table = PenaltyTable(rows, may_undo=_may_undo(request.user, tournament),
                         slug=tournament.slug)
    show_table(request, table, per_page=PENALTY_PAGE_SIZE)
    return render(request, "director/penalties.html", {
        "tournament": tournament, "table": table, "filters": filters,
        "filtered": bool(chosen.get("team") or chosen.get("round")),
    })


# Recording one ---------------------------------------------------------------------------

class PenaltyForm(ServiceErrorsMixin, forms.Form):
    """What the referee types; the service checks every combination and says what is
    wrong. The choices shown are narrowed to the round (and the match) of the page, while
    anything of the tournament is accepted here, so that the service gives the message."""

    round = forms.ModelChoiceField(queryset=Round.objects.none(), widget=forms.HiddenInput)
    kind = forms.ChoiceField(label=gettext_lazy("Penalty"), widget=forms.RadioSelect)
    team = forms.ModelChoiceField(label=gettext_lazy("Team"), queryset=Team.objects.none())
    match = forms.ModelChoiceField(
        label=gettext_lazy("Match"), queryset=Match.objects.none(), required=False,
        help_text=gettext_lazy("Needed for lateness and a default."))
    player = forms.ModelChoiceField(
        label=gettext_lazy("Player"), queryset=Player.objects.none(), required=False,
        help_text=gettext_lazy("For a warning or lateness of one player; for a player's "
                               "disqualification (leave empty to disqualify the team)."))
    amount = WholeNumberField(label=gettext_lazy("Points deducted"), required=False,
                                help_text=gettext_lazy("For a deduction only."))
    minutes = WholeNumberField(label=gettext_lazy("Minutes late"), required=False,
                                 help_text=gettext_lazy("For lateness only."))
    reason = forms.CharField(label=gettext_lazy("Reason"), required=False,
                             widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, tournament, round_, match=None, may_disqualify=True, **kwargs):
        super().__init__(*args, **kwargs)
        fields = self.fields
        fields["round"].queryset = Round.objects.filter(stage__tournament=tournament)
        labels = dict(Kind.choices)
        if not may_disqualify:
            labels[Kind.DISQUALIFICATION] = _("%(kind)s (chief referee only)") % {
                "kind": labels[Kind.DISQUALIFICATION]}
        fields["kind"].choices = list(labels.items())
        fields["team"].queryset = tournament.teams.all()
        fields["match"].queryset = Match.objects.filter(round__stage__tournament=tournament)
        fields["player"].queryset = Player.objects.filter(team__tournament=tournament)
        # What is offered: the round's teams, matches and players.
        offered = penalty_choices(tournament, round_, match)
        fields["team"].widget.choices = [("", "—")] + [
            (t.pk, f"{t.code} · {t.shown_name}") for t in offered.teams]
        fields["match"].widget.choices = [("", "—")] + [
            (m.pk, _("match %(n)d: %(home)s – %(away)s") % {
                "n": m.number, "home": m.home.code, "away": m.away.code})
            for m in offered.matches]
        fields["player"].widget.choices = [("", "—")] + [
            (p.pk, f"{p.team.code} · {p.name}") for p in offered.players]


def _current_round(tournament):
    rounds = list(public_rounds(tournament))
    playing = [r for r in rounds if r.status == Round.Status.IN_PLAY]
    return (playing or rounds or [None])[-1]


@staff_view(Perm.RECORD_PENALTY)
def penalty_create(request, tournament):
    """Record a penalty in one round (``?round=``, or the match's with ``?match=``; the
    round in play by default). A default, lateness over the limit and a team's
    disqualification are shown first (``penalty_confirm``) and recorded once confirmed:
    the confirmation posts the same fields with ``confirm`` (the plan's fingerprint) and
    ``shown`` (its lines); ``edit`` goes back to the form."""
    rounds = public_rounds(tournament)  # a penalty is recorded in a published round
    match = None
    match_id = _digits(request.GET.get("match"))
    if match_id is not None:
        match = get_object_or_404(Match.objects.select_related("round__stage", "home",
                                                               "away"),
                                  pk=match_id, round__in=rounds)
    round_id = _digits(request.POST.get("round") or request.GET.get("round"))
    if match is not None:
        round_ = match.round
    elif round_id is not None:
        round_ = rounds.filter(pk=round_id).first() or _current_round(tournament)
    else:
        round_ = _current_round(tournament)
    if round_ is None:
        return render(request, "director/penalty_form.html", {"tournament": tournament,
                                                              "round": None})
    may_disqualify = has_perm(request.user, tournament, Perm.DISQUALIFY)
    form = PenaltyForm(request.POST or None, tournament=tournament, round_=round_,
                       match=match, may_disqualify=may_disqualify,
                       initial={"round": round_.pk, "match": match, "kind": Kind.WARNING})
    if request.method == "POST" and form.is_valid() and "edit" not in request.POST:
        data = form.cleaned_data
        actor = Actor.from_request(request)
        values = {"team": data["team"], "round": data["round"], "kind": data["kind"],
                  "reason": data["reason"], "amount": data["amount"] or 0,
                  "minutes": data["minutes"], "match": data["match"],
                  "player": data["player"]}
        shown = request.POST.get("confirm") or None
        try:
            # A penalty that forfeits matches is shown first, with all it does, and
            # recorded only once confirmed as shown (issue 51).
            if shown is None and data["kind"] in STRUCTURAL:
                plan = plan_penalty(actor, **values)
                if plan.needs_confirmation:
                    return confirm_page(request, tournament, form, plan, match=match)
            penalty = record_penalty(actor, **values, shown=shown)
        except PlanChanged as refused:
            if not refused.plan.needs_confirmation:  # confirmed, but nothing to confirm now
                form.add_service_error(refused)
            else:
                return confirm_page(request, tournament, form, refused.plan, match=match,
                                    changed=what_changed(request.POST.getlist("shown"),
                                                         refused.plan))
        except ServiceError as error:
            form.add_service_error(error)
        except PermissionDenied:
            form.add_error("kind", _("Only the chief referee or the director may disqualify "
                                     "a player or a team."))
        else:
            messages.success(request, _("Recorded against %(team)s: %(what)s.") % {
                "what": penalty_words(penalty), "team": penalty.team.code})
            if match is not None:
                return redirect("director:match_page", tournament.slug, match.pk)
            return redirect(reverse("director:penalty_list", args=[tournament.slug])
                            + f"?round={penalty.round_id}")
    return render(request, "director/penalty_form.html", {
        "tournament": tournament, "round": round_, "match": match, "form": form,
        "rounds": rounds, "limit": round_.rules.lateness_limit_minutes,
    })


# Undoing one -----------------------------------------------------------------------------

class UndoForm(ServiceErrorsMixin, forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why it is undone"), required=False,
                             widget=forms.Textarea(attrs={"rows": 3}))


@staff_view(Perm.RECORD_PENALTY)
def penalty_undo(request, tournament, pk):
    penalty = get_object_or_404(penalties_of(tournament), pk=pk)
    form = UndoForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            undo_penalty(Actor.from_request(request), penalty, form.cleaned_data["reason"])
        except ServiceError as error:
            form.add_service_error(error)
        except PermissionDenied:
            form.add_error(None, _("Only the chief referee or the director may undo a "
                                   "disqualification."))
        else:
            messages.success(request, _("Undone for %(team)s: %(what)s.") % {
                "what": penalty_words(penalty), "team": penalty.team.code})
            return redirect(reverse("director:penalty_list", args=[tournament.slug])
                            + f"?round={penalty.round_id}")
    return render(request, "director/penalty_undo.html", {
        "tournament": tournament, "penalty": penalty, "form": form,
        "words": penalty_words(penalty)})
