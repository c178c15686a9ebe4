from django.contrib import admin

from gameplay.models import Match, MatchAction


class MatchActionInline(admin.TabularInline):
    model = MatchAction
    extra = 0
    can_delete = False
    readonly_fields = ["seq", "seat", "action", "created_at"]

    def has_add_permission(self, request, obj=None):
        return False  # actions are appended by the gameplay service only


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "seq", "created_at"]
    list_filter = ["game", "status"]
    readonly_fields = ["seed", "seq", "created_at"]
    inlines = [MatchActionInline]
