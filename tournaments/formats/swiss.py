"""Swiss system: score groups, no rematches, floaters, one bye at most per pair.

A round is one maximum-weight matching (``networkx.max_weight_matching`` with
``maxcardinality=True``: the most pairings first, then the best weight) over a
graph whose vertices are the entries (plus a "bye" vertex when the count is
odd) and whose edges are the pairings still allowed. The weights encode, in
strict priority (each tier outweighs every possible sum of the tiers below):

1. Score-group closeness: minimise the sum of squared score differences of
   the pairs (scores in half-points: win 2, draw 1). Two small floats are
   preferred to one large one; pairing inside score groups costs nothing.
2. Dutch-style order (after FIDE Handbook C.04.3, the Dutch system, in spirit,
   not to the letter): inside a score group of size g the ideal opponent of the
   i-th ranked entry is the (i + g/2)-th (top half v bottom half); a
   downfloater should be the lowest-ranked of its group and meet the
   highest-ranked of the group below; an entry that floated in the previous
   round is not floated the same way again if avoidable.
3. Home/away balance: avoid pairing two entries that both need the same side.

Rematches are impossible because those edges are never added; an entry that
already had a bye gets no edge to the bye vertex. The bye goes to the lowest
score group and, inside it, to the lowest-ranked eligible entry (the bye
vertex is scored as an opponent one half-point below the lowest score).

Speed: a complete graph on 1,000 entries has 500,000 edges, too slow for
networkx's pure-Python blossom algorithm (O(n^3)). Two restrictions keep it
fast, each with a fallback that keeps the result exact in the cases that matter:

* Blocks: the ranking is cut, between score groups, into runs of even size
  (``blocks``), matched one after the other; a block that cannot be matched
  (rematches, byes) merges with its neighbour, up to the whole field.
* Windows: inside a block we add only edges between entries within ``w``
  places of each other in the ranking, and within ``w`` places of each entry's
  ideal opponent in its score group (w = 6). If that graph has no perfect
  matching, w widens (24, 96) up to the complete block, so a pairing is only
  declared impossible (``PairingImpossible``) when none exists.

Ranking inside a score group is by seed (the FIDE "pairing number").
Default number of rounds: ceil(log2(entries)). The entries passed are those to
pair this round (withdrawn pairs left out); the history may mention others.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

from .base import (
    Entry, EntryId, Format, Options, PairingImpossible, Pairing, Result,
    require_round_complete, results_by_key, number_slots,
)
from .seeding import in_seed_order

WINDOWS = (6, 24, 96)
FLOAT_TRIES = 4
BYE = -1


@dataclass(frozen=True)
class History:
    """What the pairing needs to know about each entry's past rounds."""

    score: dict = field(default_factory=dict)       # half-points
    opponents: dict = field(default_factory=dict)   # id -> set of ids
    byes: dict = field(default_factory=dict)        # id -> count
    balance: dict = field(default_factory=dict)     # id -> homes - aways
    floated: dict = field(default_factory=dict)     # id -> +1 down / -1 up in the last round


def _points(pairing: Pairing, result: Result | None) -> tuple[int, int]:
    if pairing.is_bye:
        return 2, 0
    if result is None or (result.winner is None and result.walkover):
        return 0, 0
    if result.winner is None:
        return 1, 1
    return (2, 0) if result.winner == pairing.home else (0, 2)


def history(pairings: Sequence[Pairing], results: Iterable[Result]) -> History:
    """Scores, opponents, byes, home balance and last floats from the past rounds."""
    done = results_by_key(results)
    h = History()
    last = max((p.round for p in pairings), default=0)
    for pairing in sorted(pairings, key=lambda p: p.key):
        home, away = pairing.home, pairing.away
        before = (h.score.get(home, 0), h.score.get(away, 0) if away is not None else -1)
        gained = _points(pairing, done.get(pairing.key))
        h.score[home] = before[0] + gained[0]
        if away is None:
            h.byes[home] = h.byes.get(home, 0) + 1
        else:
            h.score[away] = before[1] + gained[1]
            h.opponents.setdefault(home, set()).add(away)
            h.opponents.setdefault(away, set()).add(home)
            h.balance[away] = h.balance.get(away, 0) - 1
        h.balance[home] = h.balance.get(home, 0) + (away is not None)
        if pairing.round == last:
            _note_float(h, home, away, before)
    return h


def _note_float(h: History, home: EntryId, away: EntryId | None, before: tuple) -> None:
    if away is None:
        h.floated[home] = 1
    elif before[0] != before[1]:
        up = 1 if before[0] > before[1] else -1
        h.floated[home], h.floated[away] = up, -up


@dataclass(frozen=True)
class _Field:
    """The ranked entries of this round and their score groups."""

    ids: tuple
    score: tuple
    group_start: tuple
    group_size: tuple


