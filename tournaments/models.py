"""Competitions: tournaments and league seasons run by a club (docs/competitions.md).

Rows only. The formats are pure modules in tournaments/formats/ looked up by key; the manager in
tournaments/services/ loads these rows, calls a format and saves what it returns. Every row that a
Celery task could create twice has a unique constraint, so a task that runs twice (or two beats at
once) creates nothing twice.

Seats: the home pair of a pairing sits at seats 0 and 2 (team 0), the away pair at 1 and 3.
"""

from datetime import timedelta
from functools import cached_property

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gameplay import api as gameplay
from gameplay.api import MATCH_MODEL, Game, LeaverPolicy


class Competition(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        LEAGUE = "league", _("League season")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        OPEN = "open", _("Open for entries")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Format(models.TextChoices):
        # Keys of tournaments.formats.FORMATS.
        SINGLE = "single_elimination", _("Single elimination")
        DOUBLE = "double_elimination", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        LEAGUE = "league", _("League season")
        DUPLICATE = "duplicate", _("Duplicate")
        GROUPS = "groups_knockout", _("Groups then knockout")

    class Movement(models.TextChoices):
        # Keys of tournaments.duplicate.movements (docs/duplicate.md "Movements").
        HOWELL = "howell", _("Howell: every pair meets every other pair")
        MITCHELL = "mitchell", _("Mitchell: North-South pairs stay, East-West pairs move")

    class OddPairs(models.TextChoices):
        BOT_PAIR = "bot_pair", _("A pair of bots makes the count even")
        SIT_OUT = "sit_out", _("One pair sits out each round")

    class Scoring(models.TextChoices):
        MATCHPOINTS = "matchpoints", _("Matchpoints")
        CROSS_POINTS = "cross_points", _("Cross-points")

    class Seeding(models.TextChoices):
        RATING = "rating", _("By rating")
        HAND = "hand", _("By hand")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone may follow it and watch its tables")
        MEMBERS = "members", _("Members only")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    slug = models.SlugField(_("slug"), max_length=120)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.TOURNAMENT)
    format = models.CharField(_("format"), max_length=40, choices=Format.choices, default=Format.SWISS)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.OPEN)
    visibility = models.CharField(_("who may follow"), max_length=20, choices=Visibility.choices,
                                  default=Visibility.PUBLIC)
    # Rules: the named preset the organiser started from, and the engine-resolved options.
    preset = models.CharField(_("rules"), max_length=60, blank=True)
    options = models.JSONField(_("rule options"), default=dict, blank=True)
    best_of = models.PositiveSmallIntegerField(_("best of"), default=1)
    time_control = models.PositiveIntegerField(_("seconds per decision"), default=30)
    # The level (gameplay.bots name) of a bot that takes the seat of an absent player.
    substitute_bot = models.CharField(_("level of a bot replacing an absent player"), max_length=20,
                                      default="normal")
    # Format knobs (tournaments.formats.Options).
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    third_place_match = models.BooleanField(_("third-place match"), default=False)
    grand_final_reset = models.BooleanField(_("grand final reset"), default=True)
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    # Groups then knockout (tournaments/formats/groups_knockout.py): pairs per group, and how many
    # of each group go through to the knockout.
    group_size = models.PositiveSmallIntegerField(_("pairs per group"), default=4)
    group_qualifiers = models.PositiveSmallIntegerField(_("pairs through from each group"), default=2)
    seeding = models.CharField(_("seeding"), max_length=10, choices=Seeding.choices, default=Seeding.RATING)
    # The pairs of a match played at the club report its result themselves; the opponents confirm
    # it, or dispute it and the organiser settles (tournaments/services/reports.py).
    players_report = models.BooleanField(_("players report results of matches played at the club"), default=False)
    # Entries (tournaments/services/entries.py): at most `entry_cap` pairs entered, the next ones on
    # a waiting list; a Swiss or a league takes late pairs until round `late_entries_until` opens.
    entry_cap = models.PositiveSmallIntegerField(_("entry cap"), null=True, blank=True)
    late_entries_until = models.PositiveSmallIntegerField(_("late entries until round"), null=True, blank=True)
    # The organiser's order of tiebreaks (names of tournaments.standings.TIEBREAKS); empty: the format's own.
    tiebreak_order = models.JSONField(_("order of tiebreaks"), default=list, blank=True)
    # A duplicate (docs/duplicate.md): every table plays the same boards. The movement and the
    # boards per round give the rounds; the boards come from `boards_seed` (recorded, so they can
    # be played again or published) or from an imported set; `board_set` is the whole set
    # (tournaments.duplicate.BoardSet.to_json()), made when the competition starts.
    movement = models.CharField(_("movement"), max_length=10, choices=Movement.choices, default=Movement.HOWELL)
    odd_pairs = models.CharField(_("with an odd number of pairs"), max_length=10, choices=OddPairs.choices,
                                 default=OddPairs.BOT_PAIR)
    boards_per_round = models.PositiveSmallIntegerField(_("boards per round"), default=2)
    scoring = models.CharField(_("scoring"), max_length=20, choices=Scoring.choices, default=Scoring.MATCHPOINTS)
    boards_seed = models.BigIntegerField(_("boards seed"), null=True, blank=True)
    board_set = models.JSONField(_("boards"), default=dict, blank=True)
    # Schedule.
    starts_at = models.DateTimeField(_("starts at"))
    round_interval = models.DurationField(
        _("time between rounds"), default=timedelta(0),
        help_text=_("A round starts this long after the previous one started, or as soon as its results "
                    "are in if that is later. League seasons: the length of a fixture week."))
    entries_open_at = models.DateTimeField(_("entries open"), null=True, blank=True)
    entries_close_at = models.DateTimeField(_("entries close"), null=True, blank=True)
    check_in = models.DurationField(_("check-in opens before a round"), default=timedelta(minutes=15))
    grace = models.DurationField(_("grace period for no-shows"), default=timedelta(minutes=10))
    # At the table (gameplay/presence.py): how long a disconnected player may take to come back,
    # and what then happens to the seat. Tables' clocks wait for all four up to the grace period.
    reconnect_seconds = models.PositiveIntegerField(_("reconnect window (seconds)"), default=60)
    leaver_policy = models.CharField(_("when a player leaves"), max_length=10, choices=LeaverPolicy.choices,
                                     default=LeaverPolicy.FORFEIT)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="competition_slug_per_club")]
        indexes = [models.Index(fields=["status", "starts_at"], name="competition_status_start")]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        from django.urls import reverse
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def is_public(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC

    @property
    def is_league(self) -> bool:
        return self.format == self.Format.LEAGUE

    @property
    def is_bracket(self) -> bool:
        return self.format in (self.Format.SINGLE, self.Format.DOUBLE)

    @property
    def draws_at(self):
        """When the draw is made (entries frozen, seeds, round 1's pairings, the later rounds with
        their times): when round 1's check-in opens (a league: its start), or when entries close if
        that is earlier, so that a player's home shows the first match before it starts."""
        at = self.starts_at if self.is_league else self.starts_at - self.check_in
        return min(at, self.entries_close_at) if self.entries_close_at else at

    @property
    def is_groups(self) -> bool:
        return self.format == self.Format.GROUPS

    @property
    def has_bracket(self) -> bool:
        """A knockout bracket to draw: the knockouts', and the one after a groups phase."""
        return self.is_bracket or self.is_groups

    @property
    def is_duplicate(self) -> bool:
        return self.format == self.Format.DUPLICATE

    @property
    def games_to_win(self) -> int:
        return (self.best_of + 1) // 2

    @property
    def timeout_policy(self) -> str:
        return self.options.get("timeout_result", "")


class Entry(models.Model):
    """A pair. Players are EntryPlayer rows (a player is in at most one pair per competition);
    a bot entry has no players: both its seats are played by the bot named in `bot`."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the partner")
        CONFIRMED = "confirmed", _("Entered")
        WAITING = "waiting", _("On the waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(_("pair name"), max_length=80, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PENDING)
    bot = models.CharField(_("bot"), max_length=20, blank=True,
                           help_text=_("A bot pair (practice and tests): this bot plays both seats."))
    # A duplicate's bot pair that evens an odd count (docs/duplicate.md): it plays, it is not ranked.
    evens_the_count = models.BooleanField(default=False)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    rating = models.FloatField(_("rating"), null=True, blank=True)
    # When it went on the waiting list (the list's order); empty for a pair never on it.
    waiting_since = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["competition", "seed", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self):
        return self.name or f"#{self.pk}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.CONFIRMED


class EntryPlayer(models.Model):
    """One of the two players of a pair; `accepted_at` is empty while the invitation is open."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="players")
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="competition_entries")
    position = models.PositiveSmallIntegerField(_("position"))  # 0 sits at seat 0/1, 1 at seat 2/3
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entry", "position"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "user"], name="one_pair_per_player"),
            models.UniqueConstraint(fields=["entry", "position"], name="two_places_per_pair"),
        ]


