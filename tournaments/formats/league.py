"""Club league season: a double round robin spread over fixture weeks.

Each round of the double round robin (``round_robin.all_rounds`` with two
cycles, FIDE Berger order) is one fixture week. Week w (1-based) runs from
``start + (w - 1) * interval`` (inclusive) to ``start + (w - 1) * interval +
length`` (exclusive); by default ``length == interval == 7 days``.

A fixture may be played at any time inside its week once all four players are
present; the live layer creates the match then. A fixture still unplayed when
its week ends is forfeited (``forfeits_due``):

* the pair that showed ready during the week wins by walkover;
* if both or neither showed, it is a double forfeit (``winner=None``,
  ``walkover=True``: both sides lose; our decision, since the scheduling
  failure cannot be pinned on one side).

Decisions: weeks are consecutive (no breaks; the layer may shift ``start`` to
model a break); all times are timezone-aware datetimes compared as given.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional

from . import round_robin
from .base import Entry, EntryId, Format, Options, Pairing, Result, ScheduledRound, last_round

LEAGUE_CYCLES = 2


@dataclass(frozen=True)
class Week:
    number: int
    starts: datetime
    ends: datetime          # exclusive

    def contains(self, moment: datetime) -> bool:
        return self.starts <= moment < self.ends


@dataclass(frozen=True)
class Fixture:
    """A pairing placed in its week."""

    pairing: Pairing
    week: Week


def _season_options(options: Options) -> Options:
    return Options(rounds=options.rounds, cycles=LEAGUE_CYCLES)


def fixture_weeks(start: datetime, interval: timedelta, count: int,
                  length: Optional[timedelta] = None) -> tuple[Week, ...]:
    """``count`` consecutive fixture weeks from ``start``."""
    length = interval if length is None else length
    return tuple(
        Week(n, start + (n - 1) * interval, start + (n - 1) * interval + length)
        for n in range(1, count + 1)
    )


def fixtures(entries: Sequence[Entry], start: datetime, interval: timedelta = timedelta(days=7),
             options: Options = Options()) -> tuple[Fixture, ...]:
    """The whole season: every pairing with its week (round n is week n)."""
    rounds = round_robin.all_rounds(entries, _season_options(options))
    weeks = fixture_weeks(start, interval, len(rounds))
    return tuple(Fixture(p, week) for week, pairings in zip(weeks, rounds) for p in pairings)


def forfeits_due(fixtures: Iterable[Fixture], finished: Collection[tuple[int, int]],
                 ready: Collection[EntryId], now: datetime) -> tuple[Result, ...]:
    """Results to record for fixtures whose week has ended unplayed.

    ``finished``: ``(round, slot)`` of fixtures with a result (or a live match
    already under way, which the match layer finishes); ``ready``: entries that
    showed ready for their fixture during its week (the layer filters by week).
    Byes are never forfeited.
    """
    due = []
    for fixture in fixtures:
        p = fixture.pairing
        if p.is_bye or p.key in finished or now < fixture.week.ends:
            continue
        home_ready, away_ready = p.home in ready, p.away in ready
        winner = p.home if home_ready and not away_ready else (
            p.away if away_ready and not home_ready else None)
        due.append(Result(p.round, p.slot, winner, walkover=True))
    return tuple(due)


def next_round(entries: Sequence[Entry], pairings: Sequence[Pairing],
               results: Iterable[Result] = (), options: Options = Options()) -> tuple[Pairing, ...]:
    """The next fixture week's pairings; fixtures never wait for results."""
    rounds = round_robin.all_rounds(entries, _season_options(options))
    current = last_round(pairings)
    return rounds[current] if current < len(rounds) else ()


def total_rounds(count: int, options: Options = Options()) -> int:
    return round_robin.total_rounds(count, _season_options(options))


def season(entries: Sequence[Entry], start: datetime, interval: timedelta = timedelta(days=7),
           options: Options = Options()) -> tuple[ScheduledRound, ...]:
    """Every fixture week at once, as rounds: week n runs [start + (n-1) interval, start + n interval)."""
    rounds = round_robin.all_rounds(entries, _season_options(options))
    weeks = fixture_weeks(start, interval, len(rounds))
    return tuple(ScheduledRound(week.number, week.starts, week.ends, pairings) for week, pairings in zip(weeks, rounds))


FORMAT = Format("league", "League season", next_round, total_rounds, season=season)


def rest_weeks(pairings: Iterable[tuple[int, int, EntryId | None]]) -> list[tuple[int, int]]:
    """(round, slot) of each rest week among `pairings` given as (round, slot, away): with an odd
    number of pairs the fixture rests one pair a week (a pairing without an away pair). A pair that
    enters late takes these places, playing the pair that would have rested (docs/entries.md)."""
    return [(round_no, slot) for round_no, slot, away in pairings if away is None]
