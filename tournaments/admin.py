from django.contrib import admin

from tournaments.models import Competition


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "kind", "format", "status", "starts_at"]
    list_filter = ["game", "kind", "status"]
    search_fields = ["name", "club__name"]
    prepopulated_fields = {"slug": ["name"]}
