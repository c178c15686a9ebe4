"""Who sits together in a *Play now* queue: pure, no Django (gameplay/play_now.py loads the
queue, calls `tables` and seats what it returns).

- Each waiting player accepts opponents and partners within a rating *window* that widens with
  their wait: WINDOW_START Elo at once, WINDOW_GROWTH more each second, at most WINDOW_MAX. Two
  players may sit together when their difference is within both windows (each accepts the other).
- The longest-waiting player is placed first, with the players closest to them in rating who
  fit everyone already at the table: similar ratings are paired before wider ones.
- A player who asked for bots, once their chosen wait is over, gets a table with the compatible
  players who also accept bots, the empty seats for bots.
- `seating`: the strongest and the weakest partner the two middle players (seats 0 & 2 against
  1 & 3), so the teams are as even as the four allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

WINDOW_START = 100.0  # Elo either side, at once
WINDOW_GROWTH = 5.0  # Elo more per second waited (300 more after a minute)
WINDOW_MAX = 1000.0


@dataclass(frozen=True)
class Waiting:
    id: int
    rating: float
    waited: float  # seconds in the queue
    bots_after: Optional[int] = None  # seconds after which bots may fill the table; None: never


def window(waited: float) -> float:
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * max(0.0, waited))


def compatible(a: Waiting, b: Waiting) -> bool:
    return abs(a.rating - b.rating) <= min(window(a.waited), window(b.waited))


def wants_bots_now(player: Waiting) -> bool:
    return player.bots_after is not None and player.waited >= player.bots_after


def tables(waiting: list[Waiting], size: int) -> list[list[Waiting]]:
    """The tables to seat now: full ones of `size` players, and short ones (bots fill the rest)
    for players whose chosen wait for bots is over. Nobody appears twice."""
    pool = sorted(waiting, key=lambda player: (-player.waited, player.id))
    taken: set[int] = set()
    found = []
    for anchor in pool:
        if anchor.id in taken:
            continue
        free = [p for p in pool if p.id not in taken and p.id != anchor.id]
        group = _around(anchor, free, size)
        if len(group) < size:
            if not wants_bots_now(anchor):
                continue
            group = _around(anchor, [p for p in free if p.bots_after is not None], size)
        found.append(group)
        taken.update(player.id for player in group)
    return found


def _around(anchor: Waiting, free: list[Waiting], size: int) -> list[Waiting]:
    """The anchor and, closest in rating first, the players who fit everyone already chosen."""
    group = [anchor]
    for player in sorted(free, key=lambda p: (abs(p.rating - anchor.rating), -p.waited, p.id)):
        if len(group) == size:
            break
        if all(compatible(player, member) for member in group):
            group.append(player)
    return group


def seating(group: list[Waiting], size: int) -> list[Optional[Waiting]]:
    """Seat by seat, the players of a table (None: a bot). Four: the best with the weakest
    (seats 0 and 2) against the two in the middle (1 and 3); people take seats 0, 1, 3, 2 in
    rating order, so a table of two people and two bots puts them against each other."""
    ranked = sorted(group, key=lambda player: (-player.rating, player.id))
    order = [0, 1, 3, 2] if size == 4 else list(range(size))
    seats: list[Optional[Waiting]] = [None] * size
    for seat, player in zip(order, ranked):
        seats[seat] = player
    return seats
