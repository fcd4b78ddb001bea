"""Forms: they collect and display; the services decide."""

from django import forms
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.hand import MAX_DEADWOOD
from scoring.tiebreaks import TIEBREAKS
from tournament.models import Player, Role, Stage, Team, Tournament
from tournament.services import ServiceError
from tournament.services.stages import MAX_GROUPS
from tournament.services.teams import TEAM_FIELDS, TeamEntryError, parse_team_entry
from tournament.services.text import parse_whole_number
from tournament.services.tournaments import EDITABLE_FIELDS
from tournament.time_zones import TimeZoneField

# The help of every "name in the other script" field (tournament.names).
OTHER_SCRIPT_HELP = _("Optional: the name in Chinese characters, or in Latin letters if the "
                      "name is in Chinese. Readers see the one of their language first.")


def tiebreak_choices() -> list[tuple[str, str]]:
    """The settings form's choices for each place of the tiebreak order: every registered
    tiebreak (``scoring.tiebreaks``) by its label, in the active language."""
    return [("", "—"), *((key, gettext(kind.label)) for key, kind in TIEBREAKS.items())]


def _tiebreak_slots() -> int:
    return len(TIEBREAKS)


class WholeNumberField(forms.IntegerField):
    """A whole number typed with the digits 0-9 and nothing else, as the CSV import reads
    numbers (``services.text.parse_whole_number``): Django's own field takes "٣"
    (Arabic-Indic three), a full-width 3 (U+FF13), "1_0" and "+5", which ``int`` accepts."""

    default_error_messages = {
        "invalid": _("%(label)s: type a whole number with the digits 0–9, not “%(value)s”."),
    }

    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = parse_whole_number(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid",
                                        params={"label": self.label or _("number"),
                                                "value": str(value)[:20]})
        return number


class ServiceErrorsMixin:
    """Show a ServiceError from a service next to the fields it names."""

    def add_service_error(self, error: ServiceError) -> None:
        placed = False
        for field, messages in error.field_errors.items():
            target = field if field in self.fields else None
            for message in messages:
                self.add_error(target, message)
                placed = True
        if not placed:
            self.add_error(None, error.message)


_TOURNAMENT_FIELDS = [f for f in EDITABLE_FIELDS if f != "tiebreak_order"]


class TournamentForm(ServiceErrorsMixin, forms.ModelForm):
    FIXED_TIEBREAKS = ((1, _("Match points")), (2, _("Small points")))  # not to choose
    time_zone = TimeZoneField(
        label=capfirst(Tournament._meta.get_field("time_zone").verbose_name),
        help_text=_("Every time on the pages, the printouts and the downloads is shown in "
                    "it."))

    class Meta:
        model = Tournament
        fields = _TOURNAMENT_FIELDS
        # Every number of the settings typed with the digits 0-9 only.
        field_classes = {f.name: WholeNumberField for f in Tournament._meta.concrete_fields
                         if isinstance(f, models.IntegerField)
                         and f.name in _TOURNAMENT_FIELDS and not f.choices}
        help_texts = {"other_name": OTHER_SCRIPT_HELP}
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            # Long choices: radio buttons whose words wrap, never a select that cuts them.
            "deal_scope": forms.RadioSelect,
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round_minutes"].required = False  # left out: the default (clean)
        choices = tiebreak_choices()
        current = self.instance.tiebreak_order.split(",") if self.instance.tiebreak_order else []
        # Tiebreaks 1 and 2 are the rules' own (scoring.standings): shown, not chosen.
        for number, label in self.FIXED_TIEBREAKS:
            self.fields[f"fixed_tiebreak_{number}"] = forms.CharField(
                label=_("Tiebreak %(n)d") % {"n": number}, disabled=True, required=False,
                initial=label, help_text=_("Fixed by the rules."))
        for slot in range(_tiebreak_slots()):
            self.fields[f"tiebreak_{slot + 1}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)d") % {"n": slot + 3}, choices=choices, required=False,
                initial=current[slot] if slot < len(current) else "",
            )

    def event_fields(self):
        return [self[name] for name in self.Meta.fields if name not in Tournament.RULE_FIELDS]

    def rule_fields(self):
        names = [*Tournament.RULE_FIELDS,
                 *(f"fixed_tiebreak_{number}" for number, _label in self.FIXED_TIEBREAKS),
                 *(f"tiebreak_{i + 1}" for i in range(_tiebreak_slots()))]
        return [self[name] for name in names]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("round_minutes") is None and not self.errors.get("round_minutes"):
            # Left out (a form of an earlier page, a script): the round clock's default, or
            # what the tournament has.
            cleaned["round_minutes"] = (self.instance.round_minutes if self.instance.pk else
                                        Tournament._meta.get_field("round_minutes").default)
        order = [cleaned.get(f"tiebreak_{i + 1}") for i in range(_tiebreak_slots())]
        chosen = [key for key in order if key]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError(_("Each tiebreak may be chosen only once."))
        cleaned["tiebreak_order"] = ",".join(chosen)
        return cleaned

    def service_values(self) -> dict:
        return {name: self.cleaned_data[name] for name in EDITABLE_FIELDS}

    def _post_clean(self):
        # The service validates the model; the form only collects values.
        pass


