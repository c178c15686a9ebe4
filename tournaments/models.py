"""Competitions: tournaments and league seasons run by a club.

Thin for now: the competitions issue adds entries (pairs), rounds, pairings and the format
settings. Formats themselves are pure modules in tournaments/formats/, looked up by key.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from gameplay.models import Game


class Competition(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        LEAGUE = "league", _("League season")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        OPEN = "open", _("Open for entries")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.TOURNAMENT)
    format = models.CharField(_("format"), max_length=40, help_text=_("Key of a module in tournaments/formats."))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="competition_slug_per_club")]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")

    def __str__(self):
        return self.name
