from django.contrib import admin

from clubs.models import Club, Membership, Player


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
    list_display = ["name", "slug", "created_by", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