class TeamForm(ServiceErrorsMixin, forms.Form):
    code = forms.CharField(label=_("Short code"), max_length=10)
    name = forms.CharField(label=_("Team name"), max_length=100)
    other_name = forms.CharField(label=_("Team name in the other script"), max_length=100,
                                 required=False, help_text=OTHER_SCRIPT_HELP)
    country = forms.CharField(label=_("Country or club"), max_length=100, required=False)
    seed = forms.CharField(label=_("Seed"), max_length=6, required=False)
    player1 = forms.CharField(label=_("Player 1"), max_length=100)
    player1_id = forms.CharField(label=_("Federation id"), max_length=30, required=False)
    player2 = forms.CharField(label=_("Player 2"), max_length=100)
    player2_id = forms.CharField(label=_("Federation id"), max_length=30, required=False)
    reserve = forms.CharField(label=_("Reserve"), max_length=100, required=False)
    reserve_id = forms.CharField(label=_("Federation id"), max_length=30, required=False)

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            cleaned["entry"] = parse_team_entry({f: cleaned.get(f) for f in TEAM_FIELDS})
        except TeamEntryError as error:
            self.add_service_error(error)
        return cleaned


class TeamImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))


class TeamImportConfirmForm(forms.Form):
    payload = forms.CharField(widget=forms.HiddenInput)


class TournamentFileForm(forms.Form):
    file = forms.FileField(label=_("Tournament file (.json)"))


