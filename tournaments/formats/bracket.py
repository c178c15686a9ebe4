"""Shared machinery of the knockout formats: a bracket is a static list of nodes.

A node is one potential match whose two sides come from a seed, or from the
winner or loser of an earlier node. Single and double elimination only differ
in the nodes they build; this module schedules them into rounds, resolves who
plays whom from the results so far, emits the next round and computes final
places.

Decisions:

* A node's round is the earliest possible: one more than the latest round of
  the nodes it depends on. Rounds in which no node has anyone to play are
  skipped (the layer sees round numbers with gaps only in such brackets).
* A side that resolves to nobody (a bye, or the loser of a bye) makes the node a
  bye for the other side, emitted as a ``Pairing`` with ``away=None`` so that a
  bracket drawing shows it; a node with nobody on either side is not emitted.
* Places: an entry's place is 1 + the number of entries eliminated later (or
  never); entries eliminated at the same stage share the place (the two losing
  semi-finalists share 3rd when no third-place match is played).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional

from .base import (
    Entry, EntryId, Format, InvalidResult, Options, Pairing, Result, require_round_complete,
    results_by_key, someone_goes_through,
)
from .seeding import in_seed_order

PENDING = "pending"   # sentinel: the side is not known yet
Side = Optional[EntryId]


@dataclass(frozen=True)
class Source:
    """Where a side of a node comes from: ``seed`` n, or ``winner``/``loser`` of a label."""

    kind: str
    ref: object


@dataclass(frozen=True)
class Node:
    label: str
    bracket: str
    home: Source
    away: Source
    loser_stage: Optional[float] = None     # the loser is eliminated at this stage
    winner_stage: Optional[float] = None    # the winner is placed at this stage (3rd-place match)
    reset_of: Optional[str] = None          # grand-final reset: played only if the away side won


def standard_seed_order(size: int) -> list[int]:
    """Seeds in bracket order, e.g. 8 -> [1, 8, 4, 5, 2, 7, 3, 6].

    Each round of doubling pairs seed s with (2m + 1 - s), so seeds 1 and 2 can
    only meet in the final, 1-4 only in the semi-finals, and so on.
    """
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket size is a power of two")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, mirror - s)]
    return order


def bracket_size(count: int) -> int:
    return 1 if count <= 1 else 2 ** math.ceil(math.log2(count))


def schedule(nodes: Sequence[Node]) -> dict[str, int]:
    """Round of each node: one after the latest node it depends on."""
    rounds: dict[str, int] = {}
    for node in nodes:
        deps = [rounds[s.ref] for s in (node.home, node.away) if s.kind != "seed"]
        if node.reset_of:
            deps.append(rounds[node.reset_of])
        rounds[node.label] = 1 + max(deps, default=0)
    return rounds


def _side(source: Source, seeds: dict, outcome: dict) -> Side:
    if source.kind == "seed":
        return seeds.get(source.ref)
    winner, loser = outcome[source.ref]
    return winner if source.kind == "winner" else loser


def _decide(node: Node, home: Side, away: Side, played: dict) -> tuple[Side, Side]:
    """(winner, loser) of a node whose sides are known; PENDING if unplayed."""
    if home is None or away is None:
        return (away if home is None else home), None
    result = played.get(node.label)
    if result is None:
        return PENDING, PENDING
    if result.winner not in (home, away):
        raise InvalidResult(f"{node.label}: winner must be one of the two sides")
    return result.winner, (away if result.winner == home else home)


def resolve(nodes: Sequence[Node], entries: Sequence[Entry], pairings: Sequence[Pairing],
            results: Iterable[Result]) -> dict[str, tuple]:
    """For every node: (home, away, winner, loser), each an id, None or PENDING."""
    seeds = {n: entry.id for n, entry in enumerate(in_seed_order(entries), start=1)}
    by_key = results_by_key(results)
    played = {p.label: by_key.get(p.key) for p in pairings if not p.is_bye}
    played = {label: result for label, result in played.items() if result is not None}
    outcome: dict[str, tuple[Side, Side]] = {}
    table: dict[str, tuple] = {}
    for node in nodes:
        home, away = _side(node.home, seeds, outcome), _side(node.away, seeds, outcome)
        if node.reset_of and outcome[node.reset_of][0] in (home, PENDING):
            home = away = None if outcome[node.reset_of][0] == home else PENDING
        if PENDING in (home, away):
            outcome[node.label] = (PENDING, PENDING)
        else:
            outcome[node.label] = _decide(node, home, away, played)
        table[node.label] = (home, away) + outcome[node.label]
    return table


def next_round(nodes: Sequence[Node], entries: Sequence[Entry], pairings: Sequence[Pairing],
               results: Iterable[Result]) -> tuple[Pairing, ...]:
    """The pairings of the next round that has anyone to play, or ``()``."""
    results = list(results)
    current = require_round_complete(pairings, results_by_key(results))
    table = resolve(nodes, entries, pairings, results)
    rounds = schedule(nodes)
    for round_no in range(current + 1, max(rounds.values(), default=0) + 1):
        todo = [n for n in nodes if rounds[n.label] == round_no and table[n.label][:2] != (None, None)]
        if todo:
            return tuple(_pairing(round_no, slot, node, table[node.label])
                         for slot, node in enumerate(todo, start=1))
    return ()


def _pairing(round_no: int, slot: int, node: Node, row: tuple) -> Pairing:
    home, away = row[0], row[1]
    if PENDING in (home, away):
        raise InvalidResult(f"{node.label} depends on a match that has no result")
    if home is None:
        home, away = away, None
    return Pairing(round_no, slot, home, away, node.bracket, node.label)


def stages(nodes: Sequence[Node], table: dict[str, tuple], entries: Sequence[Entry]) -> dict:
    """Stage at which each entry went out (``inf`` while still in)."""
    stage = {entry.id: math.inf for entry in entries}
    reset_parents = {node.reset_of for node in nodes if node.reset_of}
    for node in nodes:
        home, away, winner, loser = table[node.label]
        survives = node.label in reset_parents and loser == home  # 1st loss of the unbeaten side
        if loser not in (None, PENDING) and node.loser_stage is not None and not survives:
            stage[loser] = node.loser_stage
        if winner not in (None, PENDING) and node.winner_stage is not None:
            stage[winner] = node.winner_stage
    return stage


def places(nodes: Sequence[Node], entries: Sequence[Entry], pairings: Sequence[Pairing],
           results: Iterable[Result]) -> dict[EntryId, int]:
    """Final (or current) place of each entry; equal stages share a place."""
    stage = stages(nodes, resolve(nodes, entries, pairings, results), entries)
    ordered = sorted(stage.values(), reverse=True)
    first_index: dict[float, int] = {}
    for index, value in enumerate(ordered):
        first_index.setdefault(value, index)
    return {entry_id: first_index[value] + 1 for entry_id, value in stage.items()}


def knockout_format(key: str, label: str, build_nodes) -> tuple[Format, object]:
    """A knockout format from the function that builds its nodes (count, options), and its
    ``places(entries, pairings, results, options)``: the two knockouts differ only in nodes."""

    def next_round_of(entries: Sequence[Entry], pairings: Sequence[Pairing],
                      results: Iterable[Result], options: Options = Options()) -> tuple[Pairing, ...]:
        return next_round(build_nodes(len(entries), options), entries, pairings, results)

    def total_rounds(count: int, options: Options = Options()) -> int:
        """Rounds including a possible grand-final reset."""
        return max(schedule(build_nodes(count, options)).values(), default=0)

    def places_of(entries: Sequence[Entry], pairings: Sequence[Pairing], results: Iterable[Result],
                  options: Options = Options()) -> dict:
        return places(build_nodes(len(entries), options), entries, pairings, results)

    return Format(key, label, next_round_of, total_rounds, no_show=someone_goes_through), places_of
