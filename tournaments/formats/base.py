"""The one interface every competition format implements, and its value types.

A format is pure: it never touches the database. A thin Django layer loads the
competition's entries, pairings and results, calls ``fmt.next_round(...)`` and
saves the pairings it returns (compare Tabbycat's ``draw/generator`` versus
``draw/manager.py``, docs/style.md §1).

Contract (decisions):

* ``Entry.id`` is whatever the layer uses as a key (an int primary key in
  practice); formats only hash and compare it.
* Pairings are numbered by ``round`` (1, 2, ...) and ``slot`` (1, 2, ... within
  the round); ``(round, slot)`` is the pairing's identity and is what a
  ``Result`` refers to.
* A bye is a pairing with ``away is None``. It needs no result: the home entry
  is treated as its winner (a win for standings).
* ``next_round`` returns the pairings of the next round, or ``()`` once the
  competition is complete. Formats whose next round depends on results
  (elimination, Swiss) raise ``RoundInProgress`` while a pairing of the latest
  round has no result. Round robin and league fixtures are fixed in advance and
  never wait.
* ``Result.winner is None`` is a draw, except with ``walkover=True`` where it is
  a double forfeit (both sides lose). Elimination formats reject draws.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional

EntryId = Hashable


@dataclass(frozen=True)
class Entry:
    """A pair entered in a competition. ``seed`` 1 is the strongest."""

    id: EntryId
    seed: Optional[int] = None
    rating: float = 1500.0


@dataclass(frozen=True)
class Pairing:
    """One match of a round. ``bracket``/``label`` locate it in a bracket."""

    round: int
    slot: int
    home: EntryId
    away: Optional[EntryId]
    bracket: str = "main"
    label: str = ""

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def key(self) -> tuple[int, int]:
        return (self.round, self.slot)


@dataclass(frozen=True)
class Result:
    """The outcome of the pairing ``(round, slot)``; points are games won."""

    round: int
    slot: int
    winner: Optional[EntryId]
    home_points: int = 0
    away_points: int = 0
    walkover: bool = False

    @property
    def key(self) -> tuple[int, int]:
        return (self.round, self.slot)


@dataclass(frozen=True)
class Options:
    """Per-competition knobs; each format reads the ones it understands."""

    rounds: Optional[int] = None          # Swiss: number of rounds (default ceil(log2 n))
    third_place_match: bool = False       # single elimination
    grand_final_reset: bool = True        # double elimination
    cycles: int = 1                       # round robin: 1 single, 2 double
    movement: str = "howell"              # duplicate: "howell" or "mitchell"
    boards_per_round: int = 2             # duplicate: 1 to 12
    group_size: int = 4                   # groups then knockout: pairs per group
    group_qualifiers: int = 2             # groups then knockout: how many of each group go through


class FormatError(Exception):
    """Base class of every error a format raises."""


class RoundInProgress(FormatError):
    """The latest round still has pairings without a result."""


class PairingImpossible(FormatError):
    """No legal pairing exists (e.g. more Swiss rounds than opponents)."""


class InvalidResult(FormatError):
    """A result does not fit its pairing (unknown slot, draw in a knockout...)."""


class UnknownFormat(FormatError, KeyError):
    """No format is registered under that key."""


NextRound = Callable[
    [Sequence[Entry], Sequence[Pairing], Iterable[Result], Options],
    tuple[Pairing, ...],
]


@dataclass(frozen=True)
class ScheduledRound:
    """A round of a season made in advance: its number, when it runs (``ends`` exclusive) and
    its pairings."""

    number: int
    starts: datetime
    ends: datetime
    pairings: tuple[Pairing, ...]


Season = Callable[[Sequence[Entry], datetime, timedelta, Options], tuple[ScheduledRound, ...]]
NoShow = Callable[[EntryId, EntryId, Collection[EntryId], Sequence[EntryId]], Optional[EntryId]]


def double_forfeit(home: EntryId, away: EntryId, shown: Collection[EntryId],
                   preference: Sequence[EntryId] = ()) -> Optional[EntryId]:
    """A no-show: the pair that showed wins by walkover; both or neither is a double forfeit
    (``None``: both lose)."""
    if (home in shown) != (away in shown):
        return home if home in shown else away
    return None


def someone_goes_through(home: EntryId, away: EntryId, shown: Collection[EntryId],
                         preference: Sequence[EntryId] = ()) -> Optional[EntryId]:
    """A knockout's no-show: the pair that showed, else the first of ``preference`` (the layer
    orders the two by players checked in, then seed), since someone must go through."""
    winner = double_forfeit(home, away, shown)
    return winner if winner is not None else next(iter(preference), home)


@dataclass(frozen=True)
class Format:
    """A registry value: a key, a human label, the pure functions, and how the format differs.

    - ``season``: makes every round at the start (a league's fixture weeks); ``None`` for a
      format whose rounds are made one after another by ``next_round``;
    - ``fixed_round_count``: the number of rounds is fixed from the field at the start (Swiss);
    - ``pairs_active_only``: a round pairs only the entries still in (Swiss), not the field;
    - ``no_show``: who wins a pairing nobody played by its deadline.
    """

    key: str
    label: str
    next_round: NextRound
    total_rounds: Callable[[int, Options], int]
    season: Optional[Season] = None
    fixed_round_count: bool = False
    pairs_active_only: bool = False
    no_show: NoShow = double_forfeit


def results_by_key(results: Iterable[Result]) -> dict[tuple[int, int], Result]:
    return {result.key: result for result in results}


def last_round(pairings: Sequence[Pairing]) -> int:
    return max((p.round for p in pairings), default=0)


def require_round_complete(
    pairings: Sequence[Pairing], results: Mapping[tuple[int, int], Result]
) -> int:
    """Return the latest round number; raise if a pairing of it is unfinished."""
    current = last_round(pairings)
    pending = [
        p.key for p in pairings
        if p.round == current and not p.is_bye and p.key not in results
    ]
    if pending:
        raise RoundInProgress(f"round {current} still has no result for slots {pending}")
    return current


def number_slots(round_no: int, pairs: Iterable[tuple]) -> tuple[Pairing, ...]:
    """Build the pairings of one round from ``(home, away, bracket, label)``."""
    return tuple(
        Pairing(round_no, slot, home, away, bracket, label)
        for slot, (home, away, bracket, label) in enumerate(pairs, start=1)
    )
