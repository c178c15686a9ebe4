"""The demo club in mid-season, for `make run` (seed_demo): made by the services that make real data.

- a league of the four human pairs: two weeks played (rated matches, in the archive with their
  replays), the third week a few minutes after the seed, so each demo player's home counts down to
  it and offers a check-in when it opens;
- a Swiss of bot pairs in its second round: its tables are in play, watchable from the lobby;
- a finished knockout of bot pairs, its whole bracket played and a champion;
- casual tables of four bots in play (Baloot, Cuatrola), also in the lobby.

Competitions are created through tournaments' services (organiser, entries, manager), matches are
played through gameplay's (`services.take` with `Act.by_player` for the humans, `play_bot_turn`
for bots) and rated through the ratings service. Bots are moved here, in this thread
(`playing_bots`), so nothing is left to a Celery task; the tables left in play are moved on by
the worker's stalled-bot sweep once `make run` has started it, then by its own bot tasks.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from gameplay import services as gameplay
from gameplay.bots import DEFAULT_LEVEL
from gameplay.models import Match
from gameplay.rules import get_game
from gameplay.services.moves import playing_bots
from tournaments.models import Competition, Pairing, Round
from tournaments.ratings import services as ratings
from tournaments.services import entries, manager, organiser

LEAGUE_SLUG = "monday-league"
NEXT_WEEK_IN = timedelta(minutes=10)  # the league's next week starts this long after the seed
MAX_STEPS = 40
BOT_TABLE_GAMES = 5


def seed_world(club, admin, pairs) -> bool:
    """Seed once; False (and nothing done) when the club already has its league."""
    if Competition.objects.filter(club=club, slug=LEAGUE_SLUG).exists():
        return False
    now = timezone.now()
    rng = random.Random(31)
    with playing_bots():
        league(club, admin, pairs, now, rng)
        knockout(club, admin, now)
        swiss(club, admin, now)
        bot_tables(admin)
    return True


def new_competition(club, admin, *, slug, name, format, preset="short_seven", game="allfours", **fields):
    engine = get_game(game)
    competition = Competition(
        club=club, slug=slug, name=name, game=game, format=format, preset=preset,
        options=engine.resolve_options(dict(engine.presets[preset])), created_by=admin,
        kind=Competition.Kind.LEAGUE if format == "league" else Competition.Kind.TOURNAMENT, **fields)
    return organiser.create_competition(competition, admin)


# ----- the league: two weeks played, the third one soon ----------------------------------------

def league(club, admin, pairs, now, rng) -> Competition:
    week = timedelta(days=7)
    first = now + NEXT_WEEK_IN - 2 * week
    competition = new_competition(
        club, admin, slug=LEAGUE_SLUG, name="Monday League", format="league", starts_at=first,
        round_interval=week, check_in=timedelta(0), grace=timedelta(minutes=15), time_control=0)
    for users in pairs:
        entries.add_pair(competition, admin, users)
    manager.step(competition.pk, now=first)  # the season: every week's fixtures
    for number in (1, 2):
        play_week(competition, number, rng)
    return competition


def play_week(competition, number: int, rng) -> None:
    """Everyone checks in at the week's start, the tables are played out, the results recorded."""
    round_row = Round.objects.get(competition=competition, number=number)
    at = round_row.starts_at
    manager.step(competition.pk, now=at)  # opens the week
    people = manager.Roster(competition)
    for pairing in Pairing.objects.filter(round=round_row, away__isnull=False):
        for user_id in people.players[pairing.home_id] + people.players[pairing.away_id]:
            manager.check_in(people.users()[user_id], pairing.pk, now=at)
    for match_id in Pairing.objects.filter(round=round_row).exclude(match=None).values_list("match_id", flat=True):
        play_out(match_id, rng)
        ratings.rate_finished_match(match_id)
    manager.step(competition.pk, now=at + timedelta(minutes=1))  # records the results


def play_out(match_id: int, rng) -> None:
    """Play a table to its end: each human's move is a legal one chosen at random, bots play theirs."""
    gameplay.start_waiting(match_id)
    for _ in range(5000):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            return
        live = gameplay.live_table(match)
        seat = live.table.to_act
        if seat is None:
            return
        if seat in live.bots:
            gameplay.play_bot_turn(match_id)
            continue
        user = match.seats.get(seat=seat).user
        action = rng.choice(live.table.view(seat)["legal"])
        gameplay.take(match_id, gameplay.Act.by_player(user, live.table.seq, f"demo-{live.table.seq}", action))
    raise RuntimeError(f"match {match_id} did not finish")


# ----- bot competitions ------------------------------------------------------------------------

def drive(competition, *, until) -> Competition:
    """Step the competition and play its tables out until `until(competition)` holds."""
    for _ in range(MAX_STEPS):
        manager.step(competition.pk)
        competition.refresh_from_db()
        if until(competition):
            return competition
        playing = Pairing.objects.filter(competition=competition, match__status=Match.Status.PLAYING)
        for match_id in playing.values_list("match_id", flat=True):
            while gameplay.play_bot_turn(match_id) is not None:
                pass
    raise RuntimeError(f"{competition.name} did not get there")


def knockout(club, admin, now) -> Competition:
    competition = new_competition(
        club, admin, slug="winter-cup", name="Winter Cup", format="single_elimination", starts_at=now,
        check_in=timedelta(0), round_interval=timedelta(0), time_control=0)
    entries.add_bot_pairs(competition, admin, 8, bot=DEFAULT_LEVEL)
    return drive(competition, until=lambda c: c.status == Competition.Status.FINISHED)


def swiss(club, admin, now) -> Competition:
    """Round one played, round two's tables in play (full-length games: they last a while)."""
    competition = new_competition(
        club, admin, slug="thursday-swiss", name="Thursday Swiss", format="swiss", preset="trinidad_standard",
        starts_at=now, swiss_rounds=3, check_in=timedelta(0), round_interval=timedelta(0))
    entries.add_bot_pairs(competition, admin, 4, bot=DEFAULT_LEVEL)
    return drive(competition, until=lambda c: Pairing.objects.filter(
        competition=c, round_number=2, match__status=Match.Status.PLAYING).exists())


def bot_tables(admin) -> list[int]:
    """Casual tables of four bots in play, for anyone to watch: the first to win BOT_TABLE_GAMES
    games, so they are still playing a good while after `make run` starts."""
    seats = [gameplay.SeatSpec(bot=DEFAULT_LEVEL)] * 4
    return [gameplay.create_match(game, {}, seats, created_by=admin, games_to_win=BOT_TABLE_GAMES).pk
            for game in ("baloot", "cuatrola")]
