"""The Django admin: a superuser's view of everything, with field history."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournament.models import AuditEntry, Player, StaffRole, Team, Tournament


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    max_num = 3


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
