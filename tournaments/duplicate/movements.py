"""Movements: who plays whom, at which table, on which boards (docs/duplicate.md, "Movements").

A movement is a list of rounds; a round is a list of ``Seating(table, ns_pair, ew_pair,
board_group)``. Tables, pairs, rounds and board groups are numbered from 1; board group g holds
boards ``(g-1)*boards_per_round + 1`` to ``g*boards_per_round``. Two movements:

- **Mitchell**: the N/S pairs stay at their table, the E/W pairs move up a table and the board
  groups move down a table each round. With an odd number of tables every E/W pair meets every
  N/S pair and plays every group once. With an even number the E/W pairs would meet the groups
  they have played after half the rounds, so they *skip* a table at half time (a skip Mitchell)
  and the movement has one round fewer than tables. N/S pairs are compared only with N/S pairs.
- **Howell**: every pair meets every other pair exactly once, in (pairs - 1) rounds, and plays
  every board group exactly once. Pair ``field`` stays at table 1; the others rotate (the circle
  method); each table of a round plays a different group, from offsets found once per field size
  (for 4, 6 and 10 pairs no such offsets exist, and every table of a round plays the same group,
  as online duplicate does).

An odd number of pairs gets a *phantom* pair, the highest number: with ``SIT_OUT`` its side of
the seating is ``None`` and its opponents sit the round out; with ``BOT_PAIR`` it is a pair of
bots that plays like any other. A movement fits when every board group is played by at least
two tables (a board played once has nothing to be compared with).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from .errors import MovementError

MITCHELL, HOWELL = "mitchell", "howell"
KINDS = (MITCHELL, HOWELL)
NAMES = {MITCHELL: "Mitchell", HOWELL: "Howell"}
SIT_OUT, BOT_PAIR = "sit_out", "bot_pair"
MIN_BOARDS_PER_ROUND, MAX_BOARDS_PER_ROUND = 1, 12
MIN_PLAYS_PER_BOARD = 2
HOWELL_FIELD = (4, 16)     # a Howell is for small fields: (pairs - 1) rounds
MITCHELL_FIELD = (6, 60)   # at least 3 tables


class Seating(NamedTuple):
    table: int
    ns_pair: int | None
    ew_pair: int | None
    board_group: int

    @property
    def is_played(self) -> bool:
        return self.ns_pair is not None and self.ew_pair is not None


@dataclass(frozen=True)
class Movement:
    kind: str
    pairs: int                      # pairs entered (bots of an odd count not included)
    phantom: int | None             # the extra pair of an odd count, else None
    odd: str | None                 # SIT_OUT or BOT_PAIR when there is a phantom
    tables: int
    board_groups: int
    boards_per_round: int
    rounds: tuple[tuple[Seating, ...], ...]

    @property
    def bot_pair(self) -> int | None:
        return self.phantom if self.odd == BOT_PAIR else None

    @property
    def board_count(self) -> int:
        return self.board_groups * self.boards_per_round

    def boards_of(self, group: int) -> range:
        return range((group - 1) * self.boards_per_round + 1, group * self.boards_per_round + 1)

    def group_of(self, board: int) -> int:
        return (board - 1) // self.boards_per_round + 1

    @property
    def tables_share_boards(self) -> bool:
        """Whether two tables of a round play the same group (then they play it at the same time)."""
        return any(len({s.board_group for s in r}) < len(r) for r in self.rounds)

    def played(self, round_number: int) -> tuple[Seating, ...]:
        """The tables of a round that play (a sit-out's table does not)."""
        return tuple(s for s in self.rounds[round_number - 1] if s.is_played)

    def sitting_out(self, round_number: int) -> int | None:
        """The pair with no opponent in that round (only with SIT_OUT), else None."""
        for seating in self.rounds[round_number - 1]:
            if not seating.is_played:
                return seating.ns_pair if seating.ns_pair is not None else seating.ew_pair
        return None

    @property
    def plays_per_board(self) -> int:
        """How many tables play the board most played: the count Neuberg's formula expects."""
        return max(_plays_per_group(self.rounds).values())


@dataclass(frozen=True)
class Fit:
    """A movement that fits a number of pairs, as the organiser's form offers it."""
    kind: str
    pairs: int
    odd: str | None
    tables: int
    rounds: int
    board_groups: int
    fewest_plays_per_board: int

    def describe(self) -> str:
        return (f"{NAMES[self.kind]}: {self.tables} tables, {self.rounds} rounds, "
                f"{self.board_groups} board groups of {MIN_BOARDS_PER_ROUND} to "
                f"{MAX_BOARDS_PER_ROUND} boards")


def fitting(pairs: int, odd: str = SIT_OUT) -> list[Fit]:
    """Every movement that fits ``pairs`` pairs, with its tables, rounds and board groups."""
    _check_pairs(pairs, odd)
    fits = []
    for kind in KINDS:
        layout, why = _layout(kind, pairs, odd, None)
        if why is None:
            fits.append(Fit(kind, pairs, odd if pairs % 2 else None, len(layout[0]), len(layout),
                            len(_plays_per_group(layout)), min(_plays_per_group(layout).values())))
    return fits


def make_movement(kind: str, pairs: int, boards_per_round: int, odd: str = SIT_OUT,
                  rounds: int | None = None) -> Movement:
    """The movement, or ``MovementError`` saying why it does not fit and what would.

    ``rounds`` may shorten a Mitchell (a Howell must be complete to keep its promise)."""
    _check_pairs(pairs, odd)
    if type(boards_per_round) is not int or not MIN_BOARDS_PER_ROUND <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise MovementError(f"boards per round must be a whole number from {MIN_BOARDS_PER_ROUND} "
                            f"to {MAX_BOARDS_PER_ROUND}; got {boards_per_round!r}")
    if kind not in KINDS:
        raise MovementError(f"unknown movement {kind!r}; the movements are {', '.join(KINDS)}")
    layout, why = _layout(kind, pairs, odd, rounds)
    if why is not None:
        raise MovementError(f"a {NAMES[kind]} does not fit {_pairs(pairs)}: {why}. {what_fits(pairs, odd)}")
    phantom = pairs + 1 if pairs % 2 else None
    return Movement(kind, pairs, phantom, odd if phantom else None, len(layout[0]),
                    len(_plays_per_group(layout)), boards_per_round, layout)


def what_fits(pairs: int, odd: str = SIT_OUT) -> str:
    """A sentence for the organiser: the movements that fit this number of pairs."""
    fits = fitting(pairs, odd)
    if fits:
        return f"What fits {_pairs(pairs)}: " + "; ".join(fit.describe() for fit in fits) + "."
    other = BOT_PAIR if odd == SIT_OUT else SIT_OUT
    if pairs % 2 and fitting(pairs, other):
        return (f"Nothing fits {_pairs(pairs)} with a {odd.replace('_', ' ')}; with a "
                f"{other.replace('_', ' ')}: " + "; ".join(f.describe() for f in fitting(pairs, other)) + ".")
    return (f"Nothing fits {_pairs(pairs)}: a Howell takes {HOWELL_FIELD[0]} to {HOWELL_FIELD[1]} pairs "
            f"and a Mitchell {MITCHELL_FIELD[0] - 1} to {MITCHELL_FIELD[1]}.")


def _pairs(count: int) -> str:
    return "1 pair" if count == 1 else f"{count} pairs"


def _check_pairs(pairs, odd) -> None:
    if type(pairs) is not int or pairs < 0:
        raise MovementError(f"the number of pairs must be a whole number; got {pairs!r}")
    if odd not in (SIT_OUT, BOT_PAIR):
        raise MovementError(f"an odd number of pairs takes {SIT_OUT!r} or {BOT_PAIR!r}; got {odd!r}")


def _layout(kind, pairs, odd, rounds):
    """(rounds of seatings, None) or (None, why it does not fit)."""
    field = pairs + pairs % 2
    low, high = HOWELL_FIELD if kind == HOWELL else MITCHELL_FIELD
    if not low <= field <= high:
        return None, f"it takes {low} to {high} pairs (counting the phantom of an odd count)"
    if kind == HOWELL:
        if rounds is not None and rounds != field - 1:
            return None, f"a Howell of {field} pairs has {field - 1} rounds, no fewer"
        layout = _howell(field)
    else:
        full = _mitchell_rounds(field // 2)
        if rounds is not None and (type(rounds) is not int or not 1 <= rounds <= full):
            return None, f"it has 1 to {full} rounds for {field // 2} tables; got {rounds!r}"
        layout = _mitchell(field // 2, rounds or full)
    if pairs % 2 and odd == SIT_OUT:
        layout = _without(layout, field)
    fewest = min(_plays_per_group(layout).values())
    if fewest < MIN_PLAYS_PER_BOARD:
        return None, (f"a board would be played by only {fewest} table, and a board needs "
                      f"{MIN_PLAYS_PER_BOARD} to be compared")
    return layout, None


def _mitchell_rounds(tables: int) -> int:
    return tables if tables % 2 else tables - 1


def _mitchell(tables: int, rounds: int) -> tuple[tuple[Seating, ...], ...]:
    """N/S pair t at table t; E/W pairs tables+1.. move up, skipping a table at half time when
    the number of tables is even; group of table t in round r is t + r (moving down)."""
    skip = tables % 2 == 0
    layout = []
    for r in range(rounds):
        shift = r + (1 if skip and r >= tables // 2 else 0)
        layout.append(tuple(Seating(t + 1, t + 1, tables + 1 + (t - shift) % tables, (t + r) % tables + 1)
                            for t in range(tables)))
    return tuple(layout)


def _howell(field: int) -> tuple[tuple[Seating, ...], ...]:
    """The circle method: pair ``field`` stays at table 1; in round r the others meet as
    (r + k, r - k) at table k + 1; table k + 1 plays group r + offset[k]."""
    size = field - 1
    offsets = _howell_offsets(size)
    layout = []
    for r in range(size):
        first = (field, r + 1) if r % 2 == 0 else (r + 1, field)
        seatings = [Seating(1, *first, (r + offsets[0]) % size + 1)]
        for k in range(1, field // 2):
            seatings.append(Seating(k + 1, (r + k) % size + 1, (r - k) % size + 1,
                                    (r + offsets[k]) % size + 1))
        layout.append(tuple(seatings))
    return tuple(layout)


@lru_cache(maxsize=None)
def _howell_offsets(size: int) -> tuple[int, ...]:
    """Offsets c_0..c_{T-1}, distinct mod ``size``, such that {c_0} and every c_k - k, c_k + k
    are distinct mod ``size``: then a round's tables play different groups and each pair
    (which sits at table k + 1 in rounds x - k and x + k) plays every group once. When no such
    offsets exist, all zero: {0, -k, +k} covers every residue, so each pair still plays every
    group once, and all the tables of a round play the same group."""
    tables = (size + 1) // 2

    def extend(chosen: tuple[int, ...], used: frozenset) -> tuple[int, ...] | None:
        k = len(chosen)
        if k == tables:
            return chosen
        for c in range(size):
            if c in chosen:
                continue
            hits = {c} if k == 0 else {(c - k) % size, (c + k) % size}
            if hits & used:
                continue
            found = extend(chosen + (c,), used | hits)
            if found:
                return found
        return None

    # None for 3, 5 and 9 rounds: then every table of a round plays the round's group.
    return extend((), frozenset()) or (0,) * tables


def _without(layout, phantom: int):
    return tuple(tuple(s._replace(ns_pair=None if s.ns_pair == phantom else s.ns_pair,
                                  ew_pair=None if s.ew_pair == phantom else s.ew_pair)
                       for s in seatings) for seatings in layout)


def _plays_per_group(layout) -> dict[int, int]:
    plays: dict[int, int] = {}
    for seatings in layout:
        for s in seatings:
            plays[s.board_group] = plays.get(s.board_group, 0) + (1 if s.is_played else 0)
    return plays
