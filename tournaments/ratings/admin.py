"""Ratings in the admin: read-only for staff (the values are derived from matches; fix them with
`manage.py recompute_ratings`, never by hand)."""

from django.contrib import admin

from .models import Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "game", "elo", "rated_matches", "glicko_rating", "glicko_rd", "updated_at"]
    list_filter = ["game"]
    search_fields = ["user__username", "user__player__display_name"]
    list_select_related = ["user"]
    ordering = ["game", "-elo"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["match", "user", "game", "team", "score", "k", "elo_before", "elo_delta", "elo_after",
                    "finished_at"]
    list_filter = ["game"]
    search_fields = ["user__username", "match_id"]
    list_select_related = ["user", "match"]
    raw_id_fields = ["match", "user"]
    date_hierarchy = "finished_at"
