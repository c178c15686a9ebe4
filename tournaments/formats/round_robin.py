"""Round robin by the circle (Berger) method, reproducing FIDE's Berger tables.

Source: FIDE Handbook C.05 (General regulations for competitions), Annex 1
"Berger Tables for Round-Robin Tournaments". Players are numbered by seed
(1 = seed 1). For n players (n even) and round r = 1 .. n-1:

* player n meets player p, where 2p = r + 1 (mod n - 1), p in 1 .. n-1; player
  n has white (is home) in even rounds, p in odd rounds; this is board 1;
* boards 2 .. n/2: home p + k meets away p - k (k = 1 .. n/2 - 1, numbers
  taken mod n - 1 into 1 .. n-1).

This gives e.g. for 8 players round 2: 8-5, 6-4, 7-3, 1-2, exactly as printed in
the Annex. "White" is our home side (in card games: the side listed first,
which the match layer may use for the first dealer).

Decisions:

* Odd counts: a dummy player n + 1 is added and whoever meets it has a bye
  (the Annex: "the highest number counts as a bye").
* Double round robin (``Options.cycles == 2``): the second cycle repeats the
  table with home and away swapped; following the Annex's recommendation for
  double round robins, the last two rounds of the first cycle are played in
  reverse order, which avoids a third consecutive same colour at the turn.
* Fixtures are fixed in advance, so ``next_round`` never waits for results.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .base import Entry, Format, FormatError, Options, Pairing, Result, last_round, number_slots
from .seeding import in_seed_order


def berger_round(players: int, round_no: int) -> list[tuple[int, int]]:
    """(home, away) player numbers of one round of the Berger table, board order."""
    if players % 2 or players < 2 or not 1 <= round_no < players:
        raise FormatError("a Berger table needs an even player count and a round in 1..n-1")
    m = players - 1

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    p = wrap((round_no + 1) * (m + 1) // 2)
    first = (p, players) if round_no % 2 else (players, p)
    return [first] + [(wrap(p + k), wrap(p - k)) for k in range(1, players // 2)]


def cycle_order(rounds_per_cycle: int, cycles: int) -> list[tuple[int, bool]]:
    """(table round, swapped?) for each competition round."""
    first = list(range(1, rounds_per_cycle + 1))
    if cycles == 2 and rounds_per_cycle >= 3:
        first[-2], first[-1] = first[-1], first[-2]
    order = [(r, False) for r in first]
    for cycle in range(1, cycles):
        order += [(r, cycle % 2 == 1) for r in range(1, rounds_per_cycle + 1)]
    return order


def all_rounds(entries: Sequence[Entry], options: Options = Options()) -> tuple[tuple[Pairing, ...], ...]:
    """Every round of the competition, fixed from the seeds."""
    ids = [entry.id for entry in in_seed_order(entries)]
    if len(ids) < 2:
        return ()
    players = len(ids) + len(ids) % 2
    side = {n: (ids[n - 1] if n <= len(ids) else None) for n in range(1, players + 1)}
    rounds = []
    for round_no, (table_round, swapped) in enumerate(cycle_order(players - 1, options.cycles), 1):
        games = []
        for a, b in berger_round(players, table_round):
            home, away = (side[b], side[a]) if swapped else (side[a], side[b])
            if home is None or away is None:
                games.append((home if away is None else away, None, "main", ""))
            else:
                games.append((home, away, "main", ""))
        rounds.append(number_slots(round_no, games))
    return tuple(rounds)


def next_round(entries: Sequence[Entry], pairings: Sequence[Pairing],
               results: Iterable[Result] = (), options: Options = Options()) -> tuple[Pairing, ...]:
    rounds = all_rounds(entries, options)
    current = last_round(pairings)
    return rounds[current] if current < len(rounds) else ()


def total_rounds(count: int, options: Options = Options()) -> int:
    return 0 if count < 2 else (count + count % 2 - 1) * options.cycles


FORMAT = Format("round_robin", "Round robin", next_round, total_rounds)
