"""Helpers shared by the pure tournament tests (no database)."""
from __future__ import annotations

import random

import pytest

from tournaments.formats import Entry, Options, Result, get_format


def make_entries(count: int) -> list[Entry]:
    return [Entry(n, seed=n, rating=2000.0 - n) for n in range(1, count + 1)]


def play_out(key: str, entries, options: Options = Options(), seed: int = 0,
             decide=None, max_rounds: int = 200):
    """Run a competition to the end; ``decide(pairing, rng)`` picks the winner."""
    rng = random.Random(seed)
    fmt = get_format(key)
    decide = decide or (lambda p, r: r.choice((p.home, p.away)))
    pairings, results = [], []
    for _ in range(max_rounds):
        new = fmt.next_round(entries, pairings, results, options)
        if not new:
            return pairings, results
        pairings += new
        results += [Result(p.round, p.slot, decide(p, rng), 2, 1) for p in new if p.away is not None]
    raise AssertionError("competition did not finish")


@pytest.fixture
def entries8():
    return make_entries(8)
