"""Matches as an event store (docs/layout.md, DESIGN.md "Live play").

A match is its options + seed + the list of accepted actions; everything else is derived by the
engine in gameplay.rules. Thin for now: the live-play issue adds seats, clocks, snapshots and
the service that appends actions.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    # Keys are the engine's registry keys (gameplay.rules.GAMES); names are not translated.
    ALLFOURS = "allfours", "All Fours"
    BALOOT = "baloot", "Baloot"
    CUATROLA = "cuatrola", "La Cuatrola"


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.WAITING)
    seq = models.PositiveIntegerField(_("actions applied"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self):
        return f"{self.get_game_display()} #{self.pk}"


class MatchAction(models.Model):
    """One accepted action; append-only. (match, seq) unique: no action is applied twice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_action_per_seq")]

    def __str__(self):
        return f"{self.match} #{self.seq}"
