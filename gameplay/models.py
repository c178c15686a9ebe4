"""Matches as an event store (docs/design.md "Live play").

A match is its game, options, seed and first dealer plus the append-only list of accepted actions;
every state is derived by replaying them through the engine (gameplay.rules), so live play,
archives, exports and crash recovery are one code path. A match can be best of N games: each game
is one engine match, and each action row says which game it belongs to.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Game(models.TextChoices):
    # Keys are the engine's registry keys (gameplay.rules.GAMES); names are written in the reader's
    # script (بلوت, not Baloot, on an Arabic page: docs/glossary.md).
    ALLFOURS = "allfours", pgettext_lazy("game name", "All Fours")
    BALOOT = "baloot", pgettext_lazy("game name", "Baloot")
    CUATROLA = "cuatrola", pgettext_lazy("game name", "La Cuatrola")


def game_label(game: str) -> str:
    """A game's name in the active language ("All Fours", "La Cuatrola"); the code itself for a
    game this version does not know."""
    try:
        return str(Game(game).label)
    except ValueError:
        return game


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Match(models.Model):
    class Status(models.TextChoices):
        # The protocol's statuses (docs/contracts/protocol.md).
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Finish(models.TextChoices):
        PLAYED = "played", _("Played out")
        TIMEOUT = "timeout", _("Lost on time")
        WALKOVER = "walkover", _("Walkover")
        ABORTED = "aborted", _("Aborted")
        CONCEDED = "conceded", _("Conceded")
        FORFEIT = "forfeit", _("Forfeited by a leaver")

    class LeaverPolicy(models.TextChoices):
        # What happens to a seat whose player stays away longer than the reconnect window.
        BOT = "bot", _("A bot plays on (the match is then unrated)")
        FORFEIT = "forfeit", _("The leaver's team loses the match")

    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    games_to_win = models.PositiveSmallIntegerField(
        _("games to win"), default=1, help_text=_("Best of N: the match ends when a team has won this many games."))
    # A duplicate's table (gameplay/table.py): the boards it plays in order, each {"board": number,
    # "dealer": seat, "deals": [deal, spares...]}; empty for a match dealt from its seed.
    boards = models.JSONField(_("boards"), default=list, blank=True)
    time_control = models.PositiveIntegerField(
        _("seconds per decision"), default=0, help_text=_("0 means untimed."))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.WAITING)
    seq = models.PositiveIntegerField(_("actions applied"), default=0)
    game_number = models.PositiveSmallIntegerField(_("current game"), default=0)
    games_won = models.JSONField(_("games won"), default=list, blank=True)
    deadline = models.DateTimeField(_("decision deadline"), null=True, blank=True)
    winner = models.PositiveSmallIntegerField(_("winning team"), null=True, blank=True)
    finish = models.CharField(_("how it ended"), max_length=20, choices=Finish.choices, blank=True)
    result = models.JSONField(_("result"), default=dict, blank=True)
    is_public = models.BooleanField(_("anyone may watch"), default=True)
    rated = models.BooleanField(_("rated"), default=False)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    # Where its players go back to when it ends: a competition's page for a competition's match
    # (the app that made it says so); empty for a casual table, whose players go to the lobby.
    return_to = models.CharField(_("page to go back to"), max_length=200, blank=True, default="")
    # Fair starts and leavers (gameplay/presence.py): clocks run only once every seat is connected
    # or the check-in window has closed; a seat away longer than the reconnect window meets the
    # leaver policy.
    checkin_seconds = models.PositiveIntegerField(
        _("check-in window (seconds)"), default=0,
        help_text=_("How long the clocks wait for every player to be at the table; 0 starts them at once."))
    clocks_started_at = models.DateTimeField(_("clocks started at"), null=True, blank=True)
    reconnect_seconds = models.PositiveIntegerField(_("reconnect window (seconds)"), default=60)
    leaver_policy = models.CharField(_("when a player leaves"), max_length=10, choices=LeaverPolicy.choices,
                                     default=LeaverPolicy.BOT)
    invite_code = models.CharField(max_length=32, default=new_invite_code, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="matches_created")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [models.Index(fields=["status", "deadline"], name="match_status_deadline")]

    def __str__(self):
        return f"{self.get_game_display()} #{self.pk}"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class Seat(models.Model):
    """One of the four places at a table: a user, a bot, or empty while the table fills."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="seats")
    bot = models.CharField(_("bot"), max_length=20, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    # A friend the creator invited (the new-table form): the seat is kept for them, but not
    # filled, until they take it; declining frees it and names them to the waiting room.
    invited = models.BooleanField(default=False)
    declined_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    # Open sockets of the seat's player (all processes), and since when it has had none.
    connections = models.PositiveSmallIntegerField(default=0)
    away_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["match", "user"], name="one_seat_per_user",
                                    condition=models.Q(user__isnull=False)),
        ]

    def __str__(self):
        return f"{self.match} seat {self.seat}"

    @property
    def is_filled(self) -> bool:
        return (self.user_id is not None and not self.invited) or bool(self.bot)

    @property
    def bot_name(self) -> str:
        """A bot seat's shown name, with the bot's level ("Bot 3 (Strong)")."""
        from gameplay.bot_levels import bot_seat_name

        return bot_seat_name(self.bot, self.seat) if self.bot else ""


