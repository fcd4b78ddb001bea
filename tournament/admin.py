"""The Django admin: a superuser's view of everything, with field history."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournament.models import (
    AuditEntry,
    HandResult,
    Match,
    Player,
    Round,
    StaffRole,
    Stage,
    Team,
    Tournament,
)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    max_num = 3
    exclude = ("pin_hash",)  # PINs are set on the team's PIN page, hashed


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ("name", "slug", "starts_on", "ends_on", "venue", "status")
    list_filter = ("status",)
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Team)
class TeamAdmin(SimpleHistoryAdmin):
    list_display = ("name", "code", "country", "seed", "tournament")
    list_filter = ("tournament",)
    search_fields = ("name", "code", "country", "players__name")
    list_select_related = ("tournament",)
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    exclude = ("pin_hash",)
    list_display = ("name", "federation_id", "team", "number", "is_reserve")
    search_fields = ("name", "federation_id", "team__name")
    list_select_related = ("team",)


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "role", "is_chief_referee")
    list_filter = ("role", "tournament")
    list_select_related = ("user", "tournament")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "actor_name", "summary")
    list_filter = ("tournament", "action")
    search_fields = ("summary", "actor_name")
    list_select_related = ("tournament",)

    # The audit log is evidence: nobody edits or deletes it, not even a superuser.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Stage)
class StageAdmin(SimpleHistoryAdmin):
    list_display = ("name", "tournament", "kind", "order")
    list_filter = ("tournament", "kind")


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ("__str__", "status", "hands_per_match", "published_at", "closed_at")
    list_filter = ("status", "stage__tournament")
    list_select_related = ("stage",)
    # Rounds change through the director's pages, where the rules are checked.
    readonly_fields = ("stage", "number", "status", "hands_per_match", "published_at",
                       "started_at", "closed_at", "publish_override_reason")


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ("round", "number", "home", "away", "home_total", "away_total",
                    "signed_off_at")
    list_filter = ("round__stage__tournament",)
    list_select_related = ("round__stage", "home", "away")
    readonly_fields = ("round", "number", "group", "home", "away", "extra_hands",
                       "home_total", "away_total", "signed_off_at", "signed_off_by")


@admin.register(HandResult)
class HandResultAdmin(admin.ModelAdmin):
    """Every version of every hand, to read: results change only through the services."""

    list_display = ("table", "hand", "version", "is_current", "explanation", "entered_by",
                    "entered_at")
    list_filter = ("is_current", "table__round__stage__tournament")
    list_select_related = ("table", "entered_by")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
