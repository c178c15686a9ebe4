"""The manager: load rows, call the pure format, save pairings, create matches (docs/style.md §1).

`step(competition_id)` is the one function the scheduler calls. Under the competition's row lock
(one writer per competition, docs/style.md §6) it does whatever is due at `now`, in order:

1. an open competition whose draw is due (`Competition.draws_at`: when round 1's check-in opens,
   or when entries close if earlier) starts: unconfirmed pairs are dropped, the rest seeded (by
   rating: the mean Elo of the two players; or by hand), the first round (a league: every fixture
   week) is made with its pairings, and every later round the format can count in advance exists
   from then with its time and no pairings (a knockout's later boxes, Swiss rounds to be drawn);
2. each round that is not complete: opens at `starts_at - check_in` (byes decided, bot tables
   created, players notified); records the result of every finished match; starts the tables
   whose start time has come; at its deadline gives walkovers to the pairs that showed; and is
   complete once every pairing is decided;
3. when the latest drawn round is complete the format draws the next one (into its scheduled
   row: a round that nobody plays, a knockout's skipped round, is dropped), or the competition
   closes, drops the rounds it did not need (a grand-final reset not played) and its standings are
   final.

Running it twice does nothing twice: every step checks the state it moves from, results are
written with a conditional update, and rounds, pairings, check-ins and notifications have unique
constraints behind the lock.

"Shown": a pair has shown for a pairing when both its players have checked in (a bot pair always
has). The table is created the moment all four players have shown, with every seat taken, so no
stranger can sit at a competition table and no one loses on time for being late to a table that
was never theirs to join.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import DateTimeField, Exists, ExpressionWrapper, F, Min, OuterRef, Q, Value
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from tournaments import display
from tournaments.formats import FormatError, get_format, seed_by_hand, seed_by_rating
from tournaments.models import AuditEntry, CheckIn, Competition, Entry, EntryPlayer, Notification, Pairing, Round
from tournaments.ratings.services import ratings_for
from tournaments.services import duplicate, groups, lineups, ranking
from tournaments.services.loading import entry_value, format_options, snapshot
from tournaments.services.notify import notify
from tournaments.signals import send_competition_changed

logger = logging.getLogger("chalk.tournaments")
MAX_ROUNDS_PER_STEP = 64  # rounds of byes only are made and closed in the same step


class CompetitionError(Exception):
    """A request the competition refuses; `message` is for the person who asked, `field` the form
    field it is about (empty when it is about the whole request)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message, self.field = message, field


# ----- the step --------------------------------------------------------------------------------

def step(competition_id: int, now: datetime | None = None) -> bool:
    """Do what is due; True if anything changed."""
    now = now or timezone.now()
    with transaction.atomic():
        competition = Competition.objects.select_for_update().filter(pk=competition_id).first()
        if competition is None:
            return False
        changed = False
        if competition.status == Competition.Status.OPEN and now >= competition.draws_at:
            changed = start(competition, now)
        if competition.status != Competition.Status.RUNNING:
            return changed
        people = Roster(competition)
        early = early_pairings(competition)
        for round_row in drawn(competition).exclude(status=Round.Status.COMPLETE).order_by("number"):
            changed |= advance_round(competition, round_row, people, now, early.get(round_row.pk))
        changed |= make_next_rounds(competition, people, now)
        if changed:
            ranking.refresh(competition)
            send_competition_changed(competition.pk)
        return changed


def drawn(competition: Competition):
    """The competition's rounds that have their pairings (a later round waits for its draw)."""
    return competition.rounds.filter(Exists(Pairing.objects.filter(round=OuterRef("pk"))))


def due_competitions(now: datetime | None = None) -> list[int]:
    """Competitions the periodic tick should step: those whose draw may be due, and running ones."""
    now = now or timezone.now()
    drawing = ExpressionWrapper(Value(now) + F("check_in"), output_field=DateTimeField())
    due = (Q(status=Competition.Status.OPEN, starts_at__lte=drawing)
           | Q(status=Competition.Status.OPEN, entries_close_at__lte=now) | Q(status=Competition.Status.RUNNING))
    return list(Competition.objects.filter(due).order_by("pk").values_list("pk", flat=True))


