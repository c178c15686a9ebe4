"""*Play now*: a queue per game and preset that seats players of similar rating at a new table
(docs/playing.md, "Play now"); who sits together is gameplay/matchmaking.py's (pure).

- `join`: a player enters a queue with their current rating (read through the source the ratings
  app registers: gameplay does not import it) and, if they want, a wait after which bots may
  fill the table. A player waiting in another queue is refused (`QueueRefused`), changing
  nothing; the same queue again keeps their place. Matching runs at once after the commit.
- `match_queue` seats whoever fits. It runs on every join and from the periodic
  `gameplay.match_queues` task (config/celery.py: the windows widen and bots' waits run out with
  time). Safe with any number of processes: the waiting rows are read `FOR UPDATE SKIP LOCKED`
  in one transaction with the tables they make, so a row another process is seating is skipped
  and nobody is seated twice.
- `leave`: out of the queue (a player already seated stays seated).
- `pick_up`: the table a player's queue seated them at, once (their page then opens it).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from gameplay import matchmaking
from gameplay.bots import DEFAULT_LEVEL
from gameplay.forms import CASUAL_CHECKIN_SECONDS, CASUAL_TIMEOUT_RESULT, queue_label
from gameplay.models import Game, Match, QueueEntry
from gameplay.rules import get_game
from gameplay.services import SeatSpec, create_match

logger = logging.getLogger("chalk.gameplay")

PLAY_NOW_CLOCK = 30  # seconds per decision: strangers do not wait on each other untimed
START_RATING = 1500.0
_rating_source = None  # (user, game) -> Elo; registered by the ratings app (tournaments/ratings/apps.py)


class QueueRefused(Exception):
    """A join the queue refuses; `message` says why, in words a person reads."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def use_ratings(source) -> None:
    """Register how a player's rating in a game is read (the ratings app does, at start-up)."""
    global _rating_source
    _rating_source = source


def rating_of(user, game: str) -> float:
    return float(_rating_source(user, game)) if _rating_source is not None else START_RATING


def queues() -> list[tuple[str, str]]:
    """Every queue: (game, preset) of each game's presets, in the games' order."""
    return [(game, preset) for game in Game.values for preset in get_game(game).presets]


def join(user, game: str, preset: str, bots_after: int | None, now=None) -> QueueEntry:
    """Enter the queue of `game` and `preset` (see the module's docstring)."""
    if (game, preset) not in queues():
        raise QueueRefused("bad_message", "There is no such queue.")
    now = now or timezone.now()
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(user=user).first()
        if entry is not None and entry.match_id is None:
            if (entry.game, entry.preset) != (game, preset):
                raise QueueRefused("already_queued", str(already_queued(entry)))
            entry.bots_after = bots_after  # the same queue: keep the place, take the new choice
            entry.save(update_fields=["bots_after"])
        else:
            if entry is not None:  # seated by an earlier queue: that table is theirs already
                entry.delete()
            entry = QueueEntry.objects.create(user=user, game=game, preset=preset, rating=rating_of(user, game),
                                              bots_after=bots_after, joined_at=now)
    match_queue(game, preset, now)
    entry.refresh_from_db()
    return entry


def already_queued(entry: QueueEntry) -> str:
    from django.utils.translation import gettext

    return gettext("You are already waiting for %(queue)s: leave that queue first.") % {
        "queue": queue_label(entry.game, entry.preset)}


def leave(user) -> bool:
    """Out of the queue; False when the player was not waiting."""
    return QueueEntry.objects.filter(user=user, match__isnull=True).delete()[0] > 0


def waiting_entry(user) -> QueueEntry | None:
    return QueueEntry.objects.filter(user=user).first() if getattr(user, "pk", None) else None


def pick_up(user) -> int | None:
    """The table the queue seated this player at, while it is still on (their entry is then
    done), else None. A player the home's socket already took there finds the form next time."""
    with transaction.atomic():
        entry = (QueueEntry.objects.select_for_update().filter(user=user, match__isnull=False)
                 .select_related("match").first())
        if entry is None:
            return None
        entry.delete()
        return None if entry.match.is_finished else entry.match_id


def match_queue(game: str, preset: str, now=None) -> list[int]:
    """Seat whoever fits in one queue now; the new tables' ids."""
    now = now or timezone.now()
    engine = get_game(game)
    options = table_options(game, preset)
    size = engine.players(options)
    made = []
    with transaction.atomic():
        rows = list(QueueEntry.objects.select_for_update(skip_locked=True)
                    .filter(game=game, preset=preset, match__isnull=True).select_related("user").order_by("joined_at"))
        by_id = {row.pk: row for row in rows}
        waiting = [matchmaking.Waiting(row.pk, row.rating, (now - row.joined_at).total_seconds(), row.bots_after)
                   for row in rows]
        for group in matchmaking.tables(waiting, size):
            seats = [SeatSpec(user=by_id[player.id].user) if player else SeatSpec(bot=DEFAULT_LEVEL)
                     for player in matchmaking.seating(group, size)]
            match = create_match(game, options, seats, time_control=PLAY_NOW_CLOCK,
                                 checkin_seconds=CASUAL_CHECKIN_SECONDS)
            QueueEntry.objects.filter(pk__in=[player.id for player in group]).update(match=match)
            made.append(match.pk)
    if made:
        logger.info("play now %s/%s: seated tables %s", game, preset, made)
    return made


def match_all(now=None) -> list[int]:
    """Every queue with someone waiting (the periodic task)."""
    waiting = (QueueEntry.objects.filter(match__isnull=True).values_list("game", "preset").distinct())
    return [pk for game, preset in list(waiting) for pk in match_queue(game, preset, now)]


def table_options(game: str, preset: str) -> dict:
    """A Play now table's rules: the preset, a clock that plays a default move (casual), the
    engine's turn timer at the table's clock where the game has one."""
    engine = get_game(game)
    options = {"timeout_result": CASUAL_TIMEOUT_RESULT, **engine.presets[preset]}
    if any(option.key == "turn_timer_seconds" for option in engine.options_spec):
        options["turn_timer_seconds"] = PLAY_NOW_CLOCK
    return engine.resolve_options({key: value for key, value in options.items()
                                   if any(option.key == key for option in engine.options_spec)})


def waited_seconds(entry: QueueEntry, now=None) -> int:
    return max(0, int(((now or timezone.now()) - entry.joined_at) / timedelta(seconds=1)))