class MatchAction(models.Model):
    """One accepted action; append-only. (match, seq) unique: no action is applied twice."""

    # No index of its own: one_action_per_seq (match, seq) serves every lookup by match, and
    # every move inserts into each index of this table.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    game_number = models.PositiveSmallIntegerField(default=0)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    ref = models.CharField(max_length=64, null=True, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="one_action_per_seq"),
            # An act resent with the same ref after a reconnect is applied once (protocol.md).
            models.UniqueConstraint(fields=["match", "ref"], name="one_action_per_ref",
                                    condition=models.Q(ref__isnull=False)),
        ]

    def __str__(self):
        return f"{self.match} #{self.seq}"


class ChatMessage(models.Model):
    """One line of a table's chat (gameplay/chat.py). Players and spectators talk apart."""

    class Audience(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    audience = models.CharField(max_length=12, choices=Audience.choices)
    phrase = models.CharField(max_length=30, blank=True)  # a quick phrase's key, shown in each reader's language
    text = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["match", "pk"]
        indexes = [models.Index(fields=["match", "audience", "-id"], name="chat_match_audience")]


class Rematch(models.Model):
    """A proposal to play a finished casual match again, same seats and options
    (gameplay/rematch.py): open until every person seated has accepted (bots accept at once),
    then started with its new table; a decline or REMATCH_SECONDS without every answer cancels
    it. One row per finished match: a new proposal after a cancelled one reuses it."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for answers")
        STARTED = "started", _("Started")
        CANCELLED = "cancelled", _("Cancelled")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="rematch")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    proposed_by = models.PositiveSmallIntegerField()  # the seat that proposed it
    accepted = models.JSONField(default=list)  # seats that accepted, bots' included
    declined_by = models.PositiveSmallIntegerField(null=True, blank=True)
    expires_at = models.DateTimeField()
    next_match = models.ForeignKey(Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        indexes = [models.Index(fields=["status", "expires_at"], name="rematch_status_expiry")]

    def __str__(self):
        return f"rematch of {self.match_id}"


class QueueEntry(models.Model):
    """A player waiting in a *Play now* queue (gameplay/play_now.py): one queue per game and
    preset, one queue per player at a time. Matched entries keep the table they were seated at
    (`match`) until the player's page picks it up."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry")
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    preset = models.CharField(_("rules"), max_length=40)
    rating = models.FloatField(_("rating when joining"))
    bots_after = models.PositiveIntegerField(_("bots after (seconds)"), null=True, blank=True)  # None: never
    joined_at = models.DateTimeField(_("joined at"))
    match = models.ForeignKey(Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        indexes = [models.Index(fields=["game", "preset", "joined_at"], name="queue_waiting",
                                condition=models.Q(match__isnull=True))]

    def __str__(self):
        return f"{self.user_id} in {self.game}:{self.preset}"