def competition_of_match(match_id: int) -> int | None:
    return Pairing.objects.filter(match_id=match_id).values_list("competition_id", flat=True).first()


# ----- who plays -------------------------------------------------------------------------------

class Roster:
    """The entries of a competition and their players, read once per step (two queries)."""

    def __init__(self, competition: Competition):
        self.entries = {e.pk: e for e in Entry.objects.filter(competition=competition)}
        self.players: dict[int, list[int]] = {}
        for entry_id, user_id in (EntryPlayer.objects.filter(competition=competition)
                                  .order_by("position").values_list("entry_id", "user_id")):
            self.players.setdefault(entry_id, []).append(user_id)
        self._users = None

    def users(self):
        if self._users is None:
            ids = [u for players in self.players.values() for u in players]
            self._users = get_user_model().objects.select_related("player").in_bulk(ids)
        return self._users

    def shown(self, entry_id: int | None, checked: set[int]) -> bool:
        entry = self.entries.get(entry_id)
        if entry is None or not entry.is_active:
            return False
        players = self.players.get(entry_id, [])
        return bool(entry.bot) or (len(players) == 2 and all(u in checked for u in players))

    def checked_count(self, entry_id, checked: set[int]) -> int:
        return sum(1 for u in self.players.get(entry_id, []) if u in checked)

    def seats(self, pairing: Pairing) -> list[gameplay.SeatSpec]:
        """Home pair at seats 0 and 2 (team 0), away pair at 1 and 3 (team 1)."""
        home, away = self._pair(pairing.home_id), self._pair(pairing.away_id)
        return [home[0], away[0], home[1], away[1]]

    def _pair(self, entry_id) -> list[gameplay.SeatSpec]:
        entry = self.entries[entry_id]
        if entry.bot:
            return [gameplay.SeatSpec(bot=entry.bot)] * 2
        users = self.users()
        return [gameplay.SeatSpec(user=users[u]) for u in self.players[entry_id]]


def checked_in(pairing_ids) -> dict[int, set[int]]:
    found: dict[int, set[int]] = {}
    for pairing_id, user_id in CheckIn.objects.filter(pairing_id__in=pairing_ids).values_list("pairing_id", "user_id"):
        found.setdefault(pairing_id, set()).add(user_id)
    return found


# ----- starting --------------------------------------------------------------------------------

def start(competition: Competition, now: datetime) -> bool:
    """Seed the confirmed pairs and make the first round(s); cancel with fewer than two pairs."""
    Entry.objects.filter(competition=competition, status=Entry.Status.PENDING).delete()
    entries = list(Entry.objects.filter(competition=competition, status=Entry.Status.CONFIRMED).order_by("pk"))
    if len(entries) < 2:
        competition.status = Competition.Status.CANCELLED
        competition.finished_at = now
        competition.save(update_fields=["status", "finished_at"])
        AuditEntry.objects.create(competition=competition, action=AuditEntry.Action.CANCELLED,
                                  reason=_("Fewer than two pairs entered."))
        return True
    reason = ""
    problem = groups.problem_of(competition)
    if problem:  # the scheduled start with pairs that cannot make the groups (Start now refuses instead)
        competition.status, competition.finished_at = Competition.Status.CANCELLED, now
        competition.save(update_fields=["status", "finished_at"])
        AuditEntry.objects.create(competition=competition, action=AuditEntry.Action.CANCELLED, reason=problem)
        return True
    if competition.is_duplicate:
        try:
            entries, note = duplicate.prepare(competition, entries)
        except duplicate.DuplicateSetupError as error:
            competition.status, competition.finished_at = Competition.Status.CANCELLED, now
            competition.save(update_fields=["status", "finished_at"])
            AuditEntry.objects.create(competition=competition, action=AuditEntry.Action.CANCELLED, reason=error.message)
            return True
        if note:
            reason = _("The chosen movement does not fit these pairs; this one does: %(movement)s.") % {
                "movement": competition.get_movement_display()}
    seed_entries(competition, entries)
    fmt = get_format(competition.format)
    if fmt.fixed_round_count and competition.swiss_rounds is None:
        competition.swiss_rounds = fmt.total_rounds(len(entries), format_options(competition))
    competition.status = Competition.Status.RUNNING
    competition.save(update_fields=["status", "swiss_rounds"])
    AuditEntry.objects.create(competition=competition, action=AuditEntry.Action.STARTED, reason=reason,
                              detail={"pairs": len(entries)})
    if fmt.season is not None:
        make_season(competition, fmt)
    return True


