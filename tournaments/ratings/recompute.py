"""Replay a match history into Elo ratings, fast.

``recompute`` is the pure core of ``manage.py recompute_ratings``: the command
streams the finished rated matches in their rating order (e.g. by finish time,
then id) and writes back only what changed (compare lila's SwissScoring:
fetch -> pure compute -> write).

It performs exactly the arithmetic of ``elo.rate_match`` (same operations in
the same order), so its results are bit-identical to applying
``rate_match`` match by match; ``tests/tournaments/test_ratings_recompute.py``
checks this. The hot loop is written out by hand for speed: per game a dict
from player to a slot in plain lists of floats and ints, no object allocated
per match except the tuple of four changes, and the cyclic garbage collector
paused while replaying (the benchmark replays 1,000,000 matches, see
``benchmarks/ratings.py``). Input is trusted (matches were validated when they
were rated).
"""
from __future__ import annotations

import gc
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .elo import K_ESTABLISHED, K_PROVISIONAL, PROVISIONAL_MATCHES, SCALE, START

# (game, (a1, a2), (b1, b2), score of pair A: 1, 0 or 0.5)
MatchRecord = tuple[Hashable, tuple[Hashable, Hashable], tuple[Hashable, Hashable], float]


@dataclass(frozen=True)
class Recomputed:
    """Final ratings and rated-match counts per game and player, and for each
    match (in input order) the changes ``(a1, a2, b1, b2)``."""

    ratings: dict
    matches: dict
    changes: list


class _Game:
    """One game's state: player -> slot, and ratings/counts by slot."""

    __slots__ = ("index", "ratings", "counts")

    def __init__(self) -> None:
        self.index: dict = {}
        self.ratings: list[float] = []
        self.counts: list[int] = []

    def slots(self, *players: Hashable) -> tuple[int, ...]:
        """Slots of the players, registering newcomers at 1500 with no match."""
        for player in players:
            if player not in self.index:
                self.index[player] = len(self.ratings)
                self.ratings.append(START)
                self.counts.append(0)
        return tuple(self.index[player] for player in players)


def recompute(history: Iterable[MatchRecord]) -> Recomputed:
    """Replay ``history`` in order; see the module docstring."""
    enabled = gc.isenabled()
    gc.disable()   # a million small tuples would trigger many useless collections
    try:
        games, changes = _replay(history)
    finally:
        if enabled:
            gc.enable()
    ratings = {g: {p: s.ratings[i] for p, i in s.index.items()} for g, s in games.items()}
    counts = {g: {p: s.counts[i] for p, i in s.index.items()} for g, s in games.items()}
    return Recomputed(ratings, counts, changes)


def _replay(history: Iterable[MatchRecord]) -> tuple[dict, list]:
    games: dict = {}
    changes: list = []
    append = changes.append
    limit, k_new, k_old, width = PROVISIONAL_MATCHES, K_PROVISIONAL, K_ESTABLISHED, 2.0 * SCALE
    last = state = ix = R = C = None
    for game, (a1, a2), (b1, b2), score in history:
        if game != last:
            state = games.get(game) or games.setdefault(game, _Game())
            last, ix, R, C = game, state.index, state.ratings, state.counts
        try:
            i1, i2, i3, i4 = ix[a1], ix[a2], ix[b1], ix[b2]
        except KeyError:
            i1, i2, i3, i4 = state.slots(a1, a2, b1, b2)
        ra1, ra2, rb1, rb2 = R[i1], R[i2], R[i3], R[i4]
        sa = score - 1.0 / (1.0 + 10.0 ** ((rb1 + rb2 - ra1 - ra2) / width))
        c1, c2, c3, c4 = C[i1], C[i2], C[i3], C[i4]
        high, low = k_new * sa, k_old * sa    # -(K x s) == K x -s exactly
        da1 = high if c1 < limit else low
        da2 = high if c2 < limit else low
        db1 = -high if c3 < limit else -low
        db2 = -high if c4 < limit else -low
        R[i1] = ra1 + da1
        R[i2] = ra2 + da2
        R[i3] = rb1 + db1
        R[i4] = rb2 + db2
        C[i1] = c1 + 1
        C[i2] = c2 + 1
        C[i3] = c3 + 1
        C[i4] = c4 + 1
        append((da1, da2, db1, db2))
    return games, changes
