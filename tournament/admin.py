"""The Django admin: a superuser's view of the tournament data, with field history, to read.

Everything here changes only through the services (one transaction, permission-checked,
audited) and the staff pages that call them, so no tournament model can be added, changed,
deleted or reverted to an old version here, not even by a superuser. The one change made
here is a superuser's to a person (no tournament's: docs/roles.md), and it goes through
``services.persons`` too. What has no service stays editable in its own admin: user
accounts (Django's auth admin) and the login throttle's records (django-axes).
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from scoring.errors import RuleError
from scoring.master_points import check_scale
from tournament.models import (
    AuditEntry,
    Category,
    HandResult,
    MasterPointScale,
    Match,
    Person,
    Player,
    Round,
    StaffRole,
    Stage,
    Team,
    Tournament,
)
from tournament.services.base import Actor, ServiceError
from tournament.services.master_points import edit_scale, set_category
from tournament.services.persons import (
    PERSON_FIELDS,
    edit_person,
    merge_persons,
    set_hidden,
    unlink_player,
)
from tournament.services.ratings import set_rated


class ReadOnly:
    """No add, change or delete: the admin shows the rows and their history, nothing more.
    (No delete also means no "delete selected" action.)"""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyHistoryAdmin(ReadOnly, SimpleHistoryAdmin):
    """Field history to read: an old version is shown, never restored (simple_history
    would save a posted old version for anyone who may view it)."""

    def revert_disabled(self, request, obj=None):
        return True

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method != "GET":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


class PlayerInline(ReadOnly, admin.TabularInline):
    model = Player
    extra = 0
    max_num = 3
    exclude = ("pin_hash",)  # PINs are set on the team's PIN page, hashed


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyHistoryAdmin):
    list_display = ("name", "slug", "starts_on", "ends_on", "venue", "status", "rated",
                    "category")
    list_filter = ("status", "rated", "category")
    search_fields = ("name", "slug", "venue")
    actions = ["count_for_ratings", "leave_out_of_ratings", "category_club",
               "category_national", "category_international", "category_world",
               "category_none"]

    # Which events count for the ratings is a superuser's decision (services.ratings).
    @admin.action(description=_("Count the selected events for the ratings"))
    def count_for_ratings(self, request, queryset):
        self._set_rated(request, queryset, True)

    @admin.action(description=_("Leave the selected events out of the ratings"))
    def leave_out_of_ratings(self, request, queryset):
        self._set_rated(request, queryset, False)

    @admin.action(description=_("Master points category: club"))
    def category_club(self, request, queryset):
        self._set_category(request, queryset, Category.CLUB)

    @admin.action(description=_("Master points category: national"))
    def category_national(self, request, queryset):
        self._set_category(request, queryset, Category.NATIONAL)

    @admin.action(description=_("Master points category: international"))
    def category_international(self, request, queryset):
        self._set_category(request, queryset, Category.INTERNATIONAL)

    @admin.action(description=_("Master points category: world"))
    def category_world(self, request, queryset):
        self._set_category(request, queryset, Category.WORLD)

    @admin.action(description=_("No master points category"))
    def category_none(self, request, queryset):
        self._set_category(request, queryset, "")

    def _set_category(self, request, queryset, category: str) -> None:
        try:
            for tournament in queryset:
                set_category(Actor.from_request(request), tournament, category)
        except PermissionDenied as refusal:
            self.message_user(request, str(refusal), level=messages.ERROR)
            return
        self.message_user(request, _("Done: the master points are awarded again."))

    def _set_rated(self, request, queryset, rated: bool) -> None:
        try:
            for tournament in queryset:
                set_rated(Actor.from_request(request), tournament, rated)
        except PermissionDenied as refusal:
            self.message_user(request, str(refusal), level=messages.ERROR)
            return
        self.message_user(request, _("Done: the ratings are recomputed from these events."))


@admin.register(Team)
class TeamAdmin(ReadOnlyHistoryAdmin):
    list_display = ("name", "code", "country", "seed", "tournament")
    list_filter = ("tournament",)
    search_fields = ("name", "code", "country", "players__name")
    list_select_related = ("tournament",)
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(ReadOnlyHistoryAdmin):
    exclude = ("pin_hash",)
    list_display = ("name", "federation_id", "team", "number", "is_reserve", "person")
    search_fields = ("name", "federation_id", "team__name")
    list_select_related = ("team", "person")
    actions = ["unlink"]

    @admin.action(description=_("Give the selected players a person of their own"))
    def unlink(self, request, queryset):
        for player in queryset:
            unlink_player(Actor.from_request(request), player)
        self.message_user(request, _("Each selected player has a person of their own now."))


class PersonPlayerInline(ReadOnly, admin.TabularInline):
    """The players a person has been, event by event."""

    model = Player
    extra = 0
    fields = ("event", "team", "name", "federation_id", "number")
    readonly_fields = fields
    verbose_name_plural = _("Players, event by event")

    @admin.display(description=_("Tournament"))
    def event(self, player):
        return player.team.tournament.name


@admin.register(Person)
class PersonAdmin(SimpleHistoryAdmin):
    """Persons are a superuser's (docs/roles.md): edited here through the service (a
    federation and id already another's is refused: merge them), merged by the action;
    never added or deleted by hand (the team services make them)."""

    list_display = ("name", "other_name", "federation", "federation_id", "country", "hidden")
    search_fields = ("name", "other_name", "federation_id")
    list_filter = ("federation", "hidden")
    fields = (*PERSON_FIELDS, "hidden", "links")
    readonly_fields = ("hidden", "links")
    inlines = [PersonPlayerInline]
    actions = ["merge_into_first", "hide", "show"]

    @admin.action(description=_("Hide the selected persons from the public lists and profiles"))
    def hide(self, request, queryset):
        for person in queryset:
            set_hidden(Actor.from_request(request), person, True)
        self.message_user(request, _("Hidden from the public lists and profiles."))

    @admin.action(description=_("Show the selected persons on the public lists again"))
    def show(self, request, queryset):
        for person in queryset:
            set_hidden(Actor.from_request(request), person, False)
        self.message_user(request, _("Shown on the public lists again."))

    @admin.display(description=_("Linked by tournaments"))
    def links(self, person):
        """Every link, unlink or merge that names the person (the audit log)."""
        entries = (AuditEntry.objects.filter(data__person=person.pk, action__in=(
            "player.person_link", "player.person_unlink", "person.merge", "person.edit"))
            .select_related("tournament").order_by("created_at"))
        return render_to_string("admin/person_links.html", {"entries": entries})

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def revert_disabled(self, request, obj=None):
        return True

    def save_model(self, request, obj, form, change):
        try:
            edit_person(Actor.from_request(request), obj,
                        **{name: form.cleaned_data[name] for name in form.changed_data
                           if name in PERSON_FIELDS})
        except ServiceError as error:  # (the form checked the same first: a race)
            self.message_user(request, error.message, level=messages.ERROR)

    @admin.action(description=_("Merge the selected persons into the first (by name)"))
    def merge_into_first(self, request, queryset):
        persons = list(queryset.order_by("name", "pk"))
        if len(persons) < 2:
            self.message_user(request, _("Select two persons or more to merge."))
            return
        merge_persons(Actor.from_request(request), persons[0], persons[1:])
        self.message_user(request, _("Merged into %(name)s.") % {"name": persons[0].name})


class ScaleForm(forms.ModelForm):
    class Meta:
        model = MasterPointScale
        fields = ("points", "share_of_field")

    def clean(self):
        cleaned = super().clean()
        try:
            check_scale(cleaned.get("points"), cleaned.get("share_of_field") or 0)
        except RuleError as refusal:
            raise forms.ValidationError(str(refusal)) from None
        return cleaned


@admin.register(MasterPointScale)
class MasterPointScaleAdmin(admin.ModelAdmin):
    """The master point scales (docs/ratings.md): a superuser's, saved through the service
    so that every award is made again."""

    form = ScaleForm
    list_display = ("category", "points", "share_of_field")

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        edit_scale(Actor.from_request(request), obj, form.cleaned_data["points"],
                   form.cleaned_data["share_of_field"])


@admin.register(StaffRole)
class StaffRoleAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("user", "tournament", "role", "is_chief_referee")
    list_filter = ("role", "tournament")
    list_select_related = ("user", "tournament")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("created_at", "tournament", "actor_name", "what")
    list_filter = ("tournament", "action")
    # The sentences of newer entries are written when shown: search by action, by who,
    # or in the recorded sentences of older entries.
    search_fields = ("action", "actor_name", "recorded_summary")
    list_select_related = ("tournament",)
    readonly_fields = ("what",)

    @admin.display(description=_("What"))
    def what(self, entry):
        return render_to_string("director/audit_summary.html", {"record": entry})


@admin.register(Stage)
class StageAdmin(ReadOnlyHistoryAdmin):
    list_display = ("name", "tournament", "kind", "order")
    list_filter = ("tournament", "kind")


@admin.register(Round)
class RoundAdmin(ReadOnlyHistoryAdmin):
    list_display = ("__str__", "status", "hands_per_match", "published_at", "closed_at")
    list_filter = ("status", "stage__tournament")
    list_select_related = ("stage",)


@admin.register(Match)
class MatchAdmin(ReadOnlyHistoryAdmin):
    list_display = ("round", "number", "home", "away", "home_total", "away_total",
                    "signed_off_at")
    list_filter = ("round__stage__tournament",)
    list_select_related = ("round__stage", "home", "away")


@admin.register(HandResult)
class HandResultAdmin(ReadOnly, admin.ModelAdmin):
    """Every version of every hand."""

    list_display = ("table", "hand", "version", "is_current", "explanation", "entered_by",
                    "entered_at")
    list_filter = ("is_current", "table__round__stage__tournament")
    list_select_related = ("table", "entered_by")