def seed_entries(competition: Competition, entries: list[Entry]) -> None:
    """Seed 1 is the strongest: by the pairs' mean Elo, or the organiser's order (unseeded last)."""
    players: dict[int, list[int]] = {}
    for entry_id, user_id in EntryPlayer.objects.filter(entry__in=entries).values_list("entry_id", "user_id"):
        players.setdefault(entry_id, []).append(user_id)
    ratings = ratings_for([u for ids in players.values() for u in ids], competition.game)
    for entry in entries:
        ids = players.get(entry.pk, [])
        entry.rating = sum(ratings[u].elo for u in ids) / len(ids) if ids else None
    values = [entry_value(e.pk, e.seed, e.rating) for e in entries]
    if competition.seeding == Competition.Seeding.HAND:
        order = sorted(values, key=lambda v: (v.seed is None, v.seed or 0, -v.rating))
        seeded = seed_by_hand(values, [v.id for v in order])
    else:
        seeded = seed_by_rating(values)
    seeds = {v.id: v.seed for v in seeded}
    for entry in entries:
        entry.seed = seeds[entry.pk]
    Entry.objects.bulk_update(entries, ["seed", "rating"])


def make_season(competition: Competition, fmt) -> None:
    """Every round of a format that makes its season in advance (a league's fixture weeks)."""
    season = fmt.season(snapshot(competition).field, competition.starts_at, competition.round_interval,
                        format_options(competition))
    for scheduled in season:
        save_round(competition, scheduled.number, scheduled.starts, scheduled.ends, scheduled.pairings)


def save_round(competition: Competition, number: int, starts_at, deadline, pairings) -> Round:
    """The round's row (the one scheduled for it, else a new one) with its pairings."""
    round_row, _created = Round.objects.update_or_create(competition=competition, number=number,
                                                         defaults={"starts_at": starts_at, "deadline": deadline})
    rows = [Pairing(competition=competition, round=round_row, round_number=p.round, slot=p.slot, home_id=p.home,
                    away_id=p.away, bracket=p.bracket, label=p.label)
            for p in pairings]
    lineups.fill(rows)  # who plays for each pair as the round is made (a substitution changes later ones)
    Pairing.objects.bulk_create(rows)
    return round_row


# ----- a round ---------------------------------------------------------------------------------

def early_pairings(competition: Competition) -> dict[int, datetime]:
    """Round id -> the earliest opening of a pairing moved before its round's start (one query):
    such a round opens then, so that pairing's check-in opens on time."""
    rows = (Pairing.objects.filter(competition=competition, round__status=Round.Status.SCHEDULED,
                                   starts_at__lt=F("round__starts_at"))
            .values("round_id").annotate(first=Min("starts_at")).values_list("round_id", "first"))
    lead = competition.check_in if not competition.is_league else timedelta(0)
    return {round_id: first - lead for round_id, first in rows}


def advance_round(competition: Competition, round_row: Round, people: Roster, now: datetime,
                  opens_early: datetime | None = None) -> bool:
    """Each pairing follows its own start (a moved pairing's, else the round's): its table starts
    then and its no-show deadline is as long after it as the round's is after the round's start."""
    changed = False
    paused = round_row.status == Round.Status.PAUSED
    if round_row.status == Round.Status.SCHEDULED and now >= min(round_row.opens_at, opens_early or round_row.opens_at):
        open_round(competition, round_row, people, now)
        changed = True
    if round_row.status == Round.Status.SCHEDULED:
        return changed
    pairings = list(round_row.pairings.filter(decided_at__isnull=True))
    notify_moved_open(competition, round_row, pairings, people, now)
    results = gameplay.results_of(p.match_id for p in pairings)
    changed |= record_results(pairings, results, now, draws=competition.is_duplicate)
    if not paused:
        start_tables([p for p in pairings if now >= p.starts], results)
        due = [p for p in pairings if now >= p.deadline]
        if due:
            changed |= give_walkovers(competition, due, results, people, now)
    if not round_row.pairings.filter(decided_at__isnull=True).exists() and not paused:
        round_row.status, round_row.completed_at = Round.Status.COMPLETE, now
        round_row.save(update_fields=["status", "completed_at"])
        changed = True
    return changed