def ranked_field(entries: Sequence[Entry], h: History) -> _Field:
    order = in_seed_order(entries)
    seed_index = {entry.id: i for i, entry in enumerate(order)}
    ids = sorted(seed_index, key=lambda e: (-h.score.get(e, 0), seed_index[e]))
    scores = [h.score.get(e, 0) for e in ids]
    start, size = [0] * len(ids), [0] * len(ids)
    i = 0
    while i < len(ids):
        j = i
        while j < len(ids) and scores[j] == scores[i]:
            j += 1
        for k in range(i, j):
            start[k], size[k] = i, j - i
        i = j
    return _Field(tuple(ids), tuple(scores), tuple(start), tuple(size))


def _group_ranges(f: _Field, nodes: Sequence[int]) -> list[tuple[int, int]]:
    """For each index into ``nodes``: the index range of its score group there."""
    ranges, i = [], 0
    while i < len(nodes):
        j = i
        while j < len(nodes) and f.score[nodes[j]] == f.score[nodes[i]]:
            j += 1
        ranges += [(i, j)] * (j - i)
        i = j
    return ranges


def candidate_pairs(f: _Field, nodes: Sequence[int], window: int) -> set[tuple[int, int]]:
    """Index pairs i < j within ``window`` of each other or of i's ideal opponent."""
    pairs = set()
    for i, (start, end) in enumerate(_group_ranges(f, nodes)):
        pairs.update((i, j) for j in range(i + 1, min(len(nodes), i + window + 1)))
        centre = i + (end - start) // 2
        pairs.update((i, j) for j in range(max(i + 1, centre - window), min(end, centre + window + 1)))
    return pairs


def blocks(f: _Field) -> list[tuple[int, int]]:
    """Runs of whole score groups, top down, each of even size.

    The bye vertex counts in the last block. Pairing across a block boundary
    would need two pairs crossing it, which an exchange of partners makes
    cheaper in tier 1 whenever the exchanged pairs are allowed, so blocks are
    matched one by one (neighbours merge when one cannot be matched).
    """
    n, result, lo, a = len(f.ids), [], 0, 0
    while a < n:
        a = f.group_start[a] + f.group_size[a]
        if (a - lo) % 2 == 0 or a == n:
            result.append((lo, a))
            lo = a
    return result


