"""Stored ratings: the current values per player and game, and one change per match and player.

Both tables are derived data: `manage.py recompute_ratings` rebuilds them from the finished
matches, in finished order, and must find exactly what the per-match task stored. Values are
floats, never rounded (pages round them), so a replay is bit-identical.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from gameplay.api import MATCH_MODEL, Game

from . import elo, glicko2
from .policy import LEADERBOARD_MAX_RD, confidence


class Rating(models.Model):
    """A player's current Elo and Glicko-2 in one game (one row per player and game)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    elo = models.FloatField(_("Elo"), default=elo.START)
    rated_matches = models.PositiveIntegerField(_("rated matches"), default=0)
    glicko_rating = models.FloatField(_("Glicko-2 rating"), default=glicko2.START_RATING)
    glicko_rd = models.FloatField(_("Glicko-2 deviation"), default=glicko2.START_RD)
    glicko_volatility = models.FloatField(_("Glicko-2 volatility"), default=glicko2.START_VOLATILITY)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "-elo"], name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user} {self.get_game_display()} {self.elo:.0f}"

    @property
    def provisional(self) -> bool:
        """Still uncertain: marked on leaderboards (docs/ratings.md)."""
        return self.glicko_rd > LEADERBOARD_MAX_RD

    @property
    def confidence(self) -> int:
        return confidence(self.glicko_rd)

    @property
    def glicko(self) -> glicko2.Glicko:
        return glicko2.Glicko(self.glicko_rating, self.glicko_rd, self.glicko_volatility)


class RatingChange(models.Model):
    """What one rated match (or one board of a duplicate's table) did to one of its four players
    (unique per match, board and player)."""

    match = models.ForeignKey(MATCH_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    # A duplicate's table is rated board by board (docs/duplicate.md, "Ratings"): the board's
    # number; 0 for a match rated as a whole.
    board = models.PositiveSmallIntegerField(_("board"), default=0)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    finished_at = models.DateTimeField(_("finished at"))  # the match's, copied: history order
    team = models.PositiveSmallIntegerField(_("team"))
    score = models.FloatField(_("score"))  # of the player's team: 1 win, 0 loss, 0.5 draw
    k = models.FloatField(_("K-factor"))
    elo_before = models.FloatField(_("Elo before"))
    elo_after = models.FloatField(_("Elo after"))
    elo_delta = models.FloatField(_("Elo change"))
    glicko_before = models.FloatField(_("Glicko-2 before"))
    glicko_after = models.FloatField(_("Glicko-2 after"))
    glicko_delta = models.FloatField(_("Glicko-2 change"))
    rd_before = models.FloatField(_("deviation before"))
    rd_after = models.FloatField(_("deviation after"))
    volatility_before = models.FloatField(_("volatility before"))
    volatility_after = models.FloatField(_("volatility after"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["finished_at", "match_id", "board"]
        constraints = [models.UniqueConstraint(fields=["match", "board", "user"], name="one_rating_change_per_player")]
        indexes = [
            models.Index(fields=["user", "game", "finished_at"], name="rating_history"),
            models.Index(fields=["game", "finished_at", "match"], name="rating_change_order"),
        ]

    def __str__(self):
        return f"{self.user} {self.match}: {self.elo_delta:+.1f}"


class RatingLock(models.Model):
    """One row per game, locked (select_for_update) while that game's ratings are written, so
    matches are rated one at a time and in finished order (docs/style.md §6: one writer per table)."""

    game = models.CharField(max_length=20, choices=Game.choices, unique=True)

    class Meta:
        verbose_name = _("rating lock")
        verbose_name_plural = _("rating locks")

    def __str__(self):
        return self.game