def open_round(competition: Competition, round_row: Round, people: Roster, now: datetime) -> None:
    round_row.status, round_row.opened_at = Round.Status.OPEN, now
    round_row.save(update_fields=["status", "opened_at"])
    pairings = list(round_row.pairings.filter(decided_at__isnull=True))
    for pairing in pairings:
        if pairing.is_bye:
            decide(pairing, pairing.home_id, 0, 0, False, Pairing.Source.BYE, now)
        elif not (people.entries[pairing.home_id].is_active and people.entries[pairing.away_id].is_active):
            walk_over(competition, pairing, people, set(), now)
        elif people.shown(pairing.home_id, set()) and people.shown(pairing.away_id, set()):
            create_table(competition, round_row, pairing, people)
    notify_round_open(competition, round_row, pairings, people, now)


def notify_round_open(competition: Competition, round_row: Round, pairings, people: Roster, now: datetime) -> None:
    """"Round open, check in" to the players of each pairing of the round whose check-in is open now.
    A pairing moved to a later time is left out: its players were told its new time ("moved"), and
    they hear "round open" when its own check-in opens (notify_moved_open)."""
    url = reverse("tournaments:detail", args=[competition.pk])
    users = people.users()
    key = f"round-open:{round_row.pk}"
    for pairing in pairings:
        if pairing.is_bye or pairing.is_decided or now < pairing.opens_at:
            continue
        for entry_id in (pairing.home_id, pairing.away_id):
            for user_id in people.players.get(entry_id, []):
                notify(users[user_id], key, "round_open", {"competition": competition.name, "number": round_row.number},
                       url=url, competition=competition)


def notify_moved_open(competition: Competition, round_row: Round, pairings, people: Roster, now: datetime) -> None:
    """The players of a pairing whose check-in opened after its round did (one moved later, or the
    round opened early for a pairing moved earlier) hear "round open" once it has: each person once,
    and no query while there is no such pairing."""
    opened = round_row.opened_at or now
    waiting = [p for p in pairings if p.match_id is None and opened < p.opens_at <= now < p.deadline]
    if not waiting:
        return
    players = {u for p in waiting for e in (p.home_id, p.away_id) for u in people.players.get(e, [])}
    told = set(Notification.objects.filter(key=f"round-open:{round_row.pk}", user_id__in=players)
               .values_list("user_id", flat=True))
    if players - told:
        notify_round_open(competition, round_row, waiting, people, now)


def create_table(competition: Competition, round_row: Round, pairing: Pairing, people: Roster, *,
                 seats: list | None = None, starts_at: datetime | None = None, rated: bool = True) -> int:
    """The pairing's match (its id), every seat taken (`seats`: the pairs' players by default);
    it starts at the pairing's start time (`starts_at` overrides it: an organiser's Start now)."""
    round_row.competition = competition  # known: `pairing.starts` reads the round only
    boards = {}
    if competition.is_duplicate:  # each board one deal; rated per board, not as a match (docs/duplicate.md)
        boards = {"boards": duplicate.boards_for(competition, pairing)}
        rated = False
    pairing.match_id = gameplay.create_match(
        competition.game, competition.options, seats or people.seats(pairing), created_by=competition.created_by,
        games_to_win=1 if boards else competition.games_to_win, time_control=competition.time_control,
        # A duplicate's table is watched by nobody but its players (and the organiser who made it)
        # while other tables may still play its boards: published when the competition ends.
        is_public=competition.is_public and not boards, rated=rated, starts_at=starts_at or pairing.starts,
        **boards,
        checkin_seconds=int(competition.grace.total_seconds()), reconnect_seconds=competition.reconnect_seconds,
        leaver_policy=competition.leaver_policy, return_to=reverse("tournaments:detail", args=[competition.pk]))
    lineups.fill([pairing])  # who sits down at this table: the pair's players now
    pairing.save(update_fields=["match", "lineup"])
    return pairing.match_id


def start_tables(pairings, results: dict) -> None:
    for pairing in pairings:
        result = results.get(pairing.match_id)
        if result is not None and result.is_waiting:
            gameplay.start_match(pairing.match_id)


