"""Property tests (Hypothesis) over every format: structural invariants."""
from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import Options, PairingImpossible, Result, get_format, single_elimination

from .conftest import make_entries, play_out

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def each_entry_at_most_once_per_round(pairings) -> bool:
    for _, group in itertools.groupby(sorted(pairings, key=lambda p: p.round), key=lambda p: p.round):
        seen = [e for p in group for e in (p.home, p.away) if e is not None]
        if len(seen) != len(set(seen)):
            return False
    return True


@FAST
@given(key=st.sampled_from(["single_elimination", "double_elimination", "round_robin", "league"]),
       count=st.integers(2, 20), seed=st.integers(0, 10_000), third=st.booleans())
def test_every_entry_plays_at_most_once_per_round(key, count, seed, third):
    pairings, _ = play_out(key, make_entries(count), Options(third_place_match=third), seed=seed)
    assert each_entry_at_most_once_per_round(pairings)


@FAST
@given(count=st.integers(2, 16), cycles=st.sampled_from([1, 2]))
def test_round_robin_meets_everyone_exactly_once_per_cycle(count, cycles):
    pairings, _ = play_out("round_robin", make_entries(count), Options(cycles=cycles))
    meetings = Counter(frozenset((p.home, p.away)) for p in pairings if not p.is_bye)
    everyone = {frozenset(pair) for pair in itertools.combinations(range(1, count + 1), 2)}
    assert set(meetings) == everyone
    assert set(meetings.values()) == {cycles}
    if cycles == 2:
        homes = Counter((p.home, p.away) for p in pairings if not p.is_bye)
        assert set(homes.values()) == {1}


@FAST
@given(count=st.integers(2, 40), seed=st.integers(0, 10_000), third=st.booleans())
def test_single_elimination_produces_exactly_one_champion(count, seed, third):
    entries = make_entries(count)
    opts = Options(third_place_match=third)
    pairings, results = play_out("single_elimination", entries, opts, seed=seed)
    places = single_elimination.places(entries, pairings, results, opts)
    assert list(places.values()).count(1) == 1
    assert list(places.values()).count(2) == 1


@FAST
@given(count=st.integers(2, 24), seed=st.integers(0, 10_000))
def test_double_elimination_produces_exactly_one_champion(count, seed):
    from tournaments.formats import double_elimination
    entries = make_entries(count)
    pairings, results = play_out("double_elimination", entries, seed=seed)
    places = double_elimination.places(entries, pairings, results, Options())
    assert list(places.values()).count(1) == 1


def has_perfect_matching(ids, met) -> bool:
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    return any(frozenset((first, other)) not in met and has_perfect_matching(
        [x for x in rest if x != other], met) for other in rest)


@FAST
@given(count=st.integers(2, 11), rounds=st.integers(1, 8), seed=st.integers(0, 10_000))
def test_swiss_never_repeats_a_pairing_and_gives_at_most_one_bye_per_entry(count, rounds, seed):
    rng, fmt, entries = random.Random(seed), get_format("swiss"), make_entries(count)
    pairings, results = [], []
    for _ in range(rounds):
        try:
            new = fmt.next_round(entries, pairings, results, Options(rounds=rounds))
        except PairingImpossible:
            met = {frozenset((p.home, p.away)) for p in pairings if not p.is_bye}
            had_bye = {p.home for p in pairings if p.is_bye}
            ids = [e.id for e in entries] + (["bye"] if count % 2 else [])
            met |= {frozenset((e, "bye")) for e in had_bye}
            assert not has_perfect_matching(ids, met)
            break
        assert each_entry_at_most_once_per_round(new)
        assert len(new) == (count + 1) // 2
        pairings += new
        results += [Result(p.round, p.slot, rng.choice((p.home, p.away, None))) for p in new if not p.is_bye]
    played = Counter(frozenset((p.home, p.away)) for p in pairings if not p.is_bye)
    assert all(n == 1 for n in played.values())
    byes = Counter(p.home for p in pairings if p.is_bye)
    assert all(n == 1 for n in byes.values())