class ImportChoicesForm(forms.Form):
    """What an import leaves to the importer: the tournament's short name, and the account
    each person of the file becomes (empty: a new inactive account under the file's
    name; an account of this site; or the name of a new one)."""

    slug = forms.CharField(label=_("Short name of the imported tournament"), required=False,
                           max_length=50)

    def __init__(self, *args, people: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.people = people
        for index, name in enumerate(people):
            self.fields[f"account_{index}"] = forms.CharField(
                label=name, required=False, max_length=150)

    def account_field(self, index: int):
        return self[f"account_{index}"]

    def choices(self) -> tuple[str | None, dict[str, str]]:
        """The short name (None: the file's) and the mapping of user names."""
        data = self.cleaned_data
        mapping = {name: data[f"account_{index}"] for index, name in enumerate(self.people)
                   if data.get(f"account_{index}")}
        return data.get("slug") or None, mapping


class StaffForm(ServiceErrorsMixin, forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)
    is_chief_referee = forms.BooleanField(label=_("Chief referee"), required=False)
    create_account = forms.BooleanField(
        label=_("Create the account if it does not exist"), required=False
    )


class StageNamesForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    other_name = forms.CharField(label=_("Name in the other script"), max_length=60,
                                 required=False, help_text=OTHER_SCRIPT_HELP)


class StageForm(StageNamesForm):
    kind = forms.ChoiceField(label=_("Kind"), choices=Stage.Kind.choices)
    swiss_rounds = WholeNumberField(label=_("Rounds (Swiss)"), min_value=1, max_value=64,
                                      required=False)
    third_place_match = forms.BooleanField(label=_("Third-place match (knockout)"),
                                           required=False)
    qualify_from = forms.ModelChoiceField(
        label=_("Seeded from the standings of (knockout)"), queryset=Stage.objects.none(),
        required=False, empty_label=_("— seeds entered by hand —"))
    qualifiers_per_group = WholeNumberField(
        label=_("Qualifiers per group (knockout)"), min_value=1, max_value=64, required=False,
        help_text=_("The top N of each group (of the table of a Swiss stage)."))
    extra_qualifiers = WholeNumberField(
        label=_("Best-placed of the next place (knockout)"), min_value=0, max_value=64,
        required=False, initial=0,
        help_text=_("How many more teams qualify: the best of place N + 1 across groups."))

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["qualify_from"].queryset = tournament.stages.exclude(
            kind=Stage.Kind.KNOCKOUT).order_by("order")


class QualificationForm(ServiceErrorsMixin, forms.Form):
    """How a knockout qualifies its teams from an earlier stage's standings."""

    qualify_from = forms.ModelChoiceField(
        label=_("Seeded from the standings of"), queryset=Stage.objects.none(),
        required=False, empty_label=_("— seeds entered by hand —"))
    qualifiers_per_group = WholeNumberField(
        label=_("Qualifiers per group"), min_value=1, max_value=64, required=False,
        help_text=_("The top N of each group (of the table of a Swiss stage)."))
    extra_qualifiers = WholeNumberField(
        label=_("Best-placed of the next place"), min_value=0, max_value=64, required=False,
        help_text=_("How many more teams qualify: the best of place N + 1 across groups, by "
                    "match points, small points, then wins."))

    def __init__(self, *args, stage: Stage, **kwargs):
        kwargs.setdefault("initial", {"qualify_from": stage.qualify_from_id,
                                      "qualifiers_per_group": stage.qualifiers_per_group,
                                      "extra_qualifiers": stage.extra_qualifiers})
        super().__init__(*args, **kwargs)
        # The earlier group and Swiss stages (the service checks it again).
        self.fields["qualify_from"].queryset = Stage.objects.filter(
            tournament_id=stage.tournament_id, order__lt=stage.order).exclude(
            kind=Stage.Kind.KNOCKOUT).order_by("order")


class SnakeGroupsForm(ServiceErrorsMixin, forms.Form):
    group_count = WholeNumberField(label=_("Number of groups"), min_value=1,
                                     max_value=MAX_GROUPS,
                                     initial=2)


def _teams_by_code(tournament: Tournament, codes: list[str], where: str) -> list[Team]:
    found = {t.code.casefold(): t for t in tournament.teams.all()}
    unknown = [c for c in codes if c.casefold() not in found]
    if unknown:
        raise forms.ValidationError(
            _("%(where)s: no team with the code %(codes)s") % {
                "where": where, "codes": ", ".join(unknown)})
    return [found[c.casefold()] for c in codes]


def _split_codes(text: str) -> list[str]:
    return [c for c in text.replace(",", " ").replace(";", " ").split() if c]


class ManualGroupsForm(ServiceErrorsMixin, forms.Form):
    groups = forms.CharField(
        label=_("Groups"), widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One group per line: its name, a colon, then team codes in the order of "
                    "their numbers, e.g. “A: CHN, ITA, BRA, GER”."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_groups(self) -> list[tuple[str, list[Team]]]:
        groups = []
        for number, line in enumerate(self.cleaned_data["groups"].splitlines(), 1):
            if not line.strip():
                continue
            name, colon, codes = line.partition(":")
            if not colon or not name.strip():
                raise forms.ValidationError(
                    _("line %(n)d: write the group name, a colon, then the team codes")
                    % {"n": number})
            where = _("line %(n)d") % {"n": number}
            groups.append((name.strip(), _teams_by_code(self.tournament, _split_codes(codes),
                                                        where)))
        if not groups:
            raise forms.ValidationError(_("write at least one group"))
        return groups


class SeededTeamsForm(ServiceErrorsMixin, forms.Form):
    teams = forms.CharField(
        label=_("Teams in seed order"), widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("Team codes, best seed first, separated by commas, spaces or lines."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_teams(self) -> list[Team]:
        codes = _split_codes(self.cleaned_data["teams"])
        if not codes:
            raise forms.ValidationError(_("list the teams by their codes"))
        return _teams_by_code(self.tournament, codes, _("seed list"))


class SwapForm(ServiceErrorsMixin, forms.Form):
    team_a = forms.ModelChoiceField(label=_("Swap"), queryset=Team.objects.none())
    team_b = forms.ModelChoiceField(label=_("with"), queryset=Team.objects.none())
    accept_warnings = forms.BooleanField(label=_("Swap anyway"), required=False)

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team_a"].queryset = teams
        self.fields["team_b"].queryset = teams


class PublishForm(ServiceErrorsMixin, forms.Form):
    override_reason = forms.CharField(
        label=_("Reason to publish before the previous round is finished"),
        max_length=500, required=False,
    )


class LineupForm(ServiceErrorsMixin, forms.Form):
    first_player = forms.ModelChoiceField(label=_("Table 1"), queryset=Player.objects.none())
    second_player = forms.ModelChoiceField(label=_("Table 2"), queryset=Player.objects.none())

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first_player"].queryset = team.players.all()
        self.fields["second_player"].queryset = team.players.all()


SEAT_CHOICES = [("", "—"), ("1", _("Seat 1")), ("2", _("Seat 2"))]


class HandResultForm(ServiceErrorsMixin, forms.Form):
    """One hand at one table, as the scorer types it; points come from the engine."""

    outcome = forms.ChoiceField(label=_("Outcome"), choices=[
        ("knock", _("Knock")), ("gin", _("Gin")), ("big_gin", _("Big Gin")),
        ("draw", pgettext_lazy("hand outcome", "Draw"))])
    declarer_seat = forms.TypedChoiceField(label=_("Declarer"), choices=SEAT_CHOICES,
                                           coerce=int, empty_value=None, required=False)
    declarer_deadwood = WholeNumberField(label=_("Declarer's deadwood"), min_value=0,
                                           max_value=MAX_DEADWOOD, required=False)
    opponent_deadwood = WholeNumberField(label=_("Opponent's deadwood after lay-offs"),
                                           min_value=0, max_value=MAX_DEADWOOD, required=False)
    false_knock_seat = forms.TypedChoiceField(label=_("False knock by"), choices=SEAT_CHOICES,
                                              coerce=int, empty_value=None, required=False)
    false_knock_deadwood = WholeNumberField(label=_("False knock deadwood"), min_value=0,
                                              max_value=MAX_DEADWOOD, required=False)
    declarer_cards = forms.CharField(
        label=_("Declarer's cards"), max_length=120, required=False,
        help_text=_("The ten cards kept (eleven for Big Gin), e.g. “AS 2S 3S 7H 7D 7C …”."))
    opponent_cards = forms.CharField(label=_("Opponent's ten cards"), max_length=120,
                                     required=False)
    declarer_melds = forms.CharField(
        label=_("Melds as laid down (optional)"), max_length=120, required=False,
        help_text=_("Separate melds with “/”; leave empty to let the engine lay them down."))
    reason = forms.CharField(label=_("Reason for the correction"), max_length=500,
                             required=False)
    seen_version = WholeNumberField(label=_("version shown"), widget=forms.HiddenInput,
                                    min_value=0)
    request_token = forms.UUIDField(widget=forms.HiddenInput)

    @property
    def cards_mode(self) -> bool:
        return bool(self.cleaned_data.get("declarer_cards", "").strip())

    def cards(self):
        from tournament.services.cards import CardsEntry

        data = self.cleaned_data
        return CardsEntry(declarer_seat=data["declarer_seat"],
                          declarer_cards=data["declarer_cards"],
                          opponent_cards=data["opponent_cards"],
                          declarer_melds=data["declarer_melds"],
                          false_knock_seat=data["false_knock_seat"],
                          false_knock_deadwood=data["false_knock_deadwood"],
                          claimed=data["outcome"])

    def entry(self):
        from tournament.services.hands import HandEntry

        data = self.cleaned_data
        return HandEntry(
            outcome=data["outcome"], declarer_seat=data["declarer_seat"],
            declarer_deadwood=data["declarer_deadwood"],
            opponent_deadwood=data["opponent_deadwood"],
            false_knock_seat=data["false_knock_seat"],
            false_knock_deadwood=data["false_knock_deadwood"],
        )