def record_results(pairings, results: dict, now: datetime, draws: bool = False) -> bool:
    """Results of finished matches: team 0 (seats 0 and 2) is the home pair. With `draws` (a
    duplicate's table, whose boards are what count) a table played out level is decided too."""
    changed = False
    for pairing in pairings:
        result = results.get(pairing.match_id)
        played_level = draws and result is not None and result.status == gameplay.Status.FINISHED
        if result is None or not (result.is_decided or played_level):
            continue
        winner = (None if result.winner is None else
                  pairing.home_id if result.winner == 0 else pairing.away_id)
        source = Pairing.Source.WALKOVER if result.is_walkover else Pairing.Source.PLAYED
        home_games, away_games = result.games_won
        changed |= decide(pairing, winner, home_games, away_games, result.is_walkover, source, now)
    return changed


def decide(pairing: Pairing, winner_id, home_points: int, away_points: int, walkover: bool, source: str,
           now: datetime) -> bool:
    """Write a result once: a conditional update, so a second writer changes nothing."""
    fields = dict(winner_id=winner_id, home_points=home_points, away_points=away_points, walkover=walkover,
                  source=source, decided_at=now)
    written = Pairing.objects.filter(pk=pairing.pk, decided_at__isnull=True).update(**fields)
    if written:
        for name, value in fields.items():
            setattr(pairing, name, value)
    return bool(written)


# ----- no-shows --------------------------------------------------------------------------------

def give_walkovers(competition: Competition, pairings, results: dict, people: Roster, now: datetime) -> bool:
    """At the deadline: every undecided pairing without a running table is a walkover."""
    changed = False
    checks = checked_in([p.pk for p in pairings])
    for pairing in pairings:
        if pairing.is_decided:
            continue
        result = results.get(pairing.match_id)
        if result is not None and result.is_waiting:
            gameplay.abort_match(pairing.match_id, "no-show")  # a table that never filled
        elif result is not None:
            continue  # playing, or finished by a path this step has not seen yet
        changed |= walk_over(competition, pairing, people, checks.get(pairing.pk, set()), now)
    return changed


def walk_over(competition: Competition, pairing: Pairing, people: Roster, checked: set[int], now) -> bool:
    """Against a removed pair the other wins; otherwise the format's `no_show` rule decides from who
    showed, with the pair that has more players checked in, then the better seed, preferred."""
    home_in, away_in = people.entries[pairing.home_id].is_active, people.entries[pairing.away_id].is_active
    if home_in != away_in:  # against a withdrawn or disqualified pair
        return decide(pairing, pairing.home_id if home_in else pairing.away_id, 0, 0, True,
                      Pairing.Source.WALKOVER, now)
    sides = (pairing.home_id, pairing.away_id)
    shown = {entry for entry in sides if people.shown(entry, checked)}
    preference = sorted(sides, key=lambda e: (
        not people.entries[e].is_active, -people.checked_count(e, checked), people.entries[e].seed or 10**6))
    winner = get_format(competition.format).no_show(pairing.home_id, pairing.away_id, shown, preference)
    return decide(pairing, winner, 0, 0, True, Pairing.Source.WALKOVER, now)


# ----- the next round --------------------------------------------------------------------------

def make_next_rounds(competition: Competition, people: Roster, now: datetime) -> bool:
    changed = False
    for _attempt in range(MAX_ROUNDS_PER_STEP):
        rounds = list(drawn(competition).order_by("number"))
        if any(r.status != Round.Status.COMPLETE for r in rounds):
            return changed
        try:
            new = make_round(competition, rounds[-1] if rounds else None, now)
        except FormatError:
            logger.exception("competition %s: the format could not make the next round", competition.pk)
            return changed
        if new is None:
            finish(competition, now)
            return True
        changed = True
        advance_round(competition, new, people, now)
    return changed


