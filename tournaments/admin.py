from django.contrib import admin

from tournaments.models import AuditEntry, Competition, Entry, EntryPlayer, Notification, Pairing, Round


class EntryPlayerInline(admin.TabularInline):
    model = EntryPlayer
    extra = 0
    raw_id_fields = ["user"]
    exclude = ["competition"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "format", "status", "starts_at"]
    list_filter = ["game", "format", "status"]
    search_fields = ["name", "club__name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["name", "competition", "status", "seed", "bot"]
    list_filter = ["status"]
    inlines = [EntryPlayerInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["competition", "number", "status", "starts_at", "deadline"]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ["competition", "round_number", "slot", "home", "away", "winner", "source"]
    raw_id_fields = ["match", "home", "away", "winner", "round"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["competition", "action", "actor", "created_at"]


admin.site.register(Notification)