class _Weights:
    """Integer edge weights with strictly dominating tiers (see module doc)."""

    def __init__(self, f: _Field, h: History):
        self.f, self.h, n = f, h, max(len(f.ids), 2)
        self.n = n
        self.mid = n                                  # tier-3 sum < n
        max_mid = n * n + 4 * n
        self.top = (n // 2 + 2) * (max_mid * self.mid + n)
        max_low = (max(f.score, default=0) - min(f.score, default=0) + 2) ** 2
        self.base = (max_low + 1) * self.top

    def pair(self, a: int, b: int) -> int:
        f, h, n = self.f, self.h, self.n
        ea, eb = f.ids[a], f.ids[b]
        diff = f.score[a] - f.score[b]
        if diff == 0:
            mid = abs((b - a) - f.group_size[a] // 2)
        else:
            from_bottom = f.group_start[a] + f.group_size[a] - 1 - a
            mid = n * from_bottom + (b - f.group_start[b])
            mid += n * (h.floated.get(ea, 0) == 1) + n * (h.floated.get(eb, 0) == -1)
        return self.base - (diff * diff * self.top + mid * self.mid)

    def bye(self, a: int) -> int:
        f, n = self.f, self.n
        diff = f.score[a] - min(f.score) + 1
        return self.base - (diff * diff * self.top + n * (n - 1 - a) * self.mid)


def _graph(f: _Field, h: History, w: _Weights, nodes: Sequence[int], bye: bool,
           window: int) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, j in candidate_pairs(f, nodes, window):
        a, b = nodes[i], nodes[j]
        if f.ids[b] not in h.opponents.get(f.ids[a], ()):
            graph.add_edge(a, b, weight=w.pair(min(a, b), max(a, b)))
    if bye:
        eligible = [a for a in nodes if not h.byes.get(f.ids[a])]
        for a in eligible[-(2 * window + 2):]:
            graph.add_edge(a, BYE, weight=w.bye(a))
    return graph


def _normalise(matching: set) -> set:
    return {(max(a, b), BYE) if BYE in (a, b) else (min(a, b), max(a, b)) for a, b in matching}


def perfect(f: _Field, h: History, w: _Weights, nodes: Sequence[int], bye: bool = False) -> set | None:
    """Best matching covering every node (and the bye vertex), or ``None``."""
    need = len(nodes) + bye
    if need % 2:
        return None
    for window in WINDOWS + (len(nodes),):
        matching = nx.max_weight_matching(_graph(f, h, w, nodes, bye, window), maxcardinality=True)
        if 2 * len(matching) == need:
            return _normalise(matching)
        if window >= len(nodes):
            return None
    return None


def maximum(f: _Field, h: History, w: _Weights, nodes: Sequence[int]) -> set:
    """Best matching with as many pairs as possible (complete graph)."""
    graph = _graph(f, h, w, nodes, False, len(nodes))
    return _normalise(nx.max_weight_matching(graph, maxcardinality=True))


def _float_candidates(f: _Field, h: History, pool: Sequence[int]) -> list[int]:
    """Who may float down, in Dutch order: lowest rank first, repeat floaters last."""
    bottom_up = list(reversed(pool))
    return ([a for a in bottom_up if h.floated.get(f.ids[a]) != 1]
            + [a for a in bottom_up if h.floated.get(f.ids[a]) == 1])[:FLOAT_TRIES]


def _pair_floaters(f: _Field, h: History, carry: list, residents: list) -> tuple[set, list, list]:
    """Each downfloater meets the highest-ranked resident it has not met."""
    pairs, still = set(), []
    for a in carry:
        partner = next((b for b in residents if f.ids[b] not in h.opponents.get(f.ids[a], ())), None)
        if partner is None:
            still.append(a)
        else:
            pairs.add((a, partner))
            residents = [b for b in residents if b != partner]
    return pairs, still, residents


def _pair_group(f: _Field, h: History, w: _Weights, pool: list, last: bool) -> tuple[set, list]:
    """Pair one score group; return the pairs and the entries floating down."""
    bye = last and len(f.ids) % 2 == 1
    if (len(pool) + bye) % 2 == 0:
        found = perfect(f, h, w, pool, bye)
        if found is not None:
            return found, []
    elif not last:
        for floater in _float_candidates(f, h, pool):
            found = perfect(f, h, w, [a for a in pool if a != floater])
            if found is not None:
                return found, [floater]
    if last:
        return set(), pool
    found = maximum(f, h, w, pool)
    paired = {x for pair in found for x in pair}
    return found, [a for a in pool if a not in paired]


def match_by_groups(f: _Field, h: History, w: _Weights) -> set | None:
    """Fast path, Dutch-like: score groups top down, each matched alone.

    Entries floated down from above meet the highest-ranked resident they have
    not met; an odd group floats its lowest-ranked entry (one that did not
    float down last round if possible) whose removal leaves a perfect matching.
    ``None`` if the last group cannot be completed.
    """
    groups = sorted({(f.group_start[a], f.group_start[a] + f.group_size[a]) for a in range(len(f.ids))})
    carry, solved = [], set()
    for index, (lo, hi) in enumerate(groups):
        floated, carry, residents = _pair_floaters(f, h, carry, list(range(lo, hi)))
        found, down = _pair_group(f, h, w, residents, index == len(groups) - 1)
        solved |= floated | found
        carry = carry + down
    return None if carry else solved


def match_by_blocks(f: _Field, h: History, w: _Weights) -> set:
    """Exact fallback: even runs of score groups, merged while unmatchable."""
    pending, solved, odd = blocks(f), [], len(f.ids) % 2 == 1
    while pending:
        lo, hi = pending.pop(0)
        found = perfect(f, h, w, range(lo, hi), odd and hi == len(f.ids))
        if found is not None:
            solved.append(((lo, hi), found))
        elif pending:
            pending[0] = (lo, pending[0][1])
        elif solved:
            pending.append((solved.pop()[0][0], hi))
        else:
            raise PairingImpossible("no pairing without a rematch or a second bye exists")
    return set().union(*(found for _, found in solved))


def match(f: _Field, h: History) -> set[tuple[int, int]]:
    """Pairs of positions (``(a, BYE)`` for the bye) covering the whole field."""
    w = _Weights(f, h)
    return match_by_groups(f, h, w) or match_by_blocks(f, h, w)


def _home_first(h: History, a: EntryId, b: EntryId) -> tuple[EntryId, EntryId]:
    """The entry with fewer home matches so far is home; ties go to the higher rank."""
    return (b, a) if h.balance.get(b, 0) < h.balance.get(a, 0) else (a, b)


def pair_round(entries: Sequence[Entry], h: History, round_no: int) -> tuple[Pairing, ...]:
    f = ranked_field(entries, h)
    if len(f.ids) < 2:
        return number_slots(round_no, [(e, None, "main", "") for e in f.ids])
    pairs = sorted(match(f, h), key=lambda ab: (ab[1] == BYE, ab[0]))
    games = [
        (f.ids[a], None, "main", "bye") if b == BYE else (*_home_first(h, f.ids[a], f.ids[b]), "main", "")
        for a, b in pairs
    ]
    return number_slots(round_no, games)


def total_rounds(count: int, options: Options = Options()) -> int:
    if options.rounds is not None:
        return options.rounds
    return 0 if count < 2 else math.ceil(math.log2(count))


def next_round(entries: Sequence[Entry], pairings: Sequence[Pairing],
               results: Iterable[Result], options: Options = Options()) -> tuple[Pairing, ...]:
    results = list(results)
    current = require_round_complete(pairings, results_by_key(results))
    if current >= total_rounds(len(entries), options):
        return ()
    return pair_round(entries, history(pairings, results), current + 1)


FORMAT = Format("swiss", "Swiss", next_round, total_rounds, fixed_round_count=True, pairs_active_only=True)
