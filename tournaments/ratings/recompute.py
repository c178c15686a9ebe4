"""Replay a match history into Elo ratings, fast.

``recompute`` is the pure core of ``manage.py recompute_ratings``: the command
streams the finished rated matches in their rating order (e.g. by finish time,
then id) and writes back only what changed (compare lila's SwissScoring:
fetch -> pure compute -> write).

It performs exactly the arithmetic of ``elo.rate_match`` (same operations in
the same order), so its results are bit-identical to applying
``rate_match`` match by match; ``tests/competitions_pure/test_ratings_recompute.py``
checks this. The hot loop is written out by hand for speed: one dict from
player to a slot shared by all games, per game plain lists of floats and ints
by slot, locals for everything, a fast path when all four players are past
the provisional period, no object allocated per match except the tuple of
four changes, and the cyclic garbage collector paused while replaying (the benchmark replays 1,000,000 matches, see
``benchmarks/ratings.py``). Input is trusted (matches were validated when they
were rated).
"""
from __future__ import annotations

import gc
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .elo import K_ESTABLISHED, K_PROVISIONAL, PROVISIONAL_MATCHES, SCALE, START
from .glicko2 import Glicko, rate_pair_match

# (game, (a1, a2), (b1, b2), score of pair A: 1, 0 or 0.5)
MatchRecord = tuple[Hashable, tuple[Hashable, Hashable], tuple[Hashable, Hashable], float]


@dataclass(frozen=True)
class Recomputed:
    """Final ratings and rated-match counts per game and player, and for each
    match (in input order) the changes ``(a1, a2, b1, b2)``."""

    ratings: dict
    matches: dict
    changes: list


def recompute(history: Iterable[MatchRecord]) -> Recomputed:
    """Replay ``history`` in order; see the module docstring."""
    enabled = gc.isenabled()
    gc.disable()   # a million small tuples would trigger many useless collections
    try:
        index, games, changes = _replay(history)
    finally:
        if enabled:
            gc.enable()
    ratings, counts = {}, {}
    for game, (R, C) in games.items():
        played = [(p, i) for p, i in index.items() if C[i]]
        ratings[game] = {p: R[i] for p, i in played}
        counts[game] = {p: C[i] for p, i in played}
    return Recomputed(ratings, counts, changes)


def _replay(history: Iterable[MatchRecord]) -> tuple[dict, dict, list]:
    """The hot loop. One player -> slot index shared by every game; per game a
    list of ratings and a list of match counts by slot (a player who never
    played a game keeps 1500 / 0 there and is left out of the result)."""
    index: dict = {}
    games: dict = {}
    changes: list = []
    append = changes.append
    limit, k_new, k_old, width = PROVISIONAL_MATCHES, K_PROVISIONAL, K_ESTABLISHED, 2.0 * SCALE
    last = R = C = None
    size = 0
    for game, (a1, a2), (b1, b2), score in history:
        if game != last:
            state = games.get(game)
            if state is None:
                state = games[game] = ([START] * size, [0] * size)
            R, C = state
            last = game
        try:
            i1 = index[a1]; i2 = index[a2]; i3 = index[b1]; i4 = index[b2]  # noqa: E702
        except KeyError:
            for player in (a1, a2, b1, b2):
                if player not in index:
                    index[player] = size
                    size += 1
                    for ratings, counts in games.values():
                        ratings.append(START)
                        counts.append(0)
            i1, i2, i3, i4 = index[a1], index[a2], index[b1], index[b2]
        ra1 = R[i1]; ra2 = R[i2]; rb1 = R[i3]; rb2 = R[i4]  # noqa: E702
        sa = score - 1.0 / (1.0 + 10.0 ** ((rb1 + rb2 - ra1 - ra2) / width))
        c1 = C[i1]; c2 = C[i2]; c3 = C[i3]; c4 = C[i4]  # noqa: E702
        if c1 >= limit and c2 >= limit and c3 >= limit and c4 >= limit:
            da1 = da2 = k_old * sa      # the common case once a club has history
            db1 = db2 = -da1            # -(K x s) == K x -s exactly
        else:
            high, low = k_new * sa, k_old * sa
            da1 = high if c1 < limit else low
            da2 = high if c2 < limit else low
            db1 = -high if c3 < limit else -low
            db2 = -high if c4 < limit else -low
        R[i1] = ra1 + da1; R[i2] = ra2 + da2; R[i3] = rb1 + db1; R[i4] = rb2 + db2  # noqa: E702
        C[i1] = c1 + 1; C[i2] = c2 + 1; C[i3] = c3 + 1; C[i4] = c4 + 1  # noqa: E702
        append((da1, da2, db1, db2))
    return index, games, changes


def recompute_glicko(history: Iterable[MatchRecord]) -> tuple[dict, list]:
    """Glicko-2 over the same records: the final ``Glicko`` per game and player,
    and for each match (in input order) the four players' new values
    ``(a1, a2, b1, b2)``. It makes the very calls of the per-match task
    (``glicko2.rate_pair_match`` on the stored values), so it is bit-identical
    too; it is not tuned for speed (about 0.1 ms a match)."""
    start = Glicko()
    state: dict = {}
    changes: list = []
    for game, (a1, a2), (b1, b2), score in history:
        players = state.get(game)
        if players is None:
            players = state[game] = {}
        get = players.get
        new = rate_pair_match((get(a1, start), get(a2, start)), (get(b1, start), get(b2, start)), score)
        players[a1], players[a2], players[b1], players[b2] = new
        changes.append(new)
    return state, changes
