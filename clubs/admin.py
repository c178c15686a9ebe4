"""Django admin for staff. Changes made here bypass clubs.services (and its audit log): the admin
is for repairs, so the audit log itself is read-only here."""

from django.contrib import admin

from clubs.models import AuditEntry, Club, Invitation, JoinRequest, Membership, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "preferred_language", "created_at"]
    search_fields = ["user__username", "user__email", "display_name"]
    list_filter = ["preferred_language"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_public", "time_zone", "default_language", "created_by", "created_at"]
    list_filter = ["is_public", "default_language"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "token", "created_by", "expires_at", "uses", "max_uses", "revoked_at"]
    list_filter = ["club"]
    search_fields = ["club__name", "token"]
    readonly_fields = ["token", "uses", "created_at"]
    autocomplete_fields = ["club", "created_by"]


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "status", "created_at", "decided_by", "decided_at"]
    list_filter = ["status", "club"]
    search_fields = ["club__name", "user__username"]
    autocomplete_fields = ["club", "user", "decided_by"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "club", "actor", "action", "target"]
    list_filter = ["action", "club"]
    search_fields = ["club__name", "actor__username", "target__username"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