class Round(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        OPEN = "open", pgettext_lazy("round status", "Open")
        PAUSED = "paused", _("Paused")
        COMPLETE = "complete", _("Complete")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    starts_at = models.DateTimeField(_("starts at"))
    deadline = models.DateTimeField(_("no-show deadline"),
                                    help_text=_("A pair not checked in by then loses by walkover (league: the week's end)."))
    opened_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "number"]
        constraints = [models.UniqueConstraint(fields=["competition", "number"], name="one_round_per_number")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self):
        return f"{self.competition} R{self.number}"

    @property
    def opens_at(self):
        return self.starts_at - self.competition.check_in if not self.competition.is_league else self.starts_at


class Pairing(models.Model):
    """One match of a round (a bye when `away` is empty) and, once decided, its result."""

    class Source(models.TextChoices):
        PLAYED = "played", _("Played")
        WALKOVER = "walkover", _("Walkover")
        BYE = "bye", _("Bye")
        OVERRIDE = "override", _("Set by the organiser")
        CLUB = "club", _("Played at the club")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="pairings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    round_number = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    away = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+", null=True, blank=True)
    bracket = models.CharField(max_length=20, default="main")
    label = models.CharField(max_length=20, blank=True)
    match = models.OneToOneField(MATCH_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="pairing")
    # The result: decided_at is set once; winner empty + walkover = double forfeit (both lose).
    decided_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=20, choices=Source.choices, blank=True)
    winner = models.ForeignKey(Entry, on_delete=models.SET_NULL, related_name="+", null=True, blank=True)
    home_points = models.PositiveSmallIntegerField(default=0)
    away_points = models.PositiveSmallIntegerField(default=0)
    walkover = models.BooleanField(default=False)
    # Who played for each side: {"home": [[user id, name], ...], "away": [...]}, written when the
    # pairing is made and again when its table opens, never after it is decided (a substitution
    # changes the pair's later matches only; docs/competitions.md "Substitutions").
    lineup = models.JSONField(default=dict, blank=True)
    # Its own start when an organiser moved this one pairing (empty: the round's); its check-in
    # and no-show deadline move with it (`starts`, `opens_at`, `deadline` below).
    starts_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "round_number", "slot"]
        constraints = [models.UniqueConstraint(fields=["competition", "round_number", "slot"],
                                               name="one_pairing_per_slot")]
        indexes = [models.Index(fields=["competition", "decided_at"], name="pairing_undecided")]
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")

    def __str__(self):
        return f"{self.competition} R{self.round_number}.{self.slot}"

    @property
    def is_bye(self) -> bool:
        return self.away_id is None

    @property
    def is_decided(self) -> bool:
        return self.decided_at is not None

    @property
    def is_knockout(self) -> bool:
        """A match someone must win: a knockout's, or the knockout's after a groups phase."""
        return self.competition.is_bracket or (self.competition.is_groups and self.bracket != "groups")

    @cached_property
    def table(self):
        """Its match as gameplay.api tells it (`MatchResult`: status, winner, rated...), None
        without one. A page of many pairings sets it for all at once (`pages.with_tables`)."""
        return gameplay.result_of(self.match_id)

    @property
    def is_moved(self) -> bool:
        return self.starts_at is not None and self.starts_at != self.round.starts_at

    @property
    def starts(self):
        """When its table starts: its own time if it was moved, else its round's."""
        return self.starts_at or self.round.starts_at

    @property
    def deadline(self):
        """Its no-show deadline: as long after its start as its round's is after the round's."""
        if self.starts_at is None:
            return self.round.deadline
        return self.starts_at + (self.round.deadline - self.round.starts_at)

    @property
    def opens_at(self):
        """When its check-in opens (a moved pairing's own; else its round's opening)."""
        if self.starts_at is None:
            return self.round.opens_at
        return self.starts_at - (self.round.starts_at - self.round.opens_at)