def make_round(competition: Competition, previous: Round | None, now: datetime) -> Round | None:
    """The format's next round, or None once it has no more (a season made in advance has none)."""
    fmt = get_format(competition.format)
    if fmt.season is not None:
        return None
    snap = snapshot(competition)
    entries = snap.active if fmt.pairs_active_only else snap.field
    pairings = fmt.next_round(entries, snap.values, snap.results, format_options(competition))
    if not pairings:
        return None
    number = pairings[0].round
    scheduled = Round.objects.filter(competition=competition, number=number).first()
    starts_at = competition.starts_at if previous is None else max(
        now, previous.starts_at + competition.round_interval, scheduled.starts_at if scheduled else now)
    # Rounds nobody plays (a knockout's, skipped) are dropped: their numbers are not the next draw's.
    undrawn(competition).filter(number__lt=number).delete()
    made = save_round(competition, number, starts_at, starts_at + competition.grace, pairings)
    if previous is None:
        schedule_later_rounds(competition, fmt, len(snap.field), made)
    return made


def undrawn(competition: Competition):
    return competition.rounds.exclude(Exists(Pairing.objects.filter(round=OuterRef("pk"))))


def schedule_later_rounds(competition: Competition, fmt, pairs: int, first: Round) -> None:
    """Every later round the format can count from the field, with its time (round_interval after
    the one before) and no pairings until its draw."""
    total = fmt.total_rounds(pairs, format_options(competition))
    Round.objects.bulk_create([
        Round(competition=competition, number=number,
              starts_at=first.starts_at + (number - first.number) * competition.round_interval,
              deadline=first.starts_at + (number - first.number) * competition.round_interval + competition.grace)
        for number in range(first.number + 1, total + 1)])


def later_rounds_follow(round_row: Round) -> None:
    """After a round moved: the later rounds not yet drawn start no earlier than it (each
    round_interval after the one before), so the schedule keeps its order."""
    competition = round_row.competition
    previous = round_row.starts_at
    for later in undrawn(competition).filter(number__gt=round_row.number).order_by("number"):
        earliest = previous + competition.round_interval
        if later.starts_at < earliest:
            later.deadline += earliest - later.starts_at
            later.starts_at = earliest
            later.save(update_fields=["starts_at", "deadline"])
        previous = later.starts_at


def finish(competition: Competition, now: datetime) -> None:
    undrawn(competition).delete()  # scheduled for what was never needed (a grand-final reset)
    competition.status, competition.finished_at = Competition.Status.FINISHED, now
    competition.save(update_fields=["status", "finished_at"])
    if competition.is_duplicate and competition.is_public:
        gameplay.publish_matches(Pairing.objects.filter(competition=competition).values_list("match_id", flat=True))
    AuditEntry.objects.create(competition=competition, action=AuditEntry.Action.FINISHED)


# ----- players' actions ------------------------------------------------------------------------

def check_in(user, pairing_id: int, now: datetime | None = None) -> Pairing:
    """A player says "I am here"; when all four have, the table is created (and started if its
    time has come). Raises CompetitionError with a reason."""
    now = now or timezone.now()
    with transaction.atomic():
        competition_id = Pairing.objects.filter(pk=pairing_id).values_list("competition_id", flat=True).first()
        if competition_id is None:
            raise CompetitionError(_("There is no such pairing."))
        competition = Competition.objects.select_for_update().get(pk=competition_id)
        pairing = Pairing.objects.select_related("round").get(pk=pairing_id)
        people = Roster(competition)
        if user.pk not in people.players.get(pairing.home_id, []) + people.players.get(pairing.away_id or 0, []):
            raise CompetitionError(_("You do not play in this pairing."))
        round_row = pairing.round
        round_row.competition = competition
        if pairing.is_decided or round_row.status != Round.Status.OPEN:
            raise CompetitionError(_("Check-in is not open for this pairing."))
        if now >= pairing.deadline:
            raise CompetitionError(_("Check-in has closed for this pairing."))
        if pairing.starts_at is not None and now < pairing.opens_at:  # moved by the organiser
            raise CompetitionError(_("Check-in for this match opens at %(when)s.") % {
                "when": display.in_zone(pairing.opens_at, competition.club.time_zone)})
        CheckIn.objects.get_or_create(pairing=pairing, user=user)
        send_competition_changed(competition.pk)
        checked = checked_in([pairing.pk]).get(pairing.pk, set())
        if pairing.match_id is None and people.shown(pairing.home_id, checked) and people.shown(pairing.away_id, checked):
            create_table(competition, round_row, pairing, people)
        return pairing