class CheckIn(models.Model):
    """A player said "I am here" for a pairing: the concrete meaning of having shown."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="check_ins")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["pairing", "user"], name="one_check_in_per_player")]


class Standing(models.Model):
    """The current (once finished: final) standings, written only where they changed."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="standings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    position = models.PositiveIntegerField()  # order of the rows (ranks may be shared)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0)
    games_for = models.PositiveIntegerField(default=0)
    games_against = models.PositiveIntegerField(default=0)
    tiebreaks = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["competition", "position"]
        constraints = [models.UniqueConstraint(fields=["competition", "entry"], name="one_standing_per_entry")]

    @property
    def game_difference(self) -> int:
        return self.games_for - self.games_against


class AuditEntry(models.Model):
    """What an organiser (or the scheduler) did to a competition, with the written reason."""

    class Action(models.TextChoices):
        CREATED = "created", _("created the competition")
        STARTED = "started", _("started the competition")
        CANCELLED = "cancelled", _("cancelled the competition")
        PAIR_ADDED = "pair_added", _("added a pair")
        PAUSED = "paused", _("paused a round")
        RESUMED = "resumed", _("resumed a round")
        RESCHEDULED = "rescheduled", _("rescheduled a round")
        PAIRING_MOVED = "pairing_moved", _("moved one pairing to another time")
        REPLACED = "replaced", _("replaced a player")
        WITHDRAWN = "withdrawn", _("withdrew a pair")
        DISQUALIFIED = "disqualified", _("disqualified a pair")
        OVERRIDDEN = "overridden", _("overrode a result")
        TABLE_OPENED = "table_opened", _("opened a table without waiting for check-in")
        BOT_SEATED = "bot_seated", _("put a bot in an absent player's seat (the match is not rated)")
        WALKOVER = "walkover", _("gave a walkover")
        FINISHED = "finished", _("closed the competition")
        EDITED = "edited", _("edited the competition before its start")
        CLUB_RESULT = "club_result", _("entered the result of a match played at the club")
        EDITED_LIVE = "edited_live", _("edited the competition after its start")
        REOPENED = "reopened", _("reopened the competition")
        RUN_AGAIN = "run_again", _("made this competition as a copy of another")
        REPORTED = "reported", _("reported the result of a match played at the club")
        CONFIRMED = "confirmed", _("confirmed the reported result of a match played at the club")
        DISPUTED = "disputed", _("disputed the reported result of a match played at the club")
        WAITING_LISTED = "waiting_listed", _("put a pair on the waiting list")
        MOVED_UP = "moved_up", _("moved a pair up from the waiting list")
        LATE_ENTRY = "late_entry", _("entered a pair late")
        REMINDED = "reminded", _("reminded the players not checked in")
        ANNOUNCED = "announced", _("sent an announcement to the entrants")
        SEEDED = "seeded", _("set the seeds by hand")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    entry = models.ForeignKey(Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    pairing = models.ForeignKey(Pairing, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.TextField(_("reason"), blank=True)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")


class ResultReport(models.Model):
    """A result of a match played at the club, as one of its players reported it: it counts once
    a player of the other pair confirms it; disputed, it waits for the organiser's result."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the opponents to confirm")
        CONFIRMED = "confirmed", _("Confirmed by the opponents")
        DISPUTED = "disputed", _("Disputed: the organiser decides")

    pairing = models.OneToOneField(Pairing, on_delete=models.CASCADE, related_name="report")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")  # the reporter's pair
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    winner_side = models.CharField(max_length=4)  # "home", "away" or "none" (a draw)
    home_points = models.PositiveSmallIntegerField()
    away_points = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)


class Notification(models.Model):
    """A message on the site (and by email): your round is open, your partner invited you, ...
    `key` makes a notification idempotent: the same event notifies a user once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    key = models.CharField(max_length=80)
    # What happened, rendered in the reader's language when read (tournaments/notices.py); `text`
    # is the recipient's rendering at the time, shown only for a kind no longer known.
    kind = models.CharField(max_length=30, blank=True)
    params = models.JSONField(default=dict, blank=True)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_notification_per_event")]


class Announcement(models.Model):
    """What an organiser told every entrant (tournaments/services/announcements.py): the text as
    typed, listed on the competition page and sent to each entrant in their language."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    text = models.TextField(_("announcement"), max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
